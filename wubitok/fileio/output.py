"""Checks on an output name before anything is written: not empty, not an input, not the bundled data;
why a folder cannot take a file (read-only, full)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..errors import FileError, excerpt
from ..paths import dictionary_path, resources_dir


def check_output_name(path: str | os.PathLike) -> Path:
    """``path`` as a Path; an empty name is an error (it is no file, nor the current folder)."""
    if not os.fspath(path):
        raise FileError("the output file name is empty", code="file.empty_name")
    return Path(path)


def _bundled_files() -> list[Path]:
    models = resources_dir() / "models"
    return [dictionary_path(), *(sorted(models.glob("*.json")) if models.is_dir() else [])]


def check_output(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = ()) -> Path:
    """Refuse to write ``path`` when it is one of ``inputs`` (the same file by
    device and inode, so also through a symbolic or hard link) or part of the
    bundled data; else ``path`` as a Path.  ``-`` in ``inputs`` (stdin) is skipped."""
    p = check_output_name(path)
    target = p.resolve()
    for bundled in (resources_dir().resolve(), dictionary_path().resolve()):
        if target == bundled or bundled in target.parents:
            raise FileError(f"{p}: is part of wubitok's bundled data; write somewhere else",
                            code="file.bundled", path=str(p))
    if _inode(p) is None:
        return p  # not there yet: it is none of the inputs
    if _inode(p) in {_inode(f) for f in _bundled_files()}:  # a hard link into the bundle
        raise FileError(f"{p}: is part of wubitok's bundled data; write somewhere else",
                        code="file.bundled", path=str(p))
    for given in inputs:
        if os.fspath(given) != "-" and _inode(given) == _inode(p):
            raise FileError(f"{p}: is one of the inputs ({excerpt(str(given))}); choose another output",
                            code="file.output_is_input", path=str(p), input=str(given))
    return p


def _inode(path: str | os.PathLike) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def folder_problem(folder: str | os.PathLike) -> str:
    """Why ``folder`` cannot take a new file, in the user's words ("it is read-only", "the disk is
    full"), or "".  SQLite says only "unable to open database file" or "disk I/O error" for these."""
    there = Path(folder)
    while not there.exists() and there.parent != there:  # a folder not made yet: where it would be
        there = there.parent
    try:
        st = os.statvfs(there)
    except (AttributeError, OSError):  # no statvfs (Windows)
        return ""
    if st.f_flag & os.ST_RDONLY or not os.access(there, os.W_OK):
        return "it is read-only"
    if st.f_bavail * st.f_frsize < 64 * 1024:  # less than a few of SQLite's pages
        return "the disk is full"
    return ""
