"""Fast exact BPE encoding: longest match with backtracking.

Applying merges by rank (``bpe_core.MergeApplier``) costs a scan of the
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

Only tokens that BPE can actually produce from their own symbols take part.
Ids must be in merge order (merge ``i`` creates ``first_new_id + i``, base
symbols below), as ``bpe_core`` makes them.
"""
from __future__ import annotations

from typing import Iterable, Sequence

# Pair checks remembered; cleared when full (a check is cheap to redo).
_PAIR_CACHE_SIZE = 1 << 20


class BacktrackEncoder:
    """Encode symbol sequences with the merges of a BPE model (see module doc)."""

    def __init__(self, merges: Sequence[tuple[int, int]], first_new_id: int, base_symbols: Iterable[int]):
        n = first_new_id + len(merges)
        self.first_new_id = first_new_id
        self._shift = max(n, 1).bit_length()
        left = list(range(n))
        right = list(range(n))
        length = [1] * n
        pair_id: dict[int, int] = {}
        shift = self._shift
        for i, (a, b) in enumerate(merges):
            t = first_new_id + i
            left[t], right[t] = a, b
            length[t] = length[a] + length[b]
            pair_id.setdefault(a << shift | b, t)
        self._left, self._right, self._pair_id = left, right, pair_id
        #: number of base symbols in each token
        self.lengths = length

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

        # A trie node is [children by symbol, token id or -1].
        root: list = [{}, -1]
        symbols = self._symbols_of
        for t in range(n):
            if usable[t]:
                node = root
                for s in symbols(t):
                    child = node[0].get(s)
                    if child is None:
                        child = node[0][s] = [{}, -1]
                    node = child
                node[1] = t
        # The longest usable token that is a proper prefix of each token: what
        # to try next at the same position when a token does not fit.
        self._prefix: list[int | None] = [None] * n
        for t in range(n):
            if usable[t]:
                node = root
                shorter = None
                for s in symbols(t):
                    if node[1] >= 0:
                        shorter = node[1]
                    node = node[0][s]
                self._prefix[t] = shorter
        self._root = root
        self._pair_ok: dict[int, bool] = {}

    def _symbols_of(self, t: int) -> list[int]:
        out: list[int] = []
        stack = [t]
        left, right, first = self._left, self._right, self.first_new_id
        while stack:
            x = stack.pop()
            if x < first:
                out.append(x)
            else:
                stack.append(right[x])
                stack.append(left[x])
        return out

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
            merged = pair_id.get(t1 << shift | t2)
            if merged is not None and merged < limit:
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

    def encode(self, seq: Sequence[int]) -> list[int]:
        n = len(seq)
        if n <= 1:
            return list(seq)
        root, prefix, length = self._root, self._prefix, self.lengths
        pair_ok, shift = self._pair_ok, self._shift
        dead = bytearray(n + 1)  # dead[p]: no token of the encoding ends at p
        tokens: list[int] = []
        pos = 0
        want_next = True
        t = -1
        while True:
            if want_next:
                # the longest token that matches at pos (a trie walk)
                node, i, t = root, pos, -1
                while i < n:
                    node = node[0].get(seq[i])
                    if node is None:
                        break
                    i += 1
                    if node[1] >= 0:
                        t = node[1]
                if t < 0:
                    raise ValueError(f"symbol {seq[pos]} is not a base symbol of this model")
                want_next = False
            end = pos + length[t]
            ok = not dead[end]
            if ok and tokens:
                key = tokens[-1] << shift | t
                ok = pair_ok.get(key)
                if ok is None:
                    if len(pair_ok) >= _PAIR_CACHE_SIZE:
                        pair_ok.clear()
                    ok = pair_ok[key] = self._compatible(tokens[-1], t)
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
