"""Byte-level BPE, GPT-2 / GPT-4 style: the classic baseline Wubi-BPE is compared with.

Base symbols are the 256 byte values of the UTF-8 text, so nothing is ever
unknown.  Text is first cut into special tokens and GPT-4 (cl100k) regex
pre-tokens (``pre_tokenizers.gpt4``); merges never cross a pre-token.

Id layout (fixed, documented for the CLI and the GUI)::

    0..3          <pad> <unk> <s> </s>   (always present)
    4..k-1        user special tokens, in the order given
    k..k+255      the bytes 0x00..0xFF
    k+256+i       merge i

Token strings use GPT-2's byte-to-printable mapping (space shows as "Ġ",
newline as "Ċ"), as in HF ``tokenizers``' ByteLevel models, so a vocabulary
reads the same as theirs.

Lossless on every Python ``str``: lone surrogates (which a ``str`` may hold
but UTF-8 may not) are written as their three "surrogatepass" bytes and read
back the same way, so ``decode(encode(x).ids) == x`` always.  Decoding an id
sequence that is not valid UTF-8 (e.g. half of a character) gives U+FFFD for
the broken bytes.

Training matches HF ``BpeTrainer`` merge for merge: pairs tie-break by HF's
symbol order (bytes in the code-point order of their printable form), which
this module gets by relabelling the bytes before calling ``bpe.trainer``.  The
``fast`` backend trains HF's own ``BpeTrainer`` on exactly the same
pre-token counts and converts its merges into this model.  (When a merge
re-creates a string that is already a token, HF reuses that token while
this model gives the merge its own id; ``token_to_id`` returns the first.)

Encoding gives the tokens of applying the merges by rank, computed by the
shared backtracking encoder (``bpe.encoder``) and cached per
pre-token.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import accumulate, repeat
from operator import add
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from ...errors import InputError
from ...progress import check_cancel
from ...text.utf8 import DECODE_ERRORS
from ..backends import choose_encoder
from ..base import Encoding, EngineOptions, Tokenizer, TrainingArgs
from ..caches import remember
from ..corpus import BlockCounter
from ..pre_tokenizers.gpt4 import GPT4_PATTERN, PreTokenizer, compile_pattern, count_gpt4_pretokens
from ..pre_tokenizers.special import special_token_list
from .encoder import BacktrackEncoder
from .fast import learn_merges_fast
from .hf_byte_level import HFByteLevelIds, Unsupported
from .limits import MAX_TOKEN_SYMBOLS, check_token_length
from .trainer import train_merges

DEFAULT_SPECIAL_TOKENS = ("<pad>", "<unk>", "<s>", "</s>")
_PIECE_CACHE = 200_000
_SURROGATE = re.compile("[\ud800-\udfff]")  # lone surrogates: a Rust string cannot hold them


@lru_cache(maxsize=None)
def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte -> printable character map (printable Latin-1 stays itself)."""
    printable = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    mapping = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in mapping:
            mapping[b] = chr(256 + extra)
            extra += 1
    return mapping


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _utf8_len(ch: str) -> int:
    cp = ord(ch)
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


@dataclass(frozen=True)
class ByteLevelBPEOptions(EngineOptions):
    """Byte-level BPE's own training option: ``pattern``, the pre-tokenizer
    regex (GPT-4's by default).  ``vocab_size`` counts everything: specials,
    the 256 bytes and the merges; ``backend="fast"`` trains with HF
    ``tokenizers`` on the same pre-token counts."""

    pattern: str = GPT4_PATTERN

    counted: ClassVar[tuple[str, ...]] = ("pattern",)


class ByteLevelBPE(Tokenizer):
    model_type = "bpe"
    format_version = 1
    lossless = True

    def __init__(
        self,
        merges: Sequence[tuple[int, int]] = (),
        special_tokens: Sequence[str] | None = None,
        pattern: str = GPT4_PATTERN,
        training: dict[str, Any] | None = None,
    ):
        """``merges`` are in byte space: bytes are 0..255, merge i is 256 + i."""
        self.special_tokens = special_token_list(DEFAULT_SPECIAL_TOKENS, special_tokens)
        self.pattern = pattern
        self.training = dict(training or {})
        self.merges = [(int(a), int(b)) for a, b in merges]
        lengths = [1] * 256  # checked before any token is spelled out
        for i, (a, b) in enumerate(self.merges):
            if not (0 <= a < 256 + i and 0 <= b < 256 + i):
                raise InputError(f"merge {i} ({a}, {b}) refers to a token not made before it")
            lengths.append(lengths[a] + lengths[b])
            check_token_length(i, lengths[-1])
        self._offset = len(self.special_tokens)
        self._pretok = PreTokenizer(pattern, self.special_tokens)
        # Same tokens as applying the merges by rank, in about one step per
        # token instead of one scan per merge (long Han pre-tokens).
        self._encoder = BacktrackEncoder(self.merges, 256, range(256))
        self._piece_cache: dict[str, tuple] = {}
        self._reads_specials = True  # False in ordinary(): special-token text is text
        self._encoder_choice = "auto"
        self._hf: HFByteLevelIds | None = None  # the fast ids encoder, when chosen and possible
        self._hf_tried = False

        b2u = bytes_to_unicode()
        piece_bytes = [bytes([b]) for b in range(256)]
        for a, b in self.merges:
            piece_bytes.append(piece_bytes[a] + piece_bytes[b])
        self._lengths = [len(p) for p in piece_bytes]
        self._tokens = [*self.special_tokens, *("".join(b2u[x] for x in p) for p in piece_bytes)]
        # Decoding table indexed by public id; a special decodes to its text.
        self._bytes = [*map(_utf8, self.special_tokens), *piece_bytes]
        self._special_ids = {t: i for i, t in enumerate(self.special_tokens)}
        self._token_ids: dict[str, int] = {}
        for i, tok in enumerate(self._tokens):
            self._token_ids.setdefault(tok, i)  # a repeated string keeps its first id

    # -- training (train, count, train_from_counts: see Tokenizer) ---------------
    Options = ByteLevelBPEOptions
    default_specials = DEFAULT_SPECIAL_TOKENS

    @classmethod
    def min_vocab_size(cls, special_tokens: Sequence[str] | None = None, **options: Any) -> int:
        """The special tokens and the 256 bytes (a model may have no merges)."""
        return len(special_token_list(DEFAULT_SPECIAL_TOKENS, special_tokens)) + 256

    def count_options(self) -> dict[str, Any]:
        return {"pattern": self.pattern}

    @classmethod
    def _block_counter(cls, special_tokens: Sequence[str], own: ByteLevelBPEOptions) -> BlockCounter:
        if not isinstance(own.pattern, str):
            raise InputError(f"pattern must be a regular expression string, not {own.pattern!r}")
        compile_pattern(own.pattern)  # a bad pattern fails before any reading
        return partial(count_gpt4_pretokens, special_tokens=tuple(special_tokens), pattern=own.pattern)

    @classmethod
    def _checked(cls, args: TrainingArgs, own: ByteLevelBPEOptions) -> None:
        n_specials = len(args.special_tokens)
        if args.vocab_size < n_specials + 256:
            raise InputError(
                f"vocab_size {args.vocab_size} is too small: {n_specials} special tokens and 256 bytes "
                f"need {n_specials + 256}"
            )
        cls._block_counter(args.special_tokens, own)

    @classmethod
    def _learn(cls, counts: Mapping[str, int], args: TrainingArgs, own: ByteLevelBPEOptions,
               checked: None) -> ByteLevelBPE:
        pattern = own.pattern
        num_merges = args.vocab_size - len(args.special_tokens) - 256
        # HF numbers its alphabet in code-point order of the printable byte
        # forms, and the merge order follows: relabel the bytes to that order
        # for the trainer (bytes.translate does it at C speed), and back.
        b2u = bytes_to_unicode()
        order = sorted(range(256), key=b2u.__getitem__)
        rank = bytes(order.index(b) for b in range(256))
        words = sorted(counts.items())  # the merges depend only on the counts, not on their order
        if args.fast:
            printable_of = [b2u[b] for b in range(256)]  # str.translate table for latin-1 text
            merges = learn_merges_fast(
                ((_utf8(w).decode("latin-1").translate(printable_of), c) for w, c in words),
                [(b2u[b], b) for b in range(256)],
                first_new_id=256, num_merges=num_merges, min_frequency=args.min_frequency,
                max_token_length=MAX_TOKEN_SYMBOLS, total=sum(counts.values()), progress=args.progress,
                cancel=args.cancel,
            )
        else:
            ranked = train_merges(((tuple(_utf8(w).translate(rank)), c) for w, c in words), first_new_id=256,
                                  num_merges=num_merges, min_frequency=args.min_frequency,
                                  max_token_length=MAX_TOKEN_SYMBOLS, progress=args.progress, cancel=args.cancel)
            merges = [(order[a] if a < 256 else a, order[b] if b < 256 else b) for a, b in ranked]
        check_cancel(args.cancel)
        training = {"vocab_size": args.vocab_size, "min_frequency": args.min_frequency, "backend": args.backend}
        return cls(merges, args.special_tokens[len(DEFAULT_SPECIAL_TOKENS):], pattern, training)

    # -- use ----------------------------------------------------------------------
    def use_encoder(self, backend: str = "auto") -> str:
        """How ``encode_batch_ids`` (corpus encoding) applies the merges:
        "python", "fast" (HF ``tokenizers``, the same ids: ``hf_byte_level``)
        or "auto" (fast when installed; the default).  ``encode`` (with
        offsets) is always ours.  Returns the encoder now in use for ids."""
        choose_encoder(backend, self.model_type)  # a bad choice fails here
        if backend != self._encoder_choice:
            self._encoder_choice, self._hf, self._hf_tried = backend, None, False
        return "python" if self._hf_ids() is None else "fast"

    @property
    def encoder_choice(self) -> str:
        return self._encoder_choice

    def _hf_ids(self) -> HFByteLevelIds | None:
        if not self._hf_tried:
            self._hf_tried = True
            if choose_encoder(self._encoder_choice, self.model_type) == "fast":
                try:
                    k = len(self.special_tokens)
                    pieces = [self.id_to_token(i) or "" for i in range(k, self.vocab_size)]
                    self._hf = HFByteLevelIds(self.pattern, pieces, self.merges, k)
                except Unsupported:
                    self._hf = None
        return self._hf

    def encode_batch_ids(self, texts: Iterable[str]) -> list[list[int]]:
        texts = list(texts)
        hf = self._hf_ids()
        if hf is None or not all(isinstance(t, str) for t in texts):
            return super().encode_batch_ids(texts)
        # Texts HF cannot take as we do (see hf_byte_level) are encoded here.
        def ours(text: str) -> bool:
            return _SURROGATE.search(text) is not None or (self._reads_specials and self.find_special(text) is not None)

        joined = "".join(texts)
        if not (_SURROGATE.search(joined) or (self._reads_specials and self.find_special(joined))):
            return hf.ids(texts)
        here = list(map(ours, texts))
        done = iter([self.encode(t).ids for t, h in zip(texts, here) if h])
        fast = iter(hf.ids([t for t, h in zip(texts, here) if not h]))
        return [next(done) if h else next(fast) for h in here]

    def _encode(self, text: str) -> Encoding:
        if not isinstance(text, str):
            raise InputError(f"encode needs a str, not {type(text).__name__}")
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        partial: list[bool] = []
        cache = self._piece_cache
        for piece, start, special in self._pretok.pieces(text):
            if special:
                ids.append(self._special_ids[piece])
                offsets.append((start, start + len(piece)))
                partial.append(False)
                continue
            hit = cache.get(piece)
            if hit is None:
                hit = self._encode_piece(piece)
                remember(cache, {piece: hit}, _PIECE_CACHE)
            p_ids, p_starts, p_ends, p_partial = hit
            ids.extend(p_ids)
            partial.extend(p_partial)
            if start:
                offsets.extend(zip(map(add, p_starts, repeat(start)), map(add, p_ends, repeat(start))))
            else:
                offsets.extend(zip(p_starts, p_ends))
        tokens = self._tokens
        return Encoding(ids, [tokens[i] for i in ids], offsets, partial)

    def _encode_piece(self, piece: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
        """Ids, start and end offsets (in ``piece``) and partial flags of one pre-token."""
        data = _utf8(piece)
        symbols = self._encoder.encode(data)
        ids = tuple(map(add, symbols, repeat(self._offset)))
        byte_ends = tuple(accumulate(map(self._lengths.__getitem__, symbols)))
        byte_starts = (0, *byte_ends[:-1])
        if len(data) == len(piece):  # ASCII: bytes are characters
            return ids, byte_starts, byte_ends, (False,) * len(ids)
        if len(data) == 3 * len(piece) and "\u0800" <= min(piece) and max(piece) < "\U00010000":
            # All three-byte characters (Han text): character = byte // 3.
            starts = tuple(b // 3 for b in byte_starts)
            ends = tuple((b + 2) // 3 for b in byte_ends)
            flags = tuple(bool(b % 3 or e % 3) for b, e in zip(byte_starts, byte_ends))
            return ids, starts, ends, flags
        # char_at[byte] = index of the character holding that byte;
        # first_byte[c] = where character c starts (with a sentinel at the end).
        char_at: list[int] = []
        first_byte = [0]
        for ci, ch in enumerate(piece):
            n = _utf8_len(ch)
            char_at.extend([ci] * n)
            first_byte.append(first_byte[-1] + n)
        starts = tuple(char_at[b] for b in byte_starts)
        ends = tuple(char_at[b - 1] + 1 for b in byte_ends)
        flags = tuple(first_byte[cs] != b or first_byte[ce] != e
                      for cs, ce, b, e in zip(starts, ends, byte_starts, byte_ends))
        return ids, starts, ends, flags

    def _ordinary_copy(self) -> "ByteLevelBPE":
        plain = copy.copy(self)
        plain._pretok = PreTokenizer(self._pretok.pattern)  # no special token is looked for
        plain._reads_specials = False
        return plain

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        if skip_special_tokens:
            ids = self._without_specials(ids)
        table = self._bytes
        if not isinstance(ids, (list, tuple)):
            ids = list(ids)
        try:
            if min(ids, default=0) < 0:
                raise IndexError
            data = b"".join([table[i] for i in ids])
        except (IndexError, TypeError):
            bad = next(i for i in ids if type(i) is not int or not 0 <= i < len(table))
            raise InputError(f"unknown token id {bad!r} (this model has ids 0..{len(table) - 1})") from None
        return data.decode("utf-8", DECODE_ERRORS)

    def token_to_id(self, token: str) -> int | None:
        return self._token_ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._tokens[id] if 0 <= id < len(self._tokens) else None

    @property
    def vocab_size(self) -> int:
        return len(self._tokens)

    def display_token(self, id: int, *, partial: bool = False) -> str:
        """The token as text; bytes that are only part of a character show as ``\\xNN``."""
        if not 0 <= id < len(self._tokens):
            return ""
        if id < self._offset:
            return self._tokens[id]
        return self._bytes[id].decode("utf-8", "backslashreplace")

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        return self._bytes[id] if self._offset <= id < len(self._tokens) else None

    def token_bytes(self, id: int) -> bytes:
        """The UTF-8 bytes a token decodes to (a special token: its own text)."""
        return self._bytes[id]

    # -- persistence ----------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        k = self._offset
        return {
            "special_tokens": self.special_tokens,
            "vocab": self._tokens,
            "merges": [[a + k, b + k] for a, b in self.merges],
            "pre_tokenizer": {"type": "regex", "pattern": self.pattern},
            "training": self.training,
        }

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> "ByteLevelBPE":
        specials = data["special_tokens"]
        vocab = data["vocab"]
        raw_merges = data["merges"]
        pre = data["pre_tokenizer"]
        training = data["training"]
        if not (isinstance(specials, list) and all(isinstance(t, str) and t for t in specials)):
            raise ValueError("special_tokens must be a list of non-empty strings")
        if specials[: len(DEFAULT_SPECIAL_TOKENS)] != list(DEFAULT_SPECIAL_TOKENS) or len(set(specials)) != len(
            specials
        ):
            raise ValueError("special_tokens must start with <pad> <unk> <s> </s> and not repeat")
        if not (isinstance(pre, dict) and pre.get("type") == "regex" and isinstance(pre.get("pattern"), str)):
            raise ValueError("pre_tokenizer must be {'type': 'regex', 'pattern': str}")
        if not isinstance(training, dict) or not isinstance(raw_merges, list):
            raise ValueError("training must be an object and merges a list")
        k = len(specials)
        merges = []
        for i, m in enumerate(raw_merges):
            if not (isinstance(m, list) and len(m) == 2 and all(type(x) is int and k <= x < k + 256 + i for x in m)):
                raise ValueError(f"merge {i} is not a pair of earlier token ids: {m!r}")
            merges.append((m[0] - k, m[1] - k))
        try:
            model = cls(merges, specials[len(DEFAULT_SPECIAL_TOKENS):], pre["pattern"], training)
        except InputError as exc:
            raise ValueError(str(exc)) from None
        if vocab != model._tokens:
            raise ValueError("vocab does not match the special tokens and merges")
        return model
