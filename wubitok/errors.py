"""One exception family for user errors.

Everything a user can cause (a bad file, an unknown code, a corrupt model)
raises a subclass of :class:`WubitokError`.  The CLI turns these into one line
on stderr and exit code 2; the GUI into a dialog.  Any other exception is a bug.

The message is English (the CLI prints it as is).  An error may also carry a
``code`` naming the problem and the ``params`` its message was made from, so
that the GUI can show the same message in the user's language; an error
without a code is shown in English.
"""
from __future__ import annotations


def excerpt(value: object, limit: int = 40) -> str:
    """``value`` as a message quotes it, cut to about ``limit`` characters: an
    error never copies a whole bad input (nor builds a huge string to try)."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit]) + f"... ({len(value):,} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    if isinstance(value, (list, dict, tuple, set)):
        return f"a {type(value).__name__} of {len(value):,} items"
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    return f"a value of type {type(value).__name__}"


class WubitokError(Exception):
    """Base class for errors caused by input, not by a bug."""

    def __init__(self, message: str, *, code: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple:
        # Errors cross process boundaries (pool workers): keep code and params.
        return (_rebuild, (type(self), self.message, self.code, self.params))


def _rebuild(cls: type[WubitokError], message: str, code: str | None, params: dict) -> WubitokError:
    return cls(message, code=code, **params)


class InputError(WubitokError):
    """Empty, malformed or otherwise unusable input text or arguments."""


class FileError(WubitokError):
    """A file that is missing, unreadable or not text."""


class UnknownCodeError(WubitokError):
    """A Wubi code with no entry in the dictionary."""


class DictionaryError(WubitokError):
    """The dictionary database is missing, corrupt or not the expected one."""


class ModelError(WubitokError):
    """A tokenizer model file that is corrupt, of the wrong type or version."""


class MissingExtraError(WubitokError):
    """An optional package is needed; the message names the extra to install."""


class Cancelled(WubitokError):
    """A long job was cancelled by the user."""


class PlatformError(WubitokError):
    """The desktop's input-method framework is missing, not running or not writable."""
