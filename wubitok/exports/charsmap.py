"""A sentencepiece ``precompiled_charsmap``: what HF's ``Precompiled`` normalizer reads.

The blob is ``[u32 trie size in bytes][trie: u32 units][replacements]``, all
little-endian: the trie is a darts-clone double array over the UTF-8 bytes
of each key, whose leaf value is where the key's replacement starts in the
replacements (each ended by a NUL).  sentencepiece builds it in C++ and does
not expose the builder, so it is built here; the tests read every key back
through HF ``tokenizers``.

How HF applies it (``normalizers::Precompiled``): per grapheme cluster of
fewer than 6 bytes, the replacement of the *shortest* key that is a prefix
of the whole cluster replaces the whole cluster; otherwise each character
alone.  So a key followed in one cluster by a 2-byte combining mark (a
3-byte character then U+0300-U+07FF) takes the mark with it: callers choose
their keys knowing that (``wubi_json``).
"""
from __future__ import annotations

import struct
from typing import Mapping

_LEAF_BIT = 1 << 8
_VALUE_BIT = 1 << 31  # a value unit: its label never equals a byte
_MAX_OFFSET = 1 << 21  # offsets past this need darts' shifted form, which this builder never uses


def precompiled_charsmap(replacements: Mapping[str, str]) -> bytes:
    """The charsmap replacing each key (one or more characters) by its value."""
    pool = bytearray()
    keyed: list[tuple[bytes, int]] = []
    for key in sorted(replacements):
        if not key or "\0" in key:
            raise ValueError(f"a charsmap key must be non-empty and hold no NUL: {key!r}")
        keyed.append((key.encode("utf-8"), len(pool)))
        pool += replacements[key].encode("utf-8") + b"\0"
    units = _double_array(keyed)
    trie = struct.pack(f"<{len(units)}I", *units)
    return struct.pack("<I", len(trie)) + trie + bytes(pool)


def _double_array(keys: list[tuple[bytes, int]]) -> list[int]:
    """darts-clone units for ``(key, value)`` pairs (keys distinct, no NUL byte).

    A node at position ``p`` with base ``b`` (stored as the offset ``p ^ b``)
    has its child of label ``c`` at ``b ^ c`` and, if a key ends there, the
    value at ``b`` itself (label 0).  Bases are placed first-fit; every base
    slot is taken even without a value, so no two nodes share a base (their
    children would answer for each other) and the free-slot scans stay short.
    """
    trie: dict = {}
    for key, value in keys:
        node = trie
        for b in key:
            node = node.setdefault(b, {})
        node[None] = value
    units = [0] * (1 << 12)
    used = bytearray(len(units))
    used[0] = 1
    start = big_from = 1  # first free slot; where wide nodes (many children) last fitted
    stack = [(0, trie)]
    while stack:
        pos, node = stack.pop()
        labels = sorted(b for b in node if b is not None)
        need = [0, *labels]
        wide = len(need) > 4
        free = big_from if wide else start
        while True:
            free = used.find(0, free)
            if free < 0 or (free | 0xFF) >= len(used):
                units.extend([0] * len(units))
                used.extend(bytearray(len(used)))
                free = used.find(0, start)
                continue
            base = free  # label 0 (the value slot) lands on the free slot
            if not any(used[base ^ c] for c in labels):
                break
            free += 1
        if wide:
            big_from = free
        offset = pos ^ base
        if offset >= _MAX_OFFSET:
            raise ValueError("charsmap too large for this builder")
        units[pos] = (units[pos] & 0xFF) | (offset << 10) | (_LEAF_BIT if None in node else 0)
        used[base] = 1
        if None in node:
            units[base] = node[None] | _VALUE_BIT
        for c in labels:
            used[base ^ c] = 1
            units[base ^ c] = c
            stack.append((base ^ c, node[c]))
        start = used.find(0, start)
        if start < 0:  # full: the next search grows the array
            start = len(used)
    last = len(used) - 1
    while not used[last]:
        last -= 1
    # A lookup steps to ``base ^ c`` for any byte c before checking the label
    # (HF does not bound-check): the array ends on a 256-unit block.
    return units[: (last | 0xFF) + 1]
