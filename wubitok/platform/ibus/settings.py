"""The typist's settings in the IBus panel menu, over the one settings store (``ime/options.py``).

The pad's Options menu, ``wubitok type`` and these properties read and write the same
``ime_settings.json``.  Each engine process reads it again when the file changed (on
focus-in, so a change made in the pad is in force the next time a window is focused)
and writes only the setting the typist changed, so two front ends do not undo each
other's choices.  No gi here: :mod:`.engine` turns these descriptions into
``IBus.Property`` objects.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import WubitokError
from ...ime.options import ImeOptions, load_options, settings_path, update_options


@dataclass(frozen=True)
class Switch:
    """An on/off option: a toggle in the menu."""

    name: str  # the ImeOptions field, also the property key
    label: str


@dataclass(frozen=True)
class Choice:
    """An option with a few values: a sub-menu of radio items, keyed ``name.value``."""

    name: str
    label: str  # "{}" is the chosen value's label
    values: tuple[tuple[object, str], ...]  # (value, label)

    def key(self, value: object) -> str:
        return f"{self.name}.{value}"

    def label_of(self, value: object) -> str:
        return dict(self.values).get(value, str(value))


SETTINGS: tuple[Switch | Choice, ...] = (
    Choice("charset", "字符集 Charset: {}",
           (("all", "全部 All (incl. CJK Ext B)"), ("gbk", "GBK 简繁"), ("gb2312", "GB2312 简体"))),
    Switch("simplified_first", "简体优先 Simplified first"),
    Choice("output", "输出 Output: {}",
           (("unchanged", "原样 As typed"), ("simplified", "简体 Simplified"), ("traditional", "繁体 Traditional"),
            ("tw", "台湾正体 Taiwan"), ("hk", "香港繁体 Hong Kong"))),
    Switch("top_commit", "顶字上屏 5th key commits"),
    Switch("auto_commit", "四码唯一自动上屏 Auto-commit a unique code"),
    Choice("empty_code", "空码 Empty code: {}",
           (("clear", "清除 Clear"), ("keep", "保留 Keep"), ("beep", "保留并提示 Keep, beep"))),
    Choice("page_size", "每页候选 Candidates per page: {}", tuple((n, str(n)) for n in range(1, 10))),
    Switch("learning", "学习 Learn my choices"),
)


def parse_key(key: str) -> tuple[str, object] | None:
    """(option name, value) a property key stands for when it is activated (checked), or None
    when it is not one of the settings.  A switch's value is left to the caller (None)."""
    for setting in SETTINGS:
        if isinstance(setting, Switch) and key == setting.name:
            return setting.name, None
        if isinstance(setting, Choice):
            for value, _ in setting.values:
                if key == setting.key(value):
                    return setting.name, value
    return None


class SavedOptions:
    """The settings file, read again whenever it changed since it was last read."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else settings_path()
        self._stamp: tuple[int, int, int] | None = None
        self._options = ImeOptions()
        self._read = False

    def _file_stamp(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def current(self) -> ImeOptions:
        stamp = self._file_stamp()
        if self._read and stamp == self._stamp:
            return self._options  # one stat per call: cheap enough for every focus-in
        self._read, self._stamp = True, stamp
        try:
            self._options = load_options(self.path)
        except WubitokError as exc:  # a broken file must not stop the typing: keep what we had
            print(f"wubitok ibus engine: {exc}; keeping the settings in use", file=sys.stderr)
        return self._options

    def change(self, **changes: Any) -> ImeOptions:
        """Write ``changes`` over the saved settings (the others stay as saved); the new options."""
        # Read again under the lock: another program may have saved other keys meanwhile.
        new = update_options(lambda saved: dataclasses.replace(saved, **changes), self.path,  # checked by ImeOptions
                             if_broken=self.current())
        self._options, self._stamp = new, self._file_stamp()
        return new
