"""One exception family for user errors.

Everything a user can cause (a bad file, an unknown code, a corrupt model)
raises a subclass of :class:`WubitokError`.  The CLI turns these into one line
on stderr and exit code 2; the GUI into a dialog.  Any other exception is a bug.
"""


class WubitokError(Exception):
    """Base class for errors caused by input, not by a bug."""


class InputError(WubitokError):
    """Empty, malformed or otherwise unusable input text or arguments."""


class FileError(WubitokError):
    """A file that is missing, unreadable or not UTF-8."""


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
