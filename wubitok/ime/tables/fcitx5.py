"""An fcitx5 table: libime's text table (``wubitok.txt``), compiled to ``wubitok.main.dict``
with libime's ``libime_tabledict`` when it is installed, and the input method's
``wubitok.conf``.

The text table lists each code's entries in the engine's order; libime keeps
that order for entries of one code.  The ``[Rule]`` section is the Wubi-86
phrase rule (the one ``WubiDictionary.phrase_code`` follows), so fcitx5 makes
codes for phrases the typist adds there too.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Iterable

from ...errors import FileError
from ...fileio import atomic_write_text
from ...wubi.dictionary import WUBI_KEYS
from .entries import TableEntry

NAME = "wubitok"
RULES = ("e2=p11+p12+p21+p22", "e3=p11+p21+p31+p32", "a4=p11+p21+p31+n11")


def write_fcitx5(entries: Iterable[TableEntry], folder: str | Path, *,
                 compile_with: str | None = "libime_tabledict") -> list[Path]:
    """Write the text table and the input method's conf into ``folder``, and the compiled
    ``.main.dict`` when ``compile_with`` (libime's tool) is found; returns the paths written."""
    out = Path(folder)
    text, conf = out / f"{NAME}.txt", out / f"{NAME}.conf"
    atomic_write_text(text, text_table(entries))
    atomic_write_text(conf, _conf())
    written = [text, conf]
    tool = shutil.which(compile_with) if compile_with else None
    if tool:
        written.append(compile_table(text, out / f"{NAME}.main.dict", tool))
    return written


def text_table(entries: Iterable[TableEntry]) -> str:
    head = [f"KeyCode={WUBI_KEYS}", "Length=4", "[Rule]", *RULES, "[Data]"]
    return "\n".join([*head, *(f"{e.code} {e.text}" for e in entries)]) + "\n"


def compile_table(text: Path, dest: Path, tool: str = "libime_tabledict") -> Path:
    """``tool text dest``, through a temporary name so that a failed run leaves no half file."""
    tmp = dest.with_name(f".{dest.name}.tmp")
    try:
        done = subprocess.run([tool, str(text), str(tmp)], capture_output=True, text=True, timeout=600)
    except OSError as exc:
        raise FileError(f"cannot run {tool} ({exc})") from None
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        reason = (done.stderr or done.stdout).strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        raise FileError(f"{tool} could not compile {text}: {reason[0]}")
    tmp.replace(dest)
    return dest


def _conf() -> str:
    return "\n".join([
        "[InputMethod]",
        "Name=Wubi-86 (wubitok)",
        "Icon=fcitx-wubi",
        "Label=五",
        "LangCode=zh_CN",
        "Addon=table",
        "Configurable=True",
        "",
        "[Table]",
        f"File=table/{NAME}.main.dict",
        "AutoSelect=True",
        "AutoSelectLength=-1",
        "NoMatchAutoSelectLength=-1",
        "Hint=True",
        "OrderPolicy=Freq",
        "",
    ])
