"""nanoGPT's data folder: ``train.bin``, ``val.bin`` and ``meta.pkl`` (``--format nanogpt``).

What nanoGPT's ``data/*/prepare.py`` writes and ``train.py`` reads:
``train.bin`` and ``val.bin`` are every id back to back as little-endian
uint16 (``np.memmap(path, dtype=np.uint16, mode='r')``; a vocabulary beyond
65,536 cannot be written so); ``meta.pkl`` is a pickled dict whose
``vocab_size`` ``train.py`` takes as the model's vocabulary size.

The validation split takes whole documents, spread evenly through the
corpus: document ``i`` goes to ``val.bin`` when ``floor((i + 1) * fraction)``
passes ``floor(i * fraction)``.  It depends on the document's number only,
so the files are the same for any number of workers.  ``info.json`` beside
them is the header of our run.
"""
from __future__ import annotations

import json
import os
import pickle
from typing import Any, Iterable

from ..errors import FileError, InputError
from ..fileio.fileset import FileSet
from .encode import HEADER_FORMAT, ByteProgress, EncodeSpec, RangeResult, in_order, output_files

DEFAULT_VAL_FRACTION = 0.0005  # nanoGPT's openwebtext/prepare.py


def check_val_fraction(fraction: Any) -> float:
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction < 1:
        raise InputError(f"--val-fraction must be a number between 0 and 1 (exclusive), not {fraction!r}")
    return float(fraction)


def is_val(document: int, fraction: float) -> bool:
    return int((document + 1) * fraction) > int(document * fraction)


def write_nanogpt(results: Iterable[RangeResult], output: str | os.PathLike, spec: EncodeSpec,
                  header: dict[str, Any], total: int, progress: ByteProgress | None = None, *,
                  val_fraction: float = DEFAULT_VAL_FRACTION) -> dict[str, Any]:
    """Write the results (in range order) into the folder ``output``; return the header."""
    fraction = check_val_fraction(val_fraction)
    if spec.dtype != "uint16":
        raise InputError("nanoGPT reads uint16 ids: this model's vocabulary is larger than 65,536")
    folder = os.fspath(output)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise FileError(f"{folder}: exists and is not a folder (--format nanogpt writes a folder)")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise FileError(f"{folder}: cannot create ({exc.strerror or exc})") from None
    files = FileSet(output_files(folder, "nanogpt"))
    train, val = files.handles[0], files.handles[1]
    counts = {"train": [0, 0], "val": [0, 0]}  # documents, tokens
    document = done = 0
    with files.writing(folder):
        for res in in_order(results):
            at = 0
            for n in res.lengths:
                part = "val" if is_val(document, fraction) else "train"
                (val if part == "val" else train).write(res.payload[at:at + 2 * n])
                counts[part][0] += 1
                counts[part][1] += n
                at += 2 * n
                document += 1
            done += res.size
            if progress is not None:
                progress(done, total)
        if not counts["val"][1] or not counts["train"][1]:
            raise InputError(f"{document:,} documents with --val-fraction {fraction:g} leave "
                             f"{'val' if not counts['val'][1] else 'train'}.bin empty: give a larger corpus "
                             "or another fraction")
        vocab_size = header.get("vocab_size")
        files.handles[2].write(pickle.dumps({"vocab_size": vocab_size}, protocol=4))
        result = {**header, "format": HEADER_FORMAT, "version": 1, "output": "nanogpt",
                  "documents": document, "tokens": counts["train"][1] + counts["val"][1],
                  "train": {"documents": counts["train"][0], "tokens": counts["train"][1]},
                  "val": {"documents": counts["val"][0], "tokens": counts["val"][1]},
                  "val_fraction": fraction, "dtype": "uint16", "eod_id": spec.eod, "docs": spec.docs}
        files.handles[3].write((json.dumps(result, ensure_ascii=False, indent=1) + "\n").encode())
    return result
