"""Bridges from the typing engine (:mod:`wubitok.ime`) to desktop input-method frameworks."""
