"""Load PyGObject and IBus's introspection data, or say in one line what to install."""
from __future__ import annotations

from types import ModuleType

from ...errors import MissingExtraError, PlatformError

# What the system needs besides wubitok: the daemon and its typelib, and what
# pip needs to build PyGObject in a virtual environment.
DEBIAN_PACKAGES = "ibus gir1.2-ibus-1.0"
DEBIAN_BUILD = "libgirepository1.0-dev libcairo2-dev pkg-config python3-dev"
FEDORA_PACKAGES = "ibus ibus-libs"
FEDORA_BUILD = "gobject-introspection-devel cairo-gobject-devel pkgconf-pkg-config python3-devel"


def load_ibus() -> tuple[ModuleType, ModuleType]:
    """``(IBus, GLib)`` from gi.repository."""
    try:
        import gi
    except ImportError:
        raise MissingExtraError(
            "PyGObject is not installed: pip install 'wubitok[ibus]' (it builds against the system's "
            f"libraries; Debian/Ubuntu: apt install {DEBIAN_BUILD}; Fedora: dnf install {FEDORA_BUILD})"
        ) from None
    try:
        gi.require_version("IBus", "1.0")
        from gi.repository import GLib, IBus
    except (ImportError, ValueError):
        raise PlatformError(
            f"IBus or its introspection data is not installed: apt install {DEBIAN_PACKAGES} "
            f"(Fedora: dnf install {FEDORA_PACKAGES})"
        ) from None
    return IBus, GLib
