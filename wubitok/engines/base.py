"""The interface every tokenizer engine shares, and the model-file envelope.

A model file is one UTF-8 JSON object::

    {"format": "wubitok-tokenizer", "version": 1, "model": "<model type>", ...}

Each engine adds its own fields through ``_to_dict`` / ``_from_dict``.  Files
are written atomically, and ``load_tokenizer`` picks the class from ``model``.
"""
from __future__ import annotations

import json
import os
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from ..errors import InputError, ModelError, excerpt
from ..fileio import atomic_write_text
from ..progress import ProgressCallback
from .backends import check_backend, choose_backend, choose_encoder
from .pre_tokenizers.special import special_token_list

FORMAT_NAME = "wubitok-tokenizer"

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
    """The arguments every engine's ``train`` and ``train_from_counts`` take, checked once here."""

    model_type: str
    vocab_size: int
    min_frequency: int
    special_tokens: list[str]  # the engine's defaults, then the user's
    progress: ProgressCallback | None
    cancel: threading.Event | None
    backend: str  # "python", "fast", or "auto" until ``for_corpus`` decides it

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


_REGISTRY: dict[str, type["Tokenizer"]] = {}


def register(cls: type["Tokenizer"]) -> type["Tokenizer"]:
    """Class decorator: make ``load_tokenizer`` know this engine's ``model_type``."""
    _REGISTRY[cls.model_type] = cls
    return cls


class Tokenizer:
    """Base class.  Engines implement the ``NotImplementedError`` methods."""

    model_type: ClassVar[str] = ""
    format_version: ClassVar[int] = 1
    lossless: ClassVar[bool] = True

    special_tokens: list[str]
    training: dict[str, Any]  # how the model was trained (vocab_size, backend, ...)

    # -- training -----------------------------------------------------------
    # Every engine's ``train`` takes these arguments (and its own options
    # after them, keyword-only, with defaults); ``check_training`` checks
    # them.  An unknown keyword is a TypeError, a bad value an InputError.
    # ``train(texts, files=...)`` equals ``train_from_counts(count(texts,
    # files=...))`` with the same options, byte for byte.
    @classmethod
    def train(
        cls,
        texts: Iterable[str] | str | None = None,
        *,
        files: Sequence[str | os.PathLike] | None = None,
        vocab_size: int = 8000,
        min_frequency: int = 2,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        backend: str = "python",
    ) -> "Tokenizer":
        """Learn a model from ``texts`` and/or UTF-8 ``files``.

        ``texts`` is a str, a list or any iterable of str (read once);
        ``vocab_size`` counts every token (specials included);
        ``progress(stage, done, total)`` is called as work goes on; a set
        ``cancel`` event stops it with ``errors.Cancelled``; ``backend`` is
        "python" (this project's trainer), "fast" (the reference library,
        ``pip install wubitok[fast]``) or "auto" (fast when installed).
        """
        raise NotImplementedError

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
    ) -> "Counter[str]":
        """The training statistics of a corpus: pre-token -> count.

        A pure function of the text summed block by block (``corpus``), so
        counts of parts of a corpus add up (``corpus.merge_counts``) to the
        counts of the whole.  Engines with options that change what is
        counted take them here too, under the same names as in ``train``.
        """
        raise NotImplementedError

    def count_options(self) -> dict[str, Any]:
        """This model's options for :meth:`count`: counting a corpus with them
        cuts it as this model does (what ``wubitok count -m MODEL.json`` uses)."""
        return {}

    @classmethod
    def train_from_counts(
        cls,
        counts: Mapping[str, int],
        *,
        vocab_size: int = 8000,
        min_frequency: int = 2,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        backend: str = "python",
    ) -> "Tokenizer":
        """Learn a model from ``count``'s result (summed over any number of parts)."""
        raise NotImplementedError

    # -- use ----------------------------------------------------------------
    def encode(self, text: str) -> Encoding:
        raise NotImplementedError

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        return [self.encode(t) for t in texts]

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

    def decode(self, ids: Sequence[int]) -> str:
        raise NotImplementedError

    def decode_batch(self, sequences: Iterable[Sequence[int]]) -> list[str]:
        return [self.decode(ids) for ids in sequences]

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


def _engines_loaded() -> None:
    # Importing the engine modules registers them; done lazily so that
    # loading one model does not import every engine up front at package import.
    import importlib

    from . import ENGINE_MODULES  # noqa: F401  (import side effect)

    for name in ENGINE_MODULES:
        importlib.import_module(f"{__package__}.{name}")


def tokenizer_from_dict(data: Any, source: str = "model") -> Tokenizer:
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise ModelError(f"{source}: not a wubitok model file")
    _engines_loaded()
    model = data.get("model")
    cls = _REGISTRY.get(model) if isinstance(model, str) else None
    if cls is None:
        raise ModelError(f"{source}: unknown model type {excerpt(model)} (known: {', '.join(sorted(_REGISTRY))})")
    return cls.from_dict(data, source)


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
    """The engine class registered for ``model_type`` (e.g. "bpe"), to train one by name."""
    _engines_loaded()
    cls = _REGISTRY.get(model_type)
    if cls is None:
        raise InputError(f"unknown model type {model_type!r} (known: {', '.join(sorted(_REGISTRY)) or 'none'})")
    return cls


def available_models() -> list[str]:
    """The model types that can be trained and loaded (e.g. for a CLI choice), sorted."""
    _engines_loaded()
    return sorted(_REGISTRY)
