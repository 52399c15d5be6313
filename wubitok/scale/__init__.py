"""Corpus scale: encoding (and counting) over line-aligned byte ranges, on all
cores or on a Dask cluster, with output that never depends on the split."""
from __future__ import annotations

from .documents import DOC_MODES, ByteRange, byte_ranges, iter_documents
from .encode import OUTPUT_FORMATS, encode_files

__all__ = ["DOC_MODES", "OUTPUT_FORMATS", "ByteRange", "byte_ranges", "encode_files", "iter_documents"]
