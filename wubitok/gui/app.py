"""Starting the app: QApplication, fonts, theme, language, icon; and screenshots.

:func:`wubitok.gui.launch.launch` calls :func:`run` or :func:`screenshot`,
for ``wubitok gui`` and the ``wubitok-gui`` launcher alike.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, QThreadPool
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

from .. import __version__
from ..errors import InputError, WubitokError
from ..fileio import atomic_write_bytes
from ..paths import resources_dir
from ..services.earlyinit import PANE_KEYS
from .support import errors, fonts, i18n, large_allocations, qt_classes, theme
from .support.quit_signals import quit_on_signals
from .support.settings import Settings

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
# How long --screenshot waits for a pane to finish loading before giving up.
READY_TIMEOUT = 60.0


def app_icon() -> QIcon:
    icon = QIcon()
    folder = resources_dir() / "icons"
    for size in ICON_SIZES:
        png = folder / f"wubitok-{size}.png"
        if png.is_file():
            icon.addFile(str(png))
    return icon


def create_app(argv: Sequence[str] | None = None, *, language: str | None = None,
               theme_name: str | None = None) -> QApplication:
    """The QApplication, set up once: names, Han font, theme, language, error dialogs.

    ``language`` / ``theme_name`` override the remembered choice (screenshots).
    """
    app = QApplication.instance()
    if app is None:
        large_allocations.fix_mmap_threshold()
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    app.setOrganizationName("wubitok")
    app.setApplicationName("wubitok")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("wubitok")
    app.setWindowIcon(app_icon())
    fonts.ensure_han_font(app)
    remembered = Settings("app")
    theme.apply_theme(theme_name or remembered.get_str("theme", "system"))
    i18n.set_language(language or remembered.get_str("language", "system"))
    _follow_system_scheme(app)
    errors.install_excepthook()
    qt_classes.create_all()
    return app


def _follow_system_scheme(app: QApplication) -> None:
    hints = app.styleHints()
    if hasattr(hints, "colorSchemeChanged") and not getattr(app, "_wubitok_follows_scheme", False):
        def changed(*_):
            chosen = Settings("app").get_str("theme", "system")
            if chosen == "system":
                theme.apply_theme(chosen)
        hints.colorSchemeChanged.connect(changed)
        app._wubitok_follows_scheme = True  # connect once, even if create_app runs again


def _make_window(pane: str | None, text: str | None, *, restore: bool, build_in_background: bool = True):
    from .main_window import MainWindow

    if pane is not None and pane not in PANE_KEYS:
        raise InputError(f"unknown pane {pane!r} (choose from {', '.join(PANE_KEYS)})")
    window = MainWindow(restore=restore, build_in_background=build_in_background)
    if pane is not None:
        window.show_pane(pane)
    if text is not None:
        current = window.current_real_pane()
        if current is None or not current.supports("set_sample_text"):
            raise InputError(f"the {window.current_pane_key()} pane does not take --text")
        current.set_sample_text(text)
    return window


def run(pane: str | None = None, text: str | None = None, *, language: str | None = None,
        theme_name: str | None = None) -> int:
    """Open the main window and run the event loop until it closes.  Ctrl+C or SIGTERM quit as
    File > Quit does, without asking about running jobs; the exit status is then 128 + the signal."""
    app = create_app(language=language, theme_name=theme_name)
    window = _make_window(pane, text, restore=True)
    window.show()

    def quit_for(signum: int) -> None:
        window.quit_without_asking()
        app.exit(128 + signum)

    with quit_on_signals(quit_for):
        return app.exec()


def wait_until_ready(window, timeout: float = READY_TIMEOUT) -> None:
    """Process events until the current pane says it is ready and no job runs."""
    app = QApplication.instance()
    pool = QThreadPool.globalInstance()
    deadline = time.monotonic() + timeout
    while True:
        app.processEvents()
        pane = window.current_real_pane()
        ready = pane is None or pane.is_ready()
        if ready and pool.activeThreadCount() == 0:
            break
        if time.monotonic() > deadline:
            raise WubitokError(f"the {window.current_pane_key()} pane was not ready after {timeout:.0f} s")
        time.sleep(0.01)
    # Let layouts, deferred deletes and repaints settle.
    for _ in range(5):
        app.processEvents()


def screenshot(out: str | Path, *, pane: str | None = None, text: str | None = None,
               size: tuple[int, int] = (1200, 800), language: str | None = None,
               theme_name: str | None = None) -> Path:
    """Render the window with ``pane`` showing ``text`` and save it as PNG.

    The platform must already be offscreen (or a real display); the caller
    sets QT_QPA_PLATFORM before the QApplication exists.
    """
    out = Path(out)
    if out.suffix.lower() != ".png":
        raise InputError(f"{out}: the screenshot is a PNG; give a name ending in .png")
    create_app(language=language, theme_name=theme_name)
    # Only the pane shown: building the others would cost time and touch the user's data (Type Wubi's database).
    window = _make_window(pane, text, restore=False, build_in_background=False)
    window.resize(*size)
    window.show()
    wait_until_ready(window)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    window.grab().save(buffer, "PNG")
    buffer.close()
    atomic_write_bytes(out, bytes(data))
    # Not close(): that would remember this window's size and pane as the user's.
    window.shutdown()
    QThreadPool.globalInstance().waitForDone(10_000)  # nothing may run while Python exits
    return out
