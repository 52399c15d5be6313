"""Reading user files with clear errors, and writing them atomically (the ground floor).

One module per job: :mod:`.detection` (which encoding a file is in), :mod:`.encoding` (the names users see),
:mod:`.reading` (whole files, chunks, lines, one-line errors), :mod:`.jsonfile`
(JSON with short errors), :mod:`.output` (checks on an output name),
:mod:`.atomic` (temp file + rename), :mod:`.fileset` (sets of files and folders replaced as a whole)
and :mod:`.locking` (read-modify-write between processes).  Everything is importable from here.
"""
from __future__ import annotations

from .atomic import atomic_write_bytes, atomic_write_many, atomic_write_text, temp_prefix
from .detection import DETECT_BYTES, LEGACY_CHINESE, detect_encoding
from .encoding import TEXT_ENCODINGS, encode_text, encoding_label, normalize_encoding
from .fileset import write_folder
from .jsonfile import JsonError, parse_json
from .locking import file_lock
from .output import check_output, check_output_name, folder_problem
from .reading import (
    CHUNK_CHARS,
    MAX_MODEL_BYTES,
    MAX_WHOLE_FILE_BYTES,
    SaveFormat,
    TextFile,
    TextPath,
    check_readable_text,
    decode_text,
    file_encoding,
    iter_lines,
    iter_text_chunks,
    read_model_bytes,
    read_model_text,
    read_stream,
    read_text,
    read_text_file,
)

__all__ = [
    "CHUNK_CHARS", "DETECT_BYTES", "LEGACY_CHINESE", "MAX_MODEL_BYTES", "MAX_WHOLE_FILE_BYTES", "TEXT_ENCODINGS",
    "JsonError", "SaveFormat", "TextFile", "TextPath", "atomic_write_bytes", "atomic_write_many",
    "atomic_write_text", "check_output", "check_output_name", "check_readable_text", "decode_text",
    "detect_encoding", "encode_text", "encoding_label", "file_encoding", "file_lock", "folder_problem", "iter_lines",
    "iter_text_chunks", "normalize_encoding", "parse_json", "read_model_bytes", "read_model_text", "read_stream",
    "read_text", "read_text_file", "temp_prefix", "write_folder",
]
