"""Does Wubi-BPE help a language model?  ``wubitok lm-eval`` per genre (docs/lm-eval.md).

For each genre of ``genres.py`` (train on its training documents, test on its
held-out documents: other pages / poems of the same package): train Wubi-BPE,
byte-level BPE (GPT-4's split) and Unigram at ``--vocab-size`` on the training
text, with the character-level baseline (``chars:SIZE``) beside them, then run
the command line printed for the genre and keep its JSON.  ``--table`` prints
the docs' table from the JSON kept in bench/data/lm/.

    python bench/bench_lm_eval.py                      # all genres, one after another
    python bench/bench_lm_eval.py --genre zh_TW        # one genre
    python bench/bench_lm_eval.py --table              # the markdown table of what was run
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genres import DATA, load_genres  # noqa: E402

from wubitok.engines.base import engine_class  # noqa: E402

OUT = DATA / "lm"
# genre -> (what it is, characters of training text, of test text, extra lm-eval options)
GENRES = {
    "zh_CN": ("modern technical prose (man pages, simplified)", 600_000, 60_000, []),
    "classical": ("Tang poems and Song ci", None, None, ["--steps", "150"]),
    "zh_TW": ("traditional script (man pages, zh_TW)", 600_000, 60_000, []),
    "fortunes": ("modern prose: sayings and jokes (fortunes-zh)", 600_000, 60_000, []),
}
ENGINES = ("wubi-bpe", "bpe", "unigram")


def prepare(genre: str, vocab: int) -> tuple[Path, Path, list[str]]:
    """The genre's train/test files and its tokenizers at ``vocab`` (made once, kept in bench/data/lm/)."""
    folder = OUT / genre
    folder.mkdir(parents=True, exist_ok=True)
    _, train_chars, test_chars, _ = GENRES[genre]
    train_path, test_path = folder / "train.txt", folder / "test.txt"
    if not train_path.exists():
        docs = load_genres()[genre]
        train_path.write_text("".join(docs["train"])[:train_chars], encoding="utf-8")
        test_path.write_text("".join(docs["test"])[:test_chars], encoding="utf-8")
    models = []
    for engine in ENGINES:
        path = folder / f"{engine}-{vocab}.json"
        if not path.exists():
            start = time.perf_counter()
            engine_class(engine).train(files=[train_path], vocab_size=vocab, min_frequency=2).save(path)
            print(f"{genre}: trained {path.name} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        models.append(str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path))
    return train_path, test_path, models


def command(genre: str, vocab: int, seeds: int) -> list[str]:
    train, test, models = prepare(genre, vocab)
    rel = [str(p.relative_to(Path.cwd())) if p.is_relative_to(Path.cwd()) else str(p) for p in (train, test)]
    args = ["wubitok", "lm-eval", *[x for m in models for x in ("-t", m)], "-t", f"chars:{vocab}",
            "--train", rel[0], "--test", rel[1], "--quick", "--seeds", str(seeds), *GENRES[genre][3], "--json"]
    return args


def run(genre: str, vocab: int, seeds: int) -> None:
    args = command(genre, vocab, seeds)
    print("$ " + shlex.join(args), file=sys.stderr)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "wubitok", *args[1:]], check=True, stdout=subprocess.PIPE).stdout
    record = {"genre": genre, "command": shlex.join(args), "wall_seconds": round(time.perf_counter() - start),
              "date": time.strftime("%Y-%m-%d"), "result": json.loads(out)}
    (OUT / f"{genre}-{vocab}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")


def table(vocab: int) -> str:
    lines = []
    for genre, (what, *_rest) in GENRES.items():
        path = OUT / f"{genre}-{vocab}.json"
        if not path.exists():
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        result = record["result"]
        lines += [f"### {genre}: {what}", "", f"`{record['command']}`", "",
                  f"{result['train_chars']:,} training characters, {result['test_chars']:,} test characters "
                  f"({result['rare_test_chars']:,} rare); {record['wall_seconds'] / 60:.0f} min on the shared machine, "
                  f"{record['date']}", "",
                  "| tokenizer | vocab | bits/char | rare bits/char | tokens/char | params emb / non-emb "
                  "| GFLOPs | CPU s |",
                  "|---|--:|--:|--:|--:|--:|--:|--:|"]
        for t in result["tokenizers"]:
            rare = t["rare_bits_per_char"]
            cpu = t["cpu_seconds"] / len(t["runs"])

            def iv(x: dict | None) -> str:
                return "-" if x is None else f"{x['mean']:.3f} ± {x['half_width'] or 0:.3f}"

            name = Path(t["name"]).name.removesuffix(f"-{vocab}")
            lines.append(f"| {name} | {t['vocab'] - 1:,} | {iv(t['bits_per_char'])} | {iv(rare)} | "
                         f"{t['tokens_per_char']:.3f} | {t['params_embedding']:,} / {t['params_non_embedding']:,} | "
                         f"{t['flops'] / 1e9:,.0f} | {cpu:,.0f} |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--genre", choices=GENRES, action="append", help="default: all")
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--table", action="store_true", help="print the table of the results kept")
    args = parser.parse_args()
    if args.table:
        print(table(args.vocab_size))
        return
    for genre in args.genre or GENRES:
        run(genre, args.vocab_size, args.seeds)


if __name__ == "__main__":
    main()
