"""Type Wubi: a text pad whose keys go through the input engine (:mod:`wubitok.ime`).

``pane`` (the pane: mode switches, editor, buttons; the user's own entries), ``editor``
(the editor that hands each key to the engine and shows its pre-edit and commits),
``candidate_bar`` (the page of candidates under the cursor), ``options_menu`` (the
typist's settings), ``engine_start`` (the engine opened with the saved settings, its
problems said once) and ``learning_aid`` (the last entry, its code and its keys).
"""
from .pane import ImePadPane

__all__ = ["ImePadPane"]
