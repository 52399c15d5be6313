"""Render the screenshots of the README and docs/: every pane in English and 简体中文, light and
dark, at 1200x800 (``<pane>.png``), and Compare and Train at 800x600 and
1920x1080 too (``<pane>-800x600.png``, ``<pane>-1920x1080.png``).

    python docs/screenshots/render.py [PANE ...]

Each one is ``wubitok gui --screenshot`` in a fresh user data folder with only
what the pictures need remembered: Train's corpus files, Compare's four
bundled tokenizers.
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
    "roots": "木",  # a root searched for: its key named and marked
    "practice": None,  # the first lesson, as a learner opens it
}
# (language, theme, folder).
VARIANTS = (
    ("en", "light", HERE),
    ("zh_CN", "dark", HERE / "zh_CN-dark"),
    ("en", "dark", HERE / "en-dark"),
    ("zh_CN", "light", HERE / "zh_CN-light"),
)
SIZES = {"compare": ("1200x800", "800x600", "1920x1080"), "train": ("1200x800", "800x600", "1920x1080")}


def remember(data_dir: Path) -> None:
    """Train's corpus list as a user left it (the bundled samples in three encodings), and
    Compare's choice of all four bundled tokenizers."""
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
    settings.setValue("compare/models", ["wubi-bpe-6000", "bpe-6000", "unigram-6000", "wordpiece-6000"])
    settings.sync()


def main(panes: list[str]) -> int:
    for lang, theme, folder in VARIANTS:
        folder.mkdir(exist_ok=True)
        for pane in panes or list(TEXTS):
            for size in SIZES.get(pane, ("1200x800",)):
                name = f"{pane}.png" if size == "1200x800" else f"{pane}-{size}.png"
                cmd = [sys.executable, "-m", "wubitok", "gui", "--screenshot", str(folder / name),
                       "--pane", pane, "--size", size, "--lang", lang, "--theme", theme]
                if TEXTS[pane] is not None:
                    cmd += ["--text", TEXTS[pane]]
                with tempfile.TemporaryDirectory(prefix="wubitok-shot-") as data:  # settings, learning, corpus
                    remember(Path(data))
                    subprocess.run(cmd, env=dict(os.environ, WUBITOK_DATA_DIR=data), check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
