"""The one registry style: tables of ``name -> "module:attribute"``, resolved on first use.

The public API (``wubitok.__init__``), the engines (``engines.ENGINES``),
the exports (``exports.EXPORTS``), the CLI's commands (``cli.COMMANDS``) and
the app's panes (``services.earlyinit.PANES``) are each one such table: adding
an engine, a command, an export or a pane is one line in one table, and
nothing is imported until it is used (``import wubitok`` stays cheap, the CLI
never loads Qt, and one model does not import every engine).
"""
from __future__ import annotations

import importlib
from typing import Any, Iterable, Mapping


def resolve(target: str) -> Any:
    """The attribute a ``"package.module:attribute"`` target names (imported now)."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def modules(table: Mapping[Any, str]) -> list[str]:
    """The modules a table's targets live in (for a freezer's hidden imports)."""
    return sorted({target.partition(":")[0] for target in table.values()})


def attribute_table(targets: Iterable[str]) -> dict[str, str]:
    """``{attribute: target}`` of targets: a table by the names the targets define."""
    return {target.partition(":")[2]: target for target in targets}
