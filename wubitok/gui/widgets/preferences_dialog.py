"""Edit > Preferences: every setting of the app in one place.

The theme and the language (also in the View and Language menus), and the typist's
settings (also in Type Wubi's Options menu), which ``wubitok type`` and the IBus engine
share: a change is saved at once, that setting only, through
:func:`~wubitok.gui.support.typing_settings.shared_typing_settings`, and the pad follows.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...ime import ImeOptions
from ...ime.options import EMPTY_CODE_RULES, OUTPUTS, missing_part
from ...services.earlyinit import LANGUAGES, THEMES
from ...wubi.dictionary import CHARSETS
from ..support import errors, i18n
from ..support.typing_settings import needs_text, setting_texts, shared_typing_settings

CHOICES = {"empty_code": EMPTY_CODE_RULES, "charset": CHARSETS, "output": OUTPUTS}
SWITCHES = ("auto_commit", "top_commit", "learning", "simplified_first")


class PreferencesDialog(QDialog):
    """Theme, language and typing; each change applies and is saved at once."""

    def __init__(self, theme: str, language: str, set_theme: Callable[[str], None],
                 set_language: Callable[[str], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.theme_box = QComboBox()
        for name in THEMES:
            self.theme_box.addItem("", name)
        self.theme_box.setCurrentIndex(max(0, self.theme_box.findData(theme)))
        self.language_box = QComboBox()
        for name in LANGUAGES:
            self.language_box.addItem(i18n.LANGUAGE_NAMES.get(name, ""), name)
        self.language_box.setCurrentIndex(max(0, self.language_box.findData(language)))
        self.appearance = QGroupBox()
        form = QFormLayout(self.appearance)
        self.theme_label, self.language_label = QLabel(), QLabel()
        self.theme_label.setBuddy(self.theme_box)
        self.language_label.setBuddy(self.language_box)
        form.addRow(self.theme_label, self.theme_box)
        form.addRow(self.language_label, self.language_box)

        self.typing = QGroupBox()
        typing = QFormLayout(self.typing)
        typing.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.page_spin = QSpinBox()
        self.page_spin.setRange(1, 9)
        self.labels: dict[str, QLabel] = {"page_size": QLabel()}
        typing.addRow(self.labels["page_size"], self.page_spin)
        self.switches = {name: QCheckBox() for name in SWITCHES}
        self.boxes: dict[str, QComboBox] = {}
        for name in ("auto_commit", "top_commit", "empty_code", "learning", "charset", "simplified_first", "output"):
            if name in self.switches:
                typing.addRow(self.switches[name])
                continue
            box = QComboBox()
            for value in CHOICES[name]:
                box.addItem("", value)
            self.boxes[name] = box
            self.labels[name] = QLabel()
            typing.addRow(self.labels[name], box)
        for name, label in self.labels.items():
            label.setBuddy(self.page_spin if name == "page_size" else self.boxes[name])
        self.show_options(shared_typing_settings().options())

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.appearance)
        layout.addWidget(self.typing)
        layout.addWidget(buttons)

        self.theme_box.currentIndexChanged.connect(lambda _: set_theme(self.theme_box.currentData()))
        self.language_box.currentIndexChanged.connect(lambda _: set_language(self.language_box.currentData()))
        self.page_spin.valueChanged.connect(lambda v: self._save(page_size=v))
        for name, check in self.switches.items():
            check.toggled.connect(lambda on, n=name: self._save(**{n: on}))
        for name, box in self.boxes.items():
            box.currentIndexChanged.connect(lambda _, n=name, b=box: self._save(**{n: b.currentData()}))
        shared_typing_settings().changed.connect(self._changed_elsewhere)
        self.retranslate_ui()

    def show_options(self, options: ImeOptions) -> None:
        """Show ``options`` without saving them again."""
        widgets = [self.page_spin, *self.switches.values(), *self.boxes.values()]
        for w in widgets:
            w.blockSignals(True)
        self.page_spin.setValue(options.page_size)
        for name, check in self.switches.items():
            check.setChecked(getattr(options, name))
        for name, box in self.boxes.items():
            box.setCurrentIndex(max(0, box.findData(getattr(options, name))))
        for w in widgets:
            w.blockSignals(False)

    def _save(self, **change: object) -> None:
        with errors.reported(self):
            shared_typing_settings().save(**change)

    def _changed_elsewhere(self, _changes: dict) -> None:
        self.show_options(shared_typing_settings().options())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("Preferences"))
        self.appearance.setTitle(self.tr("Appearance"))
        self.theme_label.setText(self.tr("&Theme:"))
        self.language_label.setText(self.tr("&Language:"))
        for i, text in enumerate((self.tr("Follow the system"), self.tr("Light"), self.tr("Dark"))):
            self.theme_box.setItemText(i, text)
        self.language_box.setItemText(0, self.tr("Follow the system"))
        self.typing.setTitle(self.tr("Typing (Type Wubi, wubitok type and the IBus engine)"))
        titles, choices = setting_texts()
        titles["charset"] = self.tr("Characters")
        for name, label in self.labels.items():
            label.setText(self.tr("{setting}:").replace("{setting}", titles[name]))
        for name, check in self.switches.items():
            check.setText(titles[name])
        for name, box in self.boxes.items():
            for i in range(box.count()):
                value = box.itemData(i)
                text = choices[(name, value)]
                needs = missing_part(name, value)
                if needs is not None:
                    text = needs_text(text, needs)
                    box.model().item(i).setEnabled(False)  # a choice whose part is not installed
                box.setItemText(i, text)
        self.page_spin.findChild(QLineEdit).setAccessibleName(titles["page_size"])
