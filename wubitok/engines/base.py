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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Sequence

from ..errors import Cancelled, InputError, ModelError
from ..fileio import atomic_write_text

FORMAT_NAME = "wubitok-tokenizer"

# progress(stage, done, total): ``total`` may be 0 when unknown.  Stages are
# short human-readable words ("counting", "merging", "pruning", ...).
ProgressCallback = Callable[[str, int, int], None]


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
        raise InputError(f"{name} must be an integer >= {low}, not {value!r}")
    return value


def check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("cancelled")


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

    # -- training -----------------------------------------------------------
    @classmethod
    def train(
        cls,
        texts: Iterable[str] | None = None,
        *,
        files: Sequence[str | os.PathLike] | None = None,
        vocab_size: int = 8000,
        min_frequency: int = 2,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        **options: Any,
    ) -> "Tokenizer":
        raise NotImplementedError

    # -- use ----------------------------------------------------------------
    def encode(self, text: str) -> Encoding:
        raise NotImplementedError

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        return [self.encode(t) for t in texts]

    def decode(self, ids: Sequence[int]) -> str:
        raise NotImplementedError

    def encode_files(self, files: Sequence[str | os.PathLike], output: str | os.PathLike,
                     **options: Any) -> dict[str, Any]:
        """Encode every document of ``files`` into ``output`` (jsonl, bin or npy),
        on ``workers`` processes or a Dask ``cluster``; see ``wubitok.scale.encode``.
        Returns the output's header (counts, dtype)."""
        from ..scale.encode import encode_files

        return encode_files(self, files, output, **options)

    def token_to_id(self, token: str) -> int | None:
        raise NotImplementedError

    def id_to_token(self, id: int) -> str | None:
        raise NotImplementedError

    @property
    def vocab_size(self) -> int:
        raise NotImplementedError

    def display_token(self, id: int) -> str:
        """A human-readable form of a token (for tooltips and tables)."""
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

    def __reduce__(self) -> tuple[Any, ...]:
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
                f"{source}: unsupported {cls.model_type} model version {version!r} "
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
    cls = _REGISTRY.get(model)
    if cls is None:
        raise ModelError(f"{source}: unknown model type {model!r} (known: {', '.join(sorted(_REGISTRY))})")
    return cls.from_dict(data, source)


def load_tokenizer(path: str | os.PathLike) -> Tokenizer:
    """Load any model file this project writes, returning the right class."""
    from ..fileio import read_text

    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"{Path(path)}: not a JSON model file (line {exc.lineno}: {exc.msg})") from None
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
