"""What each use of wubitok needs on this machine, and what to install for what is missing.

``wubitok doctor`` and the app's Help > Check this computer show the same report: the
checks here (no Qt, no gi) and the IBus ones of :mod:`wubitok.platform.ibus.diagnosis`,
composed by :mod:`wubitok.cli.doctor`; the app runs that command in a child process
(:func:`doctor_command`), so the report is one and the app never loads gi.

Nothing here changes the machine: the data folder is tried with a temporary file that is
removed at once, and the user database is opened read-only.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import WubitokError
from ..ime import userdb
from ..paths import resources_dir, user_data_dir
from . import earlyinit

# The uses, in the order of the report: key -> what the user does.
USES = {
    "app": "the desktop app (wubitok gui)",
    "ibus": "typing in every application (IBus)",
    "traditional": "traditional output (OpenCC)",
    "tables": "tables for Rime and fcitx5 (wubitok table)",
    "cluster": "encoding on a Dask cluster (--cluster)",
    "encoder": "Wubi-BPE's fast encoder (Hugging Face tokenizers' Rust BPE) in use",
    "data": "your data folder and user database",
}
# Distributions the fixes name: key, name, install command.
DISTROS = (("debian", "Debian/Ubuntu", "sudo apt install"), ("fedora", "Fedora", "sudo dnf install"),
           ("arch", "Arch", "sudo pacman -S"))
# Libraries Qt's X11 platform plugin links to that minimal systems lack, by library name (as
# earlyinit.XCB_LIBRARIES names them, "lib" and the version left out): Debian/Ubuntu, Fedora, Arch.
# Any other libxcb-NAME.so.N is Debian's libxcb-NAMEN and part of libxcb elsewhere.
QT_LIBRARY_PACKAGES = {
    "xcb-cursor": ("libxcb-cursor0", "xcb-util-cursor", "xcb-util-cursor"),
    "xcb-icccm": ("libxcb-icccm4", "xcb-util-wm", "xcb-util-wm"),
    "xcb-keysyms": ("libxcb-keysyms1", "xcb-util-keysyms", "xcb-util-keysyms"),
    "xcb-image": ("libxcb-image0", "xcb-util-image", "xcb-util-image"),
    "xcb-render-util": ("libxcb-render-util0", "xcb-util-renderutil", "xcb-util-renderutil"),
    "xcb-util": ("libxcb-util1", "xcb-util", "xcb-util"),
    "xkbcommon-x11": ("libxkbcommon-x11-0", "libxkbcommon-x11", "libxkbcommon-x11"),
    "xkbcommon": ("libxkbcommon0", "libxkbcommon", "libxkbcommon"),
    "X11-xcb": ("libx11-xcb1", "libX11-xcb", "libx11"),
    "EGL": ("libegl1", "libglvnd-egl", "libglvnd"),
    "GL": ("libgl1", "libglvnd-glx", "libglvnd"),
    "fontconfig": ("libfontconfig1", "fontconfig", "fontconfig"),
    "freetype": ("libfreetype6", "freetype", "freetype2"),
    "dbus-1": ("libdbus-1-3", "dbus-libs", "dbus"),
    "glib-2.0": ("libglib2.0-0", "glib2", "glib2"),
}
HAN_FONT_PACKAGES = ("fonts-noto-cjk", "google-noto-sans-cjk-fonts", "noto-fonts-cjk")
BUNDLED_FONTS = ("DroidSansFallbackFull.ttf", "HanaMinB-ExtB-subset.ttf")


@dataclass(frozen=True)
class Check:
    """One thing a use needs: ``problem`` is "" when it is there.  The fix is ``packages`` (one
    string per distribution of :data:`DISTROS`) or ``command`` (pip, a wubitok command)."""

    use: str
    part: str
    problem: str = ""
    packages: tuple[str, ...] = field(default_factory=tuple)
    command: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem

    def fix(self, distro: str | None) -> str:
        """What to run, for ``distro`` (a key of :data:`DISTROS`) or for each when it is unknown."""
        if self.command:
            return self.command
        ways = [f"{name}: {install} {pkgs}" for (key, name, install), pkgs in zip(DISTROS, self.packages)
                if distro is None or key == distro]
        return "; ".join(ways)

    def line(self, distro: str | None) -> str:
        fix = self.fix(distro)
        return f"{self.use}: {self.part}: {self.problem}" + (f" -> {fix}" if fix else "")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Check:
        return cls(use=data["use"], part=data["part"], problem=data.get("problem", ""),
                   packages=tuple(data.get("packages", ())), command=data.get("command", ""))


def distribution(os_release: Path = Path("/etc/os-release")) -> str | None:
    """The key of :data:`DISTROS` this system belongs to (by ID and ID_LIKE), or None."""
    try:
        fields = dict(line.split("=", 1) for line in os_release.read_text().splitlines() if "=" in line)
    except OSError:
        return None
    ids = " ".join(fields.get(k, "").strip('"') for k in ("ID", "ID_LIKE")).split()
    for key, likes in (("debian", {"debian", "ubuntu"}), ("fedora", {"fedora", "rhel", "centos"}),
                       ("arch", {"arch", "archlinux"})):
        if likes & set(ids):
            return key
    return None


def _module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def app_checks() -> list[Check]:
    checks = [Check("app", "Qt for Python (PySide6)",
                    "" if _module("PySide6") else "not installed", command="pip install 'wubitok[gui]'")]
    checks.append(Check("app", "display", "" if earlyinit.has_display() else
                        "none (no DISPLAY or WAYLAND_DISPLAY): the app opens in a desktop session; "
                        "without one, `wubitok gui --screenshot out.png` renders it"))
    if sys.platform.startswith("linux"):
        missing = missing_qt_libraries()
        names = ", ".join(library_name(soname) for soname in missing)
        checks.append(Check("app", "Qt's X11 libraries", f"{names} not found" if missing else "",
                            packages=qt_library_packages(missing)))
    fonts = resources_dir() / "fonts"
    absent = [name for name in BUNDLED_FONTS if not (fonts / name).is_file()]
    checks.append(Check("app", "bundled Han fonts", f"{', '.join(absent)} missing from {fonts}" if absent else "",
                        command="reinstall wubitok"))
    return checks


def missing_qt_libraries() -> list[str]:
    """Libraries Qt's X11 platform plugin needs and the dynamic linker cannot find, by file name
    ("libxcb-cursor.so.0"): the plugin's own answer from ``ldd``, else earlyinit's usual ones."""
    plugin = None
    spec = importlib.util.find_spec("PySide6") if _module("PySide6") else None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if candidate.is_file():
            plugin = candidate
    ldd = shutil.which("ldd")
    usual = [f"lib{name}.so" for name in earlyinit.missing_xcb_libraries()]
    if plugin is None or ldd is None:
        return usual
    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return usual
    # "\tlibxcb-cursor.so.0 => not found"
    return [line.split()[0] for line in out.splitlines() if line.strip().endswith("=> not found")]


def library_name(soname: str) -> str:
    """'libxcb-cursor.so.0' -> 'xcb-cursor'."""
    name = soname.split(".so")[0]
    return name[3:] if name.startswith("lib") else name


def qt_library_packages(missing: list[str]) -> tuple[str, ...]:
    """The packages that provide ``missing`` libraries, one string per distribution of :data:`DISTROS`."""
    if not missing:
        return ()
    per_distro: list[list[str]] = [[] for _ in DISTROS]
    for soname in missing:
        lib = library_name(soname)
        version = soname.partition(".so.")[2].split(".")[0]
        names: tuple[str, ...]
        if lib in QT_LIBRARY_PACKAGES:
            names = QT_LIBRARY_PACKAGES[lib]
        elif lib.startswith("xcb"):  # libxcb-sync.so.1: Debian's libxcb-sync1, in libxcb elsewhere
            names = (f"lib{lib}{version}", "libxcb", "libxcb")
        else:
            names = (f"lib{lib}",) * len(DISTROS)  # unknown: at least the library's own name
        for found, name in zip(per_distro, names):
            if name not in found:
                found.append(name)
    return tuple(" ".join(names) for names in per_distro)


def system_han_font() -> Check:
    """A Han font the desktop's own text (the IBus candidate window) can use: fontconfig's answer."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return Check("ibus", "a Han font for the candidate window", "fontconfig's fc-list not found",
                     packages=("fontconfig", "fontconfig", "fontconfig"))
    try:
        found = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("ibus", "a Han font for the candidate window", f"fc-list did not run ({exc})")
    return Check("ibus", "a Han font for the candidate window", "" if found.strip() else "none installed",
                 packages=HAN_FONT_PACKAGES)


def traditional_checks() -> list[Check]:
    from ..text.script import convert_script

    try:
        problem = "" if convert_script("汉字", "traditional") == "漢字" else "converts 汉字 wrongly"
    except WubitokError:
        problem = "not installed"
    except (ImportError, OSError, RuntimeError) as exc:  # a broken install: its tables or library
        problem = f"does not load ({exc})"
    return [Check("traditional", "OpenCC", problem, command="pip install opencc")]


def table_checks() -> list[Check]:
    return [Check("tables", "Rime's rime_deployer", "" if shutil.which("rime_deployer") else "not found",
                  packages=("librime-bin", "librime", "librime")),
            Check("tables", "fcitx5's libime_tabledict", "" if shutil.which("libime_tabledict") else "not found",
                  packages=("libime-bin", "libime", "libime"))]


def cluster_checks() -> list[Check]:
    missing = [name for name in ("dask", "distributed") if not _module(name)]
    return [Check("cluster", "Dask distributed", f"{' and '.join(missing)} not installed" if missing else "",
                  command="pip install 'wubitok[cluster]'")]


def data_checks() -> list[Check]:
    folder = user_data_dir()
    return [Check("data", f"data folder {folder}", _not_writable(folder)),
            Check("data", "user database", userdb.health(folder / userdb.FILENAME),
                  command="move the file aside; the app and the input method start a fresh one")]


def _not_writable(folder: Path) -> str:
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a folder"
    if existing != folder:
        return "" if os.access(existing, os.W_OK | os.X_OK) else f"cannot be created in {existing}"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except OSError as exc:
        return f"not writable ({exc.strerror or exc})"
    return ""


def encoder_checks() -> list[Check]:
    """Which encoder Wubi-BPE uses: the fast one (the merges in HF ``tokenizers``' Rust BPE, a
    default dependency) or, without ``tokenizers``, the Python one (about 3x slower)."""
    from ..engines.backends import choose_encoder

    fast = choose_encoder("auto", "wubi-bpe") == "fast"
    return [Check("encoder", "Wubi-BPE encoder", "" if fast else
                  "the Python encoder is in use: Hugging Face tokenizers is not installed",
                  command="" if fast else "pip install tokenizers")]


def core_checks() -> list[Check]:
    """Every check but IBus's (those need gi: :mod:`wubitok.platform.ibus.diagnosis`)."""
    return [*app_checks(), *traditional_checks(), *table_checks(), *cluster_checks(), *encoder_checks(),
            *data_checks()]


def ordered(checks: list[Check]) -> list[Check]:
    return sorted(checks, key=lambda c: list(USES).index(c.use))


def report_lines(checks: list[Check], distro: str | None) -> list[str]:
    """One line per use that is ready, one line per problem."""
    lines = []
    for use, label in USES.items():
        mine = [c for c in checks if c.use == use]
        if not mine:
            continue
        problems = [c for c in mine if not c.ok]
        if not problems:
            lines.append(f"ok       {label}")
        lines += [f"MISSING  {c.line(distro)}" for c in problems]
    return lines


def report_json(checks: list[Check], distro: str | None) -> dict[str, Any]:
    uses = {use: {"label": label, "ready": all(c.ok for c in checks if c.use == use)}
            for use, label in USES.items() if any(c.use == use for c in checks)}
    return {"distribution": distro, "uses": uses, "checks": [asdict(c) for c in checks]}


def doctor_command() -> list[str]:
    """``wubitok doctor --json`` with this very installation (the app runs it)."""
    if getattr(sys, "frozen", False):  # the PyInstaller app: its executable is the CLI
        return [sys.executable, "doctor", "--json"]
    return [sys.executable, "-m", "wubitok", "doctor", "--json"]
