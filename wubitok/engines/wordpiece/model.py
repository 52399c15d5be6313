"""WordPiece (BERT style): BERT pre-tokenization, greedy longest match first.

Encoding: the text is split into BERT words (``pre_tokenizers.bert``); each word
becomes the longest vocabulary token that starts it, then the longest
``##``-prefixed token that continues it, and so on.  A word with no such
segmentation, or longer than ``max_input_chars_per_word`` characters,
becomes one ``[UNK]``.  Offsets point into the original text even after
lower-casing and accent stripping.

Decoding joins ``##`` pieces to the word before and puts a space between
words, except next to a CJK character or CJK/fullwidth punctuation (Chinese
has no spaces; BERT split it apart itself).  It is lossy by design: original
spacing, case, accents and unknown words are gone.

Training (``train``): by the WordPiece score, see ``wordpiece.trainer``; or,
with ``backend="fast"``, with Hugging Face ``tokenizers``' WordPieceTrainer,
which ranks merges by frequency, and the model says so (``trained_by``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Mapping, Sequence

from ...errors import InputError, ModelError
from ..base import Encoding, EngineOptions, Tokenizer, TrainingArgs, check_int
from ..caches import remember
from ..corpus import BlockCounter, Corpus
from ..pre_tokenizers.bert import BertPreTokenizer, count_bert_words, is_cjk, token_span
from ..pre_tokenizers.special import SpecialSplitter, special_token_list
from .fast import train_with_tokenizers
from .trainer import initial_alphabet, train_wordpiece

TRAINED_BY_PURE = "wubitok WordPiece trainer (WordPiece score)"
TRAINED_BY_FAST = "tokenizers WordPieceTrainer (frequency-ranked merges, not the WordPiece score)"
BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
UNK = "[UNK]"
# Words' pieces remembered by encode (oldest half dropped when full).
PIECE_CACHE = 100_000


def _tight(word: str) -> bool:
    """A CJK character or CJK/fullwidth punctuation: no space around it when
    decoding (Chinese is written without spaces; BERT split it apart)."""
    if len(word) != 1:
        return False
    cp = ord(word)
    return is_cjk(word) or 0x3000 <= cp <= 0x303F or 0xFF00 <= cp <= 0xFFEF


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{name} must be true or false, not {value!r}")
    return value


@dataclass(frozen=True)
class WordPieceOptions(EngineOptions):
    """WordPiece's own training options (BERT's pre-tokenizer and HF's trainer,
    under their names).  ``limit_alphabet`` caps the base characters (the most
    frequent are kept; the alphabet never takes more than the whole vocabulary)."""

    lowercase: bool = False
    strip_accents: bool = False
    max_input_chars_per_word: int = 100
    limit_alphabet: int | None = None

    counted: ClassVar[tuple[str, ...]] = ("lowercase", "strip_accents")


class WordPiece(Tokenizer):
    model_type: ClassVar[str] = "wordpiece"
    lossless: ClassVar[bool] = False

    def __init__(
        self,
        vocab: Sequence[str],
        *,
        special_tokens: Sequence[str] = BERT_SPECIALS,
        lowercase: bool = False,
        strip_accents: bool = False,
        max_input_chars_per_word: int = 100,
        continuing_prefix: str = "##",
        trained_by: str = TRAINED_BY_PURE,
        training: dict[str, Any] | None = None,
    ):
        self._vocab = list(vocab)
        self._ids = {t: i for i, t in enumerate(self._vocab)}
        if len(self._ids) != len(self._vocab):
            raise ModelError("WordPiece vocabulary has repeated tokens")
        if not isinstance(continuing_prefix, str) or not continuing_prefix:
            raise ModelError("WordPiece continuing prefix must be a non-empty string")
        self.special_tokens = list(special_tokens)
        for tok in [UNK, *self.special_tokens]:
            if tok not in self._ids:
                raise ModelError(f"WordPiece vocabulary lacks the special token {tok!r}")
        self.lowercase = _check_bool("lowercase", lowercase)
        self.strip_accents = _check_bool("strip_accents", strip_accents)
        self.max_input_chars_per_word = check_int("max_input_chars_per_word", max_input_chars_per_word, 1)
        self.continuing_prefix = continuing_prefix
        self.trained_by = str(trained_by)
        self.training = dict(training or {})
        self.unk_id = self._ids[UNK]
        self._special_ids = frozenset(self._ids[t] for t in self.special_tokens)
        self._pre = BertPreTokenizer(self.lowercase, self.strip_accents)
        self._splitter = SpecialSplitter({t: self._ids[t] for t in self.special_tokens})
        plen = len(continuing_prefix)
        # Word-initial tokens, and continuation tokens keyed without the prefix.
        self._cont = {t[plen:]: i for i, t in enumerate(self._vocab)
                      if t.startswith(continuing_prefix) and len(t) > plen}
        self._max_first = max((len(t) for t in self._vocab), default=1)
        self._max_cont = max((len(t) for t in self._cont), default=1)
        self._cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    # -- training (train, count, train_from_counts: see Tokenizer) -------------
    Options = WordPieceOptions
    default_specials = BERT_SPECIALS
    fast_from_counts = False  # HF's trainer reads the text itself

    @classmethod
    def _train(cls, corpus: Corpus, args: TrainingArgs, own: WordPieceOptions,
               options: dict[str, Any]) -> WordPiece:
        """``backend="fast"`` trains with HF ``tokenizers`` on the text itself
        (it reads files in Rust), whose merges are ranked by frequency."""
        if not args.fast:
            return super()._train(corpus, args, own, options)
        vocab = train_with_tokenizers(
            corpus, vocab_size=args.vocab_size, min_frequency=args.min_frequency, specials=args.special_tokens,
            limit_alphabet=own.limit_alphabet, progress=args.progress, cancel=args.cancel, **options)
        return cls(vocab, special_tokens=args.special_tokens, trained_by=TRAINED_BY_FAST,
                   training=cls._training(args, own.limit_alphabet), **options)

    @classmethod
    def min_vocab_size(cls, special_tokens: Sequence[str] | None = None, **options: Any) -> int:
        """The special tokens and one more token."""
        return len(special_token_list(BERT_SPECIALS, special_tokens)) + 1

    def count_options(self) -> dict[str, Any]:
        return {"lowercase": self.lowercase, "strip_accents": self.strip_accents}

    @classmethod
    def _block_counter(cls, special_tokens: Sequence[str], own: WordPieceOptions) -> BlockCounter:
        """BERT words (``count_bert_words``).  Special tokens written in the text
        are counted as words, as HF's trainer does."""
        # A partial of a module-level function: picklable, for worker processes.
        return partial(count_bert_words, lowercase=_check_bool("lowercase", own.lowercase),
                       strip_accents=_check_bool("strip_accents", own.strip_accents))

    @classmethod
    def _checked(cls, args: TrainingArgs, own: WordPieceOptions) -> dict[str, Any]:
        """The model options that training passes on."""
        if args.vocab_size <= len(args.special_tokens):
            raise InputError(f"vocab_size {args.vocab_size} is too small: it must be more than the "
                             f"{len(args.special_tokens)} special tokens")
        if own.limit_alphabet is not None:
            check_int("limit_alphabet", own.limit_alphabet, 1)
        return dict(lowercase=_check_bool("lowercase", own.lowercase),
                    strip_accents=_check_bool("strip_accents", own.strip_accents),
                    max_input_chars_per_word=check_int("max_input_chars_per_word", own.max_input_chars_per_word, 1))

    @staticmethod
    def _training(args: TrainingArgs, limit_alphabet: int | None) -> dict[str, Any]:
        return {"vocab_size": args.vocab_size, "min_frequency": args.min_frequency,
                "limit_alphabet": limit_alphabet, "backend": args.backend}

    @classmethod
    def _learn(cls, counts: Mapping[str, int], args: TrainingArgs, own: WordPieceOptions,
               options: dict[str, Any]) -> WordPiece:
        limit_alphabet = own.limit_alphabet
        specials = args.special_tokens
        # A longer word always encodes as [UNK]; its pieces would be wasted.
        max_chars = options["max_input_chars_per_word"]
        counts = {w: c for w, c in counts.items() if len(w) <= max_chars}
        if not counts:
            raise InputError(f"every word of the training text is longer than {max_chars} characters "
                             "(max_input_chars_per_word)")
        budget = args.vocab_size - len(specials)
        limit = budget if limit_alphabet is None else min(budget, limit_alphabet)
        taken = set(specials)
        alphabet = [t for t in initial_alphabet(counts, "##", limit) if t not in taken]
        made = train_wordpiece(counts, alphabet, num_merges=budget - len(alphabet), min_frequency=args.min_frequency,
                               prefix="##", progress=args.progress, cancel=args.cancel)
        vocab = specials + alphabet + [t for t in made if t not in taken]
        return cls(vocab, special_tokens=specials, trained_by=TRAINED_BY_PURE,
                   training=cls._training(args, limit_alphabet), **options)

    # -- use ------------------------------------------------------------------
    def _word_pieces(self, word: str) -> tuple[tuple[int, int, int], ...]:
        """(token id, start, end) over the word's characters; greedy longest first."""
        hit = self._cache.get(word)
        if hit is not None:
            return hit
        n = len(word)
        out: list[tuple[int, int, int]] = []
        if n > self.max_input_chars_per_word:
            out = [(self.unk_id, 0, n)]
        else:
            start = 0
            while start < n:
                table, longest = (self._ids, self._max_first) if start == 0 else (self._cont, self._max_cont)
                end = min(n, start + longest)
                while end > start:
                    tid = table.get(word[start:end])
                    if tid is not None:
                        break
                    end -= 1
                else:
                    out = [(self.unk_id, 0, n)]
                    break
                out.append((tid, start, end))
                start = end
        result = tuple(out)
        remember(self._cache, {word: result}, PIECE_CACHE)
        return result

    def _encode(self, text: str) -> Encoding:
        if not isinstance(text, str):
            raise InputError(f"can only encode str, not {type(text).__name__}")
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        for start, end, special in self._splitter.split(text):
            if special is not None:
                ids.append(special)
                offsets.append((start, end))
                continue
            for word, origins in self._pre.words(text, start, end):
                for tid, a, b in self._word_pieces(word):
                    ids.append(tid)
                    offsets.append(token_span(origins, a, b))
        vocab = self._vocab
        return Encoding(ids, [vocab[i] for i in ids], offsets, [False] * len(ids))

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        if skip_special_tokens:
            ids = self._without_specials(ids)
        prefix = self.continuing_prefix
        plen = len(prefix)
        words: list[str] = []
        for i in ids:
            tok = self.id_to_token(i)
            if tok is None:
                raise InputError(f"unknown token id {i!r} (this model has ids 0-{len(self._vocab) - 1})")
            if i not in self._special_ids and tok.startswith(prefix) and len(tok) > plen:
                if words:
                    words[-1] += tok[plen:]
                else:
                    words.append(tok[plen:])
            else:
                words.append(tok)
        out: list[str] = []
        prev_tight = False
        for w in words:
            tight = _tight(w)
            if out and not (tight or prev_tight):
                out.append(" ")
            out.append(w)
            prev_tight = tight
        return "".join(out)

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        if isinstance(id, int) and not isinstance(id, bool) and 0 <= id < len(self._vocab):
            return self._vocab[id]
        return None

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def describe(self) -> dict[str, Any]:
        """What the model is, for the GUI and ``wubitok info``-like output."""
        return {"model": self.model_type, "vocab_size": self.vocab_size, "lossless": self.lossless,
                "lowercase": self.lowercase, "strip_accents": self.strip_accents,
                "trained_by": self.trained_by, **({"training": self.training} if self.training else {})}

    # -- persistence ----------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "vocab": self._vocab,
            "special_tokens": self.special_tokens,
            "unk_token": UNK,
            "continuing_prefix": self.continuing_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "lowercase": self.lowercase,
            "strip_accents": self.strip_accents,
            "trained_by": self.trained_by,
            "training": self.training,
        }

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> "WordPiece":
        vocab = data["vocab"]
        if not isinstance(vocab, list) or not all(isinstance(t, str) and t for t in vocab):
            raise ModelError("WordPiece model: 'vocab' must be a list of non-empty strings")
        specials = data["special_tokens"]
        if not isinstance(specials, list) or not all(isinstance(t, str) for t in specials):
            raise ModelError("WordPiece model: 'special_tokens' must be a list of strings")
        if data.get("unk_token", UNK) != UNK:
            raise ModelError(f"WordPiece model: unknown-token must be {UNK!r}")
        training = data.get("training", {})
        if not isinstance(training, dict):
            raise ModelError("WordPiece model: 'training' must be an object")
        try:
            return cls(vocab, special_tokens=specials, lowercase=data["lowercase"],
                       strip_accents=data["strip_accents"],
                       max_input_chars_per_word=data["max_input_chars_per_word"],
                       continuing_prefix=data["continuing_prefix"],
                       trained_by=data["trained_by"], training=training)
        except InputError as exc:
            raise ModelError(f"WordPiece model: {exc}") from None
