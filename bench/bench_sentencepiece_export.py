"""Lines on which a Unigram model's sentencepiece export gives other ids than ours.

sentencepiece keeps scores and path sums in 32 bits (we: 64), so where two
segmentations score within that rounding (digit runs: '11','11','1' against
'1','11','11') the two can choose differently.  Counts the lines that differ,
leaving out the inputs the exporter documents as inexpressible (U+2581 and
the default special tokens' names written in the text).

    .venv/bin/python bench/bench_sentencepiece_export.py [MODEL.json] [TEXT ...]

Defaults: the bundled Unigram model and a model trained (vocab 6,000, the
engine's defaults) on the first half of the three samples, each on all lines
of resources/samples/*.txt.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import sentencepiece as spm

from wubitok import load_tokenizer
from wubitok.engines.unigram.model import Unigram
from wubitok.exports import export
from wubitok.paths import resources_dir

SAMPLES = resources_dir() / "samples"
NAMES = ("tang300.txt", "song100.txt", "fortunes-zh.txt")


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


def main(argv: list[str]) -> None:
    texts = {name: (SAMPLES / name).read_text(encoding="utf-8").splitlines() for name in NAMES}
    models = {}
    if argv:
        models[argv[0]] = load_tokenizer(argv[0])
    else:
        models["bundled unigram-6000"] = load_tokenizer(resources_dir() / "models" / "unigram-6000.json")
        half = ["\n".join(lines[: len(lines) // 2]) for lines in texts.values()]
        models["unigram 6000 on half the samples (defaults)"] = Unigram.train(half, vocab_size=6000)
    for label, model in models.items():
        for name, lines in texts.items():
            bad, total, examples = differing(model, lines)
            print(f"{label} / {name}: {bad:,} of {total:,} lines differ ({100 * bad / max(total, 1):.2f} %)"
                  + (f", e.g. {examples[0][:40]!r}" if examples else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
