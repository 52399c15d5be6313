"""Help > Check this computer: ``wubitok doctor``'s report in a dialog.

The report comes from ``wubitok doctor --json`` run in a child process
(:func:`wubitok.services.doctor.doctor_command`): the same checks and lines as the
command, and gi and the D-Bus questions to IBus stay out of the app's process.
"""
from __future__ import annotations

import json

from PySide6.QtCore import QProcess
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ...services import doctor


class DoctorDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Check this computer"))
        self.resize(900, 420)
        self.summary = QLabel(self.tr("Checking what each use needs…"))
        self.summary.setWordWrap(True)
        self.report = QPlainTextEdit(readOnly=True)
        self.report.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.report, 1)
        layout.addWidget(buttons)
        self.lines: list[str] = []
        self.finished_checking = False
        self._process = QProcess(self)
        self._process.finished.connect(self._show_report)
        self._process.errorOccurred.connect(self._failed)
        program, *args = doctor.doctor_command()
        self._process.start(program, args)

    def _show_report(self, _code: int = 0, _status: object = None) -> None:
        output = bytes(self._process.readAllStandardOutput().data()).decode("utf-8", "replace")
        try:
            data = json.loads(output)
        except ValueError:
            error = bytes(self._process.readAllStandardError().data()).decode("utf-8", "replace").strip()
            self._done(self.tr("The check did not run: {error}").replace("{error}", error or output))
            return
        checks = [doctor.Check.from_dict(c) for c in data["checks"]]
        self.lines = doctor.report_lines(checks, data["distribution"])
        self.report.setPlainText("\n".join(self.lines))
        ready = all(c.ok for c in checks)
        self._done(self.tr("Everything each use needs is here.") if ready else
                   self.tr("Some uses need more: each line says what to install (also: wubitok doctor)."))

    def _failed(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._done(self.tr("The check did not run: {error}").replace("{error}", self._process.errorString()))

    def _done(self, summary: str) -> None:
        self.summary.setText(summary)
        self.finished_checking = True

    def done(self, result: int) -> None:
        if self._process.state() != QProcess.ProcessState.NotRunning:
            self._process.kill()
            self._process.waitForFinished(5000)
        super().done(result)
