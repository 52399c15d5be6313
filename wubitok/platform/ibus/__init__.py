"""wubitok as an IBus input method (Linux): a thin adapter over :class:`wubitok.ime.ImeEngine`.

- :mod:`.component` (no gi): the component XML and where it is installed;
- :mod:`.gi_loader`: the one place PyGObject and IBus's introspection data are loaded,
  with a one-line error naming what to install when they are missing;
- :mod:`.engine`: the ``IBus.Engine`` that forwards keys to ``ImeEngine`` and shows its
  state (pre-edit, lookup table, properties) - no typing rules of its own;
- :mod:`.settings` (no gi): the typist's settings as panel properties, over the settings
  store the pad shares;
- :mod:`.service`: the engine process (factory, main loop) and questions to a running daemon.

This package is the only part of wubitok that imports gi (tests/test_no_qt_in_core.py).
"""
