"""How long after a keystroke Tokenize shows the tokens of a 1 MB text, and what the encoding's share is.

Two measurements per bundled model, in one run:

  encode      the encoding of the text with one character typed in its middle: a full
              ``encode`` beside ``incremental_encode.reencode`` from the text before
              (the work of the encode worker), with their ratio;
  keystroke   the Tokenize pane (offscreen, the app's worker processes): the whole text shown
              (set_sample_text until ``is_ready``: the full run), then a character typed into
              it, until the pane shows its tokens (``is_ready``), the pane's debounce
              (``DEBOUNCE_MS``) left out: the first keystroke, and the median and p90 of
              ``--keys`` more (the next-key figure: an edit sent, the changed tokens spliced).

    QT_QPA_PLATFORM=offscreen nice python bench/bench_tokenize_keystroke.py [--chars N] [--models M ...]
        [--keys K] [--no-encode]

The text is the bundled samples (fortunes-zh.txt, tang300.txt) repeated to N characters.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time

if __name__ != "__mp_main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["WUBITOK_DATA_DIR"] = tempfile.mkdtemp(prefix="wubitok-keystroke-")

    from PySide6.QtCore import QEventLoop, QTimer

    from wubitok.gui.app import create_app
    from wubitok.gui.panes.tokenize import DEBOUNCE_MS, TokenizePane
    from wubitok.paths import resources_dir
    from wubitok.services.incremental_encode import reencode
    from wubitok.services.model_files import bundled_models_dir, load_model_file

MODELS = ["wubi-bpe-6000", "bpe-6000", "wordpiece-6000", "unigram-6000"]


def sample_text(chars: int) -> str:
    samples = resources_dir() / "samples"
    text = "".join((samples / n).read_text(encoding="utf-8") for n in ("fortunes-zh.txt", "tang300.txt"))
    return (text * (chars // len(text) + 1))[:chars]


def typed(text: str) -> str:
    middle = len(text) // 2
    return text[:middle] + "好" + text[middle:]


def encode_figures(name: str, text: str) -> str:
    tok = load_model_file(bundled_models_dir() / f"{name}.json", "wubitok")
    new = typed(text)
    t0 = time.perf_counter()
    old_enc = tok.encode(text)
    t1 = time.perf_counter()
    tok.encode(new)
    t2 = time.perf_counter()
    done = reencode(tok, text, old_enc, new)
    t3 = time.perf_counter()
    del t0
    return (f"{name:15} encode: full {1000 * (t2 - t1):7.0f} ms   again after a keystroke {1000 * (t3 - t2):6.1f} ms"
            f" ({done.end - done.start} characters encoded)   ratio {(t2 - t1) / (t3 - t2):6.0f}x")


def wait(done, timeout_s: float = 600) -> float:
    """Run the event loop until ``done()``; the seconds it took."""
    loop = QEventLoop()
    start = time.perf_counter()
    poll = QTimer(interval=5)
    poll.timeout.connect(lambda: (done() or time.perf_counter() - start > timeout_s) and loop.quit())
    poll.start()
    loop.exec()
    poll.stop()
    return time.perf_counter() - start


def keystroke_figures(pane: TokenizePane, name: str, text: str, keys: int) -> str:
    """The first keystroke after the text is shown, then ``keys`` more: their median and p90."""
    pane.set_model(name)
    t0 = time.perf_counter()
    pane.set_sample_text(text)
    wait(pane.is_ready)
    full = 1000 * (time.perf_counter() - t0)
    shown = []
    for k in range(keys + 1):
        cursor = pane.editor.textCursor()
        cursor.setPosition(min(len(text), 100_000) // 2 + k)
        cursor.insertText("好")  # the pane's own debounce, then the tokens
        seconds = wait(pane.is_ready)
        shown.append(1000 * seconds - DEBOUNCE_MS)
    first, rest = shown[0], sorted(shown[1:])
    median, p90 = statistics.median(rest), rest[min(len(rest) - 1, int(0.9 * len(rest)))]
    return (f"{name:15} {len(text):>10,} chars: whole text shown {full:7.0f} ms; keystroke after the debounce: "
            f"first {first:6.0f} ms, next keys median {median:6.0f} ms p90 {p90:6.0f} ms ({keys} keys)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chars", type=int, default=1_000_000)
    ap.add_argument("--models", nargs="+", default=MODELS)
    ap.add_argument("--keys", type=int, default=10, help="keystrokes after the first (median, p90)")
    ap.add_argument("--no-encode", action="store_true", help="only the pane's figures")
    args = ap.parse_args()
    text = sample_text(args.chars)
    for name in args.models if not args.no_encode else ():
        print(encode_figures(name, text), flush=True)
    create_app(language="en", theme_name="light")
    pane = TokenizePane()
    pane.resize(1280, 800)
    pane.show()
    wait(pane.is_ready)
    for name in args.models:
        print(keystroke_figures(pane, name, text, args.keys), flush=True)
    pane.shutdown()
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    finally:
        shutil.rmtree(os.environ["WUBITOK_DATA_DIR"], ignore_errors=True)
