"""Read ``wubitok encode --format megatron`` output with Megatron-Core's own reader.

Megatron-Core's ``indexed_dataset`` module imports torch, so this runs in a
separate venv (not the project's), made once:

    python3 -m venv /tmp/megvenv
    /tmp/megvenv/bin/pip install torch==2.13.0 numpy packaging
    /tmp/megvenv/bin/pip install --no-deps megatron-core==0.16.1

Then, with PREFIX written by ``wubitok encode ... -o PREFIX --format megatron``:

    /tmp/megvenv/bin/python bench/check_megatron_reader.py PREFIX EXPECTED.json

``EXPECTED.json`` is a list of each document's ids (as our reader,
``wubitok.scale.megatron.read_megatron(PREFIX).documents()``, gives them, or
as ``encode_ordinary`` gives them).  Prints one line: what Megatron read, and
whether every document's ids are equal.
"""
from __future__ import annotations

import json
import sys

from megatron.core.datasets.indexed_dataset import IndexedDataset


def main(prefix: str, expected_path: str) -> int:
    with open(expected_path, encoding="utf-8") as fh:
        expected = json.load(fh)
    data = IndexedDataset(prefix, multimodal=False, mmap=True)
    docs = data.document_indices
    read = [[int(i) for k in range(docs[j], docs[j + 1]) for i in data[k]] for j in range(len(docs) - 1)]
    same = read == expected
    print(f"megatron-core read {len(data)} sequences, {len(docs) - 1} documents, "
          f"{int(data.sequence_lengths.sum())} tokens, dtype {data.index.dtype.__name__}: "
          f"{'identical ids' if same else 'DIFFERENT ids'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
