"""Tokenizers from other libraries, behind wubitok's Tokenizer surface.

- A Hugging Face ``tokenizer.json`` through the ``tokenizers`` package.
- A SentencePiece ``.model`` through the ``sentencepiece`` package.
- A tiktoken rank file (one ``base64(token bytes) rank`` per line, the format
  of ``cl100k_base.tiktoken``) through the ``tiktoken`` package.  The file is
  parsed here, so that a malformed line gets a clear message and nothing is
  ever fetched; the ``tiktoken.Encoding`` built from it does the encoding,
  so the counts are tiktoken's own.  A rank file does not carry the
  pre-tokenizer pattern; it is picked by the number of ranks of the public
  encodings (r50k/p50k, cl100k, o200k) and defaults to cl100k's.

Each adapter encodes without adding special tokens around the text (the
libraries' counts compared are ``encode(text, add_special_tokens=False)``,
``encode(text)`` and ``encode_ordinary(text)``) and reports offsets into the
original text in code points, with pieces of one character flagged
``partial``.  None of them can train or be saved; ``load_external`` opens any
of the three.  A missing package raises MissingExtraError naming the extra.
"""
from __future__ import annotations

import base64
import binascii
import contextlib
import importlib
import json
import os
from itertools import accumulate
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import regex

from ..engines.base import Encoding, Tokenizer
from ..engines.pre_tokenizers.regex_bounds import check_pattern
from ..errors import InputError, MissingExtraError, ModelError, excerpt
from ..fileio import read_model_bytes, read_model_text

EXTERNAL_KINDS = ("hf", "spm", "tiktoken")

_SURROGATE = regex.compile(r"[\ud800-\udfff]")


def _require(module: str, what: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{what} needs the optional package '{module}': pip install wubitok[{extra}]") from None


def _scrub(text: str) -> str:
    # The libraries take UTF-8; a lone surrogate (possible in a Python str,
    # never in a decoded file) becomes U+FFFD one for one, so offsets still
    # index the original and the round trip honestly fails.
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def display_bytes(data: bytes) -> str:
    """Bytes as text where they are UTF-8, and as <E4 B8> where they are not."""
    text = data.decode("utf-8", "surrogateescape")
    return regex.sub(
        r"[\udc80-\udcff]+", lambda m: "<" + " ".join(f"{ord(c) - 0xDC00:02X}" for c in m.group()) + ">", text
    )


def _fallback_byte(piece: str) -> bytes | None:
    """The byte of a byte-fallback piece (``<0xE9>``), None for any other piece."""
    m = regex.fullmatch(r"<0x([0-9A-Fa-f]{2})>", piece)
    return bytes([int(m.group(1), 16)]) if m else None


def _overlap_partial(offsets: Sequence[tuple[int, int]]) -> list[bool]:
    # Libraries that give every byte piece of a character that character's
    # span: a token whose span overlaps a neighbour's covers part of it.
    def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return max(a[0], b[0]) < min(a[1], b[1])

    n = len(offsets)
    return [(i > 0 and overlaps(offsets[i - 1], offsets[i])) or (i + 1 < n and overlaps(offsets[i], offsets[i + 1]))
            for i in range(n)]


class _External(Tokenizer):
    """Shared surface of the adapters: loaded from a file, never trained or saved."""

    source: str = ""
    unk_id: int | None = None
    # Not guaranteed: whether another library's tokenizer gives the text back
    # is for the round-trip rate to show.
    lossless = False

    @classmethod
    def _checked(cls, *args: Any) -> Any:  # train() and train_from_counts() stop here
        raise InputError(f"{cls.model_type} tokenizers are trained with their own library, not by wubitok")

    def save(self, path: str | os.PathLike) -> None:
        raise InputError(f"a {self.model_type} tokenizer is not saved as a wubitok model")

    def __reduce__(self) -> str | tuple[Any, ...]:
        # Not a wubitok model file: pickled attribute by attribute, as any object.
        return object.__reduce__(self)


# -- Hugging Face tokenizers ---------------------------------------------------

def _byte_level_table() -> dict[str, int]:
    """Character -> byte of the byte-level alphabet (GPT-2's printable stand-ins).

    Printable Latin-1 bytes stand for themselves; the others are mapped, in
    byte order, to U+0100 onwards.
    """
    printable = set(range(0x21, 0x7F)) | set(range(0xA1, 0xAD)) | set(range(0xAE, 0x100))
    table, shifted = {}, 0
    for b in range(256):
        if b in printable:
            table[chr(b)] = b
        else:
            table[chr(0x100 + shifted)] = b
            shifted += 1
    return table


def _regexes(node: Any) -> Iterator[str]:
    """Every ``{"Regex": pattern}`` in a tokenizer.json (Split pre-tokenizers, Replace normalizers)."""
    if isinstance(node, dict):
        if isinstance(node.get("Regex"), str):
            yield node["Regex"]
        for value in node.values():
            yield from _regexes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _regexes(value)


@contextlib.contextmanager
def _no_panic(source: str) -> Iterator[None]:
    """The tokenizers library panics (a BaseException from Rust) when its regex engine gives up
    (Onig's retry limit): one line instead of a Rust backtrace and a Python traceback."""
    try:
        yield
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":
            raise
        reason = str(exc).splitlines()[0] if str(exc) else "panic"
        raise ModelError(f"{source}: the tokenizers library failed on this text ({excerpt(reason, 100)})") from None


def _has_type(node: Any, type_name: str) -> bool:
    if isinstance(node, dict):
        return node.get("type") == type_name or any(_has_type(v, type_name) for v in node.values())
    if isinstance(node, list):
        return any(_has_type(v, type_name) for v in node)
    return False


class HFTokenizer(_External):
    model_type = "hf-tokenizers"

    def __init__(self, hf: Any, config: dict[str, Any], source: str = ""):
        hf.no_padding()  # a file's padding (a pad role) would fill encode_batch's shorter texts
        hf.no_truncation()
        self._hf = hf
        self.source = source
        unk = (config.get("model") or {}).get("unk_token")
        self.unk_id = hf.token_to_id(unk) if isinstance(unk, str) else None
        self._byte_table = _byte_level_table() if _has_type(config.get("decoder"), "ByteLevel") else None

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> "HFTokenizer":
        text = read_model_text(path)
        tokenizers = _require("tokenizers", "a Hugging Face tokenizer.json", "fast")
        try:
            config = json.loads(text)
            hf = tokenizers.Tokenizer.from_str(text)
        except Exception as exc:  # the library raises plain Exception for every parse error
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ModelError(f"{path}: not a Hugging Face tokenizer.json ({msg})") from None
        if not isinstance(config, dict):
            raise ModelError(f"{path}: not a Hugging Face tokenizer.json")
        for pattern in _regexes(config):
            try:
                check_pattern(pattern)
            except InputError as exc:
                raise ModelError(f"{path}: {exc}") from None
        return cls(hf, config, str(path))

    def _encoding(self, e: Any) -> Encoding:
        offsets = [tuple(o) for o in e.offsets]
        return Encoding(list(e.ids), list(e.tokens), offsets, _overlap_partial(offsets))

    def _encode(self, text: str) -> Encoding:
        with _no_panic(self.source):
            return self._encoding(self._hf.encode(_scrub(text), add_special_tokens=False))

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        with _no_panic(self.source):
            encs = self._hf.encode_batch([_scrub(t) for t in texts], add_special_tokens=False)
        return [self._encoding(e) for e in encs]

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        # Special tokens kept by default: an [UNK] must not vanish from the round trip.
        return self._hf.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def token_to_id(self, token: str) -> int | None:
        return self._hf.token_to_id(token)

    def id_to_token(self, id: int) -> str | None:
        return self._hf.id_to_token(id)

    @property
    def vocab_size(self) -> int:
        return self._hf.get_vocab_size(with_added_tokens=True)

    def display_token(self, id: int, *, partial: bool = False) -> str:
        tok = self._hf.id_to_token(id)
        if tok is None:
            return ""
        if self._byte_table and all(c in self._byte_table for c in tok):
            return display_bytes(bytes(self._byte_table[c] for c in tok))
        return tok

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        tok = self._hf.id_to_token(id)
        if tok is None or id == self.unk_id:
            return None
        if self._byte_table and all(c in self._byte_table for c in tok):
            return bytes(self._byte_table[c] for c in tok)
        return _fallback_byte(tok)


# -- SentencePiece ---------------------------------------------------------------

class SentencePieceModel(_External):
    model_type = "sentencepiece"

    def __init__(self, sp: Any, source: str = ""):
        self._sp = sp
        self.source = source
        self.unk_id = sp.unk_id() if sp.unk_id() >= 0 else None

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> "SentencePieceModel":
        data = read_model_bytes(path)
        spm = _require("sentencepiece", "a SentencePiece model", "fast")
        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(data)
        except (RuntimeError, OSError, ValueError):
            # The library's message is an internal assertion, not for users.
            raise ModelError(f"{path}: not a SentencePiece model (cannot parse it)") from None
        if sp.get_piece_size() == 0:
            raise ModelError(f"{path}: not a SentencePiece model (no pieces)")
        try:
            sp.encode("", return_type="offset_mapping")
        except (TypeError, ValueError):
            raise MissingExtraError("SentencePiece models need sentencepiece 0.2.2 or later (for offsets): "
                                    "pip install -U wubitok[fast]") from None
        return cls(sp, str(path))

    def _encoding(self, r: dict[str, Any]) -> Encoding:
        ids, offsets = r["ids"], [tuple(o) for o in r["offsets"]]
        partial = [False] * len(ids)
        # Byte-fallback pieces of one character: all but the last have an
        # empty span at the character, the last has the character's span.
        for i, tid in enumerate(ids):
            start, end = offsets[i]
            if not self._sp.is_byte(tid):
                continue
            if start == end:
                partial[i] = True
                offsets[i] = (start, start + 1)
            elif i > 0 and partial[i - 1] and offsets[i - 1][0] == start:
                partial[i] = True
        return Encoding(list(ids), list(r["pieces"]), offsets, partial)

    def _encode(self, text: str) -> Encoding:
        return self._encoding(self._sp.encode(_scrub(text), return_type="offset_mapping"))

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        results = self._sp.encode([_scrub(t) for t in texts], return_type="offset_mapping")
        return [self._encoding(r) for r in results]

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        # sentencepiece's decode leaves out its control pieces (<s>, </s>) either way
        return self._sp.decode(list(ids))

    def token_to_id(self, token: str) -> int | None:
        tid = self._sp.piece_to_id(token)
        # piece_to_id answers the unknown id for pieces it does not have.
        return tid if self._sp.id_to_piece(tid) == token else None

    def id_to_token(self, id: int) -> str | None:
        return self._sp.id_to_piece(id) if 0 <= id < self._sp.get_piece_size() else None

    @property
    def vocab_size(self) -> int:
        return self._sp.get_piece_size()

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        if not 0 <= id < self._sp.get_piece_size() or not self._sp.is_byte(id):
            return None
        return _fallback_byte(self._sp.id_to_piece(id))


# -- tiktoken rank files ---------------------------------------------------------

# The pre-tokenizer patterns of tiktoken's public encodings (tiktoken_ext.openai_public).
TIKTOKEN_PATTERNS = {
    "r50k": r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""",
    "cl100k": (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
        r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
    ),
    "o200k": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
}
# Number of ranks in the public rank files -> their pattern.
_PATTERN_BY_SIZE = {50256: "r50k", 50280: "r50k", 100256: "cl100k", 199998: "o200k"}


# tiktoken keeps ranks as 32-bit unsigned integers; the largest public encoding has 200k.
MAX_RANK = 2**32 - 1


def parse_rank_file(path: str | os.PathLike) -> dict[bytes, int]:
    """``base64(token) rank`` lines -> {token bytes: rank}, with line-exact errors."""
    ranks: dict[bytes, int] = {}
    seen: set[int] = set()
    for lineno, line in enumerate(read_model_text(path).splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError("expected 'base64-token rank'")
            token = base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
        except (ValueError, binascii.Error) as exc:
            raise ModelError(f"{path}:{lineno}: not a tiktoken rank line ({exc})") from None
        if not 0 <= rank < MAX_RANK:
            raise ModelError(f"{path}:{lineno}: rank {rank} is out of range (0 to {MAX_RANK - 1:,})")
        if token in ranks or rank in seen:
            raise ModelError(f"{path}:{lineno}: token or rank {rank} given twice")
        ranks[token] = rank
        seen.add(rank)
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ModelError(f"{path}: not a byte-level rank file ({len(missing)} of the 256 single bytes have no rank)")
    return ranks


def _char_spans(text: str, lengths: Sequence[int]) -> tuple[list[tuple[int, int]], list[bool]]:
    """Character spans and partial flags of consecutive byte pieces of ``text``'s UTF-8."""
    data = text.encode("utf-8")
    starts = [(b & 0xC0) != 0x80 for b in data]  # a byte that begins a character
    char_of = list(accumulate(starts, initial=-1))[1:]  # character index of each byte
    nbytes, offsets, partial, pos = len(data), [], [], 0
    for n in lengths:
        b0, b1 = pos, pos + n
        pos = b1
        if n == 0:
            c = char_of[b0] if b0 < nbytes else len(text)
            offsets.append((c, c))
            partial.append(False)
            continue
        offsets.append((char_of[b0], char_of[b1 - 1] + 1))
        partial.append(not (starts[b0] and (b1 == nbytes or starts[b1])))
    return offsets, partial


class TiktokenRanks(_External):
    model_type = "tiktoken"

    def __init__(self, ranks: dict[bytes, int], pattern: str = "auto", name: str = "ranks", source: str = ""):
        tiktoken = _require("tiktoken", "a tiktoken rank file", "tiktoken")
        if pattern == "auto":
            pattern = _PATTERN_BY_SIZE.get(len(ranks), "cl100k")
        if pattern not in TIKTOKEN_PATTERNS:
            raise InputError(f"unknown tiktoken pattern {pattern!r} (known: auto, {', '.join(TIKTOKEN_PATTERNS)})")
        self.pattern = pattern
        self.source = source
        self._ranks = ranks
        self._bytes = {rank: token for token, rank in ranks.items()}
        self._enc = tiktoken.Encoding(name=name, pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=ranks,
                                      special_tokens={})

    @classmethod
    def from_file(cls, path: str | os.PathLike, pattern: str = "auto") -> "TiktokenRanks":
        _require("tiktoken", "a tiktoken rank file", "tiktoken")
        return cls(parse_rank_file(path), pattern, Path(path).stem, str(path))

    def _encoding(self, text: str, ids: list[int]) -> Encoding:
        pieces = [self._bytes[i] for i in ids]
        offsets, partial = _char_spans(text, [len(p) for p in pieces])
        return Encoding(ids, [display_bytes(p) for p in pieces], offsets, partial)

    def _encode(self, text: str) -> Encoding:
        text = _scrub(text)
        return self._encoding(text, self._enc.encode_ordinary(text))

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        texts = [_scrub(t) for t in texts]
        return [self._encoding(t, ids) for t, ids in zip(texts, self._enc.encode_ordinary_batch(texts))]

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        # a rank file holds no special tokens
        return self._enc.decode(list(ids))

    def token_to_id(self, token: str) -> int | None:
        return self._ranks.get(token.encode("utf-8"))

    def id_to_token(self, id: int) -> str | None:
        data = self._bytes.get(id)
        return None if data is None else display_bytes(data)

    @property
    def vocab_size(self) -> int:
        return len(self._ranks)

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        return self._bytes.get(id)


def load_external(kind: str, path: str | os.PathLike, **options: Any) -> Tokenizer:
    """Open a tokenizer of another library: ``kind`` is "hf", "spm" or "tiktoken"."""
    if kind == "hf":
        return HFTokenizer.from_file(path)
    if kind == "spm":
        return SentencePieceModel.from_file(path)
    if kind == "tiktoken":
        return TiktokenRanks.from_file(path, **options)
    raise InputError(f"unknown external tokenizer kind {kind!r} (known: {', '.join(EXTERNAL_KINDS)})")
