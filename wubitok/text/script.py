"""Simplified <-> Traditional Chinese through OpenCC (the ``opencc`` extra).

OpenCC's standard conversion tables, not a hand-written map: converting a
character needs its context (头发 -> 頭髮, not 頭發), which OpenCC's phrase
tables carry.  A converter takes most of a second to load, so each is made once.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from typing import Any

from ..errors import InputError, MissingExtraError

# Target script -> OpenCC configuration (simplified input for the traditional
# variants; any input for "simplified").
SCRIPTS = {"simplified": "t2s", "traditional": "s2t", "tw": "s2tw", "hk": "s2hk"}


# What script conversion needs, and the one line that says how to get it.
NEEDS_OPENCC = "OpenCC: pip install opencc"


def opencc_missing() -> bool:
    """True when OpenCC cannot be imported here (found without importing it: menus ask)."""
    try:
        return importlib.util.find_spec("opencc") is None
    except (ImportError, ValueError):  # a broken install, or a module without a spec
        return True


def check_script(script: str) -> str:
    if script not in SCRIPTS:
        raise InputError(f"unknown script variant {script!r} (choose from {', '.join(SCRIPTS)})")
    return script


@lru_cache(maxsize=len(SCRIPTS))
def _converter(script: str) -> Any:
    try:
        import opencc  # noqa: PLC0415 - loaded when first used (its tables take a moment)
    except ImportError:
        raise MissingExtraError(f"simplified/traditional conversion needs {NEEDS_OPENCC}") from None
    return opencc.OpenCC(SCRIPTS[script])


def convert_script(text: str, script: str) -> str:
    """``text`` in ``script``: simplified, traditional, tw (Taiwan) or hk (Hong Kong)."""
    return str(_converter(check_script(script)).convert(text))
