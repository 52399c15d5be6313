"""Render the screenshots of the README and docs/reference.md: every pane in English (light) and 简体中文
(dark), and Tokenize and Compare in the other two combinations too.

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
# (language, theme, folder, panes rendered); None: every pane.
VARIANTS = (
    ("en", "light", HERE, None),
    ("zh_CN", "dark", HERE / "zh_CN-dark", None),
    ("en", "dark", HERE / "en-dark", ("tokenize", "compare")),
    ("zh_CN", "light", HERE / "zh_CN-light", ("tokenize", "compare")),
)


def remember_corpus(data_dir: Path) -> None:
    """Train's corpus list as a user left it: the bundled samples in three encodings."""
    from PySide6.QtCore import QSettings

    samples = HERE.parents[1] / "resources" / "samples"
    corpus = data_dir / "corpus"
    corpus.mkdir()
    files = []
    for name, encoding in (("tang300.txt", "gb18030"), ("song100.txt", "utf-16"), ("fortunes-zh.txt", "utf-8")):
        out = corpus / name
        out.write_bytes((samples / name).read_text(encoding="utf-8").encode(encoding))
        files.append(str(out))
    settings = QSettings(str(data_dir / "wubitok-gui.ini"), QSettings.Format.IniFormat)
    settings.setValue("train/files", files)
    settings.sync()


def main(panes: list[str]) -> int:
    for lang, theme, folder, only in VARIANTS:
        folder.mkdir(exist_ok=True)
        for pane in [p for p in panes or list(TEXTS) if only is None or p in only]:
            cmd = [sys.executable, "-m", "wubitok", "gui", "--screenshot", str(folder / f"{pane}.png"),
                   "--pane", pane, "--size", "1200x800", "--lang", lang, "--theme", theme]
            if TEXTS[pane] is not None:
                cmd += ["--text", TEXTS[pane]]
            with tempfile.TemporaryDirectory(prefix="wubitok-shot-") as data:  # settings, learning, Train's corpus
                if pane == "train":
                    remember_corpus(Path(data))
                subprocess.run(cmd, env=dict(os.environ, WUBITOK_DATA_DIR=data), check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
