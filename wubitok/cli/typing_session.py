"""``wubitok type`` with no keys: an interactive session in the terminal, like Rime's console.

The terminal is put in cbreak mode (keys arrive one by one, unechoed; Ctrl+C still
interrupts) and each key goes through the engine; after each, the current line is
drawn again: the text committed on it, then the pre-edit in brackets and the page of
candidates with their numbers and hints.  Enter with no code ends the line (a newline);
Ctrl+D on an empty code, or Ctrl+C, ends the session.  A terminal cannot report Shift
pressed alone, so Ctrl+E stands for it (Chinese/English); Page Up/Down and -/= turn pages.
"""
from __future__ import annotations

import os
import sys
from typing import Callable, Iterator, TextIO

from ..ime import ImeEngine, ImeState

HELP = ("Wubi-86: type codes; Space or 1-9 choose, -/= or PgUp/PgDn turn pages, Esc drops the code, "
        "Ctrl+E Chinese/English, Enter a new line, Ctrl+D quits.")
# Bytes a terminal sends -> the engine's named keys.
_CONTROL = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace", " ": "space",
            "\x05": "shift", "\x1b": "escape"}
_ESCAPES = {"\x1b[5~": "pageup", "\x1b[6~": "pagedown"}
_QUIT = {"\x04", "\x03"}  # Ctrl+D, Ctrl+C (cbreak keeps Ctrl+C a signal; a raw terminal sends it)
SHOWN_CHARS = 24  # of the line's committed text, before the pre-edit (the line's tail)


def keys_from(chunks: Iterator[str]) -> Iterator[str]:
    """The engine's keys in what the terminal sends (``chunks``: what each read returned);
    None-free; a quit key ends it.  Escape sequences other than the page keys are skipped."""
    for chunk in chunks:
        i = 0
        while i < len(chunk):
            ch = chunk[i]
            if ch in _QUIT:
                return
            if ch == "\x1b" and i + 1 < len(chunk):  # a sequence: ESC [ ... final byte
                end = i + 2
                while end < len(chunk) and not ("@" <= chunk[end] <= "~" and end > i + 1):
                    end += 1
                seq = chunk[i:end + 1]
                if seq in _ESCAPES:
                    yield _ESCAPES[seq]
                i = end + 1
                continue
            if ch in _CONTROL:
                yield _CONTROL[ch]
            elif ch.isprintable():
                yield ch
            i += 1


def status(line: str, state: ImeState) -> str:
    """What the current line shows: its committed text (the tail), then the pre-edit and the page."""
    tail = line[-SHOWN_CHARS:]
    if not state.composing:
        return tail
    page = " ".join(f"{i}.{c.text}{'(' + c.hint + ')' if c.hint else ''}"
                    for i, c in enumerate(state.candidates, 1))
    more = f" [{state.page + 1}/{state.page_count}]" if state.page_count > 1 else ""
    return f"{tail}[{state.preedit}] {page}{more}".rstrip()


def run_session(engine: ImeEngine, chunks: Iterator[str], out: TextIO, say: Callable[[str], None]) -> str:
    """Type the keys in ``chunks`` through ``engine``, drawing each state on ``out``; returns
    everything committed (lines joined with newlines)."""
    lines = [""]
    say(HELP)
    for key in keys_from(chunks):
        result = engine.process(key)
        lines[-1] += result.committed
        if not result.handled:  # an editor's key: Enter and Backspace with no code
            if key == "enter":
                out.write("\r\x1b[K" + lines[-1][-SHOWN_CHARS:] + "\n")  # the terminal adds its carriage return
                lines.append("")
            elif key == "backspace":
                lines[-1] = lines[-1][:-1]
        for notice in engine.take_notices():
            say(notice)
        out.write("\r\x1b[K" + status(lines[-1], engine.state))
        out.flush()
    out.write("\r\x1b[K" + lines[-1][-SHOWN_CHARS:] + "\n")  # the terminal adds its carriage return
    out.flush()
    return "\n".join(lines)


def _reads(fd: int) -> Iterator[str]:
    while True:
        data = os.read(fd, 64)
        if not data:
            return
        yield data.decode("utf-8", "replace")


def interactive(engine: ImeEngine) -> int:
    """The session on this process's terminal (stdin and stdout), in cbreak mode (restored after:
    set before anything is shown, so that no key typed early waits for a newline, echoed)."""
    import termios
    import tty

    def say(text: str) -> None:
        sys.stdout.write("\r\x1b[K" + text + "\n")  # the terminal adds its carriage return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        run_session(engine, _reads(fd), sys.stdout, say)
    except KeyboardInterrupt:
        sys.stdout.write("\n")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return 0
