"""Tokenizer files on disk: where they live, what kind a file is, and loading any kind.

The bundled models ship in ``resources/models``; models the user trains go to
``models`` in the user data folder.  Besides wubitok's own JSON files, the app
opens the files of other libraries (a Hugging Face ``tokenizer.json``, a
SentencePiece ``.model``, tiktoken ranks) through :mod:`wubitok.compare.external`.
"""
from __future__ import annotations

from pathlib import Path

from ..engines.base import Tokenizer, load_tokenizer
from ..paths import resources_dir, user_data_dir

# File kinds: "wubitok" files are the project's own; the others are the
# kinds of ``wubitok.compare.load_external``.
KIND_WUBITOK = "wubitok"
KIND_HF = "hf"
KIND_SPM = "spm"
KIND_TIKTOKEN = "tiktoken"


def bundled_models_dir() -> Path:
    return resources_dir() / "models"


def user_models_dir() -> Path:
    return user_data_dir() / "models"


def guess_kind(path: Path) -> str:
    """What sort of tokenizer file ``path`` is, from its name and first bytes."""
    name = path.name.lower()
    if name.endswith(".model"):
        return KIND_SPM
    if name.endswith(".tiktoken"):
        return KIND_TIKTOKEN
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return KIND_WUBITOK  # loading reports the missing file properly
    # Our files are written with sorted keys, so "format" comes first.
    if b'"wubitok-tokenizer"' in head:
        return KIND_WUBITOK
    if name.endswith(".json"):
        return KIND_HF
    return KIND_WUBITOK


def load_model_file(path: Path, kind: str | None = None) -> Tokenizer:
    """Load a tokenizer file of any kind (``guess_kind`` when not given); safe in any thread."""
    kind = kind or guess_kind(path)
    if kind == KIND_WUBITOK:
        return load_tokenizer(path)
    from ..compare.external import load_external

    return load_external(kind, path)
