"""How many lines have a prefix of ids that decodes to a wrong character.

A model generating text shows ``decode(ids[:k])`` as the ids come.  For each
line of the Tang sample (or, with ``--genres``, of each genre's held-out
documents in ``genres.py``, up to 1,500 lines each) and each k, the decoded
prefix must be a prefix of the line with at most its last character replaced
by U+FFFD; a line fails when some k shows another character instead.  Also
counts, for the same lines, how often ``decode_stream`` gives out text that is
not a prefix of the line.

    .venv/bin/python bench/bench_prefix_decode.py [--genres] MODEL.json [MODEL.json ...]
"""
from __future__ import annotations

import sys
from pathlib import Path

from wubitok import load_tokenizer
from wubitok.paths import resources_dir


def lines(n: int = 1500) -> list[str]:
    text = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()][:n]


def wrong_prefix(tok, line: str) -> bool:
    ids = tok.encode(line).ids
    for k in range(1, len(ids)):
        shown = tok.decode(ids[:k])
        if not (line.startswith(shown) or (shown.endswith("\ufffd") and line.startswith(shown[:-1]))):
            return True
    return False


def wrong_stream(tok, line: str) -> bool:
    stream, given = tok.decode_stream(), ""
    for i in tok.encode(line).ids:
        given += stream.step(i)
        if not line.startswith(given):
            return True
    return given + stream.finish() != line


def genre_lines(n: int = 1500) -> dict[str, list[str]]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from genres import GENRES, load_genres

    genres = load_genres()
    return {g: [ln for doc in genres[g]["test"] for ln in doc.splitlines() if ln.strip()][:n] for g in GENRES}


def main(args: list[str]) -> None:
    samples = genre_lines() if "--genres" in args else {"tang300": lines()}
    for path in (a for a in args if a != "--genres"):
        tok = load_tokenizer(path)
        layout = getattr(getattr(tok, "codec", None), "options", None)
        for name, sample in samples.items():
            bad = sum(wrong_prefix(tok, line) for line in sample)
            bad_stream = sum(wrong_stream(tok, line) for line in sample)
            print(f"{path} ({layout.layout if layout else tok.model_type}), {name}: decode of a prefix shows a wrong "
                  f"character on {bad:,} of {len(sample):,} lines; decode_stream on {bad_stream:,}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
