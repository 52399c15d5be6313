"""How long the GUI thread stalls: the app driven offscreen through what users do.

A 10 ms timer runs on the GUI thread; for each operation the worst gap
between two of its ticks, and how many gaps were over 50 ms, are recorded
(a gap is what a user sees as a frozen window: typing, scrolling and
repainting wait that long).  ``gui_cpu_ms`` is the CPU time the GUI thread
itself used during the worst gap: near the gap, the GUI thread was busy (its
own work to move off it); near 0, it was waiting -- for the GIL held by a
worker, or for a CPU on a loaded machine.  ``steal_ms`` is the CPU time the
host took from this virtual machine during the worst gap (all its CPUs, in
steps of 10 ms; Linux), and ``over_50ms_no_steal`` counts the gaps over 50 ms
during which the host took none: those are the app's alone.
Operations, in order, as the app issue lists them:

  startup                 from the window shown until start-up's background work is done
                          (MainWindow.start_up_finished()); the others start from there
                          even when it is not measured, as a user who clicks a second later
  open_compare            first opening of Compare (4 bundled models)
  compare_4x200k          Compare with 4 tokenizers on 200 KB of text
  compare_keystroke       one keystroke in that text
  compare_corpus_737k     Compare's corpus mode on a 737 KB file
  open_tokenize           first opening of Tokenize
  tokenize_model_200k     Tokenize: switching to another model on 200 KB
  open_ime                first opening of Type Wubi
  open_train              first opening of Train
  train_4                 starting 4 trainings on the open Train pane, its inputs set first
                          (tang300.txt, vocab 1,000; the click on Train is the operation)
  switch_language         English -> 简体中文, then -> English: two switches, each on its own
                          turn of the event loop (two clicks), both in this operation's figures
  tokenize_paste_1m       Ctrl+V of 1 MB (characters) over the text in Tokenize, until its tokens show
  tokenize_paste_10m      the same with 10 MB
  tokenize_keystroke_10m  one keystroke in that 10 MB text
  tokenize_repaste_10m    Ctrl+V of 10 MB over that 10 MB text (Qt removed the old one in one call)
  tokenize_keystroke_1m   one keystroke in that 1 MB text (the 10 MB paste comes after it)
  convert_paste_1m        Ctrl+V of 1 MB into Convert's Chinese side, until the codes show
  convert_paste_10m       the same with 10 MB
  convert_keystroke_10m   one keystroke in the middle of that 10 MB Chinese, until its codes show again
  convert_codes_keystroke_10m  one keystroke in the middle of its codes (19 million characters),
                          until the Chinese shows again
  compare_paste_1m        Ctrl+V of 1 MB into Compare's text (4 tokenizers), until every column shows
  compare_paste_10m       the same with 10 MB
  lookup_paste_1m         Ctrl+V of 1 MB into Lookup's search box (a line edit keeps 32,767 characters)
  roots_paste_1m          the same into the root chart's search box
  practice_paste_1m       the same into Practice's box for your own text
  ime_key_160k            Type Wubi with 160,000 characters in the pad: one code typed and committed,
                          a key every 30 ms (faster than any typist), each on its own turn
  ime_paste_320k          a paste of 320,000 characters into the pad, then the first word typed after it

A paste's text is put on the clipboard before its operation is timed (since 5 December 2026):
the copy is another program's work, and building 10 MB and handing it to Qt took 40-50 ms of
the paste's first turn.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_stalls.py [--json] [--only OP ...] [--warm-cache]

The user data folder is a temporary one (settings, trained models, the table
cache), so a run is the app's first start: the Wubi codec's tables are built
while it runs.  ``--warm-cache`` fills the table cache first, in a process of
its own (loading every bundled model), as any start after the first finds it.
Run it under ``nice`` on a shared machine; the figures depend on the machine's load,
which it prints at the end (on stderr), with the share of CPU time the host took
from a virtual machine (steal).
"""
from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

# The app's worker processes (wubitok.services.encode_pool) are spawned, and a spawned
# process imports the main script again, as __mp_main__: there, this script
# must cost what the app's two-line entry point costs, not a GUI's imports.
if __name__ != "__mp_main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["WUBITOK_DATA_DIR"] = tempfile.mkdtemp(prefix="wubitok-stalls-")
    atexit.register(shutil.rmtree, os.environ["WUBITOK_DATA_DIR"], ignore_errors=True)

    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from wubitok.gui.app import create_app
    from wubitok.gui.main_window import MainWindow
    from wubitok.paths import resources_dir

TICK_MS = 10
STALL_MS = 50
KEY_GAP_MS = 30  # between the keys of a typed word: 33 keys a second
SECOND_CLICK_MS = 500
TIMEOUT_S = 600
MODELS = ["wubi-bpe-6000", "bpe-6000", "wordpiece-6000", "unigram-6000"]
# Run in a process of its own: this one must start with nothing loaded.
WARM_CACHE = ("from wubitok.services.model_files import bundled_models_dir, guess_kind, load_model_file\n"
              "for p in bundled_models_dir().glob('*.json'): load_model_file(p, guess_kind(p))")


class CpuTicks:
    """The machine's CPU time counters (Linux ``/proc/stat``: user ... steal, in ticks of
    ``MS_PER_TICK``), from a file kept open: the meter reads them at every tick.  None elsewhere."""

    def __init__(self) -> None:
        try:
            self.fd: int | None = os.open("/proc/stat", os.O_RDONLY)
        except OSError:
            self.fd = None

    def read(self) -> list[int] | None:
        if self.fd is None:
            return None
        try:
            return [int(v) for v in os.pread(self.fd, 256, 0).split(b"\n", 1)[0].split()[1:9]]
        except ValueError:
            return None


STEAL = 7  # the host's share in CpuTicks.read()
MS_PER_TICK = 1000 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 10.0


class StallMeter:
    """Gaps between the ticks of a 10 ms timer on the GUI thread."""

    def __init__(self) -> None:
        self.timer = QTimer(interval=TICK_MS, timerType=Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.cpu_ticks = CpuTicks()
        self.gaps: list[tuple[float, float, float]] = []  # (wall ms, GUI thread CPU ms, host steal ms)
        self.last = self.last_cpu = self.last_steal = 0.0

    def _tick(self) -> None:
        now, cpu, steal = time.perf_counter(), time.thread_time(), self._steal_ms()
        self.gaps.append(((now - self.last) * 1000, (cpu - self.last_cpu) * 1000, steal - self.last_steal))
        self.last, self.last_cpu, self.last_steal = now, cpu, steal

    def start(self) -> None:
        self.gaps.clear()
        self.last, self.last_cpu, self.last_steal = time.perf_counter(), time.thread_time(), self._steal_ms()
        self.timer.start()

    def _steal_ms(self) -> float:
        """CPU time the host took from this virtual machine so far, in ms summed over its CPUs."""
        ticks = self.cpu_ticks.read()
        return ticks[STEAL] * MS_PER_TICK if ticks is not None else 0.0

    def stop(self) -> dict[str, float | int]:
        self.timer.stop()
        self._tick()  # the stretch up to now counts too
        worst, cpu, steal = max(self.gaps)
        return {"worst_ms": round(worst, 1), "over_50ms": sum(g > STALL_MS for g, _, _ in self.gaps),
                "gui_cpu_ms": round(cpu, 1), "steal_ms": round(steal),
                "over_50ms_no_steal": sum(g > STALL_MS and not s for g, _, s in self.gaps)}


def run_until(start: Callable[[], object], done: Callable[[], bool], settle_ms: int = 300) -> None:
    """Start an operation from inside the event loop; return once ``done()`` holds
    (checked every 20 ms) and has held for ``settle_ms`` (late repaints count)."""
    loop = QEventLoop()
    deadline = time.monotonic() + TIMEOUT_S
    held_since: list[float] = []

    def check() -> None:
        if time.monotonic() > deadline:
            raise SystemExit("an operation did not finish in time")
        if done():
            if not held_since:
                held_since.append(time.monotonic())
            elif time.monotonic() - held_since[0] >= settle_ms / 1000:
                loop.quit()
        else:
            held_since.clear()

    poll = QTimer(interval=20)
    poll.timeout.connect(check)
    QTimer.singleShot(0, start)
    QTimer.singleShot(0, poll.start)
    loop.exec()
    poll.stop()


def _text(chars: int, *, repeat: bool = False) -> str:
    samples = resources_dir() / "samples"
    text = "".join((samples / n).read_text(encoding="utf-8") for n in ("fortunes-zh.txt", "tang300.txt"))
    if repeat:  # the samples are under 1 MB: again and again, to ``chars``
        text *= chars // len(text) + 1
    return text[:chars]


Operation = tuple[Callable[[], object], Callable[[], bool]]  # start it; is it done?


def operations(window: MainWindow, folder: Path) -> tuple[dict[str, Operation], dict[str, Operation]]:
    """The operations, in order, and what some of them need done first (unmeasured)."""
    text_200k = _text(200_000)
    corpus = folder / "corpus-737k.txt"
    corpus.write_bytes((resources_dir() / "samples" / "fortunes-zh.txt").read_bytes())

    def pane(key: str):
        return window.pane(key)

    def ready(key: str) -> Callable[[], bool]:
        return lambda: window.current_pane_key() == key and pane(key).is_ready()

    def keystroke() -> None:
        editor = pane("compare").editor
        editor.setFocus()
        editor.moveCursor(editor.textCursor().MoveOperation.End)
        QTest.keyClick(editor, Qt.Key.Key_A)

    def tokenize_keystroke() -> None:
        key_in_middle(pane("tokenize").editor)

    def corpus_mode() -> None:
        p = pane("compare")
        p.corpus_mode.setChecked(True)
        p.add_files([corpus])
        p.run_corpus()

    def compare_text_mode() -> None:
        window.show_pane("compare")
        pane("compare").set_models(MODELS)
        pane("compare").text_mode.setChecked(True)

    def practice_custom() -> None:
        window.show_pane("practice")
        pane("practice").set_sample_text("")  # the lesson box on "your own text", its text box shown

    def tokenize_200k() -> None:
        pane("tokenize").set_sample_text(text_200k)

    def train_setup() -> None:
        window.show_pane("train")
        p = pane("train")
        p.add_files([resources_dir() / "samples" / "tang300.txt"])
        p.set_algorithms(["wubi-bpe", "bpe", "wordpiece", "unigram"])
        p.vocab_spin.setValue(1000)

    switched_back: list[bool] = []

    def languages() -> None:
        switched_back.clear()
        window.set_language("zh_CN")
        # The second click comes later, on a turn of its own: its stall is not added to the first one's.
        QTimer.singleShot(SECOND_CLICK_MS, lambda: (window.set_language("en"), switched_back.append(True)))

    def copy(chars: int) -> None:
        """The text on the clipboard, before the paste is timed: another program's copy is not a stall of ours."""
        QApplication.clipboard().setText(_text(chars, repeat=True))

    def paste(editor) -> None:
        editor.setFocus()
        editor.selectAll()
        editor.paste()  # what Ctrl+V does

    def key_in_middle(editor) -> None:
        cursor = editor.textCursor()
        cursor.setPosition(editor.document().characterCount() // 2)
        editor.setTextCursor(cursor)
        QTest.keyClick(editor, Qt.Key.Key_A)

    def pad_text(chars: int) -> None:
        window.show_pane("ime")
        pane("ime").editor.setPlainText(_text(chars, repeat=True))
        pane("ime").editor.moveCursor(QTextCursor.MoveOperation.End)

    keys_left: list[Qt.Key] = []

    def type_word() -> None:
        """wqiy and Space, a key every KEY_GAP_MS on a turn of its own, as a typist's keys come
        (sent all in one turn, five keys' work counted as one stall)."""
        keys_left[:] = [Qt.Key.Key_W, Qt.Key.Key_Q, Qt.Key.Key_I, Qt.Key.Key_Y, Qt.Key.Key_Space]

        def next_key() -> None:
            QTest.keyClick(pane("ime").editor, keys_left.pop(0))
            if keys_left:
                QTimer.singleShot(KEY_GAP_MS, next_key)
        next_key()

    def word_typed() -> bool:
        return not keys_left and pane("ime").is_ready()

    def all_ready() -> bool:
        return all(p.is_ready() for p in window._panes.values() if hasattr(p, "is_ready"))

    return {
        "open_compare": (lambda: window.show_pane("compare"), ready("compare")),
        "compare_4x200k": (lambda: (pane("compare").set_models(MODELS), pane("compare").set_sample_text(text_200k)),
                           ready("compare")),
        "compare_keystroke": (keystroke, ready("compare")),
        "compare_corpus_737k": (corpus_mode, lambda: not pane("compare").is_busy()),
        "open_tokenize": (lambda: window.show_pane("tokenize"), ready("tokenize")),
        "tokenize_model_200k": (lambda: pane("tokenize").set_model(MODELS[1]), ready("tokenize")),
        "open_ime": (lambda: window.show_pane("ime"), ready("ime")),
        "open_train": (lambda: window.show_pane("train"), ready("train")),
        "train_4": (lambda: pane("train").start_training(), lambda: not pane("train").is_busy()),
        "switch_language": (languages, lambda: bool(switched_back) and not window.retranslation_pending()
                            and all_ready()),
        "tokenize_paste_1m": (lambda: paste(pane("tokenize").editor), ready("tokenize")),
        "tokenize_keystroke_1m": (tokenize_keystroke, ready("tokenize")),
        "tokenize_paste_10m": (lambda: paste(pane("tokenize").editor), ready("tokenize")),
        "tokenize_keystroke_10m": (tokenize_keystroke, ready("tokenize")),
        "tokenize_repaste_10m": (lambda: paste(pane("tokenize").editor), ready("tokenize")),
        "convert_paste_1m": (lambda: paste(pane("convert").chinese.editor), ready("convert")),
        "convert_paste_10m": (lambda: paste(pane("convert").chinese.editor), ready("convert")),
        "convert_keystroke_10m": (lambda: key_in_middle(pane("convert").chinese.editor), ready("convert")),
        "convert_codes_keystroke_10m": (lambda: key_in_middle(pane("convert").codes.editor), ready("convert")),
        "compare_paste_1m": (lambda: paste(pane("compare").editor), ready("compare")),
        "compare_paste_10m": (lambda: paste(pane("compare").editor), ready("compare")),
        "lookup_paste_1m": (lambda: paste(pane("lookup").search_box), ready("lookup")),
        "roots_paste_1m": (lambda: paste(pane("roots").search_box), ready("roots")),
        "practice_paste_1m": (lambda: paste(pane("practice").custom_text), ready("practice")),
        "ime_key_160k": (type_word, word_typed),
        "ime_paste_320k": (lambda: (paste(pane("ime").editor), type_word()), word_typed),
    }, {
        # Done first, unmeasured: the 200 KB text (the operation is the switch of model),
        # the Train pane's inputs, as a user sets them with a few clicks (the operation is Train).
        "tokenize_model_200k": (lambda: (window.show_pane("tokenize"), tokenize_200k()),
                                lambda: pane("tokenize").is_ready()),
        "train_4": (train_setup, lambda: pane("train").is_ready()),
        "tokenize_paste_1m": (lambda: (window.show_pane("tokenize"), copy(1_000_000)), ready("tokenize")),
        "tokenize_keystroke_1m": (lambda: window.show_pane("tokenize"), ready("tokenize")),
        "tokenize_paste_10m": (lambda: (window.show_pane("tokenize"), copy(10_000_000)), ready("tokenize")),
        "tokenize_keystroke_10m": (lambda: window.show_pane("tokenize"), ready("tokenize")),
        "tokenize_repaste_10m": (lambda: (window.show_pane("tokenize"), copy(10_000_001)), ready("tokenize")),
        "convert_paste_1m": (lambda: (window.show_pane("convert"), copy(1_000_000)), ready("convert")),
        "convert_paste_10m": (lambda: (window.show_pane("convert"), copy(10_000_000)), ready("convert")),
        "convert_keystroke_10m": (lambda: window.show_pane("convert"), ready("convert")),
        "convert_codes_keystroke_10m": (lambda: window.show_pane("convert"), ready("convert")),
        "compare_paste_1m": (lambda: (compare_text_mode(), copy(1_000_000)), ready("compare")),
        "compare_paste_10m": (lambda: (compare_text_mode(), copy(10_000_000)), ready("compare")),
        "lookup_paste_1m": (lambda: (window.show_pane("lookup"), copy(1_000_000)), ready("lookup")),
        "roots_paste_1m": (lambda: (window.show_pane("roots"), copy(1_000_000)), ready("roots")),
        "practice_paste_1m": (lambda: (practice_custom(), copy(1_000_000)), ready("practice")),
        "ime_key_160k": (lambda: pad_text(160_000), ready("ime")),
        "ime_paste_320k": (lambda: (window.show_pane("ime"), copy(320_000)), ready("ime")),
    }


def machine_note(cpu_ticks: CpuTicks, before: list[int] | None) -> str:
    """Load average, and the share of CPU time a hypervisor took from this machine (steal) since ``before``."""
    note = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    after = cpu_ticks.read()
    if before is not None and after is not None and sum(after) > sum(before):
        share = (after[STEAL] - before[STEAL]) / (sum(after) - sum(before))
        note += f", CPU time stolen by the host {100 * share:.1f}%"
    return note.lstrip(", ")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true",
                    help="print {operation: {worst_ms, over_50ms, gui_cpu_ms, steal_ms, over_50ms_no_steal}} as JSON")
    ap.add_argument("--only", nargs="+", metavar="OP", help="run only these operations (and what they need)")
    ap.add_argument("--warm-cache", action="store_true",
                    help="fill the table cache before starting, as a start after the first finds it")
    args = ap.parse_args()
    if args.warm_cache:
        subprocess.run([sys.executable, "-c", WARM_CACHE], check=True)  # WUBITOK_DATA_DIR is inherited
    cpu_ticks = CpuTicks()
    ticks = cpu_ticks.read()
    app = create_app(language="en", theme_name="light")
    window = MainWindow(restore=False)
    window.resize(1280, 800)
    meter = StallMeter()
    results: dict[str, dict[str, float | int]] = {}

    def record(name: str) -> None:
        results[name] = meter.stop()
        if not args.json:
            r = results[name]
            print(f"{name:22} worst {r['worst_ms']:7.1f} ms (GUI thread busy {r['gui_cpu_ms']:5.1f} ms,"
                  f" host steal {r['steal_ms']:3.0f} ms)   gaps over 50 ms: {r['over_50ms']}"
                  f" ({r['over_50ms_no_steal']} without steal)", flush=True)

    # The window's constructor runs before there is a window to freeze; from show() on, it counts.
    meter.start()
    run_until(window.show, window.start_up_finished)
    if not args.only or "startup" in args.only:
        record("startup")
    else:
        meter.stop()
    folder = Path(tempfile.mkdtemp(prefix="wubitok-stalls-files-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    ops, setups = operations(window, folder)
    for name, (start, done) in ops.items():
        if args.only and name not in args.only:
            continue
        if name in setups:
            run_until(*setups[name])
        meter.start()
        run_until(start, done)
        record(name)
    if args.json:
        print(json.dumps(results, indent=2))
    # The figures depend on the machine: its load, and on a virtual machine the host's.
    if note := machine_note(cpu_ticks, ticks):
        print(note, file=sys.stderr)
    window.shutdown()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
