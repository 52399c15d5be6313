"""Train the bundled default models on the bundled sample texts.

    .venv/bin/python resources/models/train_default_models.py            # all four
    .venv/bin/python resources/models/train_default_models.py bpe --out /tmp/x

Each model is trained with wubitok's own (pure-Python) trainer on
``resources/samples/{tang300,song100,fortunes-zh,words-zh}.txt`` with the settings in
``MODELS`` and saved as ``<type>-<vocab>.json`` next to this script.
Training is deterministic, so running this again gives byte-identical files
(``tests/test_default_models.py`` checks that for one model).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent / "samples"
CORPUS = ("tang300.txt", "song100.txt", "fortunes-zh.txt", "words-zh.txt")

# ~569,000 characters, 196,000 of them Han of 4,587 distinct ones (3,613 seen
# twice or more).  words-zh.txt (Rime's 40,000 most used words, one a line)
# brings the everyday characters the poems and fortunes lack, so that the
# Wubi-BPE model makes each of the 500 most used characters one token
# (tests/test_default_models.py).  6,000 leaves every engine room for all
# frequent characters plus about as many multi-character pieces, while pieces
# still occur often enough in this small corpus to be learned from real counts.
VOCAB_SIZE = 6000
MIN_FREQUENCY = 2
MODELS = ("wubi-bpe", "bpe", "wordpiece", "unigram")
# Options beyond the engines' defaults: the bundled Unigram model was made
# before whitespace-only pieces became the default (the samples have no
# indentation for them to matter) and stays as it was.
OPTIONS = {"unigram": {"whitespace_pieces": False}}


def corpus_files() -> list[Path]:
    return [SAMPLES / name for name in CORPUS]


def model_path(model_type: str, folder: Path = HERE) -> Path:
    return folder / f"{model_type}-{VOCAB_SIZE}.json"


def train(model_type: str, folder: Path = HERE) -> tuple[Path, float]:
    """Train one default model into ``folder``; returns its path and seconds taken."""
    from wubitok.engines.base import engine_class

    start = time.perf_counter()
    tok = engine_class(model_type).train(
        files=corpus_files(), vocab_size=VOCAB_SIZE, min_frequency=MIN_FREQUENCY, backend="python",
        **OPTIONS.get(model_type, {})
    )
    path = model_path(model_type, folder)
    tok.save(path)
    return path, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", metavar="MODEL",
                        help=f"which models to train (default: all of {', '.join(MODELS)})")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write to (default: next to this script)")
    args = parser.parse_args(argv)
    unknown = [m for m in args.models if m not in MODELS]
    if unknown:
        parser.error(f"unknown model {unknown[0]!r} (choose from {', '.join(MODELS)})")
    args.out.mkdir(parents=True, exist_ok=True)
    for model_type in args.models or MODELS:
        path, seconds = train(model_type, args.out)
        print(f"{path.name}: {seconds:.1f} s, {path.stat().st_size / 1024:.0f} KB", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))  # run from a source checkout without installing
    sys.exit(main())
