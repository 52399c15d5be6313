"""Shared fixtures for the GUI tests: the app as `wubitok gui` sets it up, isolated settings, dialogs."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def gui_app(qapp):
    """The QApplication with wubitok's font, theme and (English) language installed."""
    from wubitok.gui.app import create_app

    return create_app(language="en", theme_name="light")


@pytest.fixture
def show_pane(gui_app, qtbot):
    """``show_pane(pane, width, height)``: the pane closed after the test, at that size, shown, once ready."""

    def show(pane, width: int = 1000, height: int = 700, timeout: int = 30_000):
        qtbot.addWidget(pane)
        pane.resize(width, height)
        pane.show()
        qtbot.waitUntil(pane.is_ready, timeout=timeout)
        return pane

    return show


@pytest.fixture
def open_window(gui_app, gui_data_dir, qtbot):
    """``open_window(width, height)``: the main window (not restored from settings) at that size, shown,
    and shut down after the test."""
    from wubitok.gui.main_window import MainWindow

    def open_(width: int = 1200, height: int = 800) -> MainWindow:
        window = MainWindow(restore=False)
        qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
        window.resize(width, height)
        window.show()
        qtbot.waitExposed(window)
        return window

    return open_


@pytest.fixture
def pane_ready(qtbot):
    """``pane_ready(window, key, text=None)``: the window's pane ``key`` shown and ready, with ``text``
    in it (and tokenized, converted...) when one is given."""

    def ready(window, key: str, text: str | None = None, timeout: int = 120_000):
        window.show_pane(key)
        pane = window.pane(key)
        qtbot.waitUntil(pane.is_ready, timeout=timeout)
        if text is not None:
            pane.set_sample_text(text)
            qtbot.waitUntil(pane.is_ready, timeout=timeout)
        return pane

    return ready


@pytest.fixture
def tokenized():
    """``tokenized(text, encoding, display=None, tokenizer=None)``: a ``TokenizedText`` made as an encode
    worker makes it (with the ``tokenizer``'s forms for readable tokens)."""
    from wubitok.gui.widgets.token_view import TokenizedText
    from wubitok.services.readable_tokens import TokenForms
    from wubitok.services.tokenized import PackedEncoding, Spans

    def make(text, enc, display=None, tokenizer=None):
        forms = TokenForms.of(tokenizer) if tokenizer is not None else None
        return TokenizedText(text, PackedEncoding.pack(enc), Spans.of(text, enc), display, forms)

    return make


@pytest.fixture
def gui_data_dir(user_data_dir):
    """A fresh user data folder, so settings and learned frequencies start empty."""
    return user_data_dir


@pytest.fixture
def catalog(user_data_dir):
    """A model catalog of the bundled models only, remembering nothing."""
    from wubitok.gui.support.model_catalog import ModelCatalog

    return ModelCatalog(remember=False)


@pytest.fixture
def error_dialogs(qtbot):
    """(title, message) of every error dialog shown during the test; open ones are closed after."""
    from wubitok.gui.support import errors

    shown: list[tuple[str, str]] = []
    reporter = errors.reporter()

    def record(title: str, message: str) -> None:
        shown.append((title, message))

    reporter.shown.connect(record)
    yield shown
    reporter.shown.disconnect(record)
    if reporter.last_dialog is not None:
        reporter.last_dialog.close()
