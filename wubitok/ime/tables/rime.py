"""A Rime schema for the typing table: ``wubi86_wubitok.schema.yaml`` and ``.dict.yaml``.

The dictionary keeps the engine's order within a code (``sort: original``:
librime lists entries of one code in file order); the weight column is the
dictionary's use frequency.  librime lists completions by the keys still to type
first (all the two-key codes under ``a`` before any three-key one), then by the weight of
each code's first entry, where wubitok lists them heaviest first (``a``: 工 区 或 其 其他,
not 工 东 式 基 七; 147 of 950 one- to three-key codes had another first page): so the first
completions of each one-, two- and three-key code are listed under that code too, after
:data:`COMPLETIONS_MARK` at the end of the dictionary (a re-import stops there), and the
``uniquifier`` filter drops librime's own copy of them further down.  The schema
is self-contained (no ``import_preset``: Debian's rime-data-wubi ships no
default.yaml or symbols.yaml): Wubi keys a-y, 4-key codes, a 4-key code with
one candidate commits itself, the engine's Chinese punctuation, its page size,
and ``-``/``=`` turning pages while a code is typed (``key_binder``, as in the
pad; without it Rime types them as punctuation: ``a=2`` gave 工=2).
What the schema cannot carry it says in its header (:data:`NOT_CARRIED`).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ... import __version__
from ...fileio import atomic_write_text
from ...wubi.dictionary import WUBI_KEYS
from ..punctuation import CHINESE_PUNCTUATION, PAIRED_QUOTES
from .entries import TableEntry

SCHEMA_ID = "wubi86_wubitok"
# wubitok's typing that this schema does not give Rime users (written into its header).
NOT_CARRIED = (
    "z pinyin lookup (z then pinyin, with each candidate's Wubi code)",
    "z after the first key as a wildcard for one key",
    "the table's zz symbol codes",
    "the user's punctuation map, automatic phrases, simplified-first and charset filtering"
    " (the order is exported as it is)",
)


# The line before the completions listed under their prefixes (not phrases of those codes).
COMPLETIONS_MARK = "# wubitok: completions listed under their one- and two-key codes, in wubitok's order"


def write_rime(entries: Iterable[TableEntry], folder: str | Path, *, page_size: int = 5,
               completions: Iterable[TableEntry] = ()) -> list[Path]:
    """Write the schema and its dictionary into ``folder``; returns both paths.  ``completions``
    (:func:`.entries.completions`) are listed under their prefixes after the entries."""
    out = Path(folder)
    schema, dictionary = out / f"{SCHEMA_ID}.schema.yaml", out / f"{SCHEMA_ID}.dict.yaml"
    listed = list(completions)
    text = _dictionary(entries)
    if listed:
        text += "\n".join([COMPLETIONS_MARK, *(f"{e.text}\t{e.code}\t{e.weight}" for e in listed)]) + "\n"
    atomic_write_text(dictionary, text)
    atomic_write_text(schema, _schema(page_size))
    return [schema, dictionary]


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _dictionary(entries: Iterable[TableEntry]) -> str:
    lines = [
        "# Rime dictionary: Wubi-86 with the user's phrases and order, exported by wubitok",
        "# encoding: utf-8",
        "---",
        f"name: {SCHEMA_ID}",
        f"version: {_q(__version__)}",
        "sort: original",
        "use_preset_vocabulary: false",
        "columns:",
        "  - text",
        "  - code",
        "  - weight",
        "...",
        "",
    ]
    lines += [f"{e.text}\t{e.code}\t{e.weight}" for e in entries]
    return "\n".join(lines) + "\n"


def _schema(page_size: int) -> str:
    half_shape = {k: v for k, v in CHINESE_PUNCTUATION.items()}
    punct = [f"    {_q(k)}: {_q(v)}" for k, v in half_shape.items()]
    punct += [f"    {_q(k)}: {{ pair: [{_q(a)}, {_q(b)}] }}" for k, (a, b) in PAIRED_QUOTES.items()]
    return "\n".join([
        "# Rime schema: Wubi-86 as typed in wubitok (exported by wubitok)",
        "# encoding: utf-8",
        "",
        "schema:",
        f"  schema_id: {SCHEMA_ID}",
        '  name: "五笔86 (wubitok)"',
        f"  version: {_q(__version__)}",
        "  description: |",
        "    Wubi-86 with your phrases and learned order, exported by wubitok.",
        "    Not carried over from wubitok:",
        *(f"    - {what}" for what in NOT_CARRIED),
        "",
        *(f"# Not carried over: {what}" for what in NOT_CARRIED),
        "",
        "switches:",
        "  - name: ascii_mode",
        "    reset: 0",
        "    states: [ 中文, 西文 ]",
        "  - name: full_shape",
        "    states: [ 半角, 全角 ]",
        "  - name: ascii_punct",
        "    states: [ 。，, ．， ]",
        "",
        "engine:",
        "  processors: [ ascii_composer, key_binder, speller, punctuator, selector, navigator, express_editor ]",
        "  segmentors: [ ascii_segmentor, abc_segmentor, punct_segmentor, fallback_segmentor ]",
        "  translators: [ punct_translator, table_translator ]",
        "  filters: [ uniquifier ]  # a completion listed under its prefix shows once",
        "",
        "speller:",
        f"  alphabet: {WUBI_KEYS}",
        "  max_code_length: 4",
        "  auto_select: true",
        "  auto_select_unique_candidate: true",
        "",
        "menu:",
        f"  page_size: {page_size}",
        "",
        "key_binder:  # as in wubitok: - and = turn pages while a code is typed (else they are punctuation)",
        "  bindings:",
        "    - { when: composing, accept: minus, send: Page_Up }",
        "    - { when: composing, accept: equal, send: Page_Down }",
        "",
        "translator:",
        f"  dictionary: {SCHEMA_ID}",
        "  enable_charset_filter: false",
        "  enable_sentence: false",
        "  enable_completion: true",
        "  enable_user_dict: true",
        "  enable_encoder: false",
        "",
        "punctuator:",
        "  half_shape:",
        *punct,
        "  full_shape:",
        *punct,
        "",
    ])
