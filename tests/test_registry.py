"""One registry style: name -> "module:attribute" tables, resolved by wubitok.registry.resolve."""
from __future__ import annotations

import subprocess
import sys

import pytest

import wubitok
from wubitok.cli import COMMANDS, build_parser
from wubitok.engines import ENGINES
from wubitok.engines.base import Tokenizer, available_models, engine_class
from wubitok.exports import EXPORTS
from wubitok.registry import resolve
from wubitok.services.earlyinit import PANES

TABLES = {"engines": ENGINES, "commands": COMMANDS, "exports": EXPORTS, "public API": wubitok._EXPORTS}


@pytest.mark.parametrize("table", TABLES, ids=str)
def test_every_target_of_every_table_resolves(table):
    for target in TABLES[table].values():
        assert resolve(target) is not None, target


def test_panes_are_named_the_same_way():
    # Resolving them imports Qt: the GUI tests load them; here only their form.
    assert all(target.startswith("wubitok.gui.panes.") and ":" in target for target in PANES.values())


def test_an_engine_is_one_line_of_the_engines_table():
    assert available_models() == sorted(ENGINES)
    for model_type, target in ENGINES.items():
        cls = engine_class(model_type)
        assert cls is resolve(target) and issubclass(cls, Tokenizer) and cls.model_type == model_type
        assert getattr(wubitok, cls.__name__) is cls  # in the public API without a line of its own


def test_the_commands_table_names_the_commands_the_parser_has():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert list(sub.choices) == list(COMMANDS)


def test_importing_wubitok_and_its_tables_imports_no_engine():
    code = ("import sys, wubitok, wubitok.engines, wubitok.registry; "
            "print(sorted(m for m in sys.modules if m.startswith('wubitok.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert eval(out) == ["wubitok.engines", "wubitok.registry"]


def _layers() -> list[set[str]]:
    try:
        import tomllib
    except ImportError:  # Python 3.10: tomli, which import-linter itself reads pyproject.toml with
        import tomli as tomllib  # type: ignore[no-redef]
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [{name.strip() for name in layer.split("|")} for layer in contract["layers"]]


def _layer(module: str, layers: list[set[str]]) -> int:
    top = module.split(".")[1]
    return next(i for i, names in enumerate(layers) if top in names)


# Each table and the module that resolves its targets: a string import is still an import,
# so it keeps to the layers as import-linter checks the written ones.
RESOLVED_BY = {"engines": "wubitok.engines.base", "commands": "wubitok.cli", "exports": "wubitok.exports",
               "panes": "wubitok.gui.main_window"}


@pytest.mark.parametrize("table", RESOLVED_BY, ids=str)
def test_no_table_names_a_module_above_the_one_that_resolves_it(table):
    layers = _layers()
    targets = {**TABLES, "panes": PANES}[table].values()
    resolver = _layer(RESOLVED_BY[table], layers)
    above = [t for t in targets if _layer(t, layers) < resolver]
    assert above == []
