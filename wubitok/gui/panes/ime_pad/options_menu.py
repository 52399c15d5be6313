"""The pad's Options menu: the typist's settings (:class:`~wubitok.ime.ImeOptions`) and the user's own entries.

Every setting's action carries ``(option name, value)`` as its data; choosing one emits
:attr:`OptionsMenu.chosen` with that one change, which the pane puts in force and saves.
"""
from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QWidget

from ....ime import ImeOptions
from ....ime.options import EMPTY_CODE_RULES, OUTPUTS, missing_part
from ....wubi.dictionary import CHARSETS
from ...support.typing_settings import needs_text, setting_texts


class OptionsMenu(QMenu):
    """The settings, each a switch or a set of radio items, then "Add a phrase…" and "Forget learned order…"."""

    chosen = Signal(dict)  # {option name: value}: one setting the user changed

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._option_actions: list[QAction] = []
        self.page_menu = self.addMenu("")
        self._radio_items(self.page_menu, "page_size", range(1, 10))
        self.auto_action = self._switch(self, "auto_commit")
        self.top_action = self._switch(self, "top_commit")
        self.empty_menu = self.addMenu("")
        self._radio_items(self.empty_menu, "empty_code", EMPTY_CODE_RULES)
        self.learning_action = self._switch(self, "learning")
        self.addSeparator()
        self.charset_group = self._radio_items(self, "charset", CHARSETS)
        self.simplified_action = self._switch(self, "simplified_first")
        self.output_menu = self.addMenu("")
        self.output_menu.setToolTipsVisible(True)
        self._radio_items(self.output_menu, "output", OUTPUTS)
        self.addSeparator()
        self.add_phrase_action = self.addAction("")
        self.reset_action = self.addAction("")
        for action in self._option_actions:
            name, value = action.data()
            if isinstance(value, bool):
                action.toggled.connect(lambda on, n=name: self.chosen.emit({n: on}))
            else:
                action.triggered.connect(lambda _=False, n=name, v=value: self.chosen.emit({n: v}))

    def _switch(self, menu: QMenu, name: str) -> QAction:
        action = menu.addAction("")
        action.setCheckable(True)
        action.setData((name, True))
        self._option_actions.append(action)
        return action

    def _radio_items(self, menu: QMenu, name: str, values: Iterable[object]) -> QActionGroup:
        group = QActionGroup(self)
        for value in values:
            action = menu.addAction("")
            action.setCheckable(True)
            action.setData((name, value))
            group.addAction(action)
            self._option_actions.append(action)
        return group

    def option_action(self, name: str, value: object = True) -> QAction:
        """The action for setting ``name`` to ``value`` (a switch: its one action)."""
        return next(a for a in self._option_actions if a.data() == (name, value)
                    or (a.data() == (name, True) and isinstance(value, bool)))

    def show_options(self, options: ImeOptions) -> None:
        """Check the actions of the options in force."""
        for action in self._option_actions:
            name, value = action.data()
            action.blockSignals(True)
            action.setChecked(getattr(options, name) == value)
            action.blockSignals(False)

    def retranslate_ui(self) -> None:
        titles, choices = setting_texts()
        self.page_menu.setTitle(titles["page_size"])
        self.auto_action.setText(titles["auto_commit"])
        self.top_action.setText(titles["top_commit"])
        self.empty_menu.setTitle(titles["empty_code"])
        self.learning_action.setText(titles["learning"])
        self.simplified_action.setText(titles["simplified_first"])
        self.output_menu.setTitle(titles["output"])
        for action in self._option_actions:
            name, value = action.data()
            if name == "page_size":
                action.setText(str(value))
            elif (name, value) in choices:
                action.setText(choices[(name, value)])
            # A choice whose part is not installed: greyed, saying what it needs.
            needs = missing_part(name, value)
            action.setEnabled(needs is None)
            if needs is not None:
                action.setText(needs_text(action.text(), needs))
                action.setToolTip(self.tr("Needs {what}").replace("{what}", needs))
        self.add_phrase_action.setText(self.tr("Add a phrase…"))
        self.reset_action.setText(self.tr("Forget learned order…"))
