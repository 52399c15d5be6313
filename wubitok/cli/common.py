"""Helpers shared by the CLI commands: input from TEXT or --file (``-``: standard input), JSON output,
progress on stderr."""
from __future__ import annotations

import argparse
import contextlib
import errno
import itertools
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, TextIO

from ..errors import FileError, InputError, excerpt
from ..fileio import (
    TextFile,
    TextPath,
    decode_text,
    encoding_label,
    file_encoding,
    iter_text_chunks,
    normalize_encoding,
    read_stream,
    read_text_file,
)
from ..progress import Progress, ProgressMeter, clock, si

if TYPE_CHECKING:
    from ..wubi.codec import CodecOptions


def add_encoding(parser: argparse.ArgumentParser) -> None:
    """``--encoding``, for every command that reads text files."""
    parser.add_argument("--encoding", default="auto", type=_encoding, metavar="ENC",
                        help="encoding of the input files: auto (default: UTF-8, UTF-16 with a BOM, "
                             "GB18030/GBK or Big5, detected) or a codec name such as gbk, big5, utf-16")


def _encoding(name: str) -> str | None:
    try:
        return normalize_encoding(name)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def note_encoding(args: argparse.Namespace, path: object, encoding: str) -> None:
    """Say on stderr which encoding a detected non-UTF-8 file was read in."""
    if args.encoding is None and encoding != "utf-8":
        print(f"wubitok {args.command}: reading {path} as {encoding_label(encoding)}", file=sys.stderr)


def note_encodings(args: argparse.Namespace, paths: list[TextPath]) -> None:
    for p in paths:
        note_encoding(args, p, p.encoding)


def add_text_or_file(parser: argparse.ArgumentParser, what: str = "TEXT") -> None:
    # nargs="*": unquoted words (wubitok convert --to hanzi wqiy vbg) are joined by spaces.
    parser.add_argument("text", nargs="*", metavar=what, help=f"the input {what.lower()} (or use --file)")
    parser.add_argument("--file", "-f", metavar="PATH", help="read the input from a text file instead (- for stdin)")
    add_encoding(parser)


STDIN = "-"


def read_input(path: str, encoding: str | None) -> TextFile:
    """A text file the user named, ``-`` being standard input (its encoding detected alike)."""
    if path == STDIN:
        return decode_text(read_stream(sys.stdin.buffer), encoding, path="<stdin>")
    return read_text_file(path, encoding)


@contextlib.contextmanager
def stdin_copied(args: argparse.Namespace) -> Iterator[None]:
    """``-`` (standard input) and pipes (``/dev/stdin`` of ``cat f |``, a FIFO) in the file lists a
    command names in its ``stdin_copied`` default, each replaced by a temporary copy of what came
    through it for the command's run: training and corpus encoding read their files more than
    once, and seek in them."""
    names = [n for n in getattr(args, "stdin_copied", ()) if getattr(args, n, None)]
    if sum((getattr(args, n) or []).count(STDIN) for n in names) > 1:
        raise InputError("- (standard input) can be read once: give it once")
    copies: dict[str, str] = {}
    try:
        for n in names:
            paths = getattr(args, n)
            for path in paths:
                if path not in copies and _is_pipe(path):
                    copies[path] = _copy_of(path)
            setattr(args, n, [copies.get(p, p) for p in paths])
        yield
    finally:
        for copy in copies.values():
            os.unlink(copy)


def _is_pipe(path: str) -> bool:
    """``-``, or a path that names a pipe, FIFO or socket (read once, no seeking)."""
    if path == STDIN:
        return True
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False  # the command says what is wrong with it
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _copy_of(path: str) -> str:
    fd, copy = tempfile.mkstemp(prefix="wubitok-stdin-", suffix=".txt")
    try:
        with os.fdopen(fd, "wb") as fh:
            if path == STDIN:
                shutil.copyfileobj(sys.stdin.buffer, fh)
            else:
                with open(path, "rb") as source:
                    shutil.copyfileobj(source, fh)
    except OSError as exc:
        os.unlink(copy)
        if exc.errno == errno.ENOSPC:
            raise FileError(f"{path}: no room for a copy of it in {tempfile.gettempdir()}: the disk is full",
                            code="file.no_space", path=path) from None
        raise FileError(f"{path}: cannot read ({exc.strerror or exc})", code="file.unreadable", path=path) from None
    except BaseException:
        os.unlink(copy)
        raise
    return copy


def utf8_argument(text: str, what: str = "TEXT") -> str:
    """``text`` from the command line, decoded the same under every locale: the bytes the OS
    gave (``os.fsencode`` undoes Python's locale decoding, e.g. ASCII under ``LANG=C`` with
    ``-X utf8=0``), read as UTF-8.  Bytes that are not UTF-8 are one clear error."""
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError:  # characters the locale cannot hold: Python did not decode them from bytes
        raw = text.encode("utf-8", "surrogatepass")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not valid UTF-8 (undecodable byte at byte {exc.start})") from None


def streamed_file(args: argparse.Namespace) -> Iterator[str] | None:
    """``--file PATH``'s text in chunks (its encoding detected and named as ``text_or_file``
    does), for a command whose output is a function of a chunk at a time; None for TEXT or
    ``-`` (read whole, as ``text_or_file`` reads them).  An empty file is the same error."""
    if not args.file or args.file == STDIN or args.text:
        return None
    encoding = file_encoding(args.file, args.encoding)
    note_encoding(args, args.file, encoding)
    chunks = iter_text_chunks(args.file, encoding=encoding)
    first = next(chunks, "")
    if not first:
        raise InputError("empty input")
    return itertools.chain([first], chunks)


def text_or_file(args: argparse.Namespace, *, allow_empty: bool = False) -> str:
    words = args.text
    if isinstance(words, list):
        words = " ".join(words) if words else None
    if words is not None and args.file:
        raise InputError("give TEXT or --file, not both")
    if args.file:
        document = read_input(args.file, args.encoding)
        note_encoding(args, args.file, document.encoding)
        text = document.text
    elif words is not None:
        text = utf8_argument(words)
    else:
        raise InputError("no input: give TEXT or --file PATH")
    if not text and not allow_empty:
        raise InputError("empty input")
    return text


def limit_arg(n: int) -> int | None:
    """A --limit N value: at most N results, 0 for all."""
    if n < 0:
        raise InputError("--limit must be 0 (all) or more")
    return None if n == 0 else n


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def help_formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def actions_of(command: argparse.ArgumentParser, epilog: str) -> Callable[..., argparse.ArgumentParser]:
    """The ACTION sub-commands of ``command`` (``phrase add``, ``settings show``...):
    ``add(name, help, run)`` makes one that runs ``run``, with the command's help layout and examples."""
    actions = command.add_subparsers(dest="action", metavar="ACTION", required=True)

    def add(name: str, help: str, run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        action = actions.add_parser(name, help=help, formatter_class=help_formatter, epilog=epilog)
        action.set_defaults(func=run)
        return action
    return add


def add_pre_tokens(parser: argparse.ArgumentParser, default: str) -> None:
    """``--pre-tokens CUT``: Wubi-BPE's pre-token cut, the choices the engine has."""
    # Here, not at the top: the tokenizer stack is 0.1-0.2 s to import, which every command
    # (`wubitok type` among them, meant to start at once) would pay.
    from ..engines.pre_tokenizers.wubi import PRE_TOKEN_MODES

    parser.add_argument("--pre-tokens", choices=PRE_TOKEN_MODES, metavar="CUT",
                        help=f"wubi-bpe only: how text is cut before merging, one of {', '.join(PRE_TOKEN_MODES)} "
                             f"({default}; clause: each Han run alone, as models made before the choice)")


def default_codec() -> str:
    from ..wubi.codec import CodecOptions

    o = CodecOptions()
    return f"{o.code}/{o.boundary}/{o.index}/{o.layout}"


def codec_options(text: str) -> CodecOptions:
    """``--codec CODE[/BOUNDARY[/INDEX[/LAYOUT]]]``: the parts left out take the defaults."""
    parts = text.split("/")
    if len(parts) > 4 or not all(parts):
        raise InputError(f"--codec takes CODE[/BOUNDARY[/INDEX[/LAYOUT]]], not {excerpt(text)}")
    from ..wubi.codec import CodecOptions

    default = CodecOptions()
    values = parts + [default.boundary, default.index, default.layout][len(parts) - 1 :]
    return CodecOptions(*values)


class ProgressLine:
    """Draws a long call's ``progress(stage, done, total)`` on a stream (stderr).

    On a terminal one line per stage is redrawn in place, at most ten times a
    second: stage, bar, percent, counts, rate and ETA.  Elsewhere (a log file,
    a pipe) one line is printed per stage, when it ends.  The numbers come
    from :class:`wubitok.progress.ProgressMeter`; this only draws them.
    """

    WIDTH = 24

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic):
        self.stream = stream
        self.tty = stream.isatty()
        self.meter = ProgressMeter(interval=0.1, clock=clock)
        self._stage: str | None = None  # the stage whose line is not ended yet
        self._drawn = False  # its line is on screen (terminal) or printed (log)

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self._stage:
            self._end_stage()
            self._stage = stage
        if self.tty:
            snapshot = self.meter.update(stage, done, total)
            if snapshot is not None:
                self.stream.write("\r" + self.render(snapshot) + "\x1b[K")
                self.stream.flush()
                self._drawn = True
        else:
            snapshot = self.meter.measure(stage, done, total)
            if snapshot.finished and not self._drawn:
                self._print(snapshot)

    def render(self, p: Progress) -> str:
        if p.total > 0:
            fraction = p.fraction or 0.0
            filled = int(fraction * self.WIDTH)
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            if p.finished:
                when = f"in {clock(p.elapsed)}"
            else:
                when = f"ETA {clock(p.eta)}" if p.eta is not None else "ETA -:--"
            return f"{p.stage:<9} [{bar}] {fraction:4.0%} {si(p.done)}/{si(p.total)} {si(p.rate)}/s  {when}"
        return f"{p.stage:<9} {si(p.done)}  {si(p.rate)}/s  {clock(p.elapsed)}"

    def _print(self, p: Progress) -> None:
        self.stream.write(self.render(p) + "\n")
        self.stream.flush()
        self._drawn = True

    def _end_stage(self) -> None:
        if self._stage is None:
            return
        if self.tty and self._drawn:
            self.stream.write("\n")
        elif not self.tty and not self._drawn and self.meter.last is not None:
            self._print(self.meter.last)
        self._stage, self._drawn = None, False

    def finish(self) -> None:
        """End the last stage's line (call once the operation returned)."""
        self._end_stage()
        self.stream.flush()
