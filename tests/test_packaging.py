"""The wheel carries the dictionary and resources; an installed package finds them."""
from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    return next(out.glob("wubitok-*.whl"))


def test_wheel_contains_dictionary_and_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "wubitok/data/wubi86.sqlite" in names
    assert "wubitok/resources/fonts/DroidSansFallbackFull.ttf" in names
    assert any(n.startswith("wubitok/resources/samples/") for n in names)
    assert "wubitok/py.typed" in names  # type checkers read the package's annotations
    info = zipfile.ZipFile(wheel).getinfo("wubitok/data/wubi86.sqlite")
    assert info.file_size == (ROOT / "dicts" / "wubi86.sqlite").stat().st_size


def test_installed_wheel_finds_its_dictionary_without_the_source_tree(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    code = ("import wubitok.paths as p, wubitok.wubi.dictionary as d;"
            "print(p.dictionary_path()); print(d.default_dictionary().full_code('你'))")
    # Run from an empty folder with only the installed copy on the path.
    proc = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {code}"],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    path, full = proc.stdout.split()
    assert path.startswith(str(target)) and full == "wqiy"


def test_type_checkers_see_every_public_name_that_import_gives_lazily():
    import wubitok

    tree = ast.parse((ROOT / "wubitok" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {a.name: f"wubitok.{node.module}:{a.name}"
             for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert typed == wubitok._EXPORTS
    for name, target in typed.items():
        module = target.partition(":")[0]
        assert getattr(wubitok, name) is getattr(importlib.import_module(module), name)
