"""The standard two-key short codes (二级简码) that the bundled table lost.

On these 19 codes the ibus-table source lists only a traditional or rare
character (cg 驪, ed 須, vh 盡...), where Wubi-86 as taught — and Rime's wubi86
dictionary ("original level 1 and 2 JianMa", Debian's rime-data-wubi) — has
a simplified one.  The input engine lists the standard character first and
keeps the inherited one after it.  The dictionary itself stays as built (its
content hash is recorded by every saved tokenizer).
tests/ime/test_short_codes.py checks this table against Rime's file.
"""
from __future__ import annotations

STANDARD_SHORT_CODES: dict[str, str] = {
    "ao": "蒌", "cg": "骊", "cj": "骒", "cs": "骠", "cu": "骈", "ed": "须", "eh": "鼐", "hb": "齰", "hr": "睥",
    "la": "轼", "lo": "辚", "mk": "迥", "mo": "嶙", "ox": "糨", "qx": "镪", "vh": "叟", "vr": "姝", "wp": "侬",
    "xs": "缥",
}
