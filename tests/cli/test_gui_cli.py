"""`wubitok gui` checks what Qt's X11 plugin needs before Qt can abort the process (wubitok.services.earlyinit)."""
from __future__ import annotations

import ctypes.util

from wubitok.cli import main
from wubitok.services import earlyinit


def test_missing_x11_libraries_are_named_in_one_line(monkeypatch, capsys):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(earlyinit.sys, "platform", "linux")
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None if name == "xcb-icccm" else f"lib{name}.so")
    assert earlyinit.missing_x11_packages() == ["libxcb-icccm4"]
    assert main(["gui"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install libxcb-icccm4" in err


def test_no_check_when_a_platform_is_forced_or_without_x11(monkeypatch):
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    monkeypatch.setattr(earlyinit.sys, "platform", "linux")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert earlyinit.missing_x11_packages() == []
    monkeypatch.delenv("QT_QPA_PLATFORM")
    monkeypatch.delenv("DISPLAY", raising=False)
    assert earlyinit.missing_x11_packages() == []
