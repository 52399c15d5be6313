"""Cut the bundled CJK Extension B fallback out of HanaMinB (Debian ``fonts-hanazono``).

    apt-get install fonts-hanazono && pip install fonttools
    python resources/fonts/make_extb_subset.py [--all] [--source /usr/share/fonts/truetype/hanazono/HanaMinB.ttf]

Kept: the Ext B characters of Big5-HKSCS (those in everyday use in Hong Kong
and Taiwan, 1,682), every Ext B character of the bundled sample texts, and
U+20000 𠀀 and U+2024E 𠉎; no hinting.  About 1 MB, where all of Ext B
(``--all``, 42,711 characters) is 22 MB.  Other Ext B characters show as
⟨U+2xxxx⟩ in tables unless an installed font has them.  HanaMinB is under
the Hanazono Font License (or the OFL); see SOURCES.md.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "HanaMinB-ExtB-subset.ttf"
EXT_B = range(0x20000, 0x2A6E0)
NAMED = "\U00020000\U0002024e"  # 𠀀 𠉎: the characters the app issue showed as boxes


def characters(everything: bool) -> str:
    if everything:
        return "".join(map(chr, EXT_B))
    chosen = set(NAMED)
    for code in EXT_B:
        try:
            chr(code).encode("big5hkscs")
        except UnicodeEncodeError:
            continue
        chosen.add(chr(code))
    for sample in (HERE.parent / "samples").glob("*.txt"):
        chosen.update(c for c in sample.read_text(encoding="utf-8") if ord(c) in EXT_B)
    return "".join(sorted(chosen))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default="/usr/share/fonts/truetype/hanazono/HanaMinB.ttf")
    ap.add_argument("--all", action="store_true", help="keep all of CJK Extension B (22 MB)")
    args = ap.parse_args()
    text_file = HERE / ".extb-chars.txt"
    text_file.write_text(characters(args.all), encoding="utf-8")
    try:
        subprocess.run(["pyftsubset", args.source, f"--text-file={text_file}", "--no-hinting",
                        "--name-IDs=*", "--notdef-outline", f"--output-file={OUT}"], check=True)
    finally:
        text_file.unlink()
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
