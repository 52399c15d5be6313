"""Reading user files with clear errors, and writing them atomically.

Text files come in UTF-8, UTF-16 (with a byte-order mark), GB18030 (and its
subsets GBK and GB2312) or Big5; the encoding is detected (or given), reported
back, and used again when the file is saved.  Bytes in, characters out: line
endings and a byte-order mark are kept as text, so that a file read and
written back is the same file.
"""
from __future__ import annotations

import codecs
import json
import os
import re
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .errors import FileError, InputError, excerpt
from .paths import dictionary_path, resources_dir

# Far beyond any real tokenizer file (the largest public tokenizer.json files
# are tens of MB): a model file bigger than this is refused before it is read.
MAX_MODEL_BYTES = 512 << 20
# Big enough to make file reading cheap, small enough to keep memory bounded.
CHUNK_CHARS = 1 << 20
# How much of a file the encoding is guessed from.
DETECT_BYTES = 1 << 16
# Encodings tried in this order when a file is not UTF-8 (and has no BOM).
# GB18030 is a superset of GBK and GB2312, so it reads all three.
LEGACY_CHINESE = ("gb18030", "big5")
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_LABELS = {"utf-8": "UTF-8", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE", "gb18030": "GB18030", "big5": "Big5",
           "big5hkscs": "Big5-HKSCS"}
# What the app offers to read or save a text in: everything detected, and
# Big5-HKSCS (Big5 plus Hong Kong characters, which detection reads as Big5).
TEXT_ENCODINGS = ("utf-8", "gb18030", "big5", "big5hkscs", "utf-16-le", "utf-16-be")
# Control characters never seen in text files: a decoding that yields them is wrong.
_BINARY_CONTROLS = frozenset(chr(c) for c in range(32) if chr(c) not in "\t\n\v\f\r\x1b")


@dataclass(frozen=True)
class TextFile:
    """A decoded file and the encoding it was read with (a Python codec name)."""

    text: str
    encoding: str


@dataclass(frozen=True)
class SaveFormat:
    """What a plain-text editor drops from a file and saving puts back: the
    byte-order mark and the line ending (an editor shows every line break as ``\\n``)."""

    newline: str = "\n"
    bom: bool = False
    encoding: str = "utf-8"  # the file's, a Python codec name

    @classmethod
    def of(cls, file: TextFile) -> SaveFormat:
        """How a file as read is saved: its first line ending, whether it starts with a BOM, its encoding."""
        match = re.search(r"\r\n|\r|\n", file.text)
        return cls(match.group() if match else "\n", file.text.startswith("\ufeff"), file.encoding)

    def apply(self, edited: str, encoding: str) -> str:
        """``edited`` (an editor's text: ``\\n`` line ends, no BOM) as the file's text
        again, to be saved in ``encoding``.  The BOM is kept in UTF-8 and UTF-16, and
        added when converting to UTF-16, which is not recognised without one."""
        text = edited.replace("\n", self.newline) if self.newline != "\n" else edited
        target = codecs.lookup(encoding).name
        if target.startswith("utf-16") and not codecs.lookup(self.encoding).name.startswith("utf-16"):
            bom = True
        else:
            bom = self.bom and target in ("utf-8", "utf-16-le", "utf-16-be")
        return "\ufeff" + text if bom and not text.startswith("\ufeff") else text


class TextPath(os.PathLike):
    """A path with the encoding to read it with; what :func:`check_readable_text`
    returns, so that a file is detected once and read the same way after."""

    def __init__(self, path: str | os.PathLike, encoding: str) -> None:
        self.path = Path(path)
        self.encoding = encoding

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    def stat(self) -> os.stat_result:
        return self.path.stat()

    def __str__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        return f"TextPath({str(self.path)!r}, {self.encoding!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextPath) and (self.path, self.encoding) == (other.path, other.encoding)

    def __hash__(self) -> int:
        return hash((self.path, self.encoding))


def encoding_label(encoding: str) -> str:
    """How an encoding is shown to users: ``gb18030`` -> ``GB18030``."""
    if encoding in _LABELS:
        # Already a codec's own name: no lookup, which imports the codec's module
        # (the CJK ones took 10-15 ms of the GUI thread when a pane was built).
        return _LABELS[encoding]
    name = codecs.lookup(encoding).name
    return _LABELS.get(name, name.upper())


def normalize_encoding(encoding: str | None) -> str | None:
    """A user's encoding choice as a codec name; ``None`` or ``"auto"`` -> ``None`` (detect).

    GBK and GB2312 are read as GB18030, their superset (same bytes, same text).
    """
    if encoding is None or encoding.strip().lower() in ("", "auto"):
        return None
    try:
        name = codecs.lookup(encoding.strip()).name
    except LookupError:
        raise InputError(f"unknown encoding {excerpt(encoding)}", code="encoding.unknown", encoding=encoding) from None
    if name in ("gbk", "gb2312"):
        return "gb18030"
    if name == "utf-8-sig":
        return "utf-8"  # the BOM is kept as text (see the module docstring)
    return name


def _double_byte_table(leads: range, trails: Iterable[int], encoding: str) -> frozenset[str]:
    out = set()
    trail_list = list(trails)
    for lead in leads:
        for trail in trail_list:
            try:
                out.add(bytes((lead, trail)).decode(encoding))
            except UnicodeDecodeError:
                pass
    return frozenset(out)


@lru_cache(maxsize=None)
def _expected_characters(encoding: str) -> frozenset[str]:
    """Characters that text in ``encoding`` is mostly made of: the frequent
    level of its character set (GB2312 level 1, 3,755 characters; Big5 level 1,
    5,401) and CJK punctuation.  Text decoded with the wrong one of the two
    turns into kana, symbols, private-use and rare characters instead."""
    big5_trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    punctuation = _double_byte_table(range(0xA1, 0xA2), range(0xA1, 0xFF), "gb2312")
    punctuation |= _double_byte_table(range(0xA1, 0xA4), big5_trails, "big5")
    punctuation |= frozenset(map(chr, range(0xFF01, 0xFF5F)))  # full-width ASCII
    punctuation |= frozenset(map(chr, range(0x2500, 0x2580)))  # box drawing (tables in plain text)
    if encoding == "gb18030":
        return punctuation | _double_byte_table(range(0xB0, 0xD8), range(0xA1, 0xFF), "gb2312")
    return punctuation | _double_byte_table(range(0xA4, 0xC7), big5_trails, "big5")


def _plausibility(text: str, encoding: str) -> float:
    """Share of the non-ASCII characters that text in ``encoding`` usually has."""
    expected = _expected_characters(encoding)
    wide = [c for c in text if c >= "\x80"]
    return sum(c in expected for c in wide) / len(wide) if wide else 1.0


def _looks_binary(text: str) -> bool:
    return not _BINARY_CONTROLS.isdisjoint(text)


def _decode_head(head: bytes, encoding: str, complete: bool) -> str | None:
    """``head`` decoded, or None when it is not ``encoding``; a multi-byte
    character cut at the end of an incomplete head is not an error."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        return decoder.decode(head, final=complete)
    except UnicodeDecodeError:
        return None


def detect_encoding(head: bytes, *, complete: bool = True) -> str | None:
    """The encoding of a text file starting with ``head`` (the whole file when
    ``complete``), or None when it is not text in any encoding we detect.

    A byte-order mark decides; else UTF-8 if the bytes are valid UTF-8; else
    whichever of GB18030 and Big5 decodes them into characters that text in it
    usually has (GB18030 on a tie).  Chosen over a general detector
    (charset-normalizer) because on short Chinese texts that one mostly picks
    Big5 or a Korean code page for GBK (bench/bench_encoding_detection.py).
    """
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    text = _decode_head(head, "utf-8", complete)
    if text is not None:
        return "utf-8"  # valid UTF-8 is read as it always was, controls and all
    best, best_score = None, -1.0
    for encoding in LEGACY_CHINESE:
        text = _decode_head(head, encoding, complete)
        if text is None or _looks_binary(text):
            continue
        score = _plausibility(text, encoding)
        if score > best_score:
            best, best_score = encoding, score
    return best


def _open_error(path: Path, exc: OSError) -> FileError:
    if isinstance(exc, FileNotFoundError):
        return FileError(f"{path}: no such file", code="file.missing", path=str(path))
    if isinstance(exc, IsADirectoryError):
        return FileError(f"{path}: is a directory, not a file", code="file.directory", path=str(path))
    if isinstance(exc, PermissionError):
        return FileError(f"{path}: permission denied", code="file.permission", path=str(path))
    reason = str(exc.strerror or exc)
    return FileError(f"{path}: cannot read ({reason})", code="file.unreadable", path=str(path), reason=reason)


def _decode_error(path: Path, encoding: str, offset: int) -> FileError:
    label = encoding_label(encoding)
    return FileError(f"{path}: not {label} text (invalid byte at offset {offset})",
                     code="file.not_encoding", path=str(path), encoding=label, offset=offset)


def _not_text_error(path: Path, utf8_offset: int) -> FileError:
    # The UTF-8 offset is the one a user can check in a hex viewer; the other
    # encodings failed somewhere too.
    return FileError(f"{path}: not UTF-8 text (invalid byte at offset {utf8_offset}), nor GB18030, Big5 or UTF-16",
                     code="file.not_text", path=str(path), offset=utf8_offset)


def _first_invalid_byte(path: Path, encoding: str) -> int:
    """Byte offset of the first byte ``encoding`` cannot decode in ``path`` (read in chunks)."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    offset = 0
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(1 << 20)
            # The decoder buffers an incomplete sequence at a chunk's end; what
            # it holds back is counted with the chunk that completes it.
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                return offset - pending + exc.start
            offset += len(chunk)
            if not chunk:
                return offset


def _read_head(path: Path) -> tuple[bytes, bool]:
    try:
        with open(path, "rb") as fh:
            head = fh.read(DETECT_BYTES + 1)
    except OSError as exc:
        raise _open_error(path, exc) from None
    return head[:DETECT_BYTES], len(head) <= DETECT_BYTES


def file_encoding(path: str | os.PathLike, encoding: str | None = None) -> str:
    """The encoding to read ``path`` with: the given one (or a :class:`TextPath`'s),
    else the one detected from its first 64 KB; a file that is not text is a FileError."""
    given = normalize_encoding(encoding) if encoding is not None else getattr(path, "encoding", None)
    if given is not None:
        return given
    head, complete = _read_head(Path(path))
    detected = detect_encoding(head, complete=complete)
    if detected is None:
        raise _not_text_error(Path(path), _first_invalid_byte(Path(path), "utf-8"))
    return detected


def _read_bytes(p: Path, max_bytes: int | None) -> bytes:
    try:
        with open(p, "rb") as fh:
            if max_bytes is None:
                return fh.read()
            # Checked on what is read, not on the size the file claims: a
            # device or a growing file has no honest size.
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise _open_error(p, exc) from None
    if len(data) > max_bytes:
        raise FileError(f"{p}: too big (more than {max_bytes >> 20} MB)", code="file.too_big", path=str(p),
                        limit_mb=max_bytes >> 20)
    return data


def decode_text(data: bytes, encoding: str | None = None, *, path: str | os.PathLike = "-") -> TextFile:
    """``data`` (a file's bytes) as text, in ``encoding`` or the detected one."""
    p = Path(path)
    chosen = normalize_encoding(encoding) if encoding is not None else getattr(path, "encoding", None)
    if chosen is None:
        chosen = detect_encoding(data)
        if chosen is None:
            offset = 0
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                offset = exc.start
            raise _not_text_error(p, offset)
    try:
        return TextFile(data.decode(chosen), chosen)
    except UnicodeDecodeError as exc:
        raise _decode_error(p, chosen, exc.start) from None


def read_text_file(path: str | os.PathLike, encoding: str | None = None, *,
                   max_bytes: int | None = None) -> TextFile:
    """The whole file as text, with the encoding it was read in.

    ``encoding`` None (or "auto") detects it; a :class:`TextPath` brings its own.
    A file of more than ``max_bytes`` is refused (after reading no more than that).
    """
    return decode_text(_read_bytes(Path(path), max_bytes), encoding, path=path)


def read_text(path: str | os.PathLike, encoding: str | None = None, *, max_bytes: int | None = None) -> str:
    """The whole file as text (see :func:`read_text_file`)."""
    return read_text_file(path, encoding, max_bytes=max_bytes).text


def read_model_bytes(path: str | os.PathLike) -> bytes:
    """A tokenizer file's bytes; one far beyond any real model's size is refused before it is read."""
    return _read_bytes(Path(path), MAX_MODEL_BYTES)


def read_model_text(path: str | os.PathLike) -> str:
    """A tokenizer file's text (see :func:`read_model_bytes`)."""
    return read_text(path, max_bytes=MAX_MODEL_BYTES)


class JsonError(ValueError):
    """Text that is not JSON, or JSON that cannot be held (too deep, too long a number)."""


def parse_json(text: str) -> Any:
    """``json.loads``, with every way it can fail as a :class:`JsonError` whose
    message is short: ``line 3: Expecting value``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonError(f"line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise JsonError("nested too deeply") from None
    except ValueError as exc:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise JsonError(excerpt(str(exc), 80)) from None


def iter_text_chunks(path: str | os.PathLike, chunk_chars: int = CHUNK_CHARS,
                     encoding: str | None = None) -> Iterator[str]:
    """Stream a text file in chunks of about ``chunk_chars`` characters.

    The encoding is detected from the file's start unless given.  Newlines are
    not translated, so the chunks joined equal the file's text.
    """
    p = Path(path)
    chosen = file_encoding(path, encoding)
    try:
        fh = open(p, "r", encoding=chosen, newline="")
    except OSError as exc:
        raise _open_error(p, exc) from None
    with fh:
        while True:
            try:
                chunk = fh.read(chunk_chars)
            except UnicodeDecodeError:
                raise _decode_error(p, chosen, _first_invalid_byte(p, chosen)) from None
            except OSError as exc:
                raise _open_error(p, exc) from None
            if not chunk:
                return
            yield chunk


def iter_lines(paths: Iterable[str | os.PathLike], encoding: str | None = None) -> Iterator[str]:
    """Lines (with their line endings) of several text files, streamed."""
    for path in paths:
        tail = ""
        for chunk in iter_text_chunks(path, encoding=encoding):
            lines = (tail + chunk).splitlines(keepends=True)
            tail = lines.pop() if lines and not lines[-1].endswith(("\n", "\r")) else ""
            yield from lines
        if tail:
            yield tail


def check_readable_text(paths: Iterable[str | os.PathLike], *, allow_empty: bool = False,
                        encoding: str | None = None) -> list[TextPath]:
    """Fail early, with one line, on a missing, non-text or empty corpus file.

    Returns each file with the encoding it is read in (detected once, here).
    """
    checked = []
    for path in paths:
        p = TextPath(path, file_encoding(path, encoding))
        size = 0
        for chunk in iter_text_chunks(p):
            size += len(chunk)
        if size == 0 and not allow_empty:
            raise FileError(f"{p}: file is empty", code="file.empty", path=str(p))
        checked.append(p)
    if not checked:
        raise FileError("no input files given", code="file.none_given")
    return checked


def encode_text(text: str, encoding: str = "utf-8", *, path: str | os.PathLike = "") -> bytes:
    """``text`` in ``encoding``; a character it cannot hold is a clear error."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        label, char = encoding_label(encoding), text[exc.start]
        where = f"{path}: " if str(path) else ""
        raise FileError(f"{where}cannot save as {label}: it has no {char!r} (U+{ord(char):04X}, character {exc.start})",
                        code="file.unencodable", path=str(path), encoding=label, char=char,
                        position=exc.start) from None


def _write_error(path: Path, exc: OSError) -> FileError:
    if isinstance(exc, FileNotFoundError) and not path.parent.exists():
        return FileError(f"{path}: cannot write: folder {path.parent} does not exist",
                         code="file.no_folder", path=str(path), folder=str(path.parent))
    reason = str(exc.strerror or exc)
    return FileError(f"{path}: cannot write ({reason})", code="file.unwritable", path=str(path), reason=reason)


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


# Temp files are ``.NAME.<12 hex>.tmp`` beside NAME; the part of NAME kept is
# cut so that the whole name fits the filesystem's limit (NAME_MAX).
_TEMP_SUFFIX_BYTES = len(".") + 1 + 12 + len(".tmp")


def temp_prefix(name: str, folder: str | os.PathLike) -> str:
    """The ``.NAME`` part of a temp file name for ``name``, cut so that a suffix
    of up to 18 bytes (``.<12 hex>.tmp``, ``.<pid>.partial``) fits NAME_MAX."""
    try:
        name_max = os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):
        name_max = 255
    # Cut on a character boundary; the same name always gives the same prefix.
    kept = os.fsencode(name)[: name_max - _TEMP_SUFFIX_BYTES].decode("utf-8", "ignore")
    return "." + (kept or "_")


def _lock(fd: int, *, wait: bool) -> bool:
    """An exclusive lock on an open temp file: held while it is written, so that a
    lockable one belongs to a writer that is gone.  Without fcntl (Windows) a
    temp file is never taken for stale: an open file there cannot be removed anyway."""
    try:
        import fcntl
    except ImportError:
        return wait
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _remove_stale_temps(folder: Path, prefix: str) -> None:
    """Remove temp files of ours for the same target that a killed writer left."""
    pattern = re.compile(re.escape(prefix) + r"\.[0-9a-f]{12}\.tmp")
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and pattern.fullmatch(n)]
    except OSError:
        return
    for name in names:
        try:
            fd = os.open(folder / name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError:
            continue
        try:
            if _lock(fd, wait=False):
                os.unlink(folder / name)
        except OSError:
            pass
        finally:
            os.close(fd)


def _create_temp(p: Path, folder: Path) -> tuple[int, Path]:
    prefix = temp_prefix(p.name, folder)
    _remove_stale_temps(folder, prefix)
    for _ in range(100):
        tmp = folder / f"{prefix}.{secrets.token_hex(6)}.tmp"
        # os.open with mode 0o666 (not mkstemp's 0o600) so the file gets the
        # permissions the user's umask gives any new file.
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _write_error(p, exc) from None
        _lock(fd, wait=True)
        if os.fstat(fd).st_nlink > 0:
            return fd, tmp
        os.close(fd)  # another writer took it for stale between open and lock
    raise FileError(f"{p}: cannot create a temporary file in {folder}", code="file.no_temp", path=str(p),
                    folder=str(folder))


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one.

    The temp file sits in the same folder so that ``os.replace`` is a rename on
    one filesystem, never a copy that could be interrupted half-way.  Temp
    files a killed writer left for the same path are removed first.
    """
    atomic_write_many([(path, data)])


def atomic_write_many(files: Iterable[tuple[str | os.PathLike, bytes]]) -> None:
    """Write several files, each atomically, all written before any is replaced:
    an error or Ctrl-C while writing leaves every old file as it was."""
    temps: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            p = check_output_name(path)
            folder = p.parent if str(p.parent) else Path(".")
            fd, tmp = _create_temp(p, folder)
            temps.append((tmp, p))
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:
                raise _write_error(p, exc) from None
        for i, (tmp, p) in enumerate(temps):
            try:
                os.replace(tmp, p)
            except OSError as exc:
                raise _write_error(p, exc) from None
            temps[i] = (p, p)  # replaced: nothing to clean up
    except BaseException:
        for tmp, p in temps:
            if tmp != p:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
        raise


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Save ``text`` in ``encoding`` (e.g. the one :func:`read_text_file` reported)."""
    atomic_write_bytes(path, encode_text(text, encoding, path=path))


def write_folder(path: str | os.PathLike, fill: Callable[[str], object]) -> None:
    """``fill(tmp)`` writes the folder's files into a temporary folder beside
    ``path``; they are then moved in file by file, so a failure leaves no half folder."""
    target = os.path.abspath(os.fspath(path))
    if os.path.exists(target) and not os.path.isdir(target):
        raise InputError(f"{target}: exists and is not a folder")
    tmp = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.", dir=os.path.dirname(target))
    try:
        fill(tmp)
        os.makedirs(target, exist_ok=True)
        for name in sorted(os.listdir(tmp)):
            os.replace(os.path.join(tmp, name), os.path.join(target, name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
