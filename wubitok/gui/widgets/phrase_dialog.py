"""The Type Wubi pad's "Add phrase" dialog: a phrase and, optionally, its own code.

Without a code the phrase gets the standard Wubi-86 phrase code, shown as the code
field's placeholder while the phrase is typed.  The pad adds the phrase through the
engine (one transaction in the user database); a bad phrase or code is an error
dialog and this dialog stays open, with what was typed, to be corrected.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout

from ...errors import WubitokError
from ...ime.phrases import phrase_entry
from ...wubi.dictionary import WubiDictionary
from ..support.fonts import han_font, monospace_font


class PhraseDialog(QDialog):
    """Asks for a phrase and an optional code; ``submitted(text, code)`` on OK ("" code: the standard one)."""

    submitted = Signal(str, str)

    def __init__(self, dictionary: WubiDictionary, text: str = "", parent=None):
        super().__init__(parent)
        self._dictionary = dictionary
        self.standard_code = ""  # the standard phrase code of what is typed, "" if none
        self.phrase_edit = QLineEdit(text)
        self.phrase_edit.setFont(han_font(15))
        self.code_edit = QLineEdit()
        self.code_edit.setFont(monospace_font(13))
        self.code_edit.setMaxLength(4)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.phrase_label = QLabel()
        self.code_label = QLabel()
        form = QFormLayout()
        form.addRow(self.phrase_label, self.phrase_edit)
        form.addRow(self.code_label, self.code_edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self._submit)
        self.buttons.rejected.connect(self.reject)
        self.phrase_edit.textChanged.connect(self._update_hint)
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("Add a phrase"))
        self.phrase_label.setText(self.tr("Phrase:"))
        self.code_label.setText(self.tr("Code:"))
        self.note.setText(self.tr("Leave the code empty for the standard Wubi phrase code; "
                                  "the phrase is then typed with it like any other."))
        self._update_hint()

    def _update_hint(self) -> None:
        try:
            self.standard_code, _ = phrase_entry(self._dictionary, self.phrase_edit.text().strip())
        except WubitokError:
            self.standard_code = ""  # not a phrase (yet): the pad says why on OK
            self.code_edit.setPlaceholderText(self.tr("1–4 keys a–y"))
            return
        self.code_edit.setPlaceholderText(self.tr("{code} (standard)").replace("{code}", self.standard_code))

    def _submit(self) -> None:
        self.submitted.emit(self.phrase_edit.text().strip(), self.code_edit.text().strip().lower())
