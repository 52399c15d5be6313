"""Load PyGObject and IBus's introspection data, or say in one line what to install.

PyGObject is not a pip dependency: building it needs a compiler and the -dev packages of cairo
and gobject-introspection, which a desktop does not have.  Every IBus desktop has the
distribution's own build (Debian/Ubuntu ``python3-gi``, Fedora ``python3-gobject``, Arch
``python-gobject``), so when ``gi`` is not importable here (a virtual environment), the
distribution's copy is taken from its site folder, provided it was built for this Python
(the same ``_gi`` extension suffix).  Only that folder's end of ``sys.path`` is used, so the
environment's own packages keep precedence.
"""
from __future__ import annotations

import importlib.machinery
import sys
from pathlib import Path
from types import ModuleType

from ...errors import MissingExtraError, PlatformError

# What the system needs besides wubitok: the daemon, its typelib and the distribution's gi.
DEBIAN_PACKAGES = "ibus gir1.2-ibus-1.0 python3-gi"
FEDORA_PACKAGES = "ibus ibus-libs python3-gobject"
ARCH_PACKAGES = "ibus python-gobject"
INSTALL_HINT = (f"Debian/Ubuntu: sudo apt install {DEBIAN_PACKAGES}; Fedora: sudo dnf install {FEDORA_PACKAGES}; "
                f"Arch: sudo pacman -S {ARCH_PACKAGES}")


def system_site_dirs() -> list[Path]:
    """The folders where distributions put their Python packages, for this Python's version."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return [Path("/usr/lib/python3/dist-packages"), Path(f"/usr/lib/{version}/site-packages"),
            Path(f"/usr/lib64/{version}/site-packages"), Path(f"/usr/local/lib/{version}/dist-packages")]


def find_system_gi() -> Path | None:
    """The site folder holding a distribution's ``gi`` built for this interpreter, if any."""
    for site in system_site_dirs():
        gi = site / "gi"
        if (gi / "__init__.py").is_file() and any((gi / f"_gi{suffix}").is_file()
                                                  for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            return site
    return None


def import_gi() -> ModuleType:
    """``gi``, from this environment or the distribution's site folder."""
    try:
        import gi
    except ImportError:
        site = find_system_gi()
        if site is not None and str(site) not in sys.path:
            sys.path.append(str(site))
        try:
            import gi
        except ImportError:
            raise MissingExtraError(
                f"the system's PyGObject (gi) for Python {sys.version_info.major}.{sys.version_info.minor} is not "
                f"installed: {INSTALL_HINT}"
            ) from None
    return gi


def load_ibus() -> tuple[ModuleType, ModuleType]:
    """``(IBus, GLib)`` from gi.repository."""
    gi = import_gi()
    try:
        gi.require_version("IBus", "1.0")
        from gi.repository import GLib, IBus
    except (ImportError, ValueError):
        raise PlatformError(f"IBus or its introspection data is not installed: {INSTALL_HINT}") from None
    return IBus, GLib
