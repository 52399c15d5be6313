#!/usr/bin/env python3
"""Build the desktop app for this OS into dist/ with PyInstaller.

    python installer/build.py            # dist/wubitok/ (Linux, Windows) or dist/wubitok.app (macOS)

Linux also gets the .desktop file, AppStream metadata and icons copied next
to the executable (``share/``), ready for a system install or an AppImage.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    dist, work = ROOT / "dist", ROOT / "build" / "pyinstaller"
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--distpath", str(dist), "--workpath", str(work), str(ROOT / "installer" / "wubitok.spec")],
                   check=True)
    if sys.platform.startswith("linux"):
        share = dist / "wubitok" / "share"
        (share / "applications").mkdir(parents=True, exist_ok=True)
        (share / "metainfo").mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "installer/linux/io.github.wubitok.desktop", share / "applications")
        shutil.copy(ROOT / "installer/linux/io.github.wubitok.metainfo.xml", share / "metainfo")
        for png in sorted((ROOT / "resources" / "icons").glob("wubitok-*.png")):
            size = png.stem.split("-")[-1]
            target = share / "icons" / "hicolor" / f"{size}x{size}" / "apps"
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy(png, target / "io.github.wubitok.png")
    print(f"built {dist}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
