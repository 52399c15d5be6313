"""Typing tables that move: the dictionary with the user's phrases and learned order,
written for Rime and fcitx5 (libime), and user dictionaries read back into the user phrases."""
from .entries import TableEntry, completions, typing_table
from .fcitx5 import write_fcitx5
from .imports import import_phrases, read_phrase_file
from .rime import write_rime

__all__ = ["TableEntry", "completions", "typing_table", "write_rime", "write_fcitx5", "import_phrases",
           "read_phrase_file"]
