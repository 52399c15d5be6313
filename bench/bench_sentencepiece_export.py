"""Lines on which a Unigram model's sentencepiece export gives other ids than ours.

sentencepiece keeps scores and path sums in 32 bits (we: 64).  Scores that a
trainer writes are on a grid of 1/256 (``unigram.model.SCORE_GRID``), where
both sums are exact, so ties are the same ties and break the same way; a
model trained before that (the bundled one) may still differ where two
segmentations score within 32-bit rounding.  Counts the lines that differ,
leaving out the inputs the exporter documents as inexpressible (U+2581 and
the default special tokens' names written in the text).

    .venv/bin/python bench/bench_sentencepiece_export.py [--lines 2000] [--vocab 8000] [MODEL.json ...]

Texts: the first ``--lines`` non-empty lines of the held-out split of three
modern genres (``genres.py``: zh_CN man pages, fortunes, mixed) and all lines
of resources/samples/*.txt.  Models: those given, else the bundled Unigram
model and models trained (``--vocab``, the engine's defaults) on the three
genres' training splits (the first 400,000 characters of each) with the
Python trainer and with ``backend="fast"``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import sentencepiece as spm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genres import load_genres  # noqa: E402

from wubitok import load_tokenizer  # noqa: E402
from wubitok.engines.unigram.model import Unigram  # noqa: E402
from wubitok.exports import export  # noqa: E402
from wubitok.paths import resources_dir  # noqa: E402

SAMPLES = resources_dir() / "samples"
NAMES = ("tang300.txt", "song100.txt", "fortunes-zh.txt")
GENRES = ("zh_CN", "fortunes", "mixed")
TRAIN_CHARS = 400_000


def differing(model: Unigram, lines: list[str]) -> tuple[int, int, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.model"
        export(model, "sentencepiece", path)
        sp = spm.SentencePieceProcessor(model_file=str(path))
    usable = [line for line in lines if "\u2581" not in line and not any(t in line for t in model.special_tokens)]
    ours = model.encode_batch(usable)
    theirs = sp.encode(usable)
    bad = [line for line, a, b in zip(usable, ours, theirs) if a.ids != b]
    return len(bad), len(usable), bad[:3]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--vocab", type=int, default=8000)
    args = ap.parse_args()
    genres = load_genres()
    texts = {g: [ln for doc in genres[g]["test"] for ln in doc.splitlines() if ln.strip()][:args.lines]
             for g in GENRES}
    texts.update({name: (SAMPLES / name).read_text(encoding="utf-8").splitlines() for name in NAMES})
    models = {}
    if args.models:
        models = {path: load_tokenizer(path) for path in args.models}
    else:
        models["bundled unigram-6000"] = load_tokenizer(resources_dir() / "models" / "unigram-6000.json")
        train = ["\n".join(genres[g]["train"])[:TRAIN_CHARS] for g in GENRES]
        for backend in ("python", "fast"):
            models[f"unigram {args.vocab} on the genres, {backend}"] = Unigram.train(
                train, vocab_size=args.vocab, backend=backend)
    print("| model | " + " | ".join(texts) + " |")
    print("|---|" + "--:|" * len(texts))
    for label, model in models.items():
        cells = []
        for lines in texts.values():
            bad, total, examples = differing(model, lines)
            cells.append(f"{bad:,} / {total:,}")
            if examples:
                print(f"  {label}: e.g. {examples[0][:50]!r}", file=sys.stderr)
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
