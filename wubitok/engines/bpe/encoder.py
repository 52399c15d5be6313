"""Fast exact BPE encoding: longest match with backtracking.

Applying merges by rank (``MergeApplier``, below: the plain algorithm, kept
as the reference the tests check this encoder against) costs a scan of the
sequence per merge, which is slow for long pre-tokens such as a clause of
Chinese spelled in Wubi keys (dozens of symbols).  This encoder gives the
same tokens in about one step per token, after the method of GitHub's
``bpe`` crate (rust-gems, "backtracking encoder"):

* Two adjacent tokens are *compatible* when BPE on their symbols together
  gives back exactly those two tokens.  A token sequence is the BPE encoding
  of its symbols if and only if every adjacent pair is compatible: the first
  merge across a boundary that BPE would make would also happen on that
  boundary's pair alone.  So a tokenization can be checked pair by pair.
* Compatibility needs no BPE run: undo the two tokens' merges in reverse
  order (each token is the merge of two earlier ones) and check at each step
  that no merge across the boundary would have come first (``_compatible``).
* Encoding takes the longest token matching at the current position (a trie
  walk), steps down to shorter prefixes while it does not fit the previous
  token, and backs up when nothing fits.  A position from which nothing
  fits can never be a token boundary of the true encoding, so it is marked
  and never tried again, which keeps the search near linear.

Most sequences need no stepping down at all: plain greedy longest match is
already their encoding (85% of the distinct pre-tokens of Chinese man pages).
So ``encode`` first matches greedily with one regular expression (the trie of
all tokens written as a pattern, walked by the ``re`` engine in C) and checks
the pairs; only from the first pair that does not fit does the search above
run in Python.  Up to that pair the search would have taken the same tokens,
so the result is the same.

Only tokens that BPE can actually produce from their own symbols take part.
Ids must be in merge order (merge ``i`` creates ``first_new_id + i``, base
symbols below), as ``bpe.trainer`` makes them.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, chain, compress, islice, repeat
from operator import lshift, not_, or_
from typing import Iterable, Sequence

# Pair checks remembered; cleared when full (a check is cheap to redo).
_PAIR_CACHE_SIZE = 1 << 20
# The greedy pattern nests one group per token along a trie path and the re
# compiler recurses once per group: a model nesting deeper (tokens like runs
# of one character hundreds long) goes without the pattern.
_MAX_NESTING = 100
_MAX_PATTERN_SYMBOLS = 400  # building the pattern recurses once per symbol


class BacktrackEncoder:
    """Encode symbol sequences with the merges of a BPE model (see module doc)."""

    def __init__(self, merges: Sequence[tuple[int, int]], first_new_id: int, base_symbols: Iterable[int]):
        n = first_new_id + len(merges)
        self.first_new_id = first_new_id
        self._shift = max(n, 1).bit_length()
        left = list(range(n))
        right = list(range(n))
        length = [1] * n
        # each token's symbols as a str, one code point per symbol
        text = [chr(s) for s in range(first_new_id)]
        pair_id: dict[int, int] = {}
        shift = self._shift
        for i, (a, b) in enumerate(merges):
            t = first_new_id + i
            left[t], right[t] = a, b
            length[t] = length[a] + length[b]
            text.append(text[a] + text[b])
            pair_id.setdefault(a << shift | b, t)
        self._left, self._right, self._pair_id = left, right, pair_id
        #: number of base symbols in each token
        self.lengths = length
        self._text = text

        usable = [False] * n
        for s in base_symbols:
            usable[s] = True
        for i, (a, b) in enumerate(merges):
            t = first_new_id + i
            # t is reachable when its parts are and BPE on parts' symbols
            # merges exactly them, last, into t.
            usable[t] = (
                usable[a] and usable[b] and pair_id[a << shift | b] == t and self._compatible(a, b, limit=t)
            )
        self.usable = usable
        # BPE is deterministic, so no two usable tokens have the same symbols.
        self._id_of = {text[t]: t for t in range(n) if usable[t]}

        # The longest usable token that is a proper prefix of each token: what
        # to try next at the same position when a token does not fit.
        self._prefix: list[int | None] = [None] * n
        for spelled, t in self._id_of.items():
            for k in range(len(spelled) - 1, 0, -1):
                shorter = self._id_of.get(spelled[:k])
                if shorter is not None:
                    self._prefix[t] = shorter
                    break
        self._pair_ok: dict[tuple[int, int], bool] = {}
        # How to find the longest token at a position, made on first use: a
        # pattern (see _greedy_pattern), or where there is none a trie.
        self._greedy: re.Pattern | None = None
        self._trie: list = []  # built on first use when there is no pattern
        self._matcher_made = False

    def _symbols_of(self, t: int) -> list[int]:
        return list(map(ord, self._text[t]))

    def _compatible(self, t1: int, t2: int, limit: int | None = None) -> bool:
        """True if BPE on the symbols of t1 then t2 ends as exactly (t1, t2).

        Walks back in time: the later-made of the two boundary tokens is
        split into its parts; at each state the pair across the boundary must
        not be a merge that BPE would have made before the state's tokens
        (ties go to the left pair, hence the +1 on the right side).
        """
        left, right, pair_id, shift = self._left, self._right, self._pair_id, self._shift
        if limit is None:
            limit = 1 << 62
        while True:
            if pair_id.get(t1 << shift | t2, limit) < limit:  # merged before this state
                return False
            if t1 > t2:
                limit = t1
                t1 = right[t1]
                if t1 == limit:
                    limit = t2 + 1
                    t2 = left[t2]
                    if t2 + 1 == limit:
                        return True
            else:
                limit = t2 + 1
                t2 = left[t2]
                if t2 + 1 == limit:
                    limit = t1
                    t1 = right[t1]
                    if t1 == limit:
                        return True

    def _fits(self, pair: tuple[int, int]) -> bool:
        """``_compatible`` on an adjacent pair, remembered."""
        ok = self._pair_ok.get(pair)
        if ok is None:
            if len(self._pair_ok) >= _PAIR_CACHE_SIZE:
                self._pair_ok.clear()
            ok = self._pair_ok[pair] = self._compatible(*pair)
        return ok

    def _greedy_pattern(self) -> re.Pattern | None:
        """A pattern whose match at a position is the longest usable token there.

        The trie of the tokens' symbol strings written out: at each node one
        alternative per child (children start with different symbols, so at
        most one can match), the part below a child optional where the child
        is itself a token.  Greedy ``?`` tries longer tokens first and the
        engine backs off to the shorter token, so the match is the longest.
        None if the tokens are too long or nest too deep for ``re``.
        """
        if not self._id_of or max(map(len, self._id_of)) > _MAX_PATTERN_SYMBOLS:
            return None
        trie: dict = {}
        for s in self._id_of:
            node = trie
            for ch in s:
                node = node.setdefault(ch, {})
            node[""] = None  # a token ends here
        size = {}  # tokens under each node

        def count_below(node: dict) -> int:
            size[id(node)] = n = sum(count_below(c) if k else 1 for k, c in node.items())
            return n

        count_below(trie)

        def below(node: dict) -> tuple[list[str], int]:
            # the alternatives matching the tokens under ``node``, and how
            # deep they nest groups
            alts, leaves, depth = [], [], 0
            # re tries alternatives in order: most tokens (most matches) first
            for ch, child in sorted(node.items(), key=lambda kv: -size.get(id(kv[1]), 0)):
                if not ch:
                    continue
                if len(child) == 1 and "" in child:
                    leaves.append(re.escape(ch))
                    continue
                sub, d = below(child)
                if "" in child:
                    rest, d = f"(?:{'|'.join(sub)})?", d + 1
                elif len(sub) > 1:
                    rest, d = f"(?:{'|'.join(sub)})", d + 1
                else:
                    rest = sub[0]
                alts.append(re.escape(ch) + rest)
                depth = max(depth, d)
            if leaves:
                alts.append(leaves[0] if len(leaves) == 1 else f"[{''.join(leaves)}]")
            return alts, depth

        alts, depth = below(trie)
        if depth > _MAX_NESTING:
            return None
        try:
            return re.compile("|".join(alts))
        except RecursionError:  # called from deep in a stack already
            return None

    def _make_trie(self) -> list:
        """A trie of the usable tokens; a node is [children by symbol, token id or -1]."""
        root: list = [{}, -1]
        for s, t in self._id_of.items():
            node = root
            for ch in s:
                child = node[0].get(ch)
                if child is None:
                    child = node[0][ch] = [{}, -1]
                node = child
            node[1] = t
        return root

    def _longest(self) -> re.Pattern | None:
        if not self._matcher_made:
            self._greedy = self._greedy_pattern()
            if self._greedy is None:
                self._trie = self._make_trie()
            self._matcher_made = True
        return self._greedy

    def encode(self, seq: Sequence[int]) -> list[int]:
        """The BPE encoding of the symbol ids ``seq``."""
        return self.encode_str("".join(map(chr, seq)))

    def encode_str(self, symbols: str) -> list[int]:
        """``encode`` with the symbols given as a str, one code point each."""
        # One sequence: the search alone is cheaper than encode_many's setup.
        self._longest()
        return self._search(symbols, [])

    def encode_many(self, symbols: str, bounds: Sequence[int]) -> list[tuple[int, ...]]:
        """``encode_str`` of each ``symbols[bounds[i]:bounds[i + 1]]``.

        For thousands of short sequences at once, each step (greedy match,
        id lookup, pair check) goes over all of them in one map, in C; only
        from a pair that does not fit does the search go on in Python.
        """
        pieces = list(zip(bounds, islice(bounds, 1, None)))
        greedy = self._longest()
        if greedy is None:
            return [tuple(self._search(symbols[a:b], [])) for a, b in pieces]
        matches = list(map(greedy.findall, repeat(symbols), bounds, islice(bounds, 1, None)))
        ids = list(map(self._id_of.__getitem__, chain.from_iterable(matches)))
        if sum(map(self.lengths.__getitem__, ids)) != bounds[-1] - bounds[0]:
            # a symbol no token has (the search says which)
            return [tuple(self._search(symbols[a:b], [])) for a, b in pieces]
        starts = list(accumulate(map(len, matches), initial=0))  # of each sequence's tokens
        out = list(map(tuple, map(ids.__getitem__, map(slice, starts, islice(starts, 1, None)))))
        ok = list(map(self._pair_ok.get, zip(ids, islice(ids, 1, None))))
        for i in islice(starts, 1, len(starts) - 1):
            if 0 < i < len(ids):
                ok[i - 1] = True  # a pair across two sequences does not count
        redo: dict[int, int] = {}  # sequence -> its first pair that does not fit
        fits = self._fits
        for i in compress(range(len(ok)), map(not_, ok)):  # pairs unknown or not fitting
            if ok[i] is None and fits((ids[i], ids[i + 1])):
                continue
            redo.setdefault(bisect_right(starts, i) - 1, i)
        for k, i in redo.items():
            # up to that pair the search would take the greedy tokens too
            a, b = pieces[k]
            out[k] = tuple(self._search(symbols[a:b], ids[starts[k] : i + 1]))
        return out

    def _search(self, symbols: str, tokens: list[int]) -> list[int]:
        """The backtracking search, going on from ``tokens`` (a prefix of
        the encoding as the search itself would have found it)."""
        n = len(symbols)
        if n <= 1:
            return list(map(ord, symbols))
        greedy, trie, id_of = self._greedy, self._trie, self._id_of
        prefix, length = self._prefix, self.lengths
        pair_ok = self._pair_ok
        dead = bytearray(n + 1)  # dead[p]: no token of the encoding ends at p
        pos = sum(map(length.__getitem__, tokens))
        want_next = True
        t = -1
        while True:
            if want_next:
                # the longest token that matches at pos
                if greedy is not None:
                    m = greedy.match(symbols, pos)
                    t = id_of[m.group()] if m else -1
                else:
                    node, i, t = trie, pos, -1
                    while i < n:
                        node = node[0].get(symbols[i])
                        if node is None:
                            break
                        i += 1
                        if node[1] >= 0:
                            t = node[1]
                if t < 0:
                    raise ValueError(f"symbol {ord(symbols[pos])} is not a base symbol of this model")
                want_next = False
            end = pos + length[t]
            ok = not dead[end]
            if ok and tokens:
                known = pair_ok.get((tokens[-1], t))
                ok = self._fits((tokens[-1], t)) if known is None else known
            if ok:
                tokens.append(t)
                pos = end
                if pos == n:
                    return tokens
                want_next = True
                continue
            shorter = prefix[t]
            if shorter is not None:
                t = shorter
                continue
            dead[pos] = 1
            t = tokens.pop()
            pos -= length[t]


class MergeApplier:
    """Apply learned merges to symbol sequences, lowest rank first.

    Each step merges every left-to-right occurrence of the adjacent pair with
    the lowest rank, as GPT-2 and HF ``tokenizers`` do.  Results are cached per
    input sequence (``bytes`` and tuples are used as keys as they are); the
    oldest entries go first when the cache is full.
    """

    def __init__(self, merges: Sequence[tuple[int, int]], first_new_id: int, cache_size: int = 100_000):
        self.first_new_id = first_new_id
        self.cache_size = cache_size
        top = max([first_new_id + len(merges), *(x for m in merges for x in m)])
        self._shift = shift = top.bit_length()
        # (a << shift | b) -> rank; the merged symbol is first_new_id + rank.
        # A pair listed twice keeps its first rank: the later one never fires.
        self._ranks: dict[int, int] = {}
        for rank, (a, b) in enumerate(merges):
            self._ranks.setdefault(a << shift | b, rank)
        self._never = len(merges)
        self._cache: dict = {}

    def apply(self, symbols: Sequence[int]) -> list[int]:
        key = symbols if isinstance(symbols, (bytes, tuple)) else tuple(symbols)
        hit = self._cache.get(key)
        if hit is not None:
            return list(hit)
        seq = list(symbols)
        get = self._ranks.get
        never = self._never
        shift = self._shift
        # ranks[i] is the rank of the pair (seq[i], seq[i + 1]); a merge only
        # changes the ranks next to it, and min/index run at C speed.
        ranks = list(map(get, map(or_, map(lshift, seq, repeat(shift)), seq[1:]), repeat(never)))
        while ranks:
            best = min(ranks)
            if best == never:
                break
            new = self.first_new_id + best
            i = ranks.index(best)
            while True:
                seq[i] = new
                del seq[i + 1]
                del ranks[i]
                if i:
                    ranks[i - 1] = get(seq[i - 1] << shift | new, never)
                if i < len(ranks):
                    ranks[i] = get(new << shift | seq[i + 1], never)
                try:
                    i = ranks.index(best, i)
                except ValueError:
                    break
        cache = self._cache
        if self.cache_size > 0:
            if len(cache) >= self.cache_size:
                del cache[next(iter(cache))]
            cache[key] = tuple(seq)
        return seq
