"""Compression quality by genre: Wubi-BPE against byte-level BPE and Unigram.

    python bench/bench_quality.py [--vocab 2000 8000 32000] [--split test|dev] [--json OUT]
                                  [--tokenizers NAME ...] [--boot 1000]

One training text for every tokenizer: the train splits of all genres of
``genres.py`` (man pages zh_CN and zh_TW, Tang/Song poems, modern fortunes;
5.4 MB).  Evaluated on each genre's held-out documents (``--split test``;
``dev`` is the split variants are chosen on).  Tokenizers, each at every
vocab size (all counts include 4 special tokens):

``wubi``            Wubi-BPE with the ``clause`` pre-tokens (the default
                    before ``joined``; ``wubi@joined`` is Wubi-BPE as shipped),
                    codec defaults, merges learned by HF ``BpeTrainer`` on the
                    spelled pre-tokens (= the engine's ``backend="fast"``,
                    checked once per run against the engine);
``wubi-prefix``     the ``prefix`` codec spelling (the default before ``hybrid``);
``wubi-corpus``     the prefix spelling with each prefix's characters ordered
                    by their count in the training text (then by the table's
                    weight): frequent characters of *this* text get short indexes;
``wubi-optimal``    ``wubi``'s vocabulary, each pre-token encoded with the
                    fewest tokens (dynamic programming) instead of merge order;
``wubi-unigram``    sentencepiece Unigram over the same Wubi spellings;
``bytes``           byte-level BPE on the same pre-tokens (HF ``BpeTrainer``,
                    GPT-2 byte alphabet): the issue's main baseline;
``bytes-optimal``   ``bytes`` with the fewest-tokens encoding (so the
                    optimal-encoding gain of Wubi is not credited to Wubi alone);
``gpt4``            byte-level BPE with the GPT-4 (cl100k) split regex, HF;
``spm``             sentencepiece Unigram with byte fallback on the raw text
                    (identity normalisation, whitespace kept).

On request (``--tokenizers``), spelling variants: ``wubi-w2``, ``wubi-w1.5``,
``wubi-corpus-w2`` (prefix spellings with index digits weighted 2 or 1.5 when
choosing the prefix), ``wubi-hybrid-corpus`` (hybrid with the characters
taken in training-text order), ``wubi-hybrid-keys`` (hybrid, the longer code
on a tie), ``wubi-hybrid-w2`` (hybrid, index digits weighted 2),
``wubi-b16`` / ``wubi-b32`` / ``wubi-b64`` (hybrid with the index written in
base 16, 32 or 64: an unseen rare character under a one-key code takes two
index symbols instead of three digits).

Where the index stands (issue #38; each on request, as ``NAME@joined``):
``wubi-first`` / ``wubi-last`` (the codec's ``index-first`` / ``index-last``
layouts, index digits), ``wubi-digits`` (``shared-index`` with one digit: a
code holds 10), ``wubi-marked`` (index-last, the last index digit marked),
``wubi-sep`` (index-last, a separator after each character),
``wubi-shared-end`` (index-last, a separator only on shared codes),
``wubi-fixed`` (index-last, as many digits as the code needs, zeros kept),
``wubi-shared-longer`` / ``wubi-shared-first-costs`` (``shared-index``, the
longer code on a tie / the first character of a code counted as paying an
index), ``wubi-shared-bytes`` (the codec's ``shared-bytes``: ``shared-index``
on the byte alphabet alone, keys and final keys on UTF-8 continuation bytes,
the index on the bytes from 0x00; 100 more merges at every size) and
``wubi-bytes`` (the same with the index on the bytes from 0x80, sharing them
with the keys), ``wubi-shared-index`` (the default of 4-6 December 2026).
``wubi`` itself is the shipped default (``shared-bytes`` since 6 December 2026).

Pre-token variants (``pretok_variants.py``): ``wubi@V`` / ``bytes@V`` are
``wubi`` / ``bytes`` trained and evaluated on variant ``V``'s pre-tokens
(``lead``, ``trail``, ``gpt4``, ``joined``; issue #38's ``nl``, ``nlhan``),
each compared with ``bytes@V`` (same pre-tokens), ``gpt4`` and ``spm``.

The ceiling of spelling: ``oracle`` (and ``oracle@V``) is byte-level BPE in
which every Han character is one symbol of its own outside the vocabulary
budget, so no merge is spent on building a character; tokens(bytes) /
tokens(oracle) bounds what any spelling of Han characters can gain over
byte-level BPE with the same pre-tokens and vocabulary size.

``--cache`` keeps each big BPE model in ``bench/out`` (named by the training
text's CRC) and reuses it: delete them after changing a spelling.

Per genre and tokenizer: characters per token, tokens per character, Rényi
efficiency (alpha 2.5, Zouhar et al. 2023) of the held-out token
distribution; the ratio tokens(baseline) / tokens(Wubi) with a 95% bootstrap
interval (1,000 resamples of the held-out documents, paired).  The tail:
characters outside GB2312 (rest of the URO, Ext A, Ext B) that the training
text never has, 500 of each (fixed seed), each alone: tokens per character.

Prints markdown; ``--json`` writes everything.  Corpora and pre-token counts
are cached in ``bench/data``.  Takes a few minutes per vocab size.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_wubi_bpe import _repeat_feed  # noqa: E402
from genres import DATA, GENRES, SOURCE_GENRES, load_genres  # noqa: E402
from pretok_variants import VARIANTS, PreTokens  # noqa: E402

OUT = Path(__file__).resolve().parent / "out"

from wubitok.compare.metrics import renyi_efficiency  # noqa: E402
from wubitok.engines.bpe.wubi import WubiBPE  # noqa: E402
from wubitok.engines.pre_tokenizers.wubi import pretokens  # noqa: E402
from wubitok.text.segment import is_han  # noqa: E402
from wubitok.wubi.codec import BYTE_TOKENS, CodecOptions, WubiCodec  # noqa: E402
from wubitok.wubi.dictionary import default_dictionary  # noqa: E402

SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
# the spelling the sweeps (and the designs built on it) start from: the
# default before ``shared-index``, index digits after the keys
INDEX_LAST = CodecOptions(index="digits", layout="index-last")
GPT4_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
ALL_TOKENIZERS = ("wubi", "wubi-prefix", "wubi-corpus", "wubi-optimal", "wubi-unigram", "bytes", "bytes-optimal",
                  "gpt4", "spm")
# spelling variants, on request
SWEEP = ("wubi-w2", "wubi-corpus-w2", "wubi-w1.5", "wubi-hybrid-corpus", "wubi-hybrid-keys",
         "wubi-hybrid-w2", "wubi-b16", "wubi-b32", "wubi-b64")
# where a character's index stands (the codec's ``layout``, and designs the codec
# does not have), on request: NAME@joined; ``wubi`` is the shipped default
LAYOUTS = ("wubi-first", "wubi-last", "wubi-marked", "wubi-sep", "wubi-shared-end", "wubi-fixed", "wubi-digits",
           "wubi-shared-longer", "wubi-shared-first-costs", "wubi-bytes", "wubi-shared-bytes", "wubi-shared-index")
# pre-token variants (``pretok_variants.py``): NAME@VARIANT trains and encodes
# on that variant's pre-tokens; ``oracle`` spells every Han character as one
# free symbol (the ceiling of any spelling, see ``OracleSpeller``)
PRETOK = ("oracle", *(f"{n}@{v}" for v in VARIANTS if v for n in ("wubi", "bytes", "oracle", *LAYOUTS)))
TAIL_SAMPLE = 500

Speller = Callable[[str], str]


# -- spellings -----------------------------------------------------------------
def byte_speller() -> Speller:
    return lambda piece: "".join(BYTE_TOKENS[b] for b in piece.encode("utf-8", "surrogatepass"))


class WubiSpeller:
    """A pre-token as codec token characters (one character per symbol)."""

    def __init__(self, spelling: dict[str, tuple[int, ...]] | None = None, options: CodecOptions | None = None):
        self.codec = WubiCodec(options or CodecOptions())
        self.tokens = self.codec.tokens
        self.alphabet = self.tokens[4 : self.codec.end_id]
        self._override = spelling
        self._chars: dict[str, str] = {}

    def char(self, ch: str) -> str:
        s = self._chars.get(ch)
        if s is None:
            sp = self._override.get(ch) if self._override is not None else None
            if sp is None:
                sp = self.codec.spelling(ch)
            s = self._chars[ch] = "".join(self.tokens[i] for i in sp)
        return s

    def __call__(self, piece: str) -> str:
        return "".join(map(self.char, piece))


class OracleSpeller:
    """Every Han character one symbol of its own, outside the vocabulary
    budget (the alphabet holds every Han character of the training text, the
    held-out text and the tail); everything else as bytes.  BPE over this
    gets the same merges as byte-level BPE and never spends one on building
    a character: no spelling of Han characters can give it less to do, so
    tokens(bytes) / tokens(oracle) bounds what a spelling can gain with the
    same pre-tokens (greedy BPE is not optimal, so a bound in practice, not a
    theorem)."""

    def __init__(self, han: set[str]):
        self.alphabet = list(BYTE_TOKENS) + sorted(han)
        self.n_free = len(han)
        self._bytes = byte_speller()

    def __call__(self, piece: str) -> str:
        return "".join(ch if is_han(ch) else self._bytes(ch) for ch in piece)


def prefix_spelling(han_counts: Counter | None, options: CodecOptions,
                    digit_weight: float = 1.0) -> dict[str, tuple[int, ...]]:
    """The prefix spelling with each prefix's list ordered by ``han_counts``
    (then the table's weight order; ``None``: the table's order alone), each
    character taking the prefix with the fewest keys + ``digit_weight`` x
    index digits.  Lossless: each (prefix, index) names one character, as in
    the codec."""
    from wubitok.wubi.codec import MARK_BASE, _index_cost
    from wubitok.wubi.dictionary import WUBI_KEYS

    rows = [(ch, full) for ch, full, _ in default_dictionary().iter_full_code_weights() if len(ch) == 1 and is_han(ch)]
    counts = han_counts or Counter()
    order = sorted(range(len(rows)), key=lambda i: (-counts.get(rows[i][0], 0), i))
    lists: dict[str, int] = {}
    best: dict[str, tuple[int, str, int]] = {}
    for i in order:
        ch, full = rows[i]
        choice = None
        for n in range(1, len(full) + 1):
            code = full[:n]
            index = lists.get(code, 0)
            lists[code] = index + 1
            cost = _index_cost(index, options.index)
            if cost is not None and (choice is None or n + digit_weight * cost < choice[0]):
                choice = (n + digit_weight * cost, code, index)
        if choice is not None:
            best[ch] = choice
    codec = WubiCodec(options)
    key_base = MARK_BASE - len(WUBI_KEYS)
    out: dict[str, tuple[int, ...]] = {}
    for ch, (_, code, index) in best.items():
        keys: list[int] = [key_base + WUBI_KEYS.index(k) for k in code]
        keys[-1] += MARK_BASE - key_base
        if index:
            keys.extend(codec.index_base + int(d) for d in str(index))
        out[ch] = tuple(keys)
    assert len(set(out.values())) == len(out), "prefix spelling is not one-to-one"
    return out


def hybrid_spelling(han_counts: Counter | None, options: CodecOptions, digit_weight: float = 1.0,
                    longer_on_tie: bool = False, base: int = 10) -> dict[str, tuple[int, ...]]:
    """The ``hybrid`` codec spelling with the characters taken in ``han_counts``
    order (then the table's weight order; ``None``: the table's order alone, =
    the codec), each taking the code with the fewest keys + ``digit_weight`` x
    index digits, the longer code on a tie if ``longer_on_tie``.  Lossless:
    each (code, index) names one character."""
    from wubitok.wubi.codec import MARK_BASE
    from wubitok.wubi.dictionary import WUBI_KEYS

    d = default_dictionary()
    rows = [(ch, full) for ch, full, _ in d.iter_full_code_weights() if len(ch) == 1 and is_han(ch)]
    codes: dict[str, set[str]] = {}
    for ch, code, _, _ in d.iter_char_codes():
        codes.setdefault(ch, set()).add(code)
    counts = han_counts or Counter()
    order = sorted(range(len(rows)), key=lambda i: (-counts.get(rows[i][0], 0), i))
    taken: dict[str, int] = {}
    codec = WubiCodec(options)
    key_base = MARK_BASE - len(WUBI_KEYS)
    out: dict[str, tuple[int, ...]] = {}
    for i in order:
        ch, full = rows[i]
        cands = codes.get(ch, set()) | {full[:n] for n in range(1, len(full) + 1)}
        choice = None
        for code in sorted(cands, key=lambda c: (-len(c) if longer_on_tie else len(c), c)):
            index = taken.get(code, 0)
            cost = len(code) + digit_weight * len(_digits(index, base))
            if choice is None or cost < choice[0]:
                choice = (cost, code, index)
        assert choice is not None
        _, code, index = choice
        taken[code] = index + 1
        keys = [key_base + WUBI_KEYS.index(k) for k in code]
        keys[-1] += MARK_BASE - key_base
        keys.extend(codec.index_base + d for d in _digits(index, base))
        out[ch] = tuple(keys)
    assert len(set(out.values())) == len(out), "hybrid spelling is not one-to-one"
    return out


def marked_index_speller() -> WubiSpeller:
    """Index after the keys, and the character's last symbol marked: the
    final key when there is no index, else the last index digit (ten marked
    digits of its own; the keys then all plain).  Prefix-free like
    ``index-first``: a spelling ends at its first marked symbol."""
    from wubitok.wubi.codec import KEY_BASE, MARK_BASE

    sp = WubiSpeller(options=INDEX_LAST)
    codec = sp.codec
    spelling: dict[str, tuple[int, ...]] = {}
    for ch, sym in codec._spelling.items():
        if sym[-1] >= codec.index_base:  # an index: unmark the key, mark the last digit
            syms = [s - (MARK_BASE - KEY_BASE) if MARK_BASE <= s < codec.index_base else s for s in sym]
            syms[-1] += codec.end_id - codec.index_base
            spelling[ch] = tuple(syms)
        else:
            spelling[ch] = sym
    sp._override = spelling
    sp.tokens = sp.tokens[: codec.end_id] + [chr(0xE100 + d) for d in range(10)]
    sp.alphabet = sp.tokens[4:]
    assert len(set(sp.alphabet)) == len(sp.alphabet)
    return sp


def shared_end_speller() -> WubiSpeller:
    """Index after the keys; a character on a code of its own ends with its
    marked final key (``wqiY``), one on a shared code with a separator after
    its index (``wqiy▁``, ``wqiy₁▁``).  Prefix-free: a spelling ends at its
    marked key or its separator; the keys alone of a shared code are the
    prefix of every character on it."""
    from wubitok.wubi.codec import BOUNDARY_TOKEN, KEY_BASE, MARK_BASE

    sp = WubiSpeller(options=INDEX_LAST)
    codec = sp.codec
    shared = {ch for chars in codec._table.values() if len(chars) > 1 for ch in chars}
    spelling: dict[str, tuple[int, ...]] = {}
    for ch, sym in codec._spelling.items():
        if ch in shared:
            syms = [s - (MARK_BASE - KEY_BASE) if MARK_BASE <= s < codec.index_base else s for s in sym]
            spelling[ch] = (*syms, codec.end_id)
        else:
            spelling[ch] = sym
    sp._override = spelling
    sp.tokens = sp.tokens[: codec.end_id] + [BOUNDARY_TOKEN]
    sp.alphabet = sp.tokens[4:]
    return sp


def fixed_width_speller() -> WubiSpeller:
    """Index after the keys in as many digits as the code's largest index
    needs, leading zeros kept (``w₀₀₀₁``), none on a code of one character.
    Prefix-free: the code says how many digits follow; the digits still
    share their leading ones the way ``index-last`` does."""
    sp = WubiSpeller(options=INDEX_LAST)
    codec = sp.codec
    spelling: dict[str, tuple[int, ...]] = {}
    for chars in codec._table.values():
        if len(chars) == 1:
            spelling[chars[0]] = codec._spelling.get(chars[0], ())
            continue
        width = len(str(len(chars) - 1))
        for index, ch in enumerate(chars):
            sym = codec._spelling.get(ch)
            if sym is None:
                continue
            keys = tuple(s for s in sym if s < codec.index_base)
            spelling[ch] = keys + tuple(codec.index_base + int(d) for d in f"{index:0{width}d}")
    sp._override = spelling
    return sp


def shared_index_speller(longer_on_tie: bool = False, first_costs: bool = False) -> WubiSpeller:
    """The ``shared-index`` spelling with another choice of code: the longer
    code on a tie of keys + index symbols, and/or the first character of a
    code counted as paying its index too."""
    from wubitok.wubi.codec import MARK_BASE
    from wubitok.wubi.dictionary import WUBI_KEYS

    d = default_dictionary()
    codes: dict[str, set[str]] = {}
    for ch, code, _, _ in d.iter_char_codes():
        codes.setdefault(ch, set()).add(code)
    table: dict[str, list[str]] = {}
    for ch, full, _ in d.iter_full_code_weights():
        if len(ch) != 1 or not is_han(ch):
            continue
        cands = codes.get(ch, set()) | {full[:n] for n in range(1, len(full) + 1)}
        choice = None
        for code in sorted(cands, key=lambda c: (-len(c) if longer_on_tie else len(c), c)):
            taken = len(table.get(code, ()))
            if taken >= 50:
                continue
            cost = len(code) + (1 if taken or first_costs else 0)
            if choice is None or cost < choice[0]:
                choice = (cost, code)
        if choice is not None:
            table.setdefault(choice[1], []).append(ch)
    sp = WubiSpeller()
    codec = sp.codec
    key_base = MARK_BASE - len(WUBI_KEYS)
    out: dict[str, tuple[int, ...]] = {}
    for code, chars in table.items():
        for i, ch in enumerate(chars):
            keys = [key_base + WUBI_KEYS.index(k) for k in code]
            keys[-1] += MARK_BASE - key_base
            out[ch] = tuple(keys) + ((codec.index_base + i,) if len(chars) > 1 else ())
    sp._override = out
    return sp


def byte_sharing_speller() -> WubiSpeller:
    """The codec's ``shared-bytes`` with index ``i`` on the byte 0x80 + ``i``, shared
    with the keys: a key is a UTF-8 continuation byte (0x80-0x98), a final key
    another one (0x99-0xB1).  No symbol is added to the byte alphabet, so BPE has
    100 more merges at every vocabulary size.  Still decodable left to right: a
    continuation byte is a byte only after a UTF-8 lead byte, and an index only
    after the final key of a shared code."""
    from wubitok.wubi.codec import BYTE_BASE, KEY_BASE, MARK_BASE

    sp = WubiSpeller(options=CodecOptions(layout="shared-index"))
    codec = sp.codec

    def byte_of(s: int) -> int:
        if s < KEY_BASE:
            return s - BYTE_BASE
        if s < MARK_BASE:
            return 0x80 + s - KEY_BASE
        if s < codec.index_base:
            return 0x99 + s - MARK_BASE
        return 0x80 + s - codec.index_base

    sp._override = {ch: tuple(BYTE_BASE + byte_of(s) for s in sym) for ch, sym in codec._spelling.items()}
    sp.alphabet = list(BYTE_TOKENS)
    return sp


def read_byte_sharing(sp: WubiSpeller, spelled: str) -> str:
    """The text a :func:`byte_sharing_speller` spelling came from, read left to right as a
    decoder must: at a character's start a byte below 0x80 is ASCII, a UTF-8 lead byte starts a
    character of bytes, and a byte from 0x80 starts a Wubi spelling, read until it is one (no
    spelling is the start of another; asserted).  Raises on anything else."""
    from wubitok.wubi.codec import BYTE_BASE

    assert sp._override is not None
    spellings = {bytes(s - BYTE_BASE for s in sym): ch for ch, sym in sp._override.items()}
    assert not any(k[:n] in spellings for k in spellings for n in range(1, len(k))), "not prefix-free"
    byte_of = {t: b for b, t in enumerate(BYTE_TOKENS)}
    data = bytes(byte_of[c] for c in spelled)
    out: list[str] = []
    i = 0
    while i < len(data):
        b = data[i]
        if b < 0x80 or b >= 0xC0:  # ASCII or a lead byte: one character of UTF-8
            n = 1 if b < 0x80 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            out.append(data[i:i + n].decode("utf-8", "surrogatepass"))
            i += n
            continue
        j = i + 1
        while data[i:j] not in spellings:
            j += 1
            if j > len(data) or j - i > 8:
                raise ValueError(f"no spelling at byte {i}")
        out.append(spellings[data[i:j]])
        i = j
    return "".join(out)


def _digits(index: int, base: int) -> list[int]:
    """``index`` in ``base``, most significant digit first; none for 0."""
    out: list[int] = []
    while index:
        index, d = divmod(index, base)
        out.append(d)
    return out[::-1]


def base_index_speller(base: int) -> WubiSpeller:
    """``hybrid`` with the index written in ``base`` digits (symbols of their
    own: the ten digits, then private-use characters): an unseen rare
    character under a one-key code takes key + 2 symbols instead of key + 3
    digits when ``base`` >= 32."""
    sp = WubiSpeller(hybrid_spelling(None, INDEX_LAST, base=base))
    extra = [chr(0xE000 + i) for i in range(max(0, base - 10))]
    sp.tokens = sp.tokens[: sp.codec.end_id] + extra
    sp.alphabet = sp.tokens[4:]
    return sp


# -- BPE over spelled pre-tokens (HF) ----------------------------------------------
def truncated_bpe(tok, vocab: int):
    """The HF BPE ``tok`` cut to its first ``vocab`` tokens: BPE learns merges
    greedily, so the first merges of a big run are the small run's merges."""
    from tokenizers import Tokenizer

    data = json.loads(tok.to_str())
    model = data["model"]
    keep = {t: i for t, i in model["vocab"].items() if i < vocab}
    n_base = len(model["vocab"]) - len(model["merges"])
    model["vocab"] = keep
    model["merges"] = model["merges"][: max(0, vocab - n_base)]
    return Tokenizer.from_str(json.dumps(data))


class SpelledBPE:
    """HF BPE over whitespace-free spelled pre-tokens: the merges and encoding
    of the engine's fast backend (merges applied by rank)."""

    def __init__(self, speller: Speller, counts: Counter, vocab: int, alphabet: Sequence[str], n_special: int,
                 pretok: PreTokens = pretokens, cache: Path | None = None):
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers

        self.speller = speller
        self.pretok = pretok
        if cache is not None and cache.exists():  # a variant's big model, trained once per corpus
            self.tok = Tokenizer.from_file(str(cache))
            self._ready()
            return
        spelled: Counter = Counter()
        for w, c in counts.items():
            spelled[speller(w)] += c
        self.tok = Tokenizer(models.BPE())
        self.tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=vocab - n_special, min_frequency=2, special_tokens=[],
                                      initial_alphabet=list(alphabet), show_progress=False)
        self.tok.train_from_iterator(_repeat_feed(sorted(spelled.items())), trainer)
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            self.tok.save(str(cache))
        self._ready()

    def _ready(self) -> None:
        self.vocab = set(self.tok.get_vocab())
        self.max_len = max(map(len, self.vocab))
        self._cache: dict[str, list[str]] = {}

    def truncated(self, vocab: int, n_special: int) -> "SpelledBPE":
        new = object.__new__(SpelledBPE)
        new.speller = self.speller
        new.pretok = self.pretok
        new.tok = truncated_bpe(self.tok, vocab - n_special)
        new._ready()
        return new

    def encode_pieces(self, pieces: Sequence[str], optimal: bool = False) -> list[list[str]]:
        cache = self._cache if not optimal else self.__dict__.setdefault("_opt_cache", {})
        new = [p for p in dict.fromkeys(pieces) if p not in cache]
        if new:
            spelled = [self.speller(p) for p in new]
            if optimal:
                for p, s in zip(new, spelled):
                    cache[p] = self._shortest(s)
            else:
                for p, enc in zip(new, self.tok.encode_batch(spelled, add_special_tokens=False)):
                    cache[p] = enc.tokens
        return [cache[p] for p in pieces]

    def _shortest(self, s: str) -> list[str]:
        """Fewest tokens from the vocabulary covering ``s`` (every symbol is one)."""
        n = len(s)
        best = [0] + [n + 1] * n
        back = [0] * (n + 1)
        vocab, max_len = self.vocab, self.max_len
        for end in range(1, n + 1):
            for start in range(max(0, end - max_len), end):
                if best[start] + 1 < best[end] and s[start:end] in vocab:
                    best[end] = best[start] + 1
                    back[end] = start
        out = []
        end = n
        while end:
            out.append(s[back[end] : end])
            end = back[end]
        return out[::-1]


def doc_tokens_pretokenized(model: SpelledBPE, docs: Sequence[str], optimal: bool = False) -> list[list[str]]:
    out = []
    for doc in docs:
        pieces = list(model.pretok(doc))
        out.append([t for enc in model.encode_pieces(pieces, optimal) for t in enc])
    return out


# -- references on raw text --------------------------------------------------------
class GPT4BPE:
    def __init__(self, train_docs: Sequence[str], vocab: int, cache: Path | None = None):
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

        if cache is not None and cache.exists():
            self.tok = Tokenizer.from_file(str(cache))
            return
        self.tok = Tokenizer(models.BPE())
        self.tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT4_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
        trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, special_tokens=SPECIALS,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
        self.tok.train_from_iterator(train_docs, trainer)
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            self.tok.save(str(cache))

    def truncated(self, vocab: int) -> "GPT4BPE":
        new = object.__new__(GPT4BPE)
        new.tok = truncated_bpe(self.tok, vocab)
        return new

    def docs(self, docs: Sequence[str]) -> list[list[str]]:
        return [e.tokens for e in self.tok.encode_batch(list(docs), add_special_tokens=False)]

    def char_tokens(self, ch: str) -> int:
        return len(self.tok.encode(ch, add_special_tokens=False).ids)


class SentencePiece:
    """sentencepiece Unigram: on raw lines with byte fallback, or (``tsv``) on
    spelled pre-tokens with their counts."""

    def __init__(self, vocab: int, *, lines: Sequence[str] = (), tsv: Counter | None = None,
                 speller: Speller | None = None, alphabet: Sequence[str] = (), coverage: float = 0.9995,
                 cache: Path | None = None):
        import sentencepiece as spm

        self.speller = speller
        self._cache: dict[str, list[str]] = {}
        if cache is not None and cache.exists():  # sentencepiece takes minutes: train once per corpus
            self.sp = spm.SentencePieceProcessor(model_file=str(cache))
            return
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "train.txt"
            if tsv is not None:
                rows = [f"{w}\t{c}" for w, c in sorted(tsv.items()) if w]
                rows.append(f"{''.join(alphabet)}\t1")  # every symbol known
                path.write_text("\n".join(rows) + "\n", encoding="utf-8")
            else:
                path.write_text("".join(lines), encoding="utf-8")
            kwargs = dict(
                input=str(path), model_prefix=str(Path(tmp) / "m"), vocab_size=vocab, model_type="unigram",
                normalization_rule_name="identity", remove_extra_whitespaces=False, add_dummy_prefix=False,
                split_digits=False, max_sentence_length=1 << 16, hard_vocab_limit=False, num_threads=2,
                pad_id=0, unk_id=1, bos_id=2, eos_id=3, minloglevel=2, train_extremely_large_corpus=False,
            )
            if tsv is not None:
                kwargs.update(input_format="tsv", character_coverage=1.0, split_by_whitespace=True)
            else:
                kwargs.update(byte_fallback=True, character_coverage=coverage, input_sentence_size=2_000_000,
                              shuffle_input_sentence=True)
            spm.SentencePieceTrainer.train(**kwargs)
            self.sp = spm.SentencePieceProcessor(model_file=str(Path(tmp) / "m.model"))
            if cache is not None:
                cache.parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / "m.model").replace(cache)

    def docs(self, docs: Sequence[str]) -> list[list[str]]:
        if self.speller is None:
            return [self.sp.encode(d, out_type=str) for d in docs]
        out = []
        for doc in docs:
            toks: list[str] = []
            for p in pretokens(doc):
                enc = self._cache.get(p)
                if enc is None:
                    enc = self._cache[p] = self.sp.encode(self.speller(p), out_type=str)
                toks += enc
            out.append(toks)
        return out

    def char_tokens(self, ch: str) -> int:
        return len(self.sp.encode(self.speller(ch) if self.speller else ch))


def spm_coverage(docs: Sequence[str], vocab: int) -> float:
    """sentencepiece's default 0.9995, or less when the characters that covers
    would not leave half the vocabulary (minus the 256 byte pieces) for pieces."""
    freq = Counter(ch for d in docs for ch in d)
    total = sum(freq.values())
    room = max(1, (vocab - 260) // 2)
    covered = sum(c for _, c in freq.most_common(room))
    return max(0.98, min(0.9995, covered / total - 1e-6))  # sentencepiece accepts 0.98-1


# -- statistics ---------------------------------------------------------------------
def bootstrap_ratio(num: Sequence[int], den: Sequence[int], n_boot: int, seed: int = 0) -> tuple[float, float, float]:
    """sum(num) / sum(den) and its 95% percentile interval over documents."""
    rng = random.Random(seed)
    idx = range(len(num))
    stats = []
    for _ in range(n_boot):
        pick = rng.choices(idx, k=len(num))
        stats.append(sum(num[i] for i in pick) / max(1, sum(den[i] for i in pick)))
    stats.sort()
    return sum(num) / sum(den), stats[int(0.025 * n_boot)], stats[int(0.975 * n_boot) - 1]


def tail_chars(train_chars: set[str], seed: int = 0) -> dict[str, list[str]]:
    """Characters with a Wubi code, outside GB2312, absent from training."""
    groups: dict[str, list[str]] = {"URO": [], "Ext A": [], "Ext B": []}
    for ch, _, _ in default_dictionary().iter_full_code_weights():
        if len(ch) != 1 or not is_han(ch) or ch in train_chars:
            continue
        try:
            ch.encode("gb2312")
            continue
        except UnicodeEncodeError:
            pass
        cp = ord(ch)
        g = "URO" if 0x4E00 <= cp <= 0x9FFF else "Ext A" if 0x3400 <= cp <= 0x4DBF else \
            "Ext B" if 0x20000 <= cp <= 0x2A6DF else None
        if g:
            groups[g].append(ch)
    rng = random.Random(seed)
    return {g: rng.sample(sorted(chars), min(TAIL_SAMPLE, len(chars))) for g, chars in groups.items()}


# -- the run ----------------------------------------------------------------------------
def training_counts(genres, variant: str = "") -> tuple[list[str], Counter]:
    docs = [d for g in SOURCE_GENRES for d in genres[g]["train"]]
    cache = DATA / f"genres.train-counts{'-' + variant if variant else ''}.json"
    if cache.exists():
        return docs, Counter(json.loads(cache.read_text(encoding="utf-8")))
    counts: Counter = Counter()
    for d in docs:
        counts.update(VARIANTS[variant](d))
    cache.write_text(json.dumps(counts, ensure_ascii=False), encoding="utf-8")
    return docs, counts


def check_against_engine(counts: Counter, docs: Sequence[str], vocab: int) -> None:
    """The bench's ``wubi`` and ``wubi@joined`` must be the engine's fast
    backend with ``pre_tokens`` "clause" and "joined", token for token."""
    text = "".join(docs[:40])
    for variant, mode in (("", "clause"), ("joined", "joined")):
        local: Counter = Counter(VARIANTS[variant](text))
        model = SpelledBPE(WubiSpeller(), local, vocab, WubiSpeller().alphabet, 4, VARIANTS[variant])
        engine = WubiBPE.train([text], vocab_size=vocab, backend="fast", pre_tokens=mode)
        mine = sum(map(len, doc_tokens_pretokenized(model, [text])))
        theirs = len(engine.encode(text).ids)
        assert mine == theirs, f"bench wubi@{variant} {mine} tokens, engine ({mode}) {theirs}"


def run(args) -> dict:
    genres = load_genres()
    train_docs, counts = training_counts(genres)
    han_counts: Counter = Counter()
    for w, c in counts.items():
        for ch in w:
            if is_han(ch):
                han_counts[ch] += c
    digest = f"{zlib.crc32(''.join(train_docs).encode()):08x}"  # names the cached models
    log("counts loaded")
    check_against_engine(counts, train_docs, 2000)
    log("bench wubi == engine fast backend")
    # One run measures every split asked for: keys "split/genre".
    held = {f"{split}/{g}": genres[g][split] for split in args.split for g in GENRES}
    tails = tail_chars(set(han_counts))
    options = INDEX_LAST
    spellers: dict[str, Callable[[], WubiSpeller]] = {
        "wubi": lambda: WubiSpeller(),
        "wubi-prefix": lambda: WubiSpeller(options=CodecOptions(code="prefix")),
        "wubi-hybrid-corpus": lambda: WubiSpeller(hybrid_spelling(han_counts, options)),
        "wubi-hybrid-keys": lambda: WubiSpeller(hybrid_spelling(None, options, longer_on_tie=True)),
        "wubi-hybrid-w2": lambda: WubiSpeller(hybrid_spelling(None, options, 2.0)),
        "wubi-corpus": lambda: WubiSpeller(prefix_spelling(han_counts, options)),
        "wubi-w2": lambda: WubiSpeller(prefix_spelling(None, options, 2.0)),
        "wubi-corpus-w2": lambda: WubiSpeller(prefix_spelling(han_counts, options, 2.0)),
        "wubi-w1.5": lambda: WubiSpeller(prefix_spelling(None, options, 1.5)),
        "wubi-b16": lambda: base_index_speller(16),
        "wubi-b32": lambda: base_index_speller(32),
        "wubi-b64": lambda: base_index_speller(64),
        "wubi-first": lambda: WubiSpeller(options=CodecOptions(index="digits", layout="index-first")),
        "wubi-last": lambda: WubiSpeller(options=INDEX_LAST),
        "wubi-marked": marked_index_speller,
        "wubi-sep": lambda: WubiSpeller(options=CodecOptions("hybrid", "separator", "digits", "index-last")),
        "wubi-shared-end": shared_end_speller,
        "wubi-fixed": fixed_width_speller,
        "wubi-digits": lambda: WubiSpeller(options=CodecOptions(index="digits")),
        "wubi-shared-longer": lambda: shared_index_speller(longer_on_tie=True),
        "wubi-shared-first-costs": lambda: shared_index_speller(first_costs=True),
        "wubi-bytes": byte_sharing_speller,
        "wubi-shared-bytes": lambda: WubiSpeller(options=CodecOptions(layout="shared-bytes")),
        "wubi-shared-index": lambda: WubiSpeller(options=CodecOptions(layout="shared-index")),
    }
    result: dict = {"split": args.split, "train_chars": sum(map(len, train_docs)),
                    "held_chars": {g: sum(map(len, d)) for g, d in held.items()},
                    "held_docs": {g: len(d) for g, d in held.items()},
                    "tail_chars": {g: len(c) for g, c in tails.items()}, "vocab": {}}
    wanted = set(args.tokenizers)
    oracle_han = set(han_counts) | {ch for docs in held.values() for d in docs for ch in d if is_han(ch)} \
        | {ch for cs in tails.values() for ch in cs}
    free: dict[str, int] = {}  # model -> alphabet symbols outside the vocabulary budget (oracle)
    # BPE models are trained once at the largest size and cut (``truncated_bpe``).
    top = max(args.vocab)
    big: dict[str, SpelledBPE] = {}
    train_top: dict[str, float] = {}
    result["train_s_top_vocab"] = train_top
    variant_counts = {"": counts}
    for label in [*spellers, "bytes", *PRETOK]:
        if not (label in wanted or f"{label}-optimal" in wanted):
            continue
        name, _, variant = label.partition("@")
        if variant not in variant_counts:
            variant_counts[variant] = training_counts(genres, variant)[1]
        vcounts = variant_counts[variant]
        t = time.perf_counter()
        # the oracle's alphabet holds the held-out characters: one model per split
        tag = f"-{zlib.crc32(''.join(sorted(oracle_han)).encode()):08x}" if name == "oracle" else ""
        cache = OUT / f"hf-{label}-{top}-{digest}{tag}.json" if args.cache else None
        if name == "bytes":
            big[label] = SpelledBPE(byte_speller(), vcounts, top, BYTE_TOKENS, 4, VARIANTS[variant], cache)
        elif name == "oracle":
            osp = OracleSpeller(oracle_han)
            free[label] = osp.n_free
            big[label] = SpelledBPE(osp, vcounts, top + osp.n_free, osp.alphabet, 4, VARIANTS[variant], cache)
        else:
            sp = spellers[name]()
            if name.startswith("wubi-bytes"):  # a design, not the codec's: show that it reads back
                for docs in held.values():
                    for d in docs:
                        assert read_byte_sharing(sp, sp(d)) == d, f"{name} does not read back"
                log(f"{name} reads back every held-out document")
            big[label] = SpelledBPE(sp, vcounts, top, sp.alphabet, 4, VARIANTS[variant], cache)
        train_top[label] = time.perf_counter() - t
        log(f"{top} {label} trained in {train_top[label]:.1f} s")
    big_gpt = GPT4BPE(train_docs, top, OUT / f"hf-gpt4-{top}-{digest}.json" if args.cache else None) \
        if "gpt4" in wanted else None
    for vocab in sorted(args.vocab):
        per: dict[str, dict] = {}  # tokenizer -> genre -> per-doc token lists
        tail: dict[str, dict[str, float]] = {}
        times: dict[str, float] = {}
        for name, whole in big.items():
            model = whole.truncated(vocab + free.get(name, 0), 4)
            for opt in (False, True):
                label = name + ("-optimal" if opt else "")
                if label not in wanted:
                    continue
                per[label] = {g: doc_tokens_pretokenized(model, d, opt) for g, d in held.items()}
                tail[label] = {g: sum(len(model.encode_pieces([c], opt)[0]) for c in cs) / len(cs)
                               for g, cs in tails.items()}
                log(f"{vocab} {label} encoded")
        if big_gpt is not None:
            gpt = big_gpt.truncated(vocab)
            per["gpt4"] = {g: gpt.docs(d) for g, d in held.items()}
            log(f"{vocab} gpt4 done")
            tail["gpt4"] = {g: sum(map(gpt.char_tokens, cs)) / len(cs) for g, cs in tails.items()}
        if "spm" in wanted:
            t = time.perf_counter()
            lines = [ln for d in train_docs for ln in d.splitlines(keepends=True)]
            try:
                spm_model = SentencePiece(vocab, lines=lines, coverage=spm_coverage(train_docs, vocab),
                                          cache=OUT / f"spm-{vocab}-{digest}.model")
            except RuntimeError as exc:  # too small a vocabulary for its required characters
                log(f"{vocab} spm: {str(exc).splitlines()[0][:200]}")
            else:
                times["spm"] = time.perf_counter() - t
                per["spm"] = {g: spm_model.docs(d) for g, d in held.items()}
                log(f"{vocab} spm done")
                tail["spm"] = {g: sum(map(spm_model.char_tokens, cs)) / len(cs) for g, cs in tails.items()}
        if "wubi-unigram" in wanted:
            sp = WubiSpeller()
            spelled: Counter = Counter()
            for w, c in counts.items():
                spelled[sp(w)] += c
            t = time.perf_counter()
            uni = SentencePiece(vocab, tsv=spelled, speller=sp, alphabet=sp.alphabet,
                                cache=OUT / f"wubi-unigram-{vocab}-{digest}.model")
            times["wubi-unigram"] = time.perf_counter() - t
            per["wubi-unigram"] = {g: uni.docs(d) for g, d in held.items()}
            tail["wubi-unigram"] = {g: sum(map(uni.char_tokens, cs)) / len(cs) for g, cs in tails.items()}

        row: dict = {"train_s": times, "tail_tokens_per_char": tail, "genres": {}}
        for g, docs in held.items():
            chars = [len(d) for d in docs]
            gr: dict = {"tokenizers": {}, "ratios": {}}
            for name, by_genre in per.items():
                toks = by_genre[g]
                n = sum(map(len, toks))
                freq: Counter = Counter(t for doc in toks for t in doc)
                gr["tokenizers"][name] = {"tokens": n, "chars_per_token": sum(chars) / n,
                                          "tokens_per_char": n / sum(chars),
                                          "renyi_2_5": renyi_efficiency(freq.values(), vocab)}
            for wubi in (t for t in per if t.startswith(("wubi", "oracle"))):
                w_counts = [len(t) for t in per[wubi][g]]
                variant = wubi.partition("@")[2]
                same = f"bytes@{variant}" if variant else "bytes"
                for base in (b for b in (same, "gpt4", "spm", "bytes-optimal") if b in per):
                    if base == "bytes-optimal" and wubi != "wubi-optimal":
                        continue
                    b_counts = [len(t) for t in per[base][g]]
                    r, lo, hi = bootstrap_ratio(b_counts, w_counts, args.boot)
                    gr["ratios"][f"{base}/{wubi}"] = {"ratio": r, "lo": lo, "hi": hi}
            row["genres"][g] = gr
        result["vocab"][str(vocab)] = row
        log(f"vocab {vocab:,} done")
    return result


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


TARGETS = {2000: 1.05, 8000: 1.03, 32000: 1.01}


def print_tables(res: dict) -> None:
    print(f"splits: {', '.join(res['split'])}; training text {res['train_chars']:,} characters; held-out characters: "
          + ", ".join(f"{g} {n:,} ({res['held_docs'][g]} docs)" for g, n in res["held_chars"].items()))
    for vocab, row in res["vocab"].items():
        v = int(vocab)
        target = TARGETS.get(v)
        print(f"\n### vocab {v:,}" + (f" (target ratio >= {target})" if target else "") + "\n")
        names = list(next(iter(row["genres"].values()))["tokenizers"])
        print("| genre | " + " | ".join(names) + " |")
        print("|---|" + "---|" * len(names))
        for g, gr in row["genres"].items():
            cells = [f"{gr['tokenizers'][n]['chars_per_token']:.3f} ({gr['tokenizers'][n]['renyi_2_5']:.3f})"
                     for n in names]
            print(f"| {g} | " + " | ".join(cells) + " |")
        print("\nchars/token (Rényi efficiency, alpha 2.5). Ratios tokens(baseline) / tokens(Wubi), 95% interval:\n")
        ratio_names = list(next(iter(row["genres"].values()))["ratios"])
        print("| genre | " + " | ".join(ratio_names) + " |")
        print("|---|" + "---|" * len(ratio_names))
        for g, gr in row["genres"].items():
            cells = []
            for rn in ratio_names:
                r = gr["ratios"][rn]
                mark = " ✓" if target and r["lo"] >= target else ""
                cells.append(f"{r['ratio']:.4f} [{r['lo']:.4f}, {r['hi']:.4f}]{mark}")
            print(f"| {g} | " + " | ".join(cells) + " |")
        tail = row["tail_tokens_per_char"]
        print("\ntail (unseen, outside GB2312), tokens per character:\n")
        groups = list(next(iter(tail.values())))
        print("| tokenizer | " + " | ".join(groups) + " |")
        print("|---|" + "---|" * len(groups))
        for n, t in tail.items():
            print(f"| {n} | " + " | ".join(f"{t[g]:.2f}" for g in groups) + " |")
        print("\ntraining: " + ", ".join(f"{n} {s:.1f} s" for n, s in row["train_s"].items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vocab", type=int, nargs="+", default=[2000, 8000, 32000])
    ap.add_argument("--split", nargs="+", choices=("test", "dev"), default=["test"],
                    help="held-out splits to measure (dev: where variants are chosen)")
    ap.add_argument("--tokenizers", nargs="+", choices=ALL_TOKENIZERS + SWEEP + PRETOK, default=list(ALL_TOKENIZERS))
    ap.add_argument("--boot", type=int, default=1000, help="bootstrap resamples")
    ap.add_argument("--cache", action="store_true",
                    help="keep the BPE models in bench/out and reuse them (delete them after a codec change)")
    ap.add_argument("--json", type=Path, help="write all figures here")
    args = ap.parse_args()
    res = run(args)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1, ensure_ascii=False), encoding="utf-8")
    print_tables(res)


if __name__ == "__main__":
    main()
