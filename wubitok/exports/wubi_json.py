"""Wubi-BPE as a Hugging Face ``tokenizer.json``: our ids from raw text in the Rust core.

HF runs normalizer -> pre-tokenizer -> model, so the Wubi spelling must be
done by the normalizer, and the pre-tokenizer must cut the spelled text
where ours cuts the raw text.  The file holds:

normalizer
    ``Precompiled`` (``charsmap``), one pass over the text: each character
    the codec spells in Wubi becomes one stand-in character per symbol.  The
    stand-ins are characters of the regex class of the character they spell
    (a letter's symbols are Egyptian hieroglyphs, a number's - only 〇 in
    the default dictionary - Cuneiform numbers), so ``\\p{L}+`` and ``\\p{N}``
    see what they saw in the raw text.  A stand-in written in the raw text
    is itself spelled as its UTF-8 bytes in stand-ins of its class, so no
    text is mistaken for a symbol.  All else is left alone.  A
    ``shared-bytes`` codec's symbols are byte ids, so its spellings are
    written in the stand-ins of those bytes (the number alphabet has one for
    every byte a number's spelling holds); the stand-ins of symbols with ids
    of their own go unused.
pre-tokenizer
    ``Split`` with our pattern (``JOINED_PATTERN``), except that ``\\p{N}{1,3}``
    counts a spelled number (several stand-ins) as one character.
model
    ``BPE`` over our ids with ``byte_fallback``: a character left alone is
    not in the vocabulary, so it becomes its UTF-8 bytes, ``<0xE2>`` ..., with
    our byte ids (the vocabulary lists them as second names of those ids);
    then our merges, by rank.  A merge is kept by HF as a pair of ids, so
    with ``shared-bytes`` one written in the stand-ins of a spelling also
    joins the same bytes of a character left alone (``<0x80>`` ...), as ours.
decoder
    Needs the spelling table, and HF decoders have none: only steps such as
    ``Replace`` (a regex to one literal text), ``Fuse`` and ``ByteLevel``.
    So each character's UTF-8 bytes are written as marks in front of its
    spelling, one ``Replace`` per mark over a trie of the spellings that
    get it (``_decoder``: about 30 such steps, not one per character), then
    the spellings go and the marks become bytes.  Exact for any ids our
    encoder gives and any prefix of them (an unfinished character ends in
    U+FFFD, so HF's ``DecodeStream`` holds it back); about 160 times slower
    than ours (docs/training-stacks.md).  Written only for a codec whose
    spellings can be told apart where they meet (``_boundaries``: every
    layout it has); otherwise the file has no decoder.

    ``shared-bytes``: a byte's meaning depends on what comes before it, so
    first, once every byte id has one name, ``_unshare`` reads the Wubi
    symbols out of the bytes and writes each as the stand-in of the id it
    has in the layouts that give symbols ids of their own (``_on_own_ids``:
    key k ``KEY_BASE`` + k, final keys or the separator after the keys,
    index i ``index_base`` + i; the order of the spelling stays).  A byte
    0x80-0xB1 is a key or a final key (or the separator) unless a lookbehind
    of at most 3 bytes puts it inside a UTF-8 character (a lead byte is never
    inside a spelling); then a mark goes in front of each shared code's
    spelling (where no key precedes it), and the byte right after the mark
    and that spelling is its index.  From there the stream is one of own
    ids and decodes as above (``_boundaries`` on the table of own ids).
    About 100 more ``Replace`` steps (and no renaming of number stand-ins):
    on 3,000 sample lines HF decodes a ``shared-bytes`` model 4-8% slower
    than a ``shared-index`` one trained alike.

Offsets are HF's own through the normalizer: every stand-in is aligned with
the character it spells, so a token's offsets are the characters of the raw
text it spells part of, as ours.

Differs from ours on a character of the BMP that the codec spells (3 UTF-8
bytes) followed by a combining mark from U+0300..U+07FF: HF's Precompiled replaces
such a grapheme cluster (5 bytes) as a whole by the character's spelling and
the mark is lost.  And on lone surrogates, which a Rust string cannot hold.
And on a code point that our regex module's newer Unicode tables class as a
letter or number and HF's regex engine does not (U+3FA19, unassigned to the
latter): the two cut pre-tokens differently around it, which changes ids
where a merge spans the cut (in ``shared-bytes``, a final key and a newline).
In decoding only: a special token whose text holds a byte's name (``<0x41>``).
``exact_problem`` names what keeps a model from this export.
"""
from __future__ import annotations

import base64
import re
import unicodedata
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from ..engines.bpe.wubi import WubiBPE
from ..engines.pre_tokenizers.wubi import JOINED_PATTERN
from ..errors import ModelError
from ..wubi.byte_reading import ON_BYTES_END, ON_BYTES_FINAL, ON_BYTES_KEY
from ..wubi.codec import BYTE_BASE, BYTE_TOKENS, KEY_BASE, MARK_BASE, WubiCodec
from .charsmap import precompiled_charsmap
from .hf_json import _added_tokens, _document, _padding, post_processor

# Stand-ins: 4-byte characters (a grapheme of one with a 2-byte mark is 6
# bytes, which Precompiled takes character by character), caseless, not Han.
_LETTERS = [chr(c) for c in range(0x13000, 0x1342F)]  # Egyptian hieroglyphs, Lo
# Cuneiform numbers (Nl), mathematical digits (Nd), counting rods and Aegean numbers (No):
# room for 159 codec symbols besides the 65 bytes these are written in
_NUMBERS = [chr(c) for c in (*range(0x12400, 0x1246F), *range(0x1D7CE, 0x1D800), *range(0x1D360, 0x1D372),
                             *range(0x10107, 0x10134))]
# The decoder's marks (see ``_decoder``): more hieroglyphs, after the letters' stand-ins.
_MARKS = _LETTERS[512:]
# ``shared-bytes`` decoder: the mark put before a shared code's spelling, so that the byte after it is its index
_SHARED = _LETTERS[511]
_NUMBER_RUN = r"\p{N}{1,3}"
_REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class _Alphabet:
    """The stand-ins of one regex class: for bytes and for Wubi symbols."""

    cls: str  # "L" or "N"
    byte_chars: dict[int, str]
    symbol_chars: list[str]  # Wubi symbol id - KEY_BASE -> stand-in
    pool: list[str]  # every stand-in of the class a raw text may hold

    def spell(self, symbols: tuple[int, ...]) -> str:
        try:
            return "".join(self.byte_chars[s - BYTE_BASE] if s < KEY_BASE else self.symbol_chars[s - KEY_BASE]
                           for s in symbols)
        except (KeyError, IndexError):
            raise ModelError(f"no {self.cls} stand-in for symbols {symbols}") from None


def _alphabets(codec: WubiCodec, table: dict[str, tuple[int, ...]]) -> tuple[_Alphabet, _Alphabet]:
    n = codec.end_id - KEY_BASE
    letters = _Alphabet("L", dict(enumerate(_LETTERS[:256])), _LETTERS[256 : 256 + n], _LETTERS[: 256 + n])
    # Numbers: the stand-ins of the symbols first, then one per byte the
    # number stand-ins are written in (a number in the raw text is spelled in
    # those) or a number's spelling holds (``shared-bytes``: all its symbols).
    symbols = _NUMBERS[:n]
    spelled = {s - BYTE_BASE for ch, sp in table.items() if _regex_class(ch) == "N" for s in sp if s < KEY_BASE}
    needed = sorted({b for c in _NUMBERS for b in c.encode("utf-8")} | spelled)
    rest = _NUMBERS[n:]
    if len(rest) < len(needed) or len(letters.symbol_chars) < n:
        raise ModelError(f"{n} codec symbols are more than the stand-ins this export has")
    numbers = _Alphabet("N", dict(zip(needed, rest)), symbols, symbols + rest[: len(needed)])
    return letters, numbers


def spelled_characters(codec: WubiCodec) -> dict[str, tuple[int, ...]]:
    """Every character the codec spells in Wubi, with its symbols (from the codec's own API)."""
    out = {}
    for code in range(0x110000):
        if 0xD800 <= code < 0xE000:
            continue
        ch = chr(code)
        if codec.spells_in_wubi(ch):
            out[ch] = codec.spelling(ch)
    return out


def _regex_class(ch: str) -> str:
    return unicodedata.category(ch)[0]


def exact_problem(model: WubiBPE) -> str | None:
    """Why ``model`` cannot be written as a ``tokenizer.json`` with our ids, or None."""
    if model.pre_tokens != "joined":
        return f"its pre-tokens are {model.pre_tokens!r}, which no HF pre-tokenizer cuts as we do (only 'joined')"
    if JOINED_PATTERN.count(_NUMBER_RUN) != 1:
        return "the pre-token pattern changed: this export does not know where its numbers are"
    seen: set[tuple[int, ...]] = set()
    for i in range(BYTE_BASE, model.vocab_size):
        symbols = model.symbols(i)
        if symbols and symbols in seen:
            return f"merge making token {i} re-creates an earlier token (HF keeps one id per string)"
        seen.add(symbols)
    return None


def _boundaries(table: dict[str, tuple[int, ...]]) -> dict[int, set[int]] | None:
    """For each symbol, the symbols that come before it inside a spelling; or
    None when that does not tell where spellings start.  In any stream a
    spelling starts at a symbol that none of those precede, when no symbol
    that ends a spelling ever precedes one that starts a spelling inside a
    spelling: true of every layout the codec has (index-first, index-last,
    a shared index), none of which puts a byte in a spelling."""
    inside: dict[int, set[int]] = {}
    starts, ends = set(), set()
    for sp in table.values():
        if min(sp) < KEY_BASE:
            return None
        starts.add(sp[0])
        ends.add(sp[-1])
        for a, b in zip(sp, sp[1:]):
            inside.setdefault(b, set()).add(a)
    if any(a in ends for b in starts for a in inside.get(b, ())):
        return None
    return inside


def _replace(old: str, new: str) -> dict[str, Any]:
    return {"type": "Replace", "pattern": {"String": old}, "content": new}


def _replace_regex(pattern: str, new: str) -> dict[str, Any]:
    return {"type": "Replace", "pattern": {"Regex": pattern}, "content": new}


def _on_own_ids(codec: WubiCodec, table: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]] | None:
    """``shared-bytes``: each spelling with its symbols on the ids they have in
    the layouts that give them ids of their own (byte 0x80 + k: ``KEY_BASE`` + k,
    keys then final keys or the separator; index byte i: ``index_base`` + i),
    or None unless every spelling is keys, an end and - exactly when other
    characters share its code - one index byte below 0x80."""
    own: dict[str, tuple[int, ...]] = {}
    codes: dict[tuple[int, ...], list[int]] = {}  # code (keys and end) -> whether each of its characters has an index
    ends = range(ON_BYTES_FINAL, ON_BYTES_END if codec.final_key else ON_BYTES_FINAL + 1)
    for ch, sp in table.items():
        values = [s - BYTE_BASE for s in sp]
        k = 0
        while k < len(values) and ON_BYTES_KEY <= values[k] < ON_BYTES_FINAL:
            k += 1
        if k >= len(values) or values[k] not in ends or len(values) > k + 2 or any(v >= 0x80 for v in values[k + 1 :]):
            return None
        code = tuple(KEY_BASE + v - ON_BYTES_KEY for v in values[: k + 1])
        own[ch] = code + tuple(codec.index_base + v for v in values[k + 1 :])
        codes.setdefault(code, []).append(len(values) - k - 1)
    if any(len(set(indexed)) > 1 or indexed[0] == 0 and len(indexed) > 1 for indexed in codes.values()):
        return None
    return own


def _unshare(own: dict[str, tuple[int, ...]], index_base: int, letters: _Alphabet) -> list[dict[str, Any]]:
    """``shared-bytes``: decoder steps turning the byte names of Wubi symbols
    into the stand-ins of their own ids (``_on_own_ids``; ``letters`` has
    them), so that the rest of the decoder reads the stream as that of the
    layout with own ids.  What is left of the bytes stands for itself.

    A byte 0x80-0xB1 is a key or an end unless it is inside a UTF-8
    character: right after a lead byte, after a 3- or 4-byte lead and one
    continuation byte, or after a 4-byte lead and two (a lead byte is never
    inside a spelling, so it always starts a character).  An index byte
    follows a shared code's spelling, which starts where no key precedes it:
    a mark goes before each such spelling, so that the byte after the mark
    and 1-5 symbols is an index; then the marks go."""
    byte = letters.byte_chars

    def span(lo: int, hi: int) -> str:  # the names of bytes lo..hi-1 (consecutive characters)
        return f"[{byte[lo]}-{byte[hi - 1]}]"

    def own_char(s: int) -> str:
        return letters.symbol_chars[s - KEY_BASE]

    cont = span(0x80, 0xC0)
    in_utf8 = f"(?<!{span(0xC0, 0xF8)}|{span(0xE0, 0xF8)}{cont}|{span(0xF0, 0xF8)}{cont}{cont})"
    code_ids = sorted({s for sp in own.values() for s in sp if s < index_base})
    steps = [_replace_regex(in_utf8 + byte[s - KEY_BASE + ON_BYTES_KEY], own_char(s)) for s in code_ids]
    shared = {sp[:-1] for sp in own.values() if sp[-1] >= index_base}
    if not shared:
        return steps
    keys = "".join(own_char(s) for s in code_ids if s < MARK_BASE)
    spellings = ["".join(map(own_char, code)) for code in shared]
    steps.append(_replace_regex(f"(?<![{keys}])(?={_alternatives(spellings, {}, {})})", _SHARED))
    symbol = f"[{''.join(map(own_char, code_ids))}]"
    after_code = "|".join(_SHARED + symbol * n for n in sorted({len(code) for code in shared}))
    for i in sorted({sp[-1] - index_base for sp in own.values() if sp[-1] >= index_base}):
        steps.append(_replace_regex(f"(?<={after_code}){byte[i]}", own_char(index_base + i)))
    steps.append(_replace(_SHARED, ""))
    return steps


def _alternatives(strings: list[str], before: dict[str, str], after: dict[str, str]) -> str:
    """A regex matching exactly ``strings`` where they stand as whole
    spellings, written as their trie (a few branches per character, where a
    flat alternation would try them all): ``before[c]`` is a lookbehind that
    a string starting with ``c`` needs right after its ``c``, ``after[c]`` a
    lookahead that one ending in ``c`` needs (longer strings are tried first).  The strings are
    stand-ins, never regex syntax."""

    def render(items: list[str], depth: int) -> str:
        ends, alts = False, []
        leaves: dict[str, list[str]] = {}  # by the lookahead they end with
        for ch, grouped in groupby(items, key=lambda s: s[depth : depth + 1]):
            group = list(grouped)
            # the first character's condition after it: most branches fail on the character
            head = before.get(ch, "") if depth == 0 else ""
            if not ch:
                ends = True
            elif len(group) == 1 and len(group[0]) == depth + 1 and not head:
                leaves.setdefault(after.get(ch, ""), []).append(ch)
            elif len(group) == 1 and len(group[0]) == depth + 1:
                alts.append(ch + head + after.get(ch, ""))
            else:
                alts.append(ch + head + render(group, depth + 1))
        for tail, chars in leaves.items():
            alts.append((chars[0] if len(chars) == 1 else f"[{''.join(chars)}]") + tail)
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if ends:  # the first item ends here: stop, or go on to a longer one
            return f"(?:{body}|{after.get(items[0][depth - 1], '')})"
        return body

    return render(sorted(set(strings)), 0)


def _decoder(table: dict[str, tuple[int, ...]], inside: dict[int, set[int]], letters: _Alphabet,
             numbers: _Alphabet, unshare: list[dict[str, Any]]) -> dict[str, Any]:
    # 1. all tokens as one string, so spellings cut between tokens join
    steps: list[dict[str, Any]] = [{"type": "Fuse"}]
    # 2. one name per id: a base id's string is any of its names (HF keeps one at random)
    steps += [_replace(f"<0x{b:02X}>", letters.byte_chars[b]) for b in range(256)]
    steps += [_replace(c, letters.byte_chars[b]) for b, c in numbers.byte_chars.items()]
    steps += [_replace(c, letters.symbol_chars[i]) for i, c in enumerate(numbers.symbol_chars)]
    steps += unshare  # shared-bytes: Wubi symbols from byte names to those of their own ids
    # 3. before each spelling, its character's UTF-8 bytes, written in marks:
    # per byte position a start mark, then one mark per bit that is set
    # (only the bits that differ between characters).  A Replace inserts one
    # literal where a regex matches, so each mark is one step over a trie of
    # the spellings that get it - about 30 steps, where one step per
    # character would be 70,000.  A spelling starts at a symbol that no symbol
    # which precedes it inside a spelling precedes (``_boundaries``), and ends
    # where no symbol that follows its last inside a spelling follows; each
    # step inserts its mark there, after the earlier ones.
    spelled = {ch: letters.spell(sp) for ch, sp in table.items()}
    follows: dict[int, set[int]] = {}
    for b, preceding in inside.items():
        for a in preceding:
            follows.setdefault(a, set()).add(b)

    def chars(symbols: set[int]) -> str:
        return "".join(sorted(letters.symbol_chars[s - KEY_BASE] for s in symbols))

    before = {}
    for b, preceding in inside.items():
        c = letters.symbol_chars[b - KEY_BASE]
        before[c] = f"(?<![{chars(preceding)}]{c})"
    after = {letters.symbol_chars[a - KEY_BASE]: f"(?![{chars(b)}])" for a, b in follows.items()}
    utf8 = {ch: ch.encode("utf-8") for ch in spelled}
    marks = iter(_MARKS)
    reads: dict[str, int] = {}  # the marks of one byte -> that byte
    for position in range(max(map(len, utf8.values()))):
        values = {ch: u[position] for ch, u in utf8.items() if len(u) > position}
        start = next(marks)
        written = {ch: start for ch in values}
        steps.append(_insert([spelled[ch] for ch in values], start, before, after))
        for bit in range(8):
            having = [ch for ch, v in values.items() if v >> bit & 1]
            if 0 < len(having) < len(values):
                mark = next(marks)
                steps.append(_insert([spelled[ch] for ch in having], mark, before, after))
                for ch in having:
                    written[ch] += mark
        reads.update({written[ch]: v for ch, v in values.items()})
    # 4. the spellings go; what is left of Wubi symbols is a cut or unknown character: U+FFFD, as ours
    steps.append({"type": "Replace", "pattern": {"Regex": _alternatives(list(spelled.values()), before, after)},
                  "content": ""})
    symbol_class = "".join(re.escape(c) for c in letters.symbol_chars)
    steps.append({"type": "Replace", "pattern": {"Regex": f"[{symbol_class}]+"},
                  "content": letters.spell(tuple(BYTE_BASE + b for b in _REPLACEMENT.encode("utf-8")))})
    # 5. marks to bytes (longest first: a byte's marks may start another's), bytes to text
    steps += [_replace(m, BYTE_TOKENS[v]) for m, v in sorted(reads.items(), key=lambda kv: (-len(kv[0]), kv[0]))]
    steps += [_replace(letters.byte_chars[b], BYTE_TOKENS[b]) for b in range(256)]
    steps.append({"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False})
    return {"type": "Sequence", "decoders": steps}


def _insert(spellings: list[str], mark: str, before: dict[str, str], after: dict[str, str]) -> dict[str, Any]:
    """A step writing ``mark`` before each of ``spellings`` (where it stands as a spelling)."""
    return {"type": "Replace", "pattern": {"Regex": f"(?={_alternatives(spellings, before, after)})"},
            "content": mark}


def wubi_bpe_tokenizer_json(model: WubiBPE) -> str:
    """The ``tokenizer.json`` (see the module doc); ``ModelError`` if ``exact_problem``."""
    problem = exact_problem(model)
    if problem is not None:
        raise ModelError(f"this model cannot be a tokenizer.json with its ids: {problem}")
    codec = model.codec
    table = spelled_characters(codec)
    letters, numbers = _alphabets(codec, table)
    rules: dict[str, str] = {}
    number_units: list[str] = []  # what one number of the raw text is, spelled
    for ch, symbols in table.items():
        alphabet = {"L": letters, "N": numbers}.get(_regex_class(ch))
        if alphabet is None:
            raise ModelError(f"{ch!r} is spelled in Wubi but is neither a letter nor a number")
        rules[ch] = alphabet.spell(symbols)
        if alphabet is numbers:
            number_units.append(rules[ch])
    for alphabet in (letters, numbers):
        for ch in alphabet.pool:
            rules[ch] = "".join(alphabet.byte_chars[b] for b in ch.encode("utf-8"))
            if alphabet is numbers:
                number_units.append(rules[ch])
    units = sorted(number_units, key=lambda u: (-len(u), u))
    number = "(?:" + "|".join([*map(re.escape, units), r"\p{N}"]) + "){1,3}"
    pattern = JOINED_PATTERN.replace(_NUMBER_RUN, number)

    vocab: dict[str, int] = {}
    strings: list[str] = []
    for i in range(model.vocab_size):
        symbols = model.symbols(i)
        text = letters.spell(symbols) if symbols else (model.id_to_token(i) or "")
        strings.append(text)
        vocab.setdefault(text, i)
    for b in range(256):  # second names of the byte ids: byte fallback's, and the number stand-ins'
        vocab[f"<0x{b:02X}>"] = BYTE_BASE + b
    for b, c in numbers.byte_chars.items():
        vocab[c] = BYTE_BASE + b
    for i, c in enumerate(numbers.symbol_chars):
        vocab[c] = KEY_BASE + i
    merges = [f"{strings[a]} {strings[b]}" for a, b in model.merges]
    specials = [(model.token_to_id(t), t) for t in model.special_tokens]
    bpe = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
           "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": True, "ignore_merges": False,
           "vocab": vocab, "merges": merges}
    normalizer = {"type": "Precompiled",
                  "precompiled_charsmap": base64.b64encode(precompiled_charsmap(rules)).decode("ascii")}
    pre = {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    decoder = None
    if codec.on_bytes:  # decoded as the layout with own ids, once the bytes are read (``_unshare``)
        own = _on_own_ids(codec, table)
        inside = None if own is None else _boundaries(own)
        if own is not None and inside is not None:
            n = max(s for sp in own.values() for s in sp) + 1 - KEY_BASE
            own_letters = replace(letters, symbol_chars=_LETTERS[256 : 256 + n])
            decoder = _decoder(own, inside, own_letters, numbers, _unshare(own, codec.index_base, own_letters))
    else:
        inside = _boundaries(table)
        decoder = None if inside is None else _decoder(table, inside, letters, numbers, [])
    # The frame encode(add_special_tokens=True) puts around a text, so transformers' default gives our ids.
    return _document(_added_tokens([(i, t) for i, t in specials if i is not None]), normalizer, pre, decoder, bpe,
                     _padding(model), post_processor(model))
