"""The core (everything in wubitok/ outside gui/) never imports Qt, nothing but the
IBus adapter (wubitok/platform/ibus/) imports gi (PyGObject), and the GUI never imports the CLI.

Two checks: the source (every import statement, at any depth, parsed with
ast) and the running interpreter (import every core module in a fresh
process, then look for PySide6 in sys.modules).  Only the CLI may import the
GUI package, and only inside a function, when a command that needs it runs
(``wubitok gui``, ``wubitok compare --plot``).
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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
    assert PACKAGE / "dictionary.py" in files
    assert not any("gui" in p.relative_to(PACKAGE).parts[:1] for p in files)


def test_no_core_module_imports_qt_or_the_gui_at_import_time():
    problems = []
    for path in _core_files():
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        top_level = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for name in _imported_names(node, module, path.name == "__init__.py"):
                root = name.split(".")[0]
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                if root in QT_BINDINGS:
                    problems.append(f"{where} imports {name}")
                elif name == "wubitok.gui" or name.startswith("wubitok.gui."):
                    in_cli = path.parent.name == "cli"
                    if id(node) in top_level or not in_cli:
                        problems.append(f"{where} imports {name}")
    assert problems == []


def _in_ibus_adapter(path: Path) -> bool:
    return path.relative_to(PACKAGE).parts[:2] == IBUS_ADAPTER


def test_only_the_ibus_adapter_imports_gi():
    problems, adapter = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = _imported_names(node, _module_name(path), path.name == "__init__.py")
                if any(name.split(".")[0] in GI for name in names):
                    (adapter if _in_ibus_adapter(path) else problems).append(f"{path.relative_to(PACKAGE)}")
    assert problems == []
    assert adapter  # the check sees the adapter's own gi import


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
    assert "wubitok.dictionary" in modules and "wubitok.cli.gui" in modules
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in " + repr(QT_BINDINGS) + ")\n"
        "gui = sorted(m for m in sys.modules if m.startswith('wubitok.gui'))\n"
        "print(bad, gui)\n"
        "sys.exit(1 if bad or gui else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=PACKAGE.parent, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_gui_never_imports_the_cli():
    # The app and the CLI are two front ends of the library; what both need
    # before Qt loads (options, panes, display checks) is wubitok.earlyinit.
    gui_files = sorted((PACKAGE / "gui").rglob("*.py"))
    assert PACKAGE / "gui" / "app.py" in gui_files
    problems = []
    for path in gui_files:
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in _imported_names(node, module, path.name == "__init__.py"):
                    if name == "wubitok.cli" or name.startswith("wubitok.cli."):
                        problems.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} imports {name}")
    assert problems == []
