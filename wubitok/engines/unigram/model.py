"""Unigram language-model tokenizer (SentencePiece style), lossless.

Text to pieces (``pre_tokenizers.metaspace``): a space becomes ``▁`` and starts a
word (SentencePiece with ``add_dummy_prefix=False``: nothing is prepended, so
a leading space is a ``▁`` like any other); line breaks and tabs are words of
their own; every word is segmented by Viterbi over the vocabulary pieces.
With ``whitespace_pieces`` (sentencepiece's ``allow_whitespace_only_pieces``;
the training default, as it is the better of the two on indented text) a
run of spaces stays with the word after it and pieces may be runs of ``▁``,
so an indentation of eight spaces is one or two tokens, not eight.  A model
file says ``"whitespace_pieces": true`` when it has them on; without the
key (models made before) it is off.

Lossless: ``decode(encode(x).ids) == x`` for every ``str`` when byte
fallback is on (the default).  A character without a piece becomes its UTF-8
bytes as ``<0xNN>`` pieces, and so does a ``▁`` that is in the input itself,
so a ``▁`` piece always means a space and a byte piece always means the
byte.  Without byte fallback such characters become ``<unk>``.

Ids: the special tokens first (``<unk>``, ``<s>``, ``</s>``, then any
others), then the 256 byte pieces (with byte fallback), then the trained
pieces, best score first.  A special token written in the text is matched as
that token.

Subword regularization: ``encode_nbest(text, n)`` gives the n best
segmentations, ``sample_encode(text, alpha)`` draws one with probability
proportional to ``P(segmentation) ** alpha``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Mapping, Sequence

from ...errors import InputError, ModelError
from ...text.utf8 import decode_utf8
from ..base import Encoding, EngineOptions, Tokenizer, TrainingArgs, check_int
from ..corpus import BlockCounter, Corpus
from ..pre_tokenizers.metaspace import END, SPACE_MARK, count_runs, split_words
from ..pre_tokenizers.special import SpecialSplitter, special_token_list
from .fast import train_with_sentencepiece
from .lattice import Edge, PieceLattice, nbest_paths, sample_path
from .trainer import MAX_PIECE_LENGTH, SEED_SIZE, SHRINKING_FACTOR, SUB_ITERATIONS, train_unigram

TRAINED_BY_PURE = "wubitok Unigram trainer (sentencepiece's EM and pruning)"
TRAINED_BY_FAST = "sentencepiece unigram trainer"
DEFAULT_SPECIALS = ("<unk>", "<s>", "</s>")
# Trained scores are rounded to multiples of 1/SCORE_GRID.  sentencepiece keeps scores and path
# sums in 32 bits, we and HF in 64: on this grid every sum of a path up to 2**16 in size (some
# thousands of pieces) is exact in both, so the two see the same ties and, keeping the first
# path into a position, break them the same way; off the grid 4% of modern lines came out
# otherwise in the .model export (bench/bench_sentencepiece_export.py).  The rounding moves a
# log-probability by at most 0.002.
SCORE_GRID = 256
UNK = "<unk>"
# What count_runs writes for a space and for the end of a line.
RUN_MARKS = SPACE_MARK + END


@dataclass(frozen=True)
class UnigramOptions(EngineOptions):
    """Unigram's own training options.  ``vocab_size`` counts specials and the
    256 byte pieces; ``min_frequency``: seed substrings must occur this often
    (at least 2).  ``whitespace_pieces``: runs of spaces may be pieces (see the
    module doc); the others are sentencepiece's, under its names."""

    byte_fallback: bool = True
    max_piece_length: int = MAX_PIECE_LENGTH
    seed_size: int = SEED_SIZE
    shrinking_factor: float = SHRINKING_FACTOR
    num_sub_iterations: int = SUB_ITERATIONS
    whitespace_pieces: bool = True

    counted: ClassVar[tuple[str, ...]] = ("whitespace_pieces",)


def _byte_token(b: int) -> str:
    return f"<0x{b:02X}>"


class Unigram(Tokenizer):
    model_type: ClassVar[str] = "unigram"
    lossless: ClassVar[bool] = True

    def __init__(
        self,
        pieces: Sequence[tuple[str, float]],
        *,
        special_tokens: Sequence[str] = DEFAULT_SPECIALS,
        byte_fallback: bool = True,
        trained_by: str = TRAINED_BY_PURE,
        training: dict[str, Any] | None = None,
        whitespace_pieces: bool = True,
    ):
        if not isinstance(byte_fallback, bool):
            raise ModelError(f"byte_fallback must be true or false, not {byte_fallback!r}")
        if not isinstance(whitespace_pieces, bool):
            raise ModelError(f"whitespace_pieces must be true or false, not {whitespace_pieces!r}")
        self.whitespace_pieces = whitespace_pieces
        self.special_tokens = list(special_tokens)
        if not self.special_tokens or self.special_tokens[0] != UNK:
            raise ModelError(f"Unigram model: the first special token must be {UNK!r}")
        if len(set(self.special_tokens)) != len(self.special_tokens):
            raise ModelError("Unigram model: repeated special tokens")
        self.byte_fallback = byte_fallback
        self.trained_by = str(trained_by)
        self.training = dict(training or {})
        self._byte_base = len(self.special_tokens)
        self._piece_base = self._byte_base + (256 if byte_fallback else 0)
        self._pieces = [(str(p), float(s)) for p, s in pieces]
        self._tokens = self.special_tokens + ([_byte_token(b) for b in range(256)] if byte_fallback else []) \
            + [p for p, _ in self._pieces]
        self._ids: dict[str, int] = {}
        for i, tok in enumerate(self._tokens):
            if tok in self._ids:
                raise ModelError(f"Unigram model: token {tok!r} is listed twice")
            if i >= self._piece_base and (not tok or SPACE_MARK in tok[1:] and not (
                    whitespace_pieces and not tok.strip(SPACE_MARK))):
                raise ModelError(f"Unigram model: invalid piece {tok!r}")
            self._ids[tok] = i
        self.unk_id = 0
        self.lossless = byte_fallback  # type: ignore[misc]  # per model: no byte fallback, no guarantee
        self._lattice = PieceLattice({p: (self._piece_base + i, s) for i, (p, s) in enumerate(self._pieces)})
        self._splitter = SpecialSplitter({t: i for i, t in enumerate(self.special_tokens)})

    # -- training (train, count, train_from_counts: see Tokenizer) -------------
    Options = UnigramOptions
    default_specials = DEFAULT_SPECIALS
    count_marks = RUN_MARKS
    fast_from_counts = False  # sentencepiece reads sentences, not counts

    @classmethod
    def _train(cls, corpus: Corpus, args: TrainingArgs, own: UnigramOptions, checked: dict[str, Any]) -> Unigram:
        """``backend="fast"`` trains with sentencepiece on the same words (from the text itself)."""
        if not args.fast:
            return super()._train(corpus, args, own, checked)
        pieces = train_with_sentencepiece(
            corpus.blocks(cancel=args.cancel),
            vocab_size=args.vocab_size - (len(args.special_tokens) - len(DEFAULT_SPECIALS)),
            byte_fallback=own.byte_fallback, max_piece_length=own.max_piece_length, seed_size=own.seed_size,
            shrinking_factor=own.shrinking_factor, num_sub_iterations=own.num_sub_iterations,
            whitespace_pieces=own.whitespace_pieces, progress=args.progress, cancel=args.cancel)
        return cls._model(pieces, args, checked, TRAINED_BY_FAST)

    @classmethod
    def min_vocab_size(cls, special_tokens: Sequence[str] | None = None, **options: Any) -> int:
        """The special tokens, the 256 byte pieces (with ``byte_fallback``, the default) and one piece."""
        bytes_ = 256 if options.get("byte_fallback", True) else 0
        return len(special_token_list(DEFAULT_SPECIALS, special_tokens)) + bytes_ + 1

    def count_options(self) -> dict[str, Any]:
        return {"whitespace_pieces": self.whitespace_pieces}

    @classmethod
    def _block_counter(cls, special_tokens: Sequence[str], own: UnigramOptions) -> BlockCounter:
        """Script runs, each with the symbol after it (``count_runs``): the trainer's
        seeding searches substrings of these, so no further text is needed.
        Special tokens in the text are counted as text."""
        # A partial of a module-level function: picklable, for worker processes.
        return partial(count_runs, whitespace_runs=own.whitespace_pieces)

    @classmethod
    def _checked(cls, args: TrainingArgs, own: UnigramOptions) -> dict[str, Any]:
        """The Unigram options as the model records them."""
        for name, value in (("byte_fallback", own.byte_fallback), ("whitespace_pieces", own.whitespace_pieces)):
            if not isinstance(value, bool):
                raise InputError(f"{name} must be true or false, not {value!r}")
        byte_fallback = own.byte_fallback
        num_meta = len(args.special_tokens) + (256 if byte_fallback else 0)
        if args.vocab_size <= num_meta:
            raise InputError(f"vocab_size {args.vocab_size} is too small: the {len(args.special_tokens)} special "
                             "tokens" + (" and 256 byte pieces" if byte_fallback else "") + f" alone take {num_meta}")
        shrinking_factor = own.shrinking_factor
        if not isinstance(shrinking_factor, (int, float)) or not 0.5 <= shrinking_factor <= 0.95:
            raise InputError(f"shrinking_factor must be between 0.5 and 0.95, not {shrinking_factor!r}")
        return {"byte_fallback": own.byte_fallback, "whitespace_pieces": own.whitespace_pieces,
                "max_piece_length": check_int("max_piece_length", own.max_piece_length, 1),
                "seed_size": check_int("seed_size", own.seed_size, 1),
                "shrinking_factor": shrinking_factor,
                "num_sub_iterations": check_int("num_sub_iterations", own.num_sub_iterations, 1)}

    @classmethod
    def _learn(cls, counts: Mapping[str, int], args: TrainingArgs, own: UnigramOptions,
               options: dict[str, Any]) -> Unigram:
        byte_fallback = options["byte_fallback"]
        pieces = train_unigram(
            counts,
            vocab_size=args.vocab_size,
            num_meta=len(args.special_tokens) + (256 if byte_fallback else 0),
            min_frequency=args.min_frequency,
            max_piece_length=options["max_piece_length"],
            seed_size=options["seed_size"],
            shrinking_factor=float(options["shrinking_factor"]),
            num_sub_iterations=options["num_sub_iterations"],
            progress=args.progress,
            cancel=args.cancel,
        )
        return cls._model(pieces, args, options, TRAINED_BY_PURE)

    @classmethod
    def _model(cls, pieces: list[tuple[str, float]], args: TrainingArgs, options: dict[str, Any],
               trained_by: str) -> Unigram:
        """The trained model: the pieces less those the specials and byte pieces already are,
        their scores on the grid (``SCORE_GRID``)."""
        byte_fallback = options["byte_fallback"]
        reserved = set(args.special_tokens) | ({_byte_token(b) for b in range(256)} if byte_fallback else set())
        training = {"vocab_size": args.vocab_size, "min_frequency": args.min_frequency,
                    **{k: v for k, v in options.items() if k not in ("byte_fallback", "whitespace_pieces")},
                    "backend": args.backend}
        return cls([(p, round(s * SCORE_GRID) / SCORE_GRID) for p, s in pieces if p not in reserved],
                   special_tokens=args.special_tokens,
                   byte_fallback=byte_fallback, trained_by=trained_by, training=training,
                   whitespace_pieces=options["whitespace_pieces"])

    # -- use ------------------------------------------------------------------
    def _unknown(self, text: str, start: int, end: int, ids: list, offsets: list, partial: list) -> None:
        """A character with no piece: its bytes, or <unk>."""
        if not self.byte_fallback:
            ids.append(self.unk_id)
            offsets.append((start, end))
            partial.append(False)
            return
        for ch_pos in range(start, end):
            data = text[ch_pos].encode("utf-8", "surrogatepass")
            for b in data:
                ids.append(self._byte_base + b)
                offsets.append((ch_pos, ch_pos + 1))
                partial.append(len(data) > 1)

    def _edges(self, text: str) -> list[Edge]:
        """The whole text's lattice (for n-best and sampling)."""
        edges: list[Edge] = []
        for start, end, special in self._splitter.split(text):
            if special is not None:
                edges.append((start, end, special, 0.0))
                continue
            for word, off in split_words(text, start, end, self.whitespace_pieces):
                if not word:
                    edges.append((off, off + 1, None, 0.0))  # a literal "▁": always bytes
                else:
                    edges.extend(self._lattice.edges(word, off))
        return edges

    def _encoding_from_path(self, text: str, path: list[Edge]) -> Encoding:
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        partial: list[bool] = []
        for start, end, pid, _ in path:
            if pid is None:
                self._unknown(text, start, end, ids, offsets, partial)
            else:
                ids.append(pid)
                offsets.append((start, end))
                partial.append(False)
        return Encoding(ids, [self._tokens[i] for i in ids], offsets, partial)

    def _encode(self, text: str) -> Encoding:
        if not isinstance(text, str):
            raise InputError(f"can only encode str, not {type(text).__name__}")
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        partial: list[bool] = []
        viterbi = self._lattice.viterbi
        for start, end, special in self._splitter.split(text):
            if special is not None:
                ids.append(special)
                offsets.append((start, end))
                partial.append(False)
                continue
            for word, off in split_words(text, start, end, self.whitespace_pieces):
                if not word:
                    self._unknown(text, off, off + 1, ids, offsets, partial)
                    continue
                for pid, a, b in viterbi(word):
                    if pid is None:
                        self._unknown(text, off + a, off + b, ids, offsets, partial)
                    else:
                        ids.append(pid)
                        offsets.append((off + a, off + b))
                        partial.append(False)
        tokens = self._tokens
        return Encoding(ids, [tokens[i] for i in ids], offsets, partial)

    def encode_nbest(self, text: str, n: int) -> list[Encoding]:
        """The ``n`` most probable segmentations, best first (fewer if the
        text has fewer)."""
        if not isinstance(text, str):
            raise InputError(f"can only encode str, not {type(text).__name__}")
        n = check_int("n", n, 1)
        return [self._encoding_from_path(text, path) for _, path in nbest_paths(self._edges(text), len(text), n)]

    def sample_encode(self, text: str, alpha: float = 0.1, seed: int | None = None) -> Encoding:
        """One segmentation drawn with probability proportional to
        ``P(segmentation) ** alpha`` (SentencePiece's subword regularization;
        a small alpha samples more widely).  ``seed`` makes it repeatable."""
        if not isinstance(text, str):
            raise InputError(f"can only encode str, not {type(text).__name__}")
        if not isinstance(alpha, (int, float)) or alpha <= 0:
            raise InputError(f"alpha must be a positive number, not {alpha!r}")
        path = sample_path(self._edges(text), len(text), float(alpha), random.Random(seed))
        return self._encoding_from_path(text, path)

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        if skip_special_tokens:
            ids = self._without_specials(ids)
        out: list[str] = []
        pending = bytearray()
        byte_base, piece_base = self._byte_base, self._piece_base
        tokens = self._tokens
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(tokens):
                raise InputError(f"unknown token id {i!r} (this model has ids 0-{len(tokens) - 1})")
            if byte_base <= i < piece_base:
                pending.append(i - byte_base)
                continue
            if pending:
                out.append(decode_utf8(pending))
                pending.clear()
            tok = tokens[i]
            out.append(tok if i < byte_base else tok.replace(SPACE_MARK, " "))
        if pending:
            out.append(decode_utf8(pending))
        return "".join(out)

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        if isinstance(id, int) and not isinstance(id, bool) and 0 <= id < len(self._tokens):
            return self._tokens[id]
        return None

    @property
    def vocab_size(self) -> int:
        return len(self._tokens)

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        """The byte of a byte-fallback piece (``<0xE9>``)."""
        if self.byte_fallback and isinstance(id, int) and self._byte_base <= id < self._piece_base:
            return bytes([id - self._byte_base])
        return None

    def score(self, id: int) -> float | None:
        """A trained piece's log-probability (None for specials and bytes)."""
        k = id - self._piece_base
        return self._pieces[k][1] if 0 <= k < len(self._pieces) else None

    def describe(self) -> dict[str, Any]:
        return {"model": self.model_type, "vocab_size": self.vocab_size, "lossless": self.lossless,
                "byte_fallback": self.byte_fallback, "trained_by": self.trained_by,
                **({"training": self.training} if self.training else {})}

    # -- persistence ----------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "pieces": [[p, s] for p, s in self._pieces],
            "special_tokens": self.special_tokens,
            "byte_fallback": self.byte_fallback,
            "trained_by": self.trained_by,
            "training": self.training,
            # Written only when on, so models without it keep their bytes.
            **({"whitespace_pieces": True} if self.whitespace_pieces else {}),
        }

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> "Unigram":
        raw = data["pieces"]
        if not isinstance(raw, list):
            raise ModelError("Unigram model: 'pieces' must be a list")
        pieces = []
        for item in raw:
            if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str)
                    or isinstance(item[1], bool) or not isinstance(item[1], (int, float))):
                raise ModelError(f"Unigram model: bad piece entry {item!r}")
            pieces.append((item[0], float(item[1])))
        specials = data["special_tokens"]
        if not isinstance(specials, list) or not all(isinstance(t, str) and t for t in specials):
            raise ModelError("Unigram model: 'special_tokens' must be a list of non-empty strings")
        training = data.get("training", {})
        if not isinstance(training, dict):
            raise ModelError("Unigram model: 'training' must be an object")
        return cls(pieces, special_tokens=specials, byte_fallback=data["byte_fallback"],
                   trained_by=data["trained_by"], training=training,
                   whitespace_pieces=data.get("whitespace_pieces", False))


