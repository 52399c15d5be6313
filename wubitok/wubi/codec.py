"""The Wubi codec: text <-> a lossless sequence of Wubi and byte symbols.

Every Han character (Unicode Han script) that has a Wubi-86 code in the
dictionary is spelled with the keys of its code, a mark for where the
character ends and, when other characters share that code, an index that
says which of them it is (the ``shared-index`` and ``shared-bytes`` layouts
write it on the first one too; the older layouts leave it out).  Everything else - Han
characters the dictionary lacks, Latin, digits, whitespace, emoji, controls,
lone surrogates - is spelled as its UTF-8 bytes (``surrogatepass``), one
symbol per byte.  So any ``str`` has a spelling and decoding the spelling
gives the text back exactly.

Options (``CodecOptions``, stored in every saved model):

``code``
    ``"hybrid"`` (the default): each character, heaviest (most used, by the
    table's weights) first, takes the cheapest of the prefixes of its full
    code and its other codes (alternative and short), indexed among the
    characters that *took* that code before it (the shorter code on a tie):
    的 is ``r``, 你 ``w`` + 2, 励 ``dd`` + 5: indexes stay short. All from the
    table, so a model stores nothing but the option. ``"prefix"``: the same
    prefixes, but a character's index counts all heavier characters whose
    full code starts with the prefix - the list an input method shows while
    the code is being typed, completions included; each character takes the
    cheapest prefix (keys plus index symbols), the shorter on a tie: 励 is
    ``d`` + 158. Either way frequent characters share their first keys with
    many others, as the characters of one Unicode block share their UTF-8
    lead bytes, and BPE needs fewer merges to build them. ``"full"``: the
    full code (1-4 keys), indexed among the characters sharing it.
    ``"shortest"``: the cheapest code of the character among all its codes
    (full, alternative, and the short codes typists use, e.g. ``a`` for 工),
    indexed among the characters sharing that exact code in the dictionary's
    rank order: keys plus index symbols, fewest symbols first; ties go to
    the code without index, then to the full code, then to the
    alphabetically first.
``boundary``
    ``"separator"``: a boundary symbol ``▁`` after each character
    (``wqiy▁``).  ``"final-key"``: the last key of each character is a marked
    variant of that key (25 extra symbols, shown upper-case: ``wqiY``), which
    saves one symbol per character.
``index``
    ``"symbol"``: one symbol per index value 1-50 (①-㊿).  ``"digits"``: the
    index in decimal with ten digit symbols (₀-₉).  A character whose index
    cannot be written (more than 50 characters before it on its code) is
    spelled as bytes.
``layout``
    Where the index stands, and on which ids.  ``"shared-bytes"`` (the
    default since issue #38 item 1): the ``shared-index`` spelling on the 256
    byte ids alone, so that BPE has 100 more merges at every vocabulary size
    (docs/benchmarks.md, "The Wubi symbols on byte ids").  A key is a UTF-8
    continuation byte (a-y: 0x80-0x98), a final key another one (A-Y:
    0x99-0xB1; the separator: 0x99), the index the byte of its value (0x00-0x31),
    after the final key or separator.  UTF-8 never starts a character with a
    continuation byte, so read left to right the ids say what they are: at a
    character's start a byte below 0x80 is ASCII, a lead byte starts a
    character of UTF-8 with as many continuation bytes as it announces, and a
    continuation byte starts a Wubi spelling; an index byte comes only after
    the final key of a shared code (``wubi.byte_reading``).  A token alone does
    not say whether it begins inside a character: ``display`` and
    ``keys_display`` read it as from a character's start, and
    ``byte_reading`` reads a piece on from the pieces before it.
    ``"shared-index"`` (models made between #38 and its item 1): after the
    keys, one index symbol on *every* character of a code that several
    characters share, the first one included (的 ``R⓪``, 你 ``W②``),
    none on a code of one character; so a code holds at most as many
    characters as one symbol numbers (50 with ``symbol``, 10 with
    ``digits``; the rest take another of their codes, or bytes).  The code
    says whether an index follows, so no spelling is the start of another:
    self-delimiting, as UTF-8 is, and a decoder fed part of a text shows the
    unfinished character as U+FFFD.  The characters of a code share its keys
    as their first token, as in ``index-last``, which is what gives BPE its
    compression back (docs/benchmarks.md, "Where the index stands").
    ``"index-first"`` (models made between issues #32 and #38): before the
    keys, ``₁wqiY``, so that the final key (or ``▁``) ends every character;
    self-delimiting too, but the index digits follow the *previous*
    character's final key, where BPE learns pairs across characters.
    ``"index-last"`` (models saved before #32; their files have no
    ``layout``): after the keys, ``wqiY₁``, where the character without its
    index is another valid character (帝 read as 总 until its index arrives):
    ``decode`` of a cut-off prefix can show a wrong character, and
    ``DecodeStream`` holds such a character back (``last_char_open``).

For ``full`` and ``shortest`` the index of a character on a code is its
position among the Han characters of the codec's table on that code, in the
dictionary's rank order (the IME selector order); with ``code="full"`` that
is the dictionary's ``char_rank``.

The default is ``hybrid`` / ``final-key`` / ``symbol`` / ``shared-bytes``:
``final-key`` gives the most characters per token of the combinations of the
other codes (``bench/bench_wubi_bpe.py``), ``hybrid`` beats ``prefix`` on
every genre at 2,000, 8,000 and 32,000 tokens, and ``shared-index`` with one
``symbol`` (a code holds 50) beats it with one digit (a code holds 10) at
8,000 and 32,000, and ``shared-bytes`` beats ``shared-index`` at 2,000 and
is level with it at 8,000 and 32,000 (``bench/bench_quality.py``; the figures
are in docs/benchmarks.md, "Wubi-BPE spellings", "Compression by genre",
"Where the index stands" and "The Wubi symbols on byte ids").  Files keep their options, so models made with an
earlier default load and encode as they did.

Symbol ids are a fixed layout so that models are portable:

=========  ====================================================
0-3        reserved for the tokenizer's ``<pad> <unk> <s> </s>``
4-259      the bytes 0x00-0xFF
260-284    the keys a-y
285...     ``separator``: ``▁`` (1 id); ``final-key``: A-Y (25 ids)
then       ``symbol``: index 1-50 (50 ids; ``shared-index``: 0-49); ``digits``: 0-9 (10 ids)
=========  ====================================================

except in ``shared-bytes``, whose symbols are all among the bytes (4-259).

Each symbol has a one-character token form, all distinct: bytes use GPT-2's
byte-to-unicode map (``Ġ`` for a space), keys full-width letters (``ｗ``),
final keys full-width capitals, then ``▁``, ①-㊿ (``shared-index``: ⓪-㊾)
and ₀-₉ (``shared-bytes``: the bytes' forms alone).  ``display`` gives the token forms with keys in ASCII (``wqiy▁``,
``W②``); ``keys_display`` the form a learner reads (``w#2``: keys as typed,
the index as ``#`` and its number, ``·`` between characters).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache, partial
from typing import Any, Iterable, Sequence, cast

import regex

from ..errors import InputError
from ..text.segment import is_han
from ..text.utf8 import decode_utf8
from .byte_reading import (
    BOUNDARY_TOKEN,
    BYTE_TOKENS,
    ON_BYTES_FINAL,
    ON_BYTES_KEY,
    ByteReading,
    ByteState,
    ByteUnit,
    byte_keys_display,
    read_bytes,
)
from .dictionary import WUBI_KEYS, WubiDictionary, default_dictionary
from .table_cache import cached_table

CODE_CHOICES = ("prefix", "shortest", "full", "hybrid")
BOUNDARY_CHOICES = ("separator", "final-key")
INDEX_CHOICES = ("symbol", "digits")
LAYOUT_CHOICES = ("shared-index", "shared-bytes", "index-first", "index-last")

# ids 0-3: the tokenizer's default special tokens
RESERVED_TOKENS = ("<pad>", "<unk>", "<s>", "</s>")
BYTE_BASE = len(RESERVED_TOKENS)
KEY_BASE = BYTE_BASE + 256
MARK_BASE = KEY_BASE + len(WUBI_KEYS)
MAX_INDEX = 50
_CIRCLED = (
    [chr(0x2460 + i) for i in range(20)]  # ①-⑳
    + [chr(0x3251 + i) for i in range(15)]  # ㉑-㉟
    + [chr(0x32B1 + i) for i in range(15)]  # ㊱-㊿
)
_SUBSCRIPT_DIGITS = [chr(0x2080 + i) for i in range(10)]


@dataclass(frozen=True)
class CodecOptions:
    code: str = "hybrid"
    boundary: str = "final-key"
    index: str = "symbol"
    layout: str = "shared-bytes"

    def __post_init__(self) -> None:
        for name, value, choices in (
            ("code", self.code, CODE_CHOICES),
            ("boundary", self.boundary, BOUNDARY_CHOICES),
            ("index", self.index, INDEX_CHOICES),
            ("layout", self.layout, LAYOUT_CHOICES),
        ):
            if value not in choices:
                raise InputError(f"unknown codec {name} {value!r} (choose from {', '.join(choices)})")

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "CodecOptions":
        if not isinstance(data, dict) or set(data) - {"layout"} != {"code", "boundary", "index"}:
            raise InputError(f"codec options must be an object with code, boundary, index (and layout), not {data!r}")
        # a file without ``layout`` was saved before the index moved to the front
        return cls(**{"layout": "index-last", **data})


class WubiCodec:
    """Spell text as symbol ids and back; one instance per options + dictionary."""

    def __init__(self, options: CodecOptions | None = None, dictionary: WubiDictionary | None = None):
        self.options = options or CodecOptions()
        self.dictionary = dictionary or default_dictionary()
        o = self.options
        self.final_key = o.boundary == "final-key"
        n_marks = len(WUBI_KEYS) if self.final_key else 1
        self.index_base = MARK_BASE + n_marks
        n_index = MAX_INDEX if o.index == "symbol" else 10
        #: first id after the codec's symbols (the tokenizer continues from here)
        self.end_id = self.index_base + n_index
        self.boundary_id = None if self.final_key else MARK_BASE

        tokens = list(RESERVED_TOKENS) + BYTE_TOKENS
        tokens += [chr(0xFF41 + i) for i in range(len(WUBI_KEYS))]
        tokens += [chr(0xFF21 + i) for i in range(len(WUBI_KEYS))] if self.final_key else [BOUNDARY_TOKEN]
        self.on_bytes = o.layout == "shared-bytes"
        self.shared_index = o.layout == "shared-index" or self.on_bytes
        # shared-index writes index 0 too: its symbols stand for 0-49 (⓪-㊾)
        circled = [chr(0x24EA)] + _CIRCLED[:-1] if self.shared_index else _CIRCLED
        self._index_forms = circled if o.index == "symbol" else _SUBSCRIPT_DIGITS
        tokens += self._index_forms
        ascii_forms = list(RESERVED_TOKENS) + BYTE_TOKENS + list(WUBI_KEYS)
        ascii_forms += list(WUBI_KEYS.upper()) if self.final_key else [BOUNDARY_TOKEN]
        ascii_forms += self._index_forms
        if self.on_bytes:  # no symbol of its own: a byte's meaning depends on what came before it
            self.end_id = KEY_BASE
            del tokens[KEY_BASE:], ascii_forms[KEY_BASE:]
        #: token form of every id below ``end_id`` (0-3 are the default specials)
        self.tokens: list[str] = tokens
        self._ascii = ascii_forms

        self._table, self._spelling = _tables(self.dictionary, o)
        self._byte_cache: dict[str, tuple[int, ...]] = {}

    # -- symbols ------------------------------------------------------------
    @property
    def content_hash(self) -> str:
        return self.dictionary.content_hash

    def plain_bytes(self, symbols: Sequence[int]) -> bytes | None:
        """The bytes ``symbols`` stand for when they spell no Wubi character
        (text outside the dictionary), else None; always None in
        ``shared-bytes``, whose symbols alone do not say it."""
        if self.on_bytes or not symbols or not all(BYTE_BASE <= s < KEY_BASE for s in symbols):
            return None
        return bytes(s - BYTE_BASE for s in symbols)

    def char_edges(self) -> tuple[frozenset[int], frozenset[int]] | None:
        """(the symbols that start some character's spelling, those that end
        one), when that alone says where characters meet in a spelled text:
        two adjacent symbols are a character's end and the next one's start
        exactly when the first can end a character and the second can start
        one (bytes: a UTF-8 lead or ASCII byte starts, a continuation or
        ASCII byte ends).  ``None`` when some spelling breaks that rule."""
        return _char_edges(self.dictionary, self.options)

    def display(self, symbols: Sequence[int]) -> str:
        """The ASCII form of symbols: keys as typed, bytes in GPT-2 form."""
        if self.on_bytes:
            data, units = self._read_on_bytes(symbols)
            return "".join(unit.shown(data, self.final_key, self._index_forms) for unit in units)
        return "".join(self._ascii[s] for s in symbols)

    def keys_display(self, symbols: Sequence[int]) -> str:
        """Symbols as a learner reads them: each character's Wubi keys in lower
        case as typed, then its index as ``#`` and the number (whichever layout
        stores it first), ``·`` between characters (``wqiy·w#2``: a space would
        read as the text's own in a table that shows whitespace); a piece of
        a character shows the part it holds; bytes in GPT-2 form.  The token
        table's spelling column, explained by Tokenize's legend."""
        if self.on_bytes:
            return byte_keys_display(*self._read_on_bytes(symbols))
        groups: list[str] = []  # one per character (or piece, or run of bytes)
        keys: list[str] = []
        index: list[str] = []
        index_first = self.options.layout == "index-first"
        digits = self.options.index == "digits"
        closed = False  # index-last: the keys ended, only an index may still follow

        def flush() -> None:
            nonlocal closed
            if keys or index:
                groups.append("".join(keys) + ("#" + "".join(index) if index else ""))
                keys.clear()
                index.clear()
            closed = False

        for s in symbols:
            if BYTE_BASE <= s < KEY_BASE:
                if keys or index or not groups or not groups[-1].startswith("\0"):
                    flush()
                    groups.append("\0")  # a run of bytes: no space inside it
                groups[-1] += self._ascii[s]
            elif self.index_base <= s < self.end_id:
                if index_first and keys or not index_first and not (closed or keys) or index and not digits:
                    flush()
                index.append(str(s - self.index_base + (0 if digits or self.shared_index else 1)))
                if not index_first:
                    closed = True
            else:
                if closed or index and not index_first:
                    flush()
                if KEY_BASE <= s < MARK_BASE:
                    keys.append(WUBI_KEYS[s - KEY_BASE])
                elif self.final_key:
                    keys.append(WUBI_KEYS[s - MARK_BASE])
                if s >= MARK_BASE:  # a final key or the separator ends the keys
                    if index_first:
                        flush()
                    else:
                        closed = True
                        if not self.final_key:
                            flush()
        flush()
        return "·".join(g.lstrip("\0") for g in groups)

    def spelling(self, char: str) -> tuple[int, ...]:
        """The symbols of one character (a single code point)."""
        sp = self._spelling.get(char)
        if sp is not None:
            return sp
        sp = self._byte_cache.get(char)
        if sp is None:
            sp = tuple(BYTE_BASE + b for b in char.encode("utf-8", "surrogatepass"))
            if len(self._byte_cache) < 1 << 16:
                self._byte_cache[char] = sp
        return sp

    def spell_chars(self, text: str) -> list[tuple[int, ...]]:
        """The spelling of each character of ``text``, in order."""
        if text.isascii():
            return [(BYTE_BASE + b,) for b in text.encode("ascii")]
        get = self._spelling.get
        found = [get(ch) for ch in text]
        if None in found:
            return [sp if sp is not None else self.spelling(ch) for sp, ch in zip(found, text)]
        return cast("list[tuple[int, ...]]", found)  # no None in it

    def spells_in_wubi(self, char: str) -> bool:
        return char in self._spelling

    # -- encode / decode ------------------------------------------------------
    def encode(self, text: str) -> list[int]:
        """The symbol ids spelling ``text``."""
        return [s for sp in self.spell_chars(text) for s in sp]

    def decode(self, symbols: Sequence[int]) -> str:
        """Text from symbols.  Anything the encoder cannot have produced (keys
        without an end, an unknown code, a missing or stray index, invalid
        UTF-8) becomes U+FFFD; so does, in the ``shared-bytes``, ``shared-index`` and
        ``index-first`` layouts, a character cut off by the end of ``symbols``
        (a prefix of a longer text's spelling)."""
        if self.on_bytes:
            data, units = self._read_on_bytes(symbols)
            return "".join(map(partial(self._unit_text, data), units))
        if self.shared_index:
            return self._decode_shared_index(symbols)
        if self.options.layout == "index-first":
            return self._decode_index_first(symbols)
        return self._decode_index_last(symbols)

    def last_char_open(self, symbols: Sequence[int]) -> bool:
        """Whether symbols that more symbols may follow can still change the
        last character they decode to: in the ``index-last`` layout a final
        key or an index at the end may still take (more of) an index."""
        if self.options.layout != "index-last" or not symbols:
            return False
        last = symbols[-1]
        return self.index_base <= last < self.end_id or (self.final_key and MARK_BASE <= last < self.index_base)

    def _read_on_bytes(self, symbols: Sequence[int]) -> tuple[list[int], list[ByteUnit]]:
        """``shared-bytes`` symbols as byte values, read from a character's start (``read_bytes``)."""
        data = [s - BYTE_BASE for s in symbols]
        bad = next((s for s, b in zip(symbols, data) if not 0 <= b < 256), None)
        if bad is not None:
            raise InputError(f"symbol id {bad} is not a codec symbol (0-3 are special tokens)")
        return data, read_bytes(data, None, self.is_shared, self.final_key)[0]

    def _unit_text(self, data: Sequence[int], unit: ByteUnit) -> str:
        # what a unit read from a character's start spells: U+FFFD for what the encoder cannot have written
        if not unit.wubi:
            if unit.idx == -1:
                return decode_utf8(bytes(data[unit.start : unit.end]))
            return "\ufffd"
        chars = self._table.get(unit.keys, ())
        if unit.idx == -1 and len(chars) == 1:
            return chars[0]
        return chars[unit.idx] if 0 <= unit.idx < len(chars) else "\ufffd"

    def is_shared(self, code: str) -> bool:
        """Whether several characters share ``code`` (so an index follows it in ``shared-*`` layouts)."""
        return len(self._table.get(code, ())) > 1

    @cached_property
    def byte_reading(self) -> "ByteReading | None":
        """What reading ``shared-bytes`` tokens where they stand needs of this codec (None for
        another layout): the shared codes and how keys and indexes show."""
        if not self.on_bytes:
            return None
        shared = frozenset(code for code, chars in self._table.items() if len(chars) > 1)
        return ByteReading(shared, self.final_key, tuple(self._index_forms))

    def follow(self, symbols: Sequence[int], state: ByteState = None) -> tuple[ByteState, int]:
        """``shared-bytes``: where reading ``symbols`` from ``state`` (``read_bytes``;
        None: a character's start) leaves off, and how many characters start in them."""
        data = [s - BYTE_BASE for s in symbols]
        units, state_after = read_bytes(data, state, self.is_shared, self.final_key)
        # a run of ASCII is one unit of as many characters
        chars = sum(u.end - u.start if not u.wubi and u.end > u.start and data[u.start] < 0x80 else 1 for u in units)
        return state_after, chars - (state is not None and bool(units))

    def _decode_shared_index(self, symbols: Sequence[int]) -> str:
        # keys, then (final key or separator) the code; a shared code takes its one index symbol
        out: list[str] = []
        pending_bytes = bytearray()
        keys: list[str] = []
        index = -1  # separator layout: the index seen before the separator
        waiting: str | None = None  # final-key layout: a shared code whose index must come next
        final_key, index_base, end_id, table = self.final_key, self.index_base, self.end_id, self._table

        def broken() -> None:
            # keys, an index or a shared code that nothing completed: one U+FFFD for the character
            nonlocal index, waiting
            if keys or index >= 0 or waiting is not None:
                out.append("\ufffd")
                keys.clear()
                index, waiting = -1, None

        def close(code: str, at: int) -> None:
            # ``at`` -1: no index written, right only for a code of one character
            chars = table.get(code, ())
            if len(chars) > 1 and 0 <= at < len(chars):
                out.append(chars[at])
            elif len(chars) == 1 and at < 0:
                out.append(chars[0])
            else:
                out.append("\ufffd")

        for s in symbols:
            if BYTE_BASE <= s < KEY_BASE:
                broken()
                pending_bytes.append(s - BYTE_BASE)
                continue
            if pending_bytes:
                out.append(decode_utf8(pending_bytes))
                pending_bytes.clear()
            if index_base <= s < end_id:
                if final_key and waiting is not None:
                    close(waiting, s - index_base)
                    waiting = None
                elif not final_key and keys and index < 0:
                    index = s - index_base
                else:
                    broken()
                    out.append("\ufffd")
                continue
            if waiting is not None:
                broken()
            if KEY_BASE <= s < MARK_BASE:
                if index >= 0:  # separator layout: a key after the index
                    broken()
                keys.append(WUBI_KEYS[s - KEY_BASE])
            elif MARK_BASE <= s < index_base:
                if final_key:
                    keys.append(WUBI_KEYS[s - MARK_BASE])
                if not keys:  # a separator with no keys before it
                    broken()
                    out.append("\ufffd")
                    continue
                code = "".join(keys)
                keys.clear()
                if final_key and len(table.get(code, ())) > 1:
                    waiting = code
                else:
                    close(code, index)
                    index = -1
            else:
                raise InputError(f"symbol id {s} is not a codec symbol (0-3 are special tokens)")
        broken()
        if pending_bytes:
            out.append(decode_utf8(pending_bytes))
        return "".join(out)

    def _decode_index_first(self, symbols: Sequence[int]) -> str:
        out: list[str] = []
        pending_bytes = bytearray()
        keys: list[str] = []
        index, index_digits = 0, 0
        final_key, digits = self.final_key, self.options.index == "digits"
        index_base, end_id = self.index_base, self.end_id

        def drop_open() -> None:
            # an index or keys that no end followed: one U+FFFD for the broken character
            nonlocal index, index_digits
            if keys or index_digits:
                out.append("\ufffd")
                keys.clear()
                index, index_digits = 0, 0

        for s in symbols:
            if BYTE_BASE <= s < KEY_BASE:
                drop_open()
                pending_bytes.append(s - BYTE_BASE)
                continue
            if pending_bytes:
                out.append(decode_utf8(pending_bytes))
                pending_bytes.clear()
            if KEY_BASE <= s < MARK_BASE:
                keys.append(WUBI_KEYS[s - KEY_BASE])
            elif MARK_BASE <= s < index_base:
                if final_key:
                    keys.append(WUBI_KEYS[s - MARK_BASE])
                if keys:
                    out.append(self._lookup("".join(keys), index))
                    keys.clear()
                    index, index_digits = 0, 0
                else:  # a separator with no keys before it
                    drop_open()
                    out.append("\ufffd")
            elif index_base <= s < end_id:
                if keys:  # an index after keys: not a spelling
                    drop_open()
                value = s - index_base
                if digits:
                    index = index * 10 + value
                else:
                    index = value + 1 if index_digits == 0 else -1
                index_digits += 1
            else:
                raise InputError(f"symbol id {s} is not a codec symbol (0-3 are special tokens)")
        drop_open()
        if pending_bytes:
            out.append(decode_utf8(pending_bytes))
        return "".join(out)

    def _decode_index_last(self, symbols: Sequence[int]) -> str:
        out: list[str] = []
        pending_bytes = bytearray()
        keys: list[str] = []
        code_done = False  # final-key: keys complete, an index may follow
        index = 0
        index_digits = 0
        final_key = self.final_key
        digits = self.options.index == "digits"
        index_base = self.index_base

        def flush_char() -> None:
            nonlocal code_done, index, index_digits
            out.append(self._lookup("".join(keys), index))
            keys.clear()
            code_done, index, index_digits = False, 0, 0

        def flush_bytes() -> None:
            if pending_bytes:
                out.append(decode_utf8(pending_bytes))
                pending_bytes.clear()

        for s in symbols:
            is_index = index_base <= s < self.end_id
            if code_done and not (is_index and (digits or index_digits == 0)):
                flush_char()
            if BYTE_BASE <= s < KEY_BASE:
                if keys:  # keys that never ended
                    out.append("\ufffd")
                    keys.clear()
                    index, index_digits = 0, 0
                pending_bytes.append(s - BYTE_BASE)
                continue
            flush_bytes()
            if KEY_BASE <= s < MARK_BASE:
                if index_digits and not final_key:  # a key after the index
                    out.append("\ufffd")
                    keys.clear()
                    index, index_digits = 0, 0
                keys.append(WUBI_KEYS[s - KEY_BASE])
            elif MARK_BASE <= s < index_base:
                if final_key:
                    keys.append(WUBI_KEYS[s - MARK_BASE])
                    code_done = True
                elif keys:
                    flush_char()
                else:
                    out.append("\ufffd")
            elif is_index:
                if not (code_done if final_key else keys):
                    out.append("\ufffd")
                    continue
                value = s - index_base
                if digits:
                    index = index * 10 + value
                else:
                    index = value + 1 if index_digits == 0 else -1
                index_digits += 1
            else:
                raise InputError(f"symbol id {s} is not a codec symbol (0-3 are special tokens)")
        if code_done:
            flush_char()
        elif keys:
            out.append("\ufffd")
        flush_bytes()
        return "".join(out)

    def _lookup(self, code: str, index: int) -> str:
        chars = self._table.get(code)
        if chars is None or not 0 <= index < len(chars):
            return "\ufffd"
        return chars[index]


@lru_cache(maxsize=8)
def _tables(
    dictionary: WubiDictionary, options: CodecOptions
) -> tuple[dict[str, list[str]], dict[str, tuple[int, ...]]]:
    """(code -> characters in index order, character -> symbols): from the disk
    cache when this dictionary and these options were seen before."""
    o = options
    # regex's version: is_han asks its Unicode tables, which sys.version does not cover.
    key = (dictionary.content_hash, o.to_dict(), WUBI_KEYS, KEY_BASE, MARK_BASE, MAX_INDEX, regex.__version__)
    d = type(dictionary)
    return cached_table(f"codec-{o.code}-{o.boundary}-{o.index}-{o.layout}", key,
                        lambda: _build_tables(dictionary, options), _build_tables, _index_cost, is_han,
                        d.iter_char_codes, d.iter_full_code_weights, d.iter_full_codes)


@lru_cache(maxsize=8)
def _char_edges(dictionary: WubiDictionary, options: CodecOptions) -> tuple[frozenset[int], frozenset[int]] | None:
    spellings = _tables(dictionary, options)[1].values()
    lead, cont = range(BYTE_BASE + 0xC0, BYTE_BASE + 0x100), range(BYTE_BASE + 0x80, BYTE_BASE + 0xC0)
    starts = {sp[0] for sp in spellings} | set(range(BYTE_BASE, BYTE_BASE + 0x80)) | set(lead)
    ends = {sp[-1] for sp in spellings} | set(range(BYTE_BASE, BYTE_BASE + 0xC0))
    inner = {pair for sp in spellings for pair in zip(sp, sp[1:])}
    inner.update((a, b) for a in lead for b in cont)  # within a character's UTF-8 bytes
    inner.update((a, b) for a in cont for b in cont)
    if any(a in ends and b in starts for a, b in inner):
        return None
    return frozenset(starts), frozenset(ends)


def _build_tables(
    dictionary: WubiDictionary, options: CodecOptions
) -> tuple[dict[str, list[str]], dict[str, tuple[int, ...]]]:
    table: dict[str, list[str]] = {}
    best: dict[str, tuple] = {}
    shared = options.layout in ("shared-index", "shared-bytes")
    if options.code == "hybrid":
        # Heaviest first, each character takes its cheapest code among the
        # prefixes of its full code and its other codes (alternative, short),
        # indexed among the characters that took that code before it - not
        # among all that could have: so indexes stay short and most
        # characters need none.  Tie: the shorter code, then the first.
        codes: dict[str, set[str]] = {}
        for ch, code, _, _ in dictionary.iter_char_codes():
            codes.setdefault(ch, set()).add(code)
        for ch, full, _ in dictionary.iter_full_code_weights():
            if len(ch) != 1 or not is_han(ch):
                continue
            candidates = codes.get(ch, set()) | {full[:n] for n in range(1, len(full) + 1)}
            choice = None
            for code in sorted(candidates, key=lambda c: (len(c), c)):
                index = len(table.get(code, ()))
                cost = _index_cost(index, options.index, shared)
                if cost is not None and (choice is None or len(code) + cost < choice[0]):
                    choice = (len(code) + cost, code, index)
            if choice is not None:
                table.setdefault(choice[1], []).append(ch)
                best[ch] = choice
    elif options.code == "prefix":
        # Every prefix of a full code lists the characters whose full code
        # starts with it, heaviest first; the cheapest (prefix, index) wins,
        # the shorter prefix on a tie.  No kind order: all are full codes.
        for ch, full, _ in dictionary.iter_full_code_weights():
            if len(ch) != 1 or not is_han(ch):
                continue
            choice = None
            for n in range(1, len(full) + 1):
                code = full[:n]
                chars = table.get(code)
                if chars is None:
                    chars = table[code] = []
                index = len(chars)
                chars.append(ch)
                cost = _index_cost(index, options.index, shared)
                if cost is not None and (choice is None or n + cost < choice[0]):
                    choice = (n + cost, code, index)
            if choice is not None:
                best[ch] = choice
    else:
        rows: Iterable[tuple[str, str, str, int]]
        if options.code == "full":
            rows = ((ch, code, "full", rank) for ch, code, rank in dictionary.iter_full_codes())
        else:
            rows = dictionary.iter_char_codes()
        by_code: dict[str, list[tuple[int, int, str, str]]] = {}
        for ch, code, kind, rank in rows:
            if len(ch) == 1 and is_han(ch):
                by_code.setdefault(code, []).append((rank, ord(ch), ch, kind))
        # Pick each character's cheapest (code, index): fewest symbols, then
        # no index, then the full code, then the alphabetically first code.
        kind_order = {"full": 0, "alt": 1, "short3": 2, "short2": 3, "short1": 4}
        for code in sorted(by_code):
            ranked = sorted(by_code[code])
            table[code] = [c for _, _, c, _ in ranked]
            for index, (_, _, ch, kind) in enumerate(ranked):
                cost = _index_cost(index, options.index, shared)
                if cost is None:
                    continue
                candidate = (len(code) + cost, index > 0, kind_order[kind], code, index)
                old = best.get(ch)
                if old is None or candidate < old:
                    best[ch] = candidate

    final_key = options.boundary == "final-key"
    index_base = MARK_BASE + (len(WUBI_KEYS) if final_key else 1)
    key_ids = {k: KEY_BASE + i for i, k in enumerate(WUBI_KEYS)}
    spelling: dict[str, tuple[int, ...]] = {}
    on_bytes = options.layout == "shared-bytes"
    if on_bytes:  # the same spelling, its symbols on byte values (module doc)
        key_ids = {k: BYTE_BASE + ON_BYTES_KEY + i for i, k in enumerate(WUBI_KEYS)}
        index_base = BYTE_BASE
    for ch, (*_, code, index) in best.items():
        keys = [key_ids[k] for k in code]
        if final_key:
            keys[-1] += len(WUBI_KEYS)
        written: list[int] = []
        if shared:
            written = [index_base + index] if len(table[code]) > 1 else []
        elif index:
            if options.index == "symbol":
                written = [index_base + index - 1]
            else:
                written = [index_base + int(d) for d in str(index)]
        end = [] if final_key else [BYTE_BASE + ON_BYTES_FINAL if on_bytes else MARK_BASE]
        if options.layout == "index-first":
            spelling[ch] = tuple(written + keys + end)
        else:  # shared-bytes: the separator too before the index, which may be any byte
            spelling[ch] = tuple(keys + end + written if on_bytes else keys + written + end)
    return table, spelling


def _index_cost(index: int, representation: str, shared: bool = False) -> int | None:
    """Symbols the index takes (None: it cannot be written).  ``shared``: the
    ``shared-index`` layout's one symbol, 0 included, so a code holds at most
    50 (``symbol``) or 10 (``digits``) characters; the first is counted free,
    as most codes it starts stay its own."""
    if shared:
        return None if index >= (MAX_INDEX if representation == "symbol" else 10) else min(index, 1)
    if index == 0:
        return 0
    if representation == "symbol":
        return 1 if index <= MAX_INDEX else None
    return len(str(index))
