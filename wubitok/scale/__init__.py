"""Corpus scale: encoding (and counting) over line-aligned byte ranges, on all
cores or on a Dask cluster, with output that never depends on the split."""
from __future__ import annotations

from ..engines.corpus import merge_counts
from .counts import read_counts_tsv, write_counts_tsv
from .documents import DOC_MODES, ByteRange, byte_ranges, iter_documents
from .encode import OUTPUT_FORMATS, encode_files
from .training import count_byte_range, count_pretokens, train_from_counts

__all__ = ["DOC_MODES", "OUTPUT_FORMATS", "ByteRange", "byte_ranges", "count_byte_range", "count_pretokens",
           "encode_files", "iter_documents", "merge_counts", "read_counts_tsv", "train_from_counts",
           "write_counts_tsv"]
