"""Picky BPE (Chizhov et al. 2024, "BPE Gets Picky") against plain BPE, by genre.

    python bench/bench_picky.py [--vocab 2000 8000] [--tau 0.9] [--split dev] [--boot 300] [--every 1]

Picky BPE merges like BPE, but after merging ``(x1, x2)`` it removes ``x1``
(or ``x2``) when the merge took at least ``tau`` of that token's occurrences
(intersection over self, IoS >= tau) and the token is not a base symbol: its
remaining occurrences are split back into its two parts and its slot goes
to a later merge.  Training stops when the live vocabulary is full.  Encoding
replays the training events (merges and removals) in their order, so a word
of the training text is encoded exactly as training left it.

Both the Wubi spelling (the ``hybrid`` codec) and UTF-8 bytes are trained
here, plain and picky, with this script's one simple pure-Python trainer (so
that plain and picky differ only in the removals), on the pre-token counts
of ``bench_quality.py``'s training text (``--every N``: each N-th distinct
pre-token only, with its count), and evaluated on the held-out
documents of each genre: tokens, and the ratio tokens(bytes, plain) /
tokens(variant) with a 95% bootstrap interval over documents.  The number
of removals and the seconds each training took are printed too.
"""
from __future__ import annotations

import argparse
import heapq
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_quality import bootstrap_ratio, training_counts  # noqa: E402
from genres import GENRES, load_genres  # noqa: E402

from wubitok.engines.pre_tokenizers.wubi import pretokens  # noqa: E402
from wubitok.wubi.codec import BYTE_BASE, CodecOptions, WubiCodec  # noqa: E402


class PickyBPE:
    """Events in training order: ``("merge", a, b, new)`` or ``("remove", x)``."""

    def __init__(self, words: Sequence[tuple[tuple[int, ...], int]], first_new_id: int, num_tokens: int,
                 tau: float | None, min_frequency: int = 2):
        self.first_new_id = first_new_id
        self.events: list[tuple] = []
        self.parts: dict[int, tuple[int, int]] = {}
        seqs = [list(s) for s, _ in words]
        counts = [c for _, c in words]
        pair_count: Counter = Counter()
        pair_where: dict[tuple[int, int], set[int]] = {}
        tok_count: Counter = Counter()
        tok_where: dict[int, set[int]] = {}
        for wi, seq in enumerate(seqs):
            c = counts[wi]
            for p in zip(seq, seq[1:]):
                pair_count[p] += c
                pair_where.setdefault(p, set()).add(wi)
            for t in seq:
                tok_count[t] += c
        heap = [(-n, p) for p, n in pair_count.items()]
        heapq.heapify(heap)
        live = 0
        next_id = first_new_id
        self.removed = 0

        def rewrite(wi: int, new_seq: list[int], touched: set) -> None:
            old = seqs[wi]
            c = counts[wi]
            for p in zip(old, old[1:]):
                pair_count[p] -= c
            for p in zip(new_seq, new_seq[1:]):
                pair_count[p] += c
                pair_where.setdefault(p, set()).add(wi)
                touched.add(p)
            for t in old:
                tok_count[t] -= c
            for t in new_seq:
                tok_count[t] += c
                if t >= first_new_id:
                    tok_where.setdefault(t, set()).add(wi)
            seqs[wi] = new_seq

        while live < num_tokens and heap:
            neg, pair = heapq.heappop(heap)
            n = pair_count.get(pair, 0)
            if n != -neg:
                if n >= min_frequency:
                    heapq.heappush(heap, (-n, pair))
                continue
            a, b = pair
            new = next_id
            next_id += 1
            before = {x: tok_count[x] for x in (a, b)}
            self.events.append(("merge", a, b, new))
            self.parts[new] = pair
            live += 1
            touched: set = set()
            for wi in sorted(pair_where.pop(pair, ())):
                seq = seqs[wi]
                out: list[int] = []
                i = 0
                while i < len(seq):
                    if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
                        out.append(new)
                        i += 2
                    else:
                        out.append(seq[i])
                        i += 1
                if len(out) != len(seq):
                    rewrite(wi, out, touched)
            if tau is not None:
                for x in dict.fromkeys((a, b)):
                    if x >= first_new_id and before[x] and n / before[x] >= tau:
                        self.events.append(("remove", x))
                        self.removed += 1
                        live -= 1
                        p, q = self.parts[x]
                        for wi in sorted(tok_where.pop(x, ())):
                            seq = seqs[wi]
                            if x in seq:
                                out = []
                                for t in seq:
                                    out.extend((p, q) if t == x else (t,))
                                rewrite(wi, out, touched)
            for p in touched:
                m = pair_count[p]
                if m >= min_frequency:
                    heapq.heappush(heap, (-m, p))
        self._compile()

    def _compile(self) -> None:
        self.merge_ranks: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.remove_rank: dict[int, int] = {}
        for r, e in enumerate(self.events):
            if e[0] == "merge":
                self.merge_ranks.setdefault((e[1], e[2]), []).append((r, e[3]))
            else:
                self.remove_rank[e[1]] = r
        self._cache: dict[tuple[int, ...], int] = {}

    def count(self, symbols: tuple[int, ...]) -> int:
        """Tokens of one pre-token: the events replayed in training order."""
        hit = self._cache.get(symbols)
        if hit is not None:
            return hit
        seq = list(symbols)
        t = -1
        while True:
            best = None
            for p in zip(seq, seq[1:]):
                for r, new in self.merge_ranks.get(p, ()):
                    if r > t:
                        if best is None or r < best[0]:
                            best = (r, p, new)
                        break
            for x in seq:
                r = self.remove_rank.get(x, -1)
                if r > t and (best is None or r < best[0]):
                    best = (r, x, None)
            if best is None:
                break
            t = best[0]
            out: list[int] = []
            if best[2] is None:
                p, q = self.parts[best[1]]
                for x in seq:
                    out.extend((p, q) if x == best[1] else (x,))
            else:
                a, b = best[1]
                i = 0
                while i < len(seq):
                    if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
                        out.append(best[2])
                        i += 2
                    else:
                        out.append(seq[i])
                        i += 1
            seq = out
        self._cache[symbols] = len(seq)
        return len(seq)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vocab", type=int, nargs="+", default=[2000, 8000])
    ap.add_argument("--tau", type=float, default=0.9)
    ap.add_argument("--split", default="dev", choices=("dev", "test"))
    ap.add_argument("--boot", type=int, default=300)
    ap.add_argument("--every", type=int, default=1,
                    help="train on every N-th distinct pre-token only (this trainer is slow)")
    args = ap.parse_args()
    genres = load_genres()
    _, all_counts = training_counts(genres)
    counts = dict(sorted(all_counts.items())[:: args.every])
    codec = WubiCodec(CodecOptions(code="hybrid"))
    spellings = {
        "bytes": (lambda w: tuple(BYTE_BASE + b for b in w.encode("utf-8", "surrogatepass")), BYTE_BASE + 256),
        "wubi-hybrid": (lambda w: tuple(codec.encode(w)), codec.end_id),
    }
    held = {g: [list(pretokens(d)) for d in genres[g][args.split]] for g in GENRES}
    for vocab in args.vocab:
        per: dict[str, dict[str, list[int]]] = {}
        for name, (spell, end_id) in spellings.items():
            words = [(spell(w), c) for w, c in sorted(counts.items())]
            for tau in (None, args.tau):
                label = name + ("" if tau is None else f"-picky{tau}")
                t0 = time.perf_counter()
                # 4 special tokens + the base symbols + merged tokens = vocab
                model = PickyBPE(words, end_id, vocab - end_id, tau)
                secs = time.perf_counter() - t0
                per[label] = {g: [sum(model.count(spell(p)) for p in doc) for doc in docs]
                              for g, docs in held.items()}
                print(f"[{time.strftime('%H:%M:%S')}] {vocab} {label}: {len(model.events)} events, "
                      f"{model.removed} removals, trained in {secs:.0f} s", file=sys.stderr, flush=True)
        print(f"\n### vocab {vocab:,}, {args.split} split: tokens(bytes) / tokens(variant), 95% interval\n")
        print("| variant | " + " | ".join(GENRES) + " |")
        print("|---|" + "---|" * len(GENRES))
        for label, by_genre in per.items():
            cells = []
            for g in GENRES:
                r, lo, hi = bootstrap_ratio(per["bytes"][g], by_genre[g], args.boot)
                cells.append(f"{r:.4f} [{lo:.4f}, {hi:.4f}]")
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
