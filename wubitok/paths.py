"""Where bundled data and user data live.

Bundled data (dictionary, resources) sits inside the package in an installed
wheel (``wubitok/data``, ``wubitok/resources``) and at the top of the
repository in a source checkout; a frozen app puts it next to the package.
User data never goes into the bundled files.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_DIR = PACKAGE_DIR.parent


def _first_existing(*candidates: Path) -> Path:
    for c in candidates:
        if c.exists():
            return c
    return candidates[0]


def dictionary_path() -> Path:
    """The bundled Wubi-86 SQLite dictionary."""
    return _first_existing(PACKAGE_DIR / "data" / "wubi86.sqlite", _REPO_DIR / "dicts" / "wubi86.sqlite")


def resources_dir() -> Path:
    """Icons, styles, translations, fonts, sample texts and bundled models."""
    return _first_existing(PACKAGE_DIR / "resources", _REPO_DIR / "resources")


def user_data_dir() -> Path:
    """Per-user folder for learned frequencies, user phrases and trained models.

    ``WUBITOK_DATA_DIR`` overrides it (tests and portable installs use that).
    """
    override = os.environ.get("WUBITOK_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "wubitok"


def user_cache_dir() -> Path:
    """Per-user folder for files wubitok can rebuild at any time (derived tables).

    Under ``WUBITOK_DATA_DIR`` when that is set, so tests and portable installs
    keep everything in one place.
    """
    override = os.environ.get("WUBITOK_DATA_DIR")
    if override:
        return Path(override) / "cache"
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        return base / "wubitok" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "wubitok"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wubitok"
