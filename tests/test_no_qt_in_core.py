"""The core (everything in wubitok/ outside gui/) never imports Qt, nothing but the
IBus adapter (wubitok/platform/ibus/) imports gi (PyGObject), and the GUI never imports the CLI.

Two checks: the source, by import-linter's contracts in pyproject.toml (also ``make lint``), and
the running interpreter (import every core module in a fresh process, then look for PySide6 and
gi in sys.modules).  Only the CLI may import the GUI package, inside the commands that need it
(``wubitok gui``, ``wubitok compare --plot``).
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from system import missing

PACKAGE = Path(__file__).resolve().parents[1] / "wubitok"
QT_BINDINGS = {"PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "shiboken2", "qtpy"}
GI = {"gi", "pgi"}
IBUS_ADAPTER = ("platform", "ibus")


def _core_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "gui" not in p.relative_to(PACKAGE).parts[:1])


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported_names(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Absolute names of the modules an import statement may import."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level == 0:
        base = node.module or ""
    else:
        # ``from ..gui import app`` in wubitok/cli/gui.py is wubitok.gui
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(package[: len(package) - (node.level - 1)] + ([node.module] if node.module else []))
    # ``from wubitok import gui`` imports wubitok.gui too.
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def test_core_files_exist():
    files = _core_files()
    assert PACKAGE / "wubi" / "dictionary.py" in files
    assert not any("gui" in p.relative_to(PACKAGE).parts[:1] for p in files)


def test_the_import_contracts_hold():
    # The static rules (layers, Qt only in gui/, gi only in platform/ibus/, no CLI from the GUI) are
    # import-linter contracts in pyproject.toml; the tests below check what a running interpreter loads.
    lint_imports = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint_imports), "--no-cache"], cwd=PACKAGE.parent, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for contract in ("Layers:", "Qt only in the GUI", "gi (PyGObject) only in the IBus adapter"):
        assert contract in proc.stdout


def _in_ibus_adapter(path: Path) -> bool:
    return path.relative_to(PACKAGE).parts[:2] == IBUS_ADAPTER


def test_importing_every_module_but_the_ibus_adapter_loads_no_gi():
    files = [p for p in PACKAGE.rglob("*.py") if not _in_ibus_adapter(p) and p.name != "__main__.py"]
    modules = sorted(_module_name(p) for p in files)
    assert "wubitok.cli.ibus" in modules and "wubitok.gui.panes.ime_pad" in modules
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "from wubitok.cli import main\n"
        "main(['ibus', 'component'])\n"  # the component XML needs no gi either
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in " + repr(GI) + ")\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=PACKAGE.parent, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_importing_every_core_module_loads_no_qt():
    modules = [_module_name(p) for p in _core_files()]
    modules = [m for m in modules if m.split(".")[-1].isidentifier() and not m.endswith("__main__")]
    assert "wubitok.wubi.dictionary" in modules and "wubitok.cli.gui" in modules
    # Without IBus (a fresh machine) the adapter's modules that need it refuse to import, in one
    # PlatformError: that is their answer there, and they load no Qt either way.
    ibus_here = not missing("gi", "ibus-typelib")
    script = (
        "import importlib, sys\n"
        "from wubitok.errors import PlatformError\n"
        f"for name in {modules!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except PlatformError:\n"
        f"        if {ibus_here!r} or not name.startswith('wubitok.platform.ibus.'):\n"
        "            raise\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in " + repr(QT_BINDINGS) + ")\n"
        "gui = sorted(m for m in sys.modules if m.startswith('wubitok.gui'))\n"
        "print(bad, gui)\n"
        "sys.exit(1 if bad or gui else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=PACKAGE.parent, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
