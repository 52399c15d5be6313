"""The one place that turns errors into dialogs.

User errors (:class:`~wubitok.errors.WubitokError`: a file that is not text,
a corrupt model, an unknown code) get a plain warning with the library's
one-line message.  Anything else that escapes to the event loop is a bug: it
gets an "unexpected error" dialog with the traceback under "Show Details",
and the app keeps running.

Dialogs are opened with ``QMessageBox.open()``, not ``exec()``: they are
window-modal but do not start a nested event loop, so a background job can
keep reporting and tests can find and close them.  Every dialog is also
announced on :func:`reporter`'s ``shown(title, message)`` signal.

Use::

    from wubitok.gui.support import errors

    with errors.reported(self):                 # WubitokError -> dialog
        text = read_text(path)
    errors.show_error(self, exc)                # an error caught elsewhere
    errors.show_error(self, "message", title=)  # a Job.failed(message)
"""
from __future__ import annotations

import sys
import traceback
from contextlib import contextmanager
from typing import Iterator

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ... import errors as core_errors
from . import i18n


class ErrorReporter(QObject):
    """Announces each dialog shown; ``last_dialog`` is the most recent one."""

    shown = Signal(str, str)  # title, message

    def __init__(self) -> None:
        super().__init__()
        self.last_dialog: QMessageBox | None = None


_reporter: ErrorReporter | None = None


def reporter() -> ErrorReporter:
    global _reporter
    if _reporter is None:
        _reporter = ErrorReporter()
    return _reporter


def _title_for(error: BaseException) -> str:
    # Most specific first: the dialog title says what kind of problem it is.
    # (Literal translate() calls, so that lupdate finds the strings.)
    if isinstance(error, core_errors.FileError):
        return QCoreApplication.translate("errors", "File problem")
    if isinstance(error, core_errors.ModelError):
        return QCoreApplication.translate("errors", "Model problem")
    if isinstance(error, core_errors.UnknownCodeError):
        return QCoreApplication.translate("errors", "Unknown code")
    if isinstance(error, core_errors.DictionaryError):
        return QCoreApplication.translate("errors", "Dictionary problem")
    if isinstance(error, core_errors.MissingExtraError):
        return QCoreApplication.translate("errors", "Package needed")
    if isinstance(error, core_errors.Cancelled):
        return QCoreApplication.translate("errors", "Cancelled")
    if isinstance(error, core_errors.InputError):
        return QCoreApplication.translate("errors", "Invalid input")
    return QCoreApplication.translate("errors", "Error")


def _open_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, message: str,
              details: str = "") -> QMessageBox:
    if parent is not None:
        parent = parent.window()
    elif QApplication.activeWindow() is not None:
        parent = QApplication.activeWindow()
    box = QMessageBox(icon, title, message, QMessageBox.StandardButton.Ok, parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if details:
        box.setDetailedText(details)
    box.open()
    rep = reporter()
    rep.last_dialog = box
    box.destroyed.connect(lambda *_: setattr(rep, "last_dialog", None) if rep.last_dialog is box else None)
    rep.shown.emit(title, message)
    return box


def _templates() -> dict[str, str]:
    """The message of each library error code in the UI language, with the
    error's params as ``{name}`` fields.  (Literal translate() calls, so that
    lupdate finds the strings.)"""
    return {
        "file.missing": QCoreApplication.translate("errors", "{path}: no such file"),
        "file.directory": QCoreApplication.translate("errors", "{path}: is a folder, not a file"),
        "file.permission": QCoreApplication.translate("errors", "{path}: permission denied"),
        "file.unreadable": QCoreApplication.translate("errors", "{path}: cannot read ({reason})"),
        "file.not_encoding":
            QCoreApplication.translate("errors", "{path}: not {encoding} text (invalid byte at offset {offset})"),
        "file.cut": QCoreApplication.translate(
            "errors", "{path}: ends in the middle of a {encoding} character (offset {offset}): was the file cut off?"),
        "file.not_text":
            QCoreApplication.translate("errors", "{path}: not a text file in UTF-8, UTF-16, GB18030 or Big5"),
        "file.empty": QCoreApplication.translate("errors", "{path}: the file is empty"),
        "file.none_given": QCoreApplication.translate("errors", "no input files given"),
        "file.no_temp": QCoreApplication.translate("errors", "{path}: cannot create a temporary file in {folder}"),
        "file.no_folder": QCoreApplication.translate("errors", "{path}: cannot write: folder {folder} does not exist"),
        "file.unwritable": QCoreApplication.translate("errors", "{path}: cannot write ({reason})"),
        "file.unencodable":
            QCoreApplication.translate("errors", "{path}: cannot save as {encoding}: it has no {char}; save as UTF-8"),
        "encoding.unknown": QCoreApplication.translate("errors", "unknown encoding {encoding}"),
        "convert.unknown_code": QCoreApplication.translate("errors", "unknown Wubi code: {wubi}"),
        "convert.selector":
            QCoreApplication.translate("errors", "{wubi}{selector}: code {wubi} has only {count} entries"),
        "convert.not_a_code": QCoreApplication.translate("errors", "not a Wubi code: {wubi} (1-4 keys a-y)"),
        "convert.open_quote":
            QCoreApplication.translate("errors", "a quote ` without its closing ` at character {position}"),
        "convert.separator":
            QCoreApplication.translate("errors", "the separator {separator} could be read as part of a code"),
        "convert.style": QCoreApplication.translate("errors", "unknown code style {style}"),
        "corpus.no_files": QCoreApplication.translate("errors", "add at least one corpus file"),
        "compare.few_tokenizers": QCoreApplication.translate("errors", "choose at least {count} tokenizers"),
        "compare.nothing_to_export":
            QCoreApplication.translate("errors", "nothing to export yet: run a comparison first"),
        "pool.worker_died":
            QCoreApplication.translate("errors", "a worker process died (out of memory or killed); try again"),
        "train.no_algorithm": QCoreApplication.translate("errors", "choose at least one algorithm"),
        "train.not_a_folder": QCoreApplication.translate("errors", "{path}: not a folder"),
    }


def message_of(error: BaseException | str) -> str:
    """An error's message in the UI language: a library error with a code is
    translated; anything else shows its own (English) text."""
    # In English the library's own message is shown: it is the source text.
    if isinstance(error, core_errors.WubitokError) and error.code is not None and i18n.current_language() != "en":
        template = _templates().get(error.code)
        if template is not None:
            try:
                return template.format(**error.params)
            except (KeyError, IndexError, ValueError):
                pass  # a translation that names a field the error lacks: the English text
    if isinstance(error, BaseException) and not isinstance(error, core_errors.WubitokError):
        # A bug (a Job's failure that is no user error): say so in the UI language.
        return QCoreApplication.translate("errors", "internal error, a bug in wubitok: {error}").format(
            error=f"{type(error).__name__}: {error}")
    return str(error) if str(error) else type(error).__name__


def show_error(parent: QWidget | None, error: BaseException | str, *, title: str | None = None) -> QMessageBox:
    """A warning dialog for a user error (an exception or a one-line message)."""
    message = message_of(error)
    if title is None:
        title = _title_for(error) if isinstance(error, BaseException) else _title_for(Exception())
    return _open_box(parent, QMessageBox.Icon.Warning, title, message)


def show_bug(exc: BaseException, parent: QWidget | None = None) -> QMessageBox:
    """The dialog for an exception that is not a user error: a bug in wubitok."""
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    message = QCoreApplication.translate(
        "errors", "Something went wrong inside wubitok; this is a bug. Your text is still there. Details:")
    message += f"\n{type(exc).__name__}: {exc}"
    title = QCoreApplication.translate("errors", "Unexpected error")
    return _open_box(parent, QMessageBox.Icon.Critical, title, message, details)


@contextmanager
def reported(parent: QWidget | None, *, title: str | None = None) -> Iterator[None]:
    """Run a block; a WubitokError in it becomes a dialog instead of propagating."""
    try:
        yield
    except core_errors.WubitokError as exc:
        show_error(parent, exc, title=title)


def _excepthook(exc_type, exc, tb) -> None:
    if issubclass(exc_type, KeyboardInterrupt) or QApplication.instance() is None:
        sys.__excepthook__(exc_type, exc, tb)
        return
    if isinstance(exc, core_errors.WubitokError):
        show_error(None, exc)
        return
    traceback.print_exception(exc_type, exc, tb, file=sys.stderr)
    try:
        show_bug(exc)
    except Exception:  # the dialog itself failed: the traceback above must suffice
        traceback.print_exc(file=sys.stderr)


def install_excepthook() -> None:
    """Show exceptions that reach the event loop in a dialog instead of dying."""
    sys.excepthook = _excepthook
