"""Progress reports as the GUI shows them, in the UI language.

The library's :meth:`wubitok.progress.Progress.describe` is English (the CLI
prints it); the panes show this instead: the stage named as a phase
("counting", "merging" ...), counts, rate and time left, all translated.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...engines.unigram import model as unigram
from ...engines.wordpiece import model as wordpiece
from ...progress import Progress, human_rate


def stage_name(stage: str) -> str:
    """The name of a library stage in the UI language (an unknown one as it is)."""
    names = {
        "counting": QCoreApplication.translate("progress", "counting"),
        "merging": QCoreApplication.translate("progress", "merging"),
        "encoding": QCoreApplication.translate("progress", "encoding"),
        "training": QCoreApplication.translate("progress", "training"),
        "seeding": QCoreApplication.translate("progress", "seeding"),
        "feeding": QCoreApplication.translate("progress", "reading"),
        "read": QCoreApplication.translate("progress", "reading"),
    }
    return names.get(stage, stage)


def human_seconds(seconds: float) -> str:
    s = int(round(seconds))
    if s < 60:
        return QCoreApplication.translate("progress", "{s} s").format(s=s)
    if s < 3600:
        return QCoreApplication.translate("progress", "{m} min {s:02d} s").format(m=s // 60, s=s % 60)
    return QCoreApplication.translate("progress", "{h} h {m:02d} min").format(h=s // 3600, m=s % 3600 // 60)


def describe(p: Progress) -> str:
    """'merging · 1,200 / 5,000 · 830/s · 5 s left' in the UI language."""
    parts = [stage_name(p.stage), f"{p.done:,} / {p.total:,}" if p.total > 0 else f"{p.done:,}"]
    if p.rate > 0:
        parts.append(QCoreApplication.translate("progress", "{rate}/s").format(rate=human_rate(p.rate)))
    if p.eta is not None:
        parts.append(QCoreApplication.translate("progress", "{time} left").format(time=human_seconds(p.eta)))
    return " · ".join(parts)


def trainer_name(trained_by: str) -> str:
    """A model's ``trained_by`` in the UI language, short enough for a caption; an
    unknown one as it is."""
    names = {
        unigram.TRAINED_BY_PURE: QCoreApplication.translate("progress", "wubitok (EM and pruning, as sentencepiece)"),
        unigram.TRAINED_BY_FAST: QCoreApplication.translate("progress", "sentencepiece"),
        wordpiece.TRAINED_BY_PURE: QCoreApplication.translate("progress", "wubitok (WordPiece score)"),
        wordpiece.TRAINED_BY_FAST: QCoreApplication.translate(
            "progress", "Hugging Face tokenizers (merges by frequency, not the WordPiece score)"),
    }
    return names.get(trained_by, trained_by)
