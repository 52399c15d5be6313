"""The interface every tokenizer engine shares, and the model-file envelope.

A model file is one UTF-8 JSON object::

    {"format": "wubitok-tokenizer", "version": 1, "model": "<model type>", ...}

Each engine adds its own fields through ``_to_dict`` / ``_from_dict``.  Files
are written atomically, and ``load_tokenizer`` picks the class from ``model``.
"""
from __future__ import annotations

import copy
import functools
import json
import os
import threading
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence, TypeVar

from ..errors import InputError, ModelError, excerpt
from ..fileio import atomic_write_text
from ..progress import ProgressCallback
from ..registry import resolve
from ..wubi.byte_reading import ByteReading, begins_inside
from . import ENGINES
from .backends import check_backend, choose_backend, choose_encoder
from .corpus import BlockCounter, Corpus, count_corpus
from .pre_tokenizers.special import SpecialSplitter, special_token_list
from .stream import DecodeStream

FORMAT_NAME = "wubitok-tokenizer"
# How corpus encoding reads special-token text in documents: as plain text
# (the default), as the special tokens ("parse"), or as an error ("refuse").
SPECIAL_TEXT = ("plain", "parse", "refuse")
# transformers' special-token roles and the names our engines give those tokens
ROLE_TOKENS = {"pad_token": ("<pad>", "[PAD]"), "unk_token": ("<unk>", "[UNK]"), "bos_token": ("<s>",),
               "eos_token": ("</s>",), "cls_token": ("[CLS]",), "sep_token": ("[SEP]",), "mask_token": ("[MASK]",)}

@dataclass
class Encoding:
    """What ``encode`` returns: parallel lists, offsets index the input ``str``.

    A token that covers only part of a character (a byte-level piece of a
    multi-byte character) gets that character's span; ``partial[i]`` says so.
    """

    ids: list[int]
    tokens: list[str]
    offsets: list[tuple[int, int]]
    partial: list[bool] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.ids)

    def to_json(self) -> dict[str, Any]:
        return {"ids": self.ids, "tokens": self.tokens, "offsets": [list(o) for o in self.offsets]}


def check_int(name: str, value: Any, low: int) -> int:
    """A training or model option that must be an int (not a bool) of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InputError(f"{name} must be an integer >= {low}, not {excerpt(value)}")
    return value


@dataclass(frozen=True)
class TrainingArgs:
    """The options every engine's ``train`` and ``train_from_counts`` take, checked once
    (``check_training``); an engine's own options come on top (``EngineOptions``)."""

    model_type: str
    vocab_size: int
    min_frequency: int
    special_tokens: list[str]  # the engine's defaults, then the user's
    progress: ProgressCallback | None
    cancel: threading.Event | None
    backend: str  # "python", "fast", or "auto" until ``for_corpus`` decides it
    # ``_learn`` may empty the counts once it has read them (``train`` counted them itself; a
    # caller's counts, as ``train_from_counts`` gets them, stay as they are)
    owns_counts: bool = False

    def for_corpus(self, corpus_bytes: int) -> TrainingArgs:
        """These arguments with "auto" decided for a corpus of that many bytes (see ``backends``)."""
        return replace(self, backend=choose_backend(self.backend, self.model_type, corpus_bytes))

    @property
    def fast(self) -> bool:
        """Train with the reference library."""
        if self.backend == "auto":
            raise RuntimeError("the backend is decided by for_corpus() before training")
        return self.backend == "fast"


def check_training(
    model_type: str,
    *,
    vocab_size: Any,
    min_frequency: Any,
    special_tokens: Any,
    progress: Any,
    cancel: Any,
    backend: Any,
    default_specials: Sequence[str],
) -> TrainingArgs:
    """Check the common training arguments: a bad value is an ``InputError`` with one clear line.

    ``vocab_size`` >= 1 and ``min_frequency`` >= 0 are integers (not bools);
    special tokens are non-empty strings; ``progress`` is callable;
    ``cancel`` has ``is_set``; ``backend`` is "python", "fast" or "auto".
    Each engine checks on top what its own vocabulary needs.
    """
    vocab_size = check_int("vocab_size", vocab_size, 1)
    min_frequency = check_int("min_frequency", min_frequency, 0)
    specials = special_token_list(default_specials, special_tokens)
    if progress is not None and not callable(progress):
        raise InputError(f"progress must be a callable (stage, done, total), not {progress!r}")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise InputError(f"cancel must be a threading.Event, not {cancel!r}")
    backend = check_backend(backend, model_type)
    return TrainingArgs(model_type, vocab_size, min_frequency, specials, progress, cancel, backend)


Opts = TypeVar("Opts", bound="EngineOptions")
Tok = TypeVar("Tok", bound="Tokenizer")


@dataclass(frozen=True)
class EngineOptions:
    """An engine's own training options, on top of ``TrainingArgs``: each engine
    subclasses it as a frozen dataclass whose fields, with their defaults, are
    the keywords its ``train`` and ``train_from_counts`` take after the shared
    ones.  ``counted`` names those ``count`` takes too (what changes how text
    is counted), ``text_only`` those only reading a corpus takes (not
    ``train_from_counts``).  Each engine checks its values in ``_checked``."""

    counted: ClassVar[tuple[str, ...]] = ()
    text_only: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def of(cls: type[Opts], options: Mapping[str, Any], method: str, names: Iterable[str] | None = None) -> Opts:
        """The options given as keywords to ``method``; one it does not take is a ``TypeError``, as in Python."""
        allowed = set(names if names is not None else (f.name for f in fields(cls)))
        for name in options:
            if name not in allowed:
                raise TypeError(f"{method}() got an unexpected keyword argument {name!r}")
        return cls(**options)

    def corpus_workers(self) -> int:
        """Processes that count a corpus (an engine that takes ``workers`` checks it here)."""
        return 1


def counts_bytes(counts: Mapping[str, int]) -> int:
    """The size of the text that ``counts`` were counted from, in UTF-8 bytes (to decide "auto")."""
    return sum(len(word.encode("utf-8", "surrogatepass")) * n for word, n in counts.items())


NO_TEXT = "the training text is empty or only whitespace: there is nothing to learn"


def check_counts(counts: Any, marks: str = "") -> Mapping[str, int]:
    """Pre-token counts as ``train_from_counts`` takes them: str -> positive int,
    with some text that is not whitespace (every engine refuses a blank corpus
    alike).  ``marks``: characters an engine puts into its keys for whitespace."""
    if not isinstance(counts, Mapping):
        raise InputError(f"counts must be a mapping of pre-token -> count, not {type(counts).__name__}")
    for key, value in counts.items():
        if not isinstance(key, str) or isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(f"counts must map str to a count >= 0, not {excerpt(key)}: {excerpt(value)}")
    if all(_blank(word, marks) for word, n in counts.items() if n):
        raise InputError(NO_TEXT, code="training.no_text")
    return counts


def _blank(word: str, marks: str) -> bool:
    """Nothing but whitespace and ``marks`` (which may stand anywhere in ``word``)."""
    rest = word.translate({ord(m): None for m in marks}) if marks else word
    return not rest or rest.isspace()


class trains_model:
    """How ``train`` and ``train_from_counts`` bind.  On the class (``WubiBPE.train(...)``) they
    return a new model.  On a model they retrain that model in place and return it, as
    ``tokenizers.Tokenizer.train`` trains the tokenizer it is called on, so
    ``t = WubiBPE(); t.train(...); t.save(path)`` saves the trained model; the options not
    given are the model's own (``train_options``: its special tokens, its cut, its codec)."""

    def __init__(self, learn: Callable[..., Any]):
        self._learn = learn
        self.__doc__ = learn.__doc__

    def __get__(self, model: Any, owner: type[Tok]) -> Callable[..., Tok]:
        if model is None:
            return functools.partial(self._learn, owner)
        learn = self._learn

        def in_place(*args: Any, **kwargs: Any) -> Tok:
            trained = learn(type(model), *args, **{**model.train_options(), **kwargs})
            model.__dict__.clear()  # caches and views of the old model go too
            model.__dict__.update(trained.__dict__)
            return model

        return functools.update_wrapper(in_place, learn)


class Tokenizer:
    """Base class.  Engines implement the ``NotImplementedError`` methods."""

    model_type: ClassVar[str] = ""
    format_version: ClassVar[int] = 1
    lossless: ClassVar[bool] = True

    special_tokens: list[str]
    training: dict[str, Any]  # how the model was trained (vocab_size, backend, ...)

    # -- training -----------------------------------------------------------
    # ``train``, ``count`` and ``train_from_counts`` are written once, here: the
    # shared options are checked into ``TrainingArgs`` (``check_training``), an
    # engine's own into its ``Options`` (``EngineOptions``), and the engine
    # states only what is its own: ``_checked`` (its checks; returns what its
    # learning needs), ``_block_counter`` (how it counts a block of text) and
    # ``_learn`` (from counts); ``_train`` where it can also learn from the
    # text itself (a fast backend).  An unknown keyword is a TypeError, a bad
    # value an InputError.  ``train(texts, files=...)`` equals
    # ``train_from_counts(count(texts, files=...))`` with the same options, byte for byte.
    Options: ClassVar[type[EngineOptions]] = EngineOptions
    default_specials: ClassVar[Sequence[str]] = ()  # the special tokens every model of the engine has
    count_marks: ClassVar[str] = ""  # characters the engine's counted keys use for whitespace
    fast_from_counts: ClassVar[bool] = True  # False: the fast backend learns from text only

    @trains_model
    def train(
        cls: type[Tok],
        texts: Iterable[str] | str | None = None,
        *,
        files: Sequence[str | os.PathLike] | None = None,
        vocab_size: int = 8000,
        min_frequency: int = 2,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        backend: str = "python",
        **options: Any,
    ) -> Tok:
        """Learn a model from ``texts`` and/or UTF-8 ``files``.

        ``texts`` is a str, a list or any iterable of str (read once);
        ``vocab_size`` counts every token (specials included);
        ``progress(stage, done, total)`` is called as work goes on; a set
        ``cancel`` event stops it with ``errors.Cancelled``; ``backend`` is
        "python" (this project's trainer), "fast" (the reference library,
        ``pip install wubitok[fast]``) or "auto" (fast when installed).
        ``options``: the engine's own (its ``Options``).  Called on a model
        (``t.train(...)``), it retrains that model in place (``trains_model``).
        """
        own = cls.Options.of(options, f"{cls.__name__}.train")
        args = check_training(cls.model_type, vocab_size=vocab_size, min_frequency=min_frequency,
                              special_tokens=special_tokens, progress=progress, cancel=cancel, backend=backend,
                              default_specials=cls.default_specials)
        checked = cls._checked(args, own)
        corpus = Corpus(texts, files)
        return cls._train(corpus, args.for_corpus(corpus.size), own, checked)

    @classmethod
    def check_options(cls, *, vocab_size: int = 8000, min_frequency: int = 2,
                      special_tokens: Sequence[str] | None = None, backend: str = "python", **options: Any) -> None:
        """What ``train`` checks before it reads anything, without the corpus: a front end calls it
        before reading input, so that ``-v 300`` too small is one line at once, not after 2 GB."""
        own = cls.Options.of(options, f"{cls.__name__}.train")
        args = check_training(cls.model_type, vocab_size=vocab_size, min_frequency=min_frequency,
                              special_tokens=special_tokens, progress=None, cancel=None, backend=backend,
                              default_specials=cls.default_specials)
        cls._checked(args, own)

    @classmethod
    def min_vocab_size(cls, special_tokens: Sequence[str] | None = None, **options: Any) -> int:
        """The smallest ``vocab_size`` that ``train`` accepts with these special
        tokens and options (for a front end's vocabulary field)."""
        raise NotImplementedError

    @classmethod
    def count(
        cls,
        texts: Iterable[str] | str | None = None,
        *,
        files: Sequence[str | os.PathLike] | None = None,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        **options: Any,
    ) -> "Counter[str]":
        """The training statistics of a corpus: pre-token -> count.

        A pure function of the text summed block by block (``corpus``), so
        counts of parts of a corpus add up (``corpus.merge_counts``) to the
        counts of the whole.  Engines with options that change what is
        counted take them here too, under the same names as in ``train``
        (``Options.counted``).
        """
        own = cls.Options.of(options, f"{cls.__name__}.count", cls.Options.counted)
        specials = special_token_list(cls.default_specials, special_tokens)
        counter = cls._block_counter(specials, own)  # a bad option fails before any reading
        return count_corpus(counter, Corpus(texts, files), progress=progress, cancel=cancel,
                            workers=own.corpus_workers())

    def count_options(self) -> dict[str, Any]:
        """This model's options for :meth:`count`: counting a corpus with them
        cuts it as this model does (what ``wubitok count -m MODEL.json`` uses)."""
        return {}

    def train_options(self) -> dict[str, Any]:
        """What ``model.train(...)`` keeps of the model unless given: its special tokens
        and the options that shape it (``count_options`` and, per engine, more)."""
        return {"special_tokens": list(self.special_tokens), **self.count_options()}

    @trains_model
    def train_from_counts(
        cls: type[Tok],
        counts: Mapping[str, int],
        *,
        vocab_size: int = 8000,
        min_frequency: int = 2,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        backend: str = "python",
        **options: Any,
    ) -> Tok:
        """Learn a model from ``count``'s result (summed over any number of parts),
        counted with the same options."""
        names = [f.name for f in fields(cls.Options) if f.name not in cls.Options.text_only]
        own = cls.Options.of(options, f"{cls.__name__}.train_from_counts", names)
        args = check_training(cls.model_type, vocab_size=vocab_size, min_frequency=min_frequency,
                              special_tokens=special_tokens, progress=progress, cancel=cancel, backend=backend,
                              default_specials=cls.default_specials)
        checked = cls._checked(args, own)
        counts = check_counts(counts, cls.count_marks)
        args = args.for_corpus(counts_bytes(counts))
        if args.fast and not cls.fast_from_counts:
            raise InputError(f"the fast {cls.__name__} backend trains on text: use train(), or backend='python'")
        return cls._learn(counts, args, own, checked)

    # What each engine states for the methods above.
    @classmethod
    def _checked(cls, args: TrainingArgs, own: Any) -> Any:
        """Check ``own`` options against ``args`` (InputError); what ``_learn`` needs besides them."""
        return None

    @classmethod
    def _block_counter(cls, special_tokens: Sequence[str], own: Any) -> BlockCounter:
        """How the engine counts one block (picklable: a ``functools.partial`` of a
        module-level function, for worker processes); checks the counted options."""
        raise NotImplementedError

    @classmethod
    def _train(cls: type[Tok], corpus: Corpus, args: TrainingArgs, own: Any, checked: Any) -> Tok:
        """Learn from a corpus: count it, then ``_learn``.  Engines whose fast
        backend reads the text itself override it."""
        counter = cls._block_counter(args.special_tokens, own)
        counts = count_corpus(counter, corpus, progress=args.progress, cancel=args.cancel, workers=own.corpus_workers())
        return cls._learn(check_counts(counts, cls.count_marks), replace(args, owns_counts=True), own, checked)

    @classmethod
    def _learn(cls: type[Tok], counts: Mapping[str, int], args: TrainingArgs, own: Any, checked: Any) -> Tok:
        raise NotImplementedError

    # -- use ----------------------------------------------------------------
    def encode(self, text: str, *, add_special_tokens: bool = False) -> Encoding:
        """Ids, tokens and offsets of ``text``.  Nothing is added around it
        unless ``add_special_tokens`` (as transformers): then the model's
        ``<s>`` / ``</s>`` (WordPiece: ``[CLS]`` / ``[SEP]``), those it has."""
        enc = self._encode(text)
        return self._framed(enc) if add_special_tokens else enc

    def _encode(self, text: str) -> Encoding:
        raise NotImplementedError

    def special_frame(self) -> tuple[list[str], list[str]]:
        """The special tokens ``encode(add_special_tokens=True)`` puts before and after a text:
        ``<s>`` / ``</s>`` (WordPiece: ``[CLS]`` / ``[SEP]``), those the model has.  The
        transformers exports add the same (``exports.hf_json``, ``integrations.transformers``)."""
        roles = self.special_roles()
        first = [t for t in (roles.get("bos_token") or roles.get("cls_token"),) if t]
        last = [t for t in (roles.get("eos_token") or roles.get("sep_token"),) if t]
        return first, last

    def _framed(self, enc: Encoding) -> Encoding:
        first, last = self.special_frame()
        ids = [self.token_to_id(t) for t in first] + enc.ids + [self.token_to_id(t) for t in last]
        end = enc.offsets[-1][1] if enc.offsets else 0
        return Encoding([i for i in ids if i is not None], first + enc.tokens + last,
                        [(0, 0)] * len(first) + enc.offsets + [(end, end)] * len(last),
                        [False] * len(first) + (enc.partial or [False] * len(enc.ids)) + [False] * len(last))

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        return [self.encode(t) for t in texts]

    # Special tokens written in a text: ``encode`` reads them as their ids (as
    # Hugging Face does with added tokens); ``encode_ordinary`` (tiktoken's
    # name) and ``ordinary()`` read them as the plain text they are spelled
    # with, which corpus encoding does by default (``SPECIAL_TEXT``).
    def encode_ordinary(self, text: str) -> Encoding:
        """``encode`` with special-token text (``</s>``) encoded as plain text."""
        return self.ordinary().encode(text)

    def ordinary(self) -> "Tokenizer":
        """This model with special-token text read as plain text (same ids, same files)."""
        view = self.__dict__.get("_ordinary_view")
        if view is None or view.encoder_choice != self.encoder_choice:  # made before a use_encoder()
            view = self.__dict__["_ordinary_view"] = self._ordinary_copy()
        return view

    def _ordinary_copy(self) -> "Tokenizer":
        # Engines that find special tokens with a ``_splitter`` (Wubi-BPE, WordPiece, Unigram) get a
        # copy whose splitter looks for none; byte-level BPE, which splits otherwise, has its own.
        plain = copy.copy(self)
        plain._splitter = SpecialSplitter({})  # type: ignore[attr-defined]
        return plain

    def find_special(self, text: str) -> str | None:
        """The first special token written in ``text``, or None."""
        splitter = self.__dict__.get("_special_finder")
        if splitter is None:
            splitter = self.__dict__["_special_finder"] = SpecialSplitter(dict.fromkeys(self.special_tokens, 0))
        spans = splitter.split(text) if splitter.has_special(text) else []
        return next((text[a:b] for a, b, special in spans if special is not None), None)

    def special_roles(self) -> dict[str, str]:
        """The roles transformers gives special tokens (``pad_token``, ``unk_token``,
        ``bos_token``, ``eos_token``, ``cls_token``, ``sep_token``, ``mask_token``)
        that this model has a token for, by the tokens' usual names."""
        have = set(self.special_tokens)
        return {role: next(t for t in names if t in have) for role, names in ROLE_TOKENS.items()
                if any(t in have for t in names)}

    @property
    def n_vocab(self) -> int:
        """``vocab_size`` (tiktoken's name)."""
        return self.vocab_size

    def use_encoder(self, backend: str = "auto") -> str:
        """Choose the encoder (``backends.choose_encoder``): "python", "fast" or
        "auto"; returns the one in use.  Engines without a fast encoder always
        encode in Python ("fast" is an error for them)."""
        choose_encoder(backend, self.model_type)
        return "python"

    @property
    def encoder_choice(self) -> str:
        return "auto"

    def encode_batch_ids(self, texts: Iterable[str]) -> list[list[int]]:
        """The ids of ``encode_batch(texts)``; engines that can skip the
        offsets for it do (writing a corpus needs ids only)."""
        return [e.ids for e in self.encode_batch(texts)]

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        """The text of ``ids``; ``skip_special_tokens`` leaves the special tokens out (as transformers')."""
        raise NotImplementedError

    def special_ids(self) -> frozenset[int]:
        """The ids of the special tokens."""
        found = (self.token_to_id(t) for t in self.special_tokens)
        return frozenset(i for i in found if i is not None)

    def _without_specials(self, ids: Sequence[int]) -> list[int]:
        special = self.special_ids()
        return [i for i in ids if i not in special]

    def decode_batch(self, sequences: Iterable[Sequence[int]]) -> list[str]:
        return [self.decode(ids) for ids in sequences]

    def decode_stream(self, *, skip_special_tokens: bool = False) -> DecodeStream:
        """An incremental decoder: ``step(id)`` gives the text that is final (see ``stream``)."""
        return DecodeStream(self, skip_special_tokens=skip_special_tokens)

    def _open_tail(self, ids: Sequence[int], text: str) -> int:
        """How many of the last characters of ``text`` (``decode(ids)``) more ids
        may still change: a character cut off by the end of ``ids`` decodes as U+FFFD."""
        return 1 if text.endswith("\ufffd") else 0

    #: ids a ``DecodeStream`` keeps as context when its text is final (engines.stream)
    stream_context = 1

    def get_vocab(self) -> dict[str, int]:
        """Token -> id.  A token string made twice keeps its first id (as ``token_to_id``)."""
        vocab: dict[str, int] = {}
        for i in range(self.vocab_size):
            tok = self.id_to_token(i)
            if tok is not None:
                vocab.setdefault(tok, i)
        return vocab

    def __repr__(self) -> str:
        backend = self.training.get("backend")
        shown = f", backend={backend!r}" if backend else ""
        return (f"{type(self).__name__}(vocab_size={self.vocab_size}, "
                f"special_tokens={self.special_tokens!r}{shown})")

    def token_to_id(self, token: str) -> int | None:
        raise NotImplementedError

    def id_to_token(self, id: int) -> str | None:
        raise NotImplementedError

    @property
    def vocab_size(self) -> int:
        raise NotImplementedError

    def display_token(self, id: int, *, partial: bool = False) -> str:
        """A human-readable form of a token (for tooltips and tables).

        ``partial``: in the encoding shown, the token is only a piece of a
        character, so no character its form would spell on its own may be
        named (a Wubi-BPE spelling prefix of 民 spells 性 when alone).
        """
        tok = self.id_to_token(id)
        return "" if tok is None else tok

    def display_at(self, enc: Encoding, i: int) -> str:
        """``display_token`` of token ``i`` of ``enc`` where it stands: a model whose
        tokens mean what the tokens before them say (``byte_reading``) reads a piece
        of a character on from the pieces before it."""
        reading = self.byte_reading
        if reading is not None and begins_inside(enc.offsets, i):
            return reading.display_at(self.byte_values, enc.ids, enc.offsets, i)
        return self.display_token(enc.ids[i], partial=bool(enc.partial) and enc.partial[i])

    @property
    def byte_reading(self) -> ByteReading | None:
        """For a model whose tokens' bytes mean what the tokens before them say
        (Wubi-BPE's ``shared-bytes``), how to read a token where it stands; else None."""
        return None

    def byte_values(self, id: int) -> Sequence[int]:  # noqa: A002
        """The byte values ``byte_reading`` reads of a token (only where it is not None)."""
        return ()

    def spelling(self, id: int) -> str:  # noqa: A002 (the contract's name)
        """The token as the model spells it inside (``##ing``, ``▁the``, byte-level
        BPE's ``Ġ`` letters, Wubi-BPE's keys ``g#13``); "" for an id it does not have.
        Shown only where a reader asked for it: the readable form is the text a
        token covers (:mod:`wubitok.services.readable_tokens`)."""
        tok = self.id_to_token(id)
        return "" if tok is None else tok

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        """The UTF-8 bytes the token stands for when it is made of raw bytes, which
        may cut a character (byte-level BPE, byte fallback); None for text, Wubi
        keys and special tokens."""
        return None

    # -- persistence ----------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> "Tokenizer":
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        body = self._to_dict()
        return {"format": FORMAT_NAME, "version": self.format_version, "model": self.model_type, **body}

    def to_json(self) -> str:
        # sort_keys + fixed separators: the same model always gives the same bytes.
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True, indent=1) + "\n"

    def __reduce__(self) -> str | tuple[Any, ...]:
        # Pickled as its model file's content, so that a tokenizer goes to
        # worker processes (multiprocessing, Dask, datasets' num_proc) even
        # when it holds unpicklable state such as a dictionary connection.
        return (tokenizer_from_dict, (self.to_dict(),))

    def save(self, path: str | os.PathLike) -> None:
        atomic_write_text(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Tokenizer":
        tok = load_tokenizer(path)
        if not isinstance(tok, cls):
            raise ModelError(f"{path}: a {tok.model_type} model, not {cls.model_type}")
        return tok

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "model") -> "Tokenizer":
        version = data.get("version")
        if version != cls.format_version:
            raise ModelError(
                f"{source}: unsupported {cls.model_type} model version {excerpt(version)} "
                f"(this wubitok reads {cls.format_version})"
            )
        try:
            return cls._from_dict(data)
        except ModelError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ModelError(f"{source}: corrupt {cls.model_type} model ({type(exc).__name__}: {exc})") from None


def tokenizer_from_dict(data: Any, source: str = "model") -> Tokenizer:
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise ModelError(f"{source}: not a wubitok model file")
    model = data.get("model")
    if not isinstance(model, str) or model not in ENGINES:
        raise ModelError(f"{source}: unknown model type {excerpt(model)} (known: {', '.join(sorted(ENGINES))})")
    return engine_class(model).from_dict(data, source)


# JSON values a model file may hold: a bundled 6,000-token model has 18k, the largest public
# vocabularies (~260k tokens) under 1M; 8M is several million tokens.
MAX_MODEL_VALUES = 8_000_000


def load_tokenizer(path: str | os.PathLike) -> Tokenizer:
    """Load any model file this project writes, returning the right class."""
    from ..fileio import JsonError, parse_json, read_model_text

    text = read_model_text(path)
    # Sized by what the file declares before anything is built: each vocabulary entry or merge
    # is a few JSON values, and Python holds each in ~100 bytes, so a file under the byte cap
    # can still ask for gigabytes (40M merges in 240 MB took 3.9 GB, then MemoryError).
    values = text.count(",") + 1
    if values > MAX_MODEL_VALUES:
        raise ModelError(f"{Path(path)}: declares about {values:,} values (more than {MAX_MODEL_VALUES:,}),"
                         f" far beyond any real model; refused before building it", code="model.too_many_values")
    try:
        data = parse_json(text)
    except JsonError as exc:
        raise ModelError(f"{Path(path)}: not a JSON model file ({exc})") from None
    return tokenizer_from_dict(data, str(path))


def engine_class(model_type: str) -> type[Tokenizer]:
    """The engine class of ``model_type`` (e.g. "bpe") in ``engines.ENGINES``, to train one by name."""
    target = ENGINES.get(model_type)
    if target is None:
        raise InputError(f"unknown model type {model_type!r} (known: {', '.join(sorted(ENGINES)) or 'none'})")
    cls: type[Tokenizer] = resolve(target)
    return cls


def available_models() -> list[str]:
    """The model types that can be trained and loaded (e.g. for a CLI choice), sorted."""
    return sorted(ENGINES)
