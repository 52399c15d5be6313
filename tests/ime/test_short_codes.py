"""The standard two-key short codes the engine adds agree with Rime's wubi86 dictionary."""
from __future__ import annotations

import re

import pytest
from system import RIME_DATA

from wubitok.ime.short_codes import STANDARD_SHORT_CODES
from wubitok.wubi.dictionary import in_charset

pytestmark = pytest.mark.system("rime-data-wubi")
RIME_WUBI86 = RIME_DATA / "wubi86.dict.yaml"


def rime_two_key_firsts() -> dict[str, str]:
    best: dict[str, tuple[int, str]] = {}
    body = RIME_WUBI86.read_text(encoding="utf-8").split("\n...\n", 1)[1]
    for line in body.splitlines():
        cols = line.split("\t")
        if len(cols) >= 2 and re.fullmatch("[a-y]{2}", cols[1]):
            weight = int(cols[2]) if len(cols) > 2 and cols[2].isdigit() else 0
            if cols[1] not in best or weight > best[cols[1]][0]:
                best[cols[1]] = (weight, cols[0])
    return {code: text for code, (_, text) in best.items()}


def test_every_added_short_code_is_rimes(wubi_dict):
    rime = rime_two_key_firsts()
    for code, char in STANDARD_SHORT_CODES.items():
        assert rime[code] == char, code
        assert wubi_dict.full_code(char).startswith(code)


def test_no_two_key_code_of_the_table_starts_with_a_rare_character_where_rime_has_one(wubi_dict):
    rime = rime_two_key_firsts()
    for code in rime:
        table = [c.text for c in wubi_dict.exact_candidates(code)]
        if table and not in_charset(table[0], "gb2312"):
            assert STANDARD_SHORT_CODES.get(code) == rime[code], code
