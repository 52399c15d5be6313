"""The PySide6 desktop app: a thin client of the wubitok library.

Only this package imports Qt.  ``wubitok gui`` (``wubitok.gui.app.main``)
starts it; ``main_window.PANES`` lists the panes.

- ``app.py``, ``main_window.py``: start-up, screenshots, the window shell;
- ``panes/``: one module per pane (Lookup, Convert, Tokenize, Compare, Train, the typing pad);
- ``widgets/``: reusable widgets and drawings (token view, Wubi keyboard, comparison charts);
- ``support/``: what every pane uses (background jobs, settings, theme, fonts, language,
  error dialogs, the model catalog).
"""
