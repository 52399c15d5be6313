"""Where Wubi-BPE's tokens and merges go, against byte-level BPE on the same pre-tokens.

    python bench/bench_token_budget.py [--vocab 8000 32000] [--variant joined] [--genres zh_CN fortunes]

Reads the 32,000 models that ``bench_quality.py --cache`` keeps in ``bench/out``
(``hf-wubi@V-…`` and ``hf-bytes@V-…``; run that first, with ``--tokenizers
wubi@V bytes@V``) and cuts them to each ``--vocab``.  Two tables per size:

* held-out tokens per class of pre-token (a Han run with or without
  punctuation, Han and Latin in one run, Latin, digits, punctuation, spaces):
  both models cut the text at the same places, so the difference of each row
  is what the spelling gains there;
* the merged tokens of each vocabulary by what they hold: no Han character,
  one Han character (alone or with bytes), several whole Han characters, or a
  piece of a Han character (a Wubi spelling not finished, UTF-8 bytes of a
  character not complete; a piece that starts inside a character: ``starts
  inside``).  A Wubi token is read from its start as whole spellings (the
  spelling is prefix-free, so one reading); a key sequence that is itself a
  character's spelling counts as that character.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from tokenizers import Tokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_quality import OUT, SpelledBPE, WubiSpeller, byte_speller  # noqa: E402
from genres import load_genres  # noqa: E402
from pretok_variants import VARIANTS  # noqa: E402

from wubitok.text.segment import is_han  # noqa: E402
from wubitok.wubi.codec import BYTE_TOKENS  # noqa: E402
from wubitok.wubi.dictionary import default_dictionary  # noqa: E402

TOP = 32000


def big_model(label: str) -> Path:
    found = sorted(OUT.glob(f"hf-{label}-{TOP}-*.json"))
    if not found:
        sys.exit(f"no {OUT}/hf-{label}-{TOP}-*.json: run bench_quality.py --cache --tokenizers {label} first")
    return found[0]


def load(label: str, speller, vocab: int) -> SpelledBPE:
    model = object.__new__(SpelledBPE)
    model.tok = Tokenizer.from_file(str(big_model(label)))
    model.pretok = VARIANTS[label.partition("@")[2]]
    model.speller = speller
    return model.truncated(vocab, 4)


def pretoken_class(piece: str) -> str:
    han = any(map(is_han, piece))
    latin = any(c.isascii() and c.isalpha() for c in piece)
    if han and latin:
        return "Han + Latin"
    if han:
        return "Han + punctuation" if any(not is_han(c) and not c.isspace() for c in piece) else "Han"
    if latin:
        return "Latin"
    if any(c.isdigit() for c in piece):
        return "digits"
    return "spaces" if piece.isspace() else "punctuation"


class WubiPieces:
    """Classes of Wubi-BPE vocabulary entries (shared-index spelling)."""

    def __init__(self, speller: WubiSpeller):
        self.bytes = set(BYTE_TOKENS)
        self.spelling: set[str] = set()
        for ch, _, _ in default_dictionary().iter_full_code_weights():
            if len(ch) == 1 and is_han(ch):
                s = speller.char(ch)
                if s and not set(s) <= self.bytes:
                    self.spelling.add(s)
        self.prefixes = {s[:i] for s in self.spelling for i in range(1, len(s))}
        self.longest = max(map(len, self.spelling))

    def __call__(self, tok: str) -> str:
        i, n, other = 0, 0, False
        while i < len(tok):
            if tok[i] in self.bytes:
                i, other = i + 1, True
                continue
            for length in range(1, min(self.longest, len(tok) - i) + 1):
                if tok[i : i + length] in self.spelling:
                    i, n = i + length, n + 1
                    break
            else:
                return "piece of a character" if tok[i:] in self.prefixes else "starts inside"
        return "no Han" if not n else "one Han" if n == 1 and not other else "one Han + bytes" if n == 1 \
            else "several Han"


BYTE_INDEX = {c: i for i, c in enumerate(BYTE_TOKENS)}


def byte_class(tok: str) -> str:
    raw = bytes(BYTE_INDEX[c] for c in tok)
    if raw[0] & 0xC0 == 0x80:
        return "starts inside"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "piece of a character"
    n = sum(map(is_han, text))
    return "no Han" if not n else "one Han" if n == len(text) == 1 else "one Han + bytes" if n == 1 \
        else "several Han"


def vocab_classes(model: SpelledBPE, classify) -> Counter:
    data = json.loads(model.tok.to_str())["model"]
    first = len(data["vocab"]) - len(data["merges"])
    return Counter(classify(t) for t, i in data["vocab"].items() if i >= first)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vocab", type=int, nargs="+", default=[8000, 32000])
    ap.add_argument("--variant", default="joined", choices=[v for v in VARIANTS if v])
    ap.add_argument("--genres", nargs="+", default=["zh_CN", "zh_TW", "classical", "fortunes", "mixed"])
    args = ap.parse_args()
    genres = load_genres()
    speller = WubiSpeller()
    classify = WubiPieces(speller)
    for vocab in args.vocab:
        wubi = load(f"wubi@{args.variant}", speller, vocab)
        byte = load(f"bytes@{args.variant}", byte_speller(), vocab)
        print(f"\n### vocab {vocab:,}, pre-tokens {args.variant}\n")
        print("| genre | pre-tokens | count | byte-level BPE | Wubi-BPE | saved |")
        print("|---|---|--:|--:|--:|--:|")
        for g in args.genres:
            count: Counter = Counter()
            w: Counter = Counter()
            b: Counter = Counter()
            for doc in genres[g]["test"]:
                pieces = list(wubi.pretok(doc))
                for p, wt, bt in zip(pieces, wubi.encode_pieces(pieces), byte.encode_pieces(pieces)):
                    k = pretoken_class(p)
                    count[k] += 1
                    w[k] += len(wt)
                    b[k] += len(bt)
            for k in sorted(count):
                print(f"| {g} | {k} | {count[k]:,} | {b[k]:,} | {w[k]:,} | {b[k] - w[k]:+,} |")
            tb, tw = sum(b.values()), sum(w.values())
            print(f"| {g} | **all** (ratio {tb / tw:.4f}) | {sum(count.values()):,} | {tb:,} | {tw:,} | {tb - tw:+,} |")
        cw, cb = vocab_classes(wubi, classify), vocab_classes(byte, byte_class)
        print(f"\nmerged tokens, {vocab:,} (byte-level BPE {sum(cb.values()):,}, Wubi-BPE {sum(cw.values()):,}):\n")
        print("| holds | byte-level BPE | Wubi-BPE |")
        print("|---|--:|--:|")
        for k in ("no Han", "one Han", "one Han + bytes", "several Han", "piece of a character", "starts inside"):
            print(f"| {k} | {cb[k]:,} | {cw[k]:,} |")


if __name__ == "__main__":
    main()
