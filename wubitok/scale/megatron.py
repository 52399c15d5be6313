"""Megatron-Core's indexed dataset: ``PREFIX.bin`` + ``PREFIX.idx`` (``--format megatron``).

What ``megatron.core.datasets.indexed_dataset`` (``IndexedDatasetBuilder``,
``_IndexWriter``, ``_IndexReader``) writes and reads, and so what
``tools/preprocess_data.py`` makes and ``GPTDataset`` trains on:

``PREFIX.bin``
    every token id back to back, little-endian, in the index's dtype.
``PREFIX.idx``
    ``b"MMIDIDX\\x00\\x00"``, version ``<Q`` 1, dtype code ``<B``
    (``DTYPE_CODES``), sequence count ``<Q``, document count ``<Q`` (the
    length of the document index), then the sequence lengths (int32), the
    sequences' byte offsets into ``.bin`` (int64), and the document index
    (int64: 0, then after each document the number of sequences so far).

Each document is one sequence, as ``preprocess_data.py`` writes without
sentence splitting; an empty document has none.  Megatron has no uint32
code: a vocabulary beyond 65,536 is written as int32, the same bytes for ids
below 2**31.  The header of our own run (``PREFIX.json``) sits beside them.
"""
from __future__ import annotations

import json
import os
import struct
import sys
from array import array
from dataclasses import dataclass
from typing import Any, Iterable

from ..errors import FileError
from ..fileio.fileset import FileSet
from .encode import HEADER_FORMAT, ByteProgress, EncodeSpec, RangeResult, in_order, megatron_prefix, output_files

MAGIC = b"MMIDIDX\x00\x00"
VERSION = 1
# numpy dtype name -> Megatron's DType code (megatron.core.datasets.indexed_dataset.DType)
DTYPE_CODES = {"uint8": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "float64": 6, "float32": 7,
               "uint16": 8}
# our array dtype -> what the index says
_WRITTEN = {"uint16": "uint16", "uint32": "int32"}
_ARRAY_CODES = {"uint8": "B", "int8": "b", "int16": "h", "int32": "i", "int64": "q", "uint16": "H"}


def write_megatron(results: Iterable[RangeResult], output: str | os.PathLike, spec: EncodeSpec,
                   header: dict[str, Any], total: int, progress: ByteProgress | None = None) -> dict[str, Any]:
    """Write the results (in range order) as PREFIX.bin, PREFIX.idx and PREFIX.json; return the header."""
    prefix = megatron_prefix(output)
    dtype = _WRITTEN[spec.dtype]
    itemsize = array(_ARRAY_CODES[dtype]).itemsize
    files = FileSet(output_files(prefix, "megatron"))
    lengths = array("i")
    doc_index = array("q", [0])
    tokens = done = 0
    with files.writing(prefix):
        for res in in_order(results):
            files.handles[0].write(res.payload)
            for n in res.lengths:
                if n:
                    lengths.append(n)
                doc_index.append(len(lengths))
                tokens += n
            done += res.size
            if progress is not None:
                progress(done, total)
        pointers = array("q", [0] * len(lengths))
        at = 0
        for k, n in enumerate(lengths):
            pointers[k] = at
            at += n * itemsize
        idx = files.handles[1]
        idx.write(MAGIC + struct.pack("<Q", VERSION) + struct.pack("<B", DTYPE_CODES[dtype]))
        idx.write(struct.pack("<Q", len(lengths)) + struct.pack("<Q", len(doc_index)))
        for values in (lengths, pointers, doc_index):
            if sys.byteorder != "little":
                values.byteswap()
            idx.write(values.tobytes())
        result = {**header, "format": HEADER_FORMAT, "version": 1, "output": "megatron",
                  "documents": len(doc_index) - 1, "tokens": tokens, "dtype": dtype, "eod_id": spec.eod,
                  "docs": spec.docs}
        files.handles[2].write((json.dumps(result, ensure_ascii=False, indent=1) + "\n").encode())
    return result


@dataclass
class IndexedDataset:
    """A Megatron indexed dataset read by its published layout (see the module doc)."""

    dtype: str
    sequence_lengths: list[int]
    sequence_pointers: list[int]
    document_indices: list[int]
    data: bytes

    def __len__(self) -> int:
        return len(self.sequence_lengths)

    def __getitem__(self, k: int) -> list[int]:
        """The ids of sequence ``k``."""
        values = array(_ARRAY_CODES[self.dtype])
        start = self.sequence_pointers[k]
        values.frombytes(self.data[start:start + self.sequence_lengths[k] * values.itemsize])
        if sys.byteorder != "little":
            values.byteswap()
        return values.tolist()

    def documents(self) -> list[list[int]]:
        """The ids of each document (its sequences joined)."""
        d = self.document_indices
        return [[i for k in range(d[j], d[j + 1]) for i in self[k]] for j in range(len(d) - 1)]


def read_megatron(prefix: str | os.PathLike) -> IndexedDataset:
    """Read PREFIX.idx and PREFIX.bin; a file that does not follow the layout is a ``FileError``."""
    prefix = megatron_prefix(prefix)
    try:
        with open(prefix + ".idx", "rb") as fh:
            idx = fh.read()
        with open(prefix + ".bin", "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise FileError(f"{prefix}: cannot read ({exc.strerror or exc})") from None
    head = len(MAGIC) + 8 + 1 + 16
    if idx[:len(MAGIC)] != MAGIC or len(idx) < head:
        raise FileError(f"{prefix}.idx: not a Megatron index (no MMIDIDX header)")
    version, code = struct.unpack_from("<QB", idx, len(MAGIC))
    names = {c: n for n, c in DTYPE_CODES.items()}
    if version != VERSION or code not in names or names[code] not in _ARRAY_CODES:
        raise FileError(f"{prefix}.idx: unsupported version {version} or dtype code {code}")
    n_seq, n_doc = struct.unpack_from("<QQ", idx, len(MAGIC) + 9)
    parts = []
    at = head
    for code_, count in (("i", n_seq), ("q", n_seq), ("q", n_doc)):
        values = array(code_)
        size = values.itemsize * count
        if at + size > len(idx):
            raise FileError(f"{prefix}.idx: truncated")
        values.frombytes(idx[at:at + size])
        if sys.byteorder != "little":
            values.byteswap()
        parts.append(values.tolist())
        at += size
    if not parts[2] or parts[2][0] != 0:
        raise FileError(f"{prefix}.idx: the document index does not start at 0")
    return IndexedDataset(names[code], parts[0], parts[1], parts[2], data)
