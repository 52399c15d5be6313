"""Render the README's screenshots: every pane in English (light) and 简体中文 (dark).

    python docs/screenshots/render.py [PANE ...]

Each one is ``wubitok gui --screenshot`` in a fresh, empty user data folder
(no remembered settings), 1200x800.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEXTS = {
    "lookup": "ni",
    "convert": "支持 f-string 和输入法，𠀀 𠉎。",
    "tokenize": "五笔字型输入法是王永民在1983年发明的一种汉字输入法。Wubi-BPE learns merges over Wubi keys. 𠀀 𠉎",
    "compare": "床前明月光，疑是地上霜。举头望明月，低头思故乡。\nTokenizers split 中文 text differently. 𠀀",
    "train": None,
    "ime": None,
}
VARIANTS = (("en", "light", HERE), ("zh_CN", "dark", HERE / "zh_CN-dark"))


def main(panes: list[str]) -> int:
    for lang, theme, folder in VARIANTS:
        folder.mkdir(exist_ok=True)
        for pane in panes or list(TEXTS):
            env = dict(os.environ, WUBITOK_DATA_DIR=tempfile.mkdtemp(prefix="wubitok-shot-"))
            cmd = [sys.executable, "-m", "wubitok", "gui", "--screenshot", str(folder / f"{pane}.png"),
                   "--pane", pane, "--size", "1200x800", "--lang", lang, "--theme", theme]
            if TEXTS[pane] is not None:
                cmd += ["--text", TEXTS[pane]]
            subprocess.run(cmd, env=env, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
