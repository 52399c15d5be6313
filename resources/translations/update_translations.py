"""Refresh the Chinese UI translation from the GUI sources and compile it.

    .venv/bin/python resources/translations/update_translations.py

1. ``pyside6-lupdate`` collects every ``tr()`` / ``translate()`` string of
   ``wubitok/gui`` into ``wubitok_zh_CN.ts``, keeping existing translations
   and dropping strings that are gone;
2. translate new entries (marked ``unfinished``) in the .ts with Qt Linguist
   (``pyside6-linguist``) or any text editor;
3. ``pyside6-lrelease`` compiles ``wubitok_zh_CN.qm``, which the app loads.
   Untranslated strings show in English.

``wubitok_en.ts`` holds only the English plural forms (``tr("%n file(s)", "", n)``
gives "1 file" / "2 files"); fill in its ``numerusform`` entries the same way.

Run it again after changing UI strings, and commit both files.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = HERE / "wubitok_zh_CN.ts"
QM = HERE / "wubitok_zh_CN.qm"
# English needs a translation file only for its plural forms ("1 file", "2 files").
TS_EN = HERE / "wubitok_en.ts"
QM_EN = HERE / "wubitok_en.qm"


def _tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        sys.exit(f"{name} not found: install PySide6 into this Python")
    return found


def main() -> int:
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "wubitok" / "gui").rglob("*.py"))
    # No source locations: line numbers would change the .ts on every edit of a GUI file.
    subprocess.run([_tool("pyside6-lupdate"), "-no-obsolete", "-locations", "none", *sources,
                    "-ts", str(TS.relative_to(ROOT))], cwd=ROOT, check=True)
    subprocess.run([_tool("pyside6-lupdate"), "-no-obsolete", "-locations", "none", "-pluralonly", *sources,
                    "-target-language", "en", "-ts", str(TS_EN.relative_to(ROOT))], cwd=ROOT, check=True)
    for ts, qm in ((TS, QM), (TS_EN, QM_EN)):
        subprocess.run([_tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
