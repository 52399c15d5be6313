"""Train: corpus files in, one or more tokenizers out, saved where the user says.

Each chosen algorithm is trained by the library (``engine_class(type).train``)
in its own background job, one after another (training is CPU-bound; two at
once would only share the same cores), each in a process of its own
(:mod:`wubitok.services.training_process`: in a thread, the trainer held the GIL the
window needs; ``WUBITOK_WORKER_PROCESSES=0`` trains in the job's thread).  Every model has a progress row with
the stage, rate and ETA the library reports.  A saved model is added to the
shared model catalog at once, so the Tokenize and Compare choosers list it.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Iterator, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...engines import backends
from ...engines.backends import choose_backend
from ...engines.pre_tokenizers.wubi import DEFAULT_MODE, PRE_TOKEN_MODES
from ...errors import InputError, WubitokError
from ...progress import Progress
from ...services.encode_pool import min_vocab_size, processes_wanted, shared_pool
from ...services.model_files import user_models_dir
from ...services.training import TrainRequest, TrainResult, train_to_file
from ...services.training_process import train_in_process
from ...wubi.codec import CodecOptions
from ..support import errors, live_text, progress_text, theme
from ..support.latest_job import LatestJob
from ..support.model_catalog import ModelCatalog, shared_catalog
from ..support.settings import Settings
from ..support.workers import Job
from ..widgets.corpus_picker import CorpusPicker
from .base import Pane

# (model type, label) in the order offered.
ALGORITHMS = (
    ("wubi-bpe", "Wubi-BPE"),
    ("bpe", "Byte-level BPE"),
    ("wordpiece", "WordPiece"),
    ("unigram", "Unigram"),
)
def model_file_name(model_type: str, vocab_size: int, name: str, folder: Path) -> Path:
    """``<type>-<vocab>-<name>.json`` in ``folder``, never overwriting a file there."""
    stem = f"{model_type}-{vocab_size}" + (f"-{name}" if name else "")
    path, n = folder / f"{stem}.json", 2
    while path.exists():
        path, n = folder / f"{stem}-{n}.json", n + 1
    return path


class _ModelRow:
    """Label, progress bar and status line of one model being trained."""

    def __init__(self, label: str, grid: QGridLayout, row: int):
        self.name = QLabel(label)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        self.bar.setTextVisible(True)
        self.bar.setAccessibleName(label)
        self.stages: list[str] = []  # the library's stages seen so far: the phases
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.name, row, 0)
        grid.addWidget(self.bar, row, 1)
        grid.addWidget(self.status, row, 2)

    def remove(self) -> None:
        for w in (self.name, self.bar, self.status):
            w.setParent(None)
            w.deleteLater()


def _vocab_minimum(model_types: list[str], special_tokens: list[str] | None, *, cancel) -> int:
    return shared_pool().call(min_vocab_size, model_types, special_tokens, cancel=cancel)


class TrainPane(Pane):
    """Corpus, algorithms and options; progress per model; cancel; save."""

    modelTrained = Signal(object)  # TrainResult
    trainingEnded = Signal()

    def __init__(self, parent: QWidget | None = None, *, catalog: ModelCatalog | None = None,
                 in_steps: bool = False):
        super().__init__(parent)
        self.setObjectName("train")
        self.catalog = catalog or shared_catalog()
        self._settings = Settings("train")
        self._queue: list[TrainRequest] = []
        self._job: Job | None = None
        self._minimum = LatestJob(self)  # the vocabulary minimum, asked of the engines in a worker
        self.rows: dict[Path, _ModelRow] = {}
        self.results: list[TrainResult] = []
        self._cancelled = False
        self.build(self._parts(), in_steps)

    def _parts(self) -> Iterator[None]:
        # In a scroll area: the options are taller than a 600-pixel window leaves.  Each
        # widget is made inside its final parent, top to bottom (the order Tab visits
        # them): with the app's style sheet, moving a built subtree into another parent
        # restyles all of it again (as in Compare and Tokenize).
        layout = self.scrolling_layout()
        content = layout.parentWidget()
        self._build_corpus(content)
        yield
        self._build_options(content)
        yield
        self._build_run(content)
        self._build_layout(layout)
        yield
        self.retranslate_ui()
        self._connect()
        self.set_main_input(self.file_list)
        self._restore()

    def retranslate_ui(self) -> None:
        """Every visible text in the current language; files, options and progress stay."""
        self.picker.retranslate_ui()
        self.corpus_box.setTitle(self.tr("Corpus (text files)"))
        for key, box in self.algorithm_boxes.items():
            box.setText(self.algorithm_label(key))
        self.special_edit.setPlaceholderText(self.tr("the model's defaults (space-separated, e.g. <s> </s>)"))
        mb = backends.AUTO_FAST_BYTES // 1_000_000
        for i, label in enumerate((
            self.tr("Automatic (fast for Wubi-BPE and BPE; others over {} MB)").format(mb),
            self.tr("wubitok (pure Python)"),
            self.tr("Fast (Hugging Face tokenizers / SentencePiece)"),
        )):
            self.backend_box.setItemText(i, label)
        # backends.choose_backend's rule for "auto"
        self.backend_box.setToolTip(self.tr(
            "Automatic: Wubi-BPE and BPE train with Hugging Face tokenizers at any corpus size, since both "
            "trainers give the same merges and the fast one takes about half the time; WordPiece and Unigram "
            "use the fast libraries for corpora over {} MB, the pure-Python trainers below that.").format(mb))
        for i, label in enumerate((self.tr("Cheapest code per character + index (best measured)"),
                                   self.tr("Code prefix + index"),
                                   self.tr("Shortest code + index"), self.tr("Full code + index"))):
            self.codec_box.setItemText(i, label)
        self.codec_box.setToolTip(self.tr("How Wubi-BPE spells each Chinese character in Wubi keys"))
        cuts = {"joined": self.tr("Joined: a run of letters keeps the punctuation after it (best measured)"),
                "clause": self.tr("Clause: each run of Chinese characters alone (models made before)")}
        for i in range(self.pre_tokens_box.count()):
            key = self.pre_tokens_box.itemData(i)
            self.pre_tokens_box.setItemText(i, cuts.get(key, key))
        self.pre_tokens_box.setToolTip(self.tr("How Wubi-BPE cuts the text into pieces before merging"))
        self.folder_button.setText(self.tr("Choose…"))
        self.name_edit.setPlaceholderText(self.tr("added to the file names, e.g. my-corpus"))
        self.options_box.setTitle(self.tr("Models"))
        for key, text in (("algorithms", self.tr("Algorithms:")), ("vocab", self.tr("Vocabulary size:")),
                          ("min_freq", self.tr("Minimum frequency:")), ("specials", self.tr("Special tokens:")),
                          ("backend", self.tr("Trainer:")), ("codec", self.tr("Wubi spelling:")),
                          ("pre_tokens", self.tr("Wubi pre-tokens:")),
                          ("folder", self.tr("Save to folder:")), ("name", self.tr("Name:"))):
            self.form_labels[key].setText(text)
        self.folder_edit.setAccessibleName(self.tr("Save to folder:").rstrip(":："))
        for key, spin in (("vocab", self.vocab_spin), ("min_freq", self.min_freq_spin)):
            # A screen reader names the field inside a spin box by itself: it gets the label too.
            name = self.form_labels[key].text().rstrip(":：")
            spin.setAccessibleName(name)
            spin.findChild(QLineEdit).setAccessibleName(name)
        self.train_button.setText(self.tr("Train"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.progress_box.setTitle(self.tr("Progress"))
        live_text.refresh(self)
        for row in self.rows.values():
            row.bar.setAccessibleName(row.name.text())
        self._update_corpus_label()

    def _build_corpus(self, content: QWidget) -> None:
        self.corpus_box = QGroupBox(content)
        theme.use_style_sheet(self.corpus_box)  # before its children: setting it later restyles them
        self.picker = CorpusPicker(self._settings, self.corpus_box)
        self.file_list, self.encoding_box = self.picker.file_list, self.picker.encoding_box
        self.remove_files_button = self.picker.remove_files_button
        self.corpus_label = QLabel(self.corpus_box)
        cl = QVBoxLayout(self.corpus_box)
        cl.addWidget(self.picker, 1)
        cl.addWidget(self.corpus_label)

    def _build_options(self, content: QWidget) -> None:
        self.options_box = QGroupBox(content)
        theme.use_style_sheet(self.options_box)
        self.algorithm_boxes: dict[str, QCheckBox] = {}
        algo_row = QHBoxLayout()
        for key, _ in ALGORITHMS:
            box = QCheckBox(self.options_box)
            self.algorithm_boxes[key] = box
            algo_row.addWidget(box)
        algo_row.addStretch(1)
        self.vocab_spin = QSpinBox(self.options_box)
        self.vocab_spin.setRange(100, 1_000_000)
        self.vocab_spin.setSingleStep(1000)
        self.vocab_spin.setGroupSeparatorShown(True)
        self.min_freq_spin = QSpinBox(self.options_box)
        self.min_freq_spin.setRange(1, 1_000_000)
        for spin in (self.vocab_spin, self.min_freq_spin):
            spin.setMaximumWidth(160)
        self.special_edit = QLineEdit(self.options_box)
        self.backend_box = QComboBox(self.options_box)
        for key in ("auto", "python", "fast"):
            self.backend_box.addItem("", key)
        self.codec_box = QComboBox(self.options_box)
        for key in ("hybrid", "prefix", "shortest", "full"):
            self.codec_box.addItem("", key)
        self.pre_tokens_box = QComboBox(self.options_box)
        for key in sorted(PRE_TOKEN_MODES, key=lambda mode: mode != DEFAULT_MODE):  # the default first
            self.pre_tokens_box.addItem("", key)
        self.folder_edit = QLineEdit(self.options_box)
        self.folder_button = QPushButton(self.options_box)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(self.folder_button)
        self.name_edit = QLineEdit(self.options_box)
        form = QFormLayout(self.options_box)
        # Long labels and choices wrap instead of widening the window.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form_labels: dict[str, QLabel] = {}
        for key, field in (("algorithms", algo_row), ("vocab", self.vocab_spin), ("min_freq", self.min_freq_spin),
                           ("specials", self.special_edit), ("backend", self.backend_box),
                           ("codec", self.codec_box), ("pre_tokens", self.pre_tokens_box), ("folder", folder_row),
                           ("name", self.name_edit)):
            label = QLabel(self.options_box)
            self.form_labels[key] = label
            form.addRow(label, field)
            if isinstance(field, QWidget):
                label.setBuddy(field)

    def _build_run(self, content: QWidget) -> None:
        self.train_button = QPushButton(content)
        self.cancel_button = QPushButton(content)
        self.cancel_button.setEnabled(False)
        self.run_row = QHBoxLayout()
        self.run_row.addWidget(self.train_button)
        self.run_row.addWidget(self.cancel_button)
        self.run_row.addStretch(1)
        self.progress_box = QGroupBox(content)
        theme.use_style_sheet(self.progress_box)
        self.status_label = QLabel(content)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress_grid = QGridLayout(self.progress_box)
        self.progress_grid.setColumnStretch(1, 2)
        self.progress_grid.setColumnStretch(2, 3)
        # Rows at the top by a stretching last row, not by aligning the grid: an aligned
        # layout gets its size hint's height, and a status wrapped onto more lines than
        # that hint was cut through its second line (1200x800).
        self.progress_grid.setRowStretch(len(ALGORITHMS), 1)

    def algorithm_label(self, key: str) -> str:
        """An algorithm's name in the UI language."""
        return self.tr("Byte-level BPE") if key == "bpe" else dict(ALGORITHMS)[key]

    def _build_layout(self, layout: QVBoxLayout) -> None:
        layout.addWidget(self.corpus_box, 2)
        layout.addWidget(self.options_box)
        layout.addLayout(self.run_row)
        layout.addWidget(self.progress_box, 1)
        layout.addWidget(self.status_label)

    def _connect(self) -> None:
        self.picker.filesChanged.connect(self._update_corpus_label)
        self.folder_button.clicked.connect(self._choose_folder)
        self.train_button.clicked.connect(self.start_training)
        self.cancel_button.clicked.connect(self.cancel)
        for box in (self.codec_box, self.pre_tokens_box):
            self.algorithm_boxes["wubi-bpe"].toggled.connect(box.setEnabled)
        for box in self.algorithm_boxes.values():
            box.toggled.connect(self._update_vocab_minimum)
        self.special_edit.textChanged.connect(self._update_vocab_minimum)

    # -- settings ------------------------------------------------------------
    def _restore(self) -> None:
        s = self._settings
        self.picker.restore(s.get_list("files"), s.get_list("encodings"))
        chosen = s.get_list("algorithms") if s.contains("algorithms") else ["wubi-bpe", "bpe"]
        for key, box in self.algorithm_boxes.items():
            box.setChecked(key in chosen)
        self.vocab_spin.setValue(s.get_int("vocab_size", 8000))
        self.min_freq_spin.setValue(s.get_int("min_frequency", 2))
        self.special_edit.setText(s.get_str("special_tokens", ""))
        self.backend_box.setCurrentIndex(max(0, self.backend_box.findData(s.get_str("backend", "auto"))))
        self.codec_box.setCurrentIndex(max(0, self.codec_box.findData(s.get_str("wubi_spelling", "hybrid"))))
        self.pre_tokens_box.setCurrentIndex(
            max(0, self.pre_tokens_box.findData(s.get_str("wubi_pre_tokens", DEFAULT_MODE))))
        for box in (self.codec_box, self.pre_tokens_box):
            box.setEnabled(self.algorithm_boxes["wubi-bpe"].isChecked())
        self.folder_edit.setText(s.get_str("folder", "") or str(user_models_dir()))
        self.name_edit.setText(s.get_str("name", ""))
        self._update_corpus_label()
        self._update_vocab_minimum()

    def save_state(self) -> None:
        s = self._settings
        s.set("files", self.files())
        s.set("encodings", self.file_list.encodings())
        s.set("algorithms", self.algorithms())
        s.set("vocab_size", self.vocab_spin.value())
        s.set("min_frequency", self.min_freq_spin.value())
        s.set("special_tokens", self.special_edit.text())
        s.set("backend", self.backend_box.currentData())
        s.set("wubi_spelling", self.codec_box.currentData())
        s.set("wubi_pre_tokens", self.pre_tokens_box.currentData())
        s.set("folder", self.folder_edit.text())
        s.set("name", self.name_edit.text())
        s.sync()

    # -- inputs --------------------------------------------------------------
    def files(self) -> list[str]:
        return self.file_list.paths()

    def add_files(self, paths: Sequence[str | os.PathLike]) -> None:
        self.picker.add(paths)

    def set_algorithms(self, keys: Sequence[str]) -> None:
        for key, box in self.algorithm_boxes.items():
            box.setChecked(key in keys)

    def algorithms(self) -> list[str]:
        return [k for k, box in self.algorithm_boxes.items() if box.isChecked()]

    def _corpus_bytes(self) -> int:
        total = 0
        for p in self.files():
            try:
                total += os.path.getsize(p)
            except OSError:
                pass  # the training job reports a missing file with a clear message
        return total

    def _update_vocab_minimum(self, *_args) -> None:
        """The spin box's minimum: the smallest vocabulary every chosen algorithm can train,
        as the engines say, asked in a worker process -- Wubi-BPE builds its codec to
        answer, a second of pure Python the first time, which froze the pane's opening."""
        text = self.special_edit.text().strip()
        specials = text.split() if text else None
        self._minimum.run(_vocab_minimum, self.algorithms(), specials, on_result=self.vocab_spin.setMinimum,
                          on_failed=self._minimum_failed, name="vocabulary minimum")

    def _minimum_failed(self, error: BaseException | str) -> None:
        # Bad special tokens, typed so far: the minimum stays, and Train says what is wrong.
        if not isinstance(error, WubitokError):
            errors.show_error(self, error)

    def _update_corpus_label(self) -> None:
        n = self.file_list.count()
        self.corpus_label.setText(
            self.tr("%n file(s), {:.1f} MB", "", n).format(self._corpus_bytes() / 1e6) if n
            else self.tr("No files yet.")
        )
        # Nothing to train on: the button says so by being off (its tooltip says why).
        self.train_button.setEnabled(n > 0 and not self.is_busy())
        self.train_button.setToolTip("" if n else self.tr("Add corpus files first"))

    def drop_files(self, paths: list[Path]) -> None:
        """Dropped files become corpus files."""
        self.add_files(paths)

    def open_file(self) -> None:
        """File > Open: add corpus files."""
        self.picker.choose_files()

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Save models in"), self.folder_edit.text())
        if folder:
            self.folder_edit.setText(folder)

    def _requests(self) -> list[TrainRequest]:
        files = tuple(self.picker.text_paths())
        algorithms = self.algorithms()
        if not algorithms:
            raise InputError("choose at least one algorithm", code="train.no_algorithm")
        folder = Path(self.folder_edit.text().strip() or user_models_dir())
        if folder.exists() and not folder.is_dir():
            raise InputError(f"{folder}: not a folder", code="train.not_a_folder", path=str(folder))
        specials_text = self.special_edit.text().strip()
        specials = tuple(specials_text.split()) if specials_text else None
        corpus_bytes = self._corpus_bytes()
        name = "-".join(self.name_edit.text().split()) or Path(files[0]).stem
        requests: list[TrainRequest] = []
        taken: set[Path] = set()
        for model_type in algorithms:
            path = model_file_name(model_type, self.vocab_spin.value(), name, folder)
            n = 2
            while path in taken:  # two requests in one run must not pick the same free name
                path, n = model_file_name(model_type, self.vocab_spin.value(), f"{name}-{n}", folder), n + 1
            taken.add(path)
            backend = choose_backend(self.backend_box.currentData(), model_type, corpus_bytes)
            wubi = model_type == "wubi-bpe"
            requests.append(TrainRequest(model_type, files, self.vocab_spin.value(), path,
                                         min_frequency=self.min_freq_spin.value(), special_tokens=specials,
                                         backend=backend,
                                         codec=CodecOptions(code=self.codec_box.currentData()) if wubi else None,
                                         pre_tokens=self.pre_tokens_box.currentData() if wubi else None))
        return requests

    # -- running -------------------------------------------------------------
    def start_training(self) -> bool:
        """Queue one training job per chosen algorithm; False if the inputs are not usable."""
        if self.is_busy():
            return False
        try:
            requests = self._requests()
        except InputError as exc:
            errors.show_error(self, exc)
            return False
        self.save_state()
        for row in self.rows.values():
            row.remove()
        self.rows.clear()
        for i, r in enumerate(requests):
            backend = "" if r.backend == "python" else f" [{r.backend}]"
            self.rows[r.output] = _ModelRow(f"{self.algorithm_label(r.model_type)}{backend}", self.progress_grid, i)
            live_text.set_text(self.rows[r.output].name,
                               lambda kind=r.model_type, mark=backend: self.algorithm_label(kind) + mark)
            live_text.set_text(self.rows[r.output].status, lambda: self.tr("waiting"))
        self._queue = list(requests)
        self.results = []
        self._cancelled = False
        self.train_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        # "Large corpus": auto chose fast for the size, not because the two trainers give the same model
        auto_fast = [r for r in requests if r.backend == "fast" and self.backend_box.currentData() == "auto"
                     and r.model_type not in backends.SAME_MODEL]
        live_text.set_text(self.status_label, lambda: (
            self.tr("Large corpus: training with the fast libraries.") if auto_fast else self.tr("Training…")))
        self._next()
        return True

    def _next(self) -> None:
        if self._cancelled or not self._queue:
            self._finish()
            return
        request = self._queue.pop(0)
        row = self.rows[request.output]
        live_text.set_text(row.status, lambda: self.tr("starting…"))
        train = train_in_process if processes_wanted() else train_to_file
        job = Job(train, request, create_folder=True, name=f"train {request.model_type}")
        job.progress.connect(lambda p, r=row: self._progress(r, p))
        job.finished.connect(self._trained)
        job.failed.connect(lambda msg, j=job, r=row: self._failed(j, r, msg))
        job.cancelled.connect(lambda r=row: live_text.set_text(r.status, lambda: self.tr("cancelled")))
        job.ended.connect(self._next)
        self._job = job
        job.start()

    def _progress(self, row: _ModelRow, p: Progress) -> None:
        if p.stage not in row.stages:
            row.stages.append(p.stage)
        # Each stage is a phase of its own: the bar restarts at 0 and says which phase it measures.
        n = len(row.stages)
        if p.fraction is None:
            row.bar.setRange(0, 0)  # a busy indicator while the total is unknown
        else:
            row.bar.setRange(0, 1000)
            row.bar.setValue(round(p.fraction * 1000))
        live_text.set_text(row.bar, lambda: self.tr("phase {n}: {stage}").format(
            n=n, stage=progress_text.stage_name(p.stage)) + " · %p%")
        live_text.set_text(row.status, lambda: progress_text.describe(p))

    def _trained(self, result: TrainResult) -> None:
        asked = result.request.vocab_size
        if result.vocab_size != asked:
            result = self._named_by_size(result)
        row = self.rows[result.request.output]
        row.bar.setRange(0, 1000)
        row.bar.setValue(1000)
        live_text.set_text(row.bar, lambda: self.tr("done"))
        live_text.set_text(row.status, lambda: self.result_line(result))
        self.results.append(result)
        with errors.reported(self):
            self.catalog.add_trained(result.request.output)
        self.modelTrained.emit(result)

    def result_line(self, result: TrainResult) -> str:
        """What a finished model's row says, in the UI language."""
        asked = result.request.vocab_size
        status = self.tr("saved {} · vocabulary {:,} · {:.1f} s · {:,} KB").format(
            result.request.output.name, result.vocab_size, result.seconds, (result.file_bytes + 1023) // 1024
        )
        if result.vocab_size != asked:
            status += " · " + self.size_note(result.request.model_type, asked, result.vocab_size,
                                             result.request.min_frequency)
        if result.trained_by:
            status += " · " + self.tr("trained by {}").format(progress_text.trainer_name(result.trained_by))
        return status

    def size_note(self, model_type: str, asked: int, size: int, min_frequency: int) -> str:
        """Why a vocabulary came out smaller (or larger) than asked, in the UI language."""
        if size > asked:
            return self.tr("larger than the {:,} asked: the trainer keeps every character of the corpus "
                           "(its alphabet) whatever the size asked").format(asked)
        if model_type == "unigram":
            return self.tr("smaller than the {:,} asked: this corpus has no more pieces worth keeping").format(asked)
        return self.tr("smaller than the {asked:,} asked: no pair left occurs {n} times or more in this corpus "
                       "(the minimum frequency)").format(asked=asked, n=min_frequency)

    def _named_by_size(self, result: TrainResult) -> TrainResult:
        """The model file renamed for the vocabulary it has (``bpe-4112-…`` rather than
        ``bpe-8000-…``, asked); on failure it keeps its name."""
        request, old = result.request, result.request.output
        prefix = f"{request.model_type}-{request.vocab_size}"
        rest = old.stem[len(prefix) + 1:] if old.stem.startswith(prefix + "-") else ""
        new = model_file_name(request.model_type, result.vocab_size, rest, old.parent)
        try:
            os.replace(old, new)
        except OSError:
            return result
        self.rows[new] = self.rows.pop(old)
        return dataclasses.replace(result, request=dataclasses.replace(request, output=new))

    def _failed(self, job: Job, row: _ModelRow, message: str) -> None:
        live_text.set_text(row.status, lambda: self.tr("failed: {}").format(message))
        # One bad corpus fails every model the same way: stop instead of repeating the dialog.
        self._cancelled = True
        errors.show_error(self, job.error or message)

    def cancel(self) -> None:
        """Stop the running model and skip the queued ones."""
        self._cancelled = True
        for path in [r.output for r in self._queue]:
            live_text.set_text(self.rows[path].status, lambda: self.tr("skipped"))
        self._queue.clear()
        if self._job is not None:
            self._job.cancel()
        live_text.set_text(self.status_label, lambda: self.tr("Cancelling…"))

    def _finish(self) -> None:
        self._job = None
        self.train_button.setEnabled(self.file_list.count() > 0)
        self.cancel_button.setEnabled(False)
        if self.results:
            saved = ", ".join(r.request.output.name for r in self.results)
            folder = self.results[0].request.output.parent
            live_text.set_text(self.status_label, lambda: self.tr("Saved in {}: {}").format(folder, saved))
        elif self._cancelled:
            live_text.set_text(self.status_label, lambda: self.tr("Stopped; no model saved."))
        self.trainingEnded.emit()

    def current_job(self) -> Job | None:
        """The job training a model now, if any."""
        return self._job

    def is_busy(self) -> bool:
        return self._job is not None

    def is_ready(self) -> bool:
        return not (self.is_busy() or self._minimum.pending())

    def shutdown(self) -> None:
        self._minimum.shutdown()
        job = self._job
        self.cancel()
        if job is not None:
            job.wait(30)
