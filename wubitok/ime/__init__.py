"""Typing Wubi-86: the composition engine (no Qt), its punctuation and learned frequencies."""
from .engine import ImeCandidate, ImeEngine, ImeState, KeyResult
from .keys import NAMED_KEYS, parse_keys
from .options import ImeOptions, load_options, save_options, update_options
from .punctuation import CHINESE_PUNCTUATION, PAIRED_QUOTES, full_width
from .userdb import UserFrequencies

__all__ = [
    "ImeEngine", "ImeOptions", "ImeState", "ImeCandidate", "KeyResult",
    "NAMED_KEYS", "parse_keys", "CHINESE_PUNCTUATION", "PAIRED_QUOTES", "full_width",
    "UserFrequencies", "load_options", "save_options", "update_options",
]
