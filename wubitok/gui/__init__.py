"""The PySide6 desktop app: a thin client of the wubitok library.

Only this package imports Qt.  ``wubitok gui`` (``wubitok.gui.app.main``)
starts it; ``main_window.PANES`` lists the panes.
"""
