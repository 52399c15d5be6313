"""The ``wubitok`` command line: a thin client of the library.

Each command lives in its own module here and exposes ``register(subparsers)``,
which adds a parser whose ``func(args) -> int`` runs the command.  User errors
(``WubitokError``) and output that cannot be written (a full disk) become one
line on stderr and exit code 2; SIGTERM is handled like Ctrl-C.
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import sys
import threading
from typing import Any, Iterator, NoReturn, Sequence, TextIO, cast

from .. import __version__, _interrupted_at_start
from ..errors import WubitokError
from ..registry import resolve
from .common import stdin_copied

# command -> "module:register" (``wubitok.registry``); register(subparsers) adds it.
# Order here is the order in ``wubitok --help``.
COMMANDS: dict[str, str] = {
    "lookup": "wubitok.cli.lookup:register",
    "candidates": "wubitok.cli.candidates:register",
    "pinyin": "wubitok.cli.pinyin:register",
    "convert": "wubitok.cli.convert:register",
    "segment": "wubitok.cli.segment:register",
    "type": "wubitok.cli.typing_cmd:register",
    "phrase": "wubitok.cli.phrase:register",
    "practice": "wubitok.cli.practice_cmd:register",
    "settings": "wubitok.cli.settings_cmd:register",
    "userdata": "wubitok.cli.userdata:register",
    "table": "wubitok.cli.table:register",
    "train": "wubitok.cli.train:register",
    "count": "wubitok.cli.count:register",
    "encode": "wubitok.cli.encode:register",
    "decode": "wubitok.cli.decode:register",
    "export": "wubitok.cli.export:register",
    "gui": "wubitok.cli.gui:register",
    "compare": "wubitok.cli.compare:register",
    "lm-eval": "wubitok.cli.lm_eval:register",
    "ibus": "wubitok.cli.ibus:register",
    "doctor": "wubitok.cli.doctor:register",
    "codec-cost": "wubitok.cli.codec_cost:register",
}

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 128 + signal.SIGTERM
# An error message is one line of reasonable length, whatever it quotes.
MAX_MESSAGE_CHARS = 1000
# What str.splitlines (and a terminal) breaks a line at, written as Python escapes in a message:
# an argument with a \r in it made argparse's one-line error two lines (found by hypothesis).
_LINE_BREAKS = str.maketrans({c: repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"})


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, like Ctrl-C: the same clean-up runs
    (a file being written is not left half-done, nor its temp file)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other user error; --help has the usage.
        self.exit(EXIT_USER_ERROR, f"{self.prog}: error: {_one_line(message)} (see '{self.prog} --help')\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of ``command`` when that names one (importing
    every command's module is most of a short command's start: `wubitok type`)."""
    parser = _Parser(
        prog="wubitok",
        description="Wubi-86 dictionary, typing and Wubi-BPE tokenizers, offline.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'wubitok COMMAND --help' for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"wubitok {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    targets = [COMMANDS[command]] if command in COMMANDS else COMMANDS.values()
    for target in targets:
        resolve(target)(sub)
    return parser


def _utf8_streams() -> None:
    # Redirected output on Windows uses the locale's code page, which cannot
    # hold every character we print (Ext B, full-width token symbols).
    for stream in (sys.stdout, sys.stderr):
        if (getattr(stream, "encoding", "") or "").lower().replace("-", "") != "utf8" and hasattr(
            stream, "reconfigure"
        ):
            stream.reconfigure(encoding="utf-8")


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pid = os.getpid()

    def on_sigterm(signum: int, frame: Any) -> None:
        if os.getpid() != pid:  # a forked worker: die as it would have
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _drop_stdout() -> None:
    # What is still buffered for a closed pipe or a full disk would fail
    # again when Python flushes at exit, with a second message.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _one_line(message: str) -> str:
    message = message.translate(_LINE_BREAKS)
    return message[:MAX_MESSAGE_CHARS] + "..." if len(message) > MAX_MESSAGE_CHARS else message


def _error_line(command: str, message: str) -> str:
    return f"wubitok {command}: error: {_one_line(message)}"


class _ClosedOutput:
    """Standard output when it was closed before start (``>&-``): Python leaves ``sys.stdout``
    None, and the first print or flush was a traceback.  Writing is an OSError like any output
    that cannot be written (one line, exit 2); a command that prints nothing is not disturbed."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    writelines = write

    def flush(self) -> None:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    if signal.getsignal(signal.SIGINT) is _interrupted_at_start:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if sys.stdout is None:
        sys.stdout = cast(TextIO, _ClosedOutput())
    _utf8_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:  # building the parser imports every command's module: a second or so
        parser = build_parser(argv[0] if argv else None)
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        print("wubitok: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        with _sigterm_as_interrupt(), stdin_copied(args):
            code = int(args.func(args) or 0)
            sys.stdout.flush()  # a full disk is reported here, not at exit
            return code
    except WubitokError as exc:
        print(_error_line(args.command, str(exc)), file=sys.stderr)
        return EXIT_USER_ERROR
    except Terminated:
        print(f"wubitok {args.command}: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print(f"wubitok {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        # Under a memory limit (ulimit -v, a container's): one line, not a traceback.
        _drop_stdout()
        print(_error_line(args.command, "out of memory: this input needs more memory than the process may use"),
              file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:
        # `wubitok ... | head` closed the pipe: not an error worth a word.
        _drop_stdout()
        return 0
    except OSError as exc:
        # Files are read and written with FileErrors: what is left is standard output.
        _drop_stdout()
        print(_error_line(args.command, f"cannot write the output ({exc.strerror or exc})"), file=sys.stderr)
        return EXIT_USER_ERROR


def run() -> None:
    sys.exit(main())
