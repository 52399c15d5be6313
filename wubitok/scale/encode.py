"""Encoding a corpus: ranges to workers, results written in order, atomically.

Each task encodes one ``ByteRange`` (``documents``) and returns the bytes to
append to the output plus each document's token count.  The writer puts the
results in range order, so the output is the same for one process, N
processes or a Dask cluster, and equals encoding each document on its own.

Output formats (``--format``):

* ``jsonl``: one ``{"ids": [...]}`` per document (``"offsets"`` too with
  ``offsets=True``: ``[start, end]`` characters in the document);
* ``bin``: the token ids of all documents back to back, little-endian
  ``uint16`` when every id fits, else ``uint32`` (``numpy.memmap(path,
  dtype)``); ``PATH.idx``: ``uint64`` little-endian, the start of every
  document in the array and then its length (documents + 1 values);
  ``PATH.json``: the header (model, its content hash, dtype, counts);
* ``npy``: the same array as a ``.npy`` file (``numpy.load(path,
  mmap_mode="r")``), with the same ``.idx`` and ``.json`` beside it.

When ``output`` is a folder, each range becomes its own file in a new
generation folder there (``shards-<hex>/shard-00000.bin`` with its ``.idx``
and ``.json``, ...) and ``manifest.json`` lists them in order with their
counts; replacing the manifest switches from the old result to the new.

A set of files is replaced as a whole (``fileio.fileset``): written under
temporary names, switched at the end; an error or Ctrl-C removes the temps and
a killed run's are removed by the next run, so the last good result stays.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import sys
from array import array
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import chain, islice, repeat
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..engines.base import SPECIAL_TEXT, Tokenizer, tokenizer_from_dict
from ..errors import InputError
from ..fileio import atomic_write_text, file_lock
from ..fileio.fileset import FileSet
from .documents import RANGE_BYTES, ByteRange, byte_ranges, check_doc_mode, read_range, split_documents
from .stream import MAX_BLOCK_CHARS, encode_blocks

# megatron: Megatron-Core's indexed dataset (scale.megatron); nanogpt: nanoGPT's train/val folder (scale.nanogpt)
OUTPUT_FORMATS = ("jsonl", "bin", "npy", "megatron", "nanogpt")
# Which token ends a document, by model type (the first one the model has).
EOD_TOKENS = ("</s>", "[SEP]", "<|endoftext|>")
HEADER_FORMAT = "wubitok-tokens"

# progress(done_bytes, total_bytes)
ByteProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class EncodeSpec:
    """What each task needs besides its range: small, so it pickles cheaply."""

    model_json: str
    docs: str = "lines"
    fmt: str = "bin"
    dtype: str = "uint16"
    eod: int | None = None
    offsets: bool = False
    encoder: str = "auto"  # the model's encoder choice (a model file does not hold it)
    special: str = "plain"  # special-token text in documents: plain, parse or refuse (base.SPECIAL_TEXT)


@dataclass
class RangeResult:
    index: int
    payload: bytes
    lengths: list[int] = field(default_factory=list)
    size: int = 0


@lru_cache(maxsize=4)
def _model(model_json: str) -> Tokenizer:
    # One parse per process (and per model): tasks of a run share it.
    return tokenizer_from_dict(json.loads(model_json), "model")


def encode_range(spec: EncodeSpec, rng: ByteRange) -> RangeResult:
    """The output bytes of one range: the task every worker runs."""
    model = _model(spec.model_json)
    model.use_encoder(spec.encoder)
    documents = split_documents(read_range(rng), spec.docs)
    model = special_text_model(model, spec.special, documents)
    eod = [] if spec.eod is None else [spec.eod]
    lengths = []
    id_lists: Sequence[Sequence[int]]
    offset_lists: list[list[tuple[int, int]]] = []
    if any(len(doc) > MAX_BLOCK_CHARS for doc in documents):
        # A document of one huge line: encoded a block at a time (stream.encode_blocks, which
        # cuts where no pre-token spans the cut), its ids kept in an array, so its memory is a
        # block's and 4 bytes an id (issue #37, 5).
        id_lists = []
        for doc in documents:
            doc_ids = array("I")
            offsets: list[tuple[int, int]] = []
            for enc in encode_blocks(model, [doc]):
                doc_ids.extend(enc.ids)
                if spec.offsets:
                    offsets.extend(enc.offsets)
            id_lists.append(doc_ids)
            offset_lists.append(offsets)
    elif spec.offsets:
        encodings = model.encode_batch(documents)
        id_lists = [enc.ids for enc in encodings]
        offset_lists = [enc.offsets for enc in encodings]
    else:  # ids alone: some engines skip the offsets then
        id_lists = model.encode_batch_ids(documents)
    if spec.fmt == "jsonl":
        lines = []
        for k, ids in enumerate(id_lists):
            # json.dumps(obj, separators=(",", ":")) of {"ids", "offsets"}, the ids a block at a time
            line = '{"ids":[' + _joined_ints(chain(ids, eod)) + "]"
            if spec.offsets:
                line += ',"offsets":' + json.dumps([list(o) for o in offset_lists[k]], separators=(",", ":"))
            lines.append(line + "}")
            lengths.append(len(ids) + len(eod))
        payload = ("\n".join(lines) + "\n").encode() if lines else b""
    else:
        # all documents at once, in C: ids, then the end-of-document id if any
        flat = array("H" if spec.dtype == "uint16" else "I")
        flat.extend(chain.from_iterable(chain.from_iterable(zip(id_lists, repeat(eod)))))
        lengths = list(map(len(eod).__add__, map(len, id_lists)))
        if sys.byteorder != "little":
            flat.byteswap()
        payload = flat.tobytes()
    return RangeResult(rng.index, payload, lengths, rng.size)


def _joined_ints(values: Iterable[int], block: int = 1 << 16) -> str:
    """``",".join(map(str, values))`` holding a block of strings at a time, not one per value."""
    it = iter(values)
    parts: list[str] = []
    while True:
        some = list(islice(it, block))
        if not some:
            return ",".join(parts)
        parts.append(",".join(map(str, some)))


def special_text_model(model: Tokenizer, special: str, texts: Sequence[str]) -> Tokenizer:
    """The model that encodes ``texts`` as ``special`` says: reading special-token
    text as plain text, as the tokens, or refusing texts that hold one."""
    if special == "parse":
        return model
    if special == "refuse":
        found = next(filter(None, map(model.find_special, texts)), None)
        if found is not None:
            raise InputError(f"the text holds the special token {found!r} "
                             "(--special-tokens plain reads it as text, parse as the token)")
    return model.ordinary()


def model_hash(model_json: str) -> str:
    return hashlib.sha256(model_json.encode("utf-8")).hexdigest()


def eod_id(model: Tokenizer) -> int:
    for tok in EOD_TOKENS:
        i = model.token_to_id(tok)
        if i is not None:
            return i
    raise InputError(f"this {model.model_type} model has no end-of-document token ({' or '.join(EOD_TOKENS)})")


def make_spec(model: Tokenizer, docs: str = "lines", fmt: str = "bin", eod: bool = False,
              offsets: bool = False, special: str = "plain") -> EncodeSpec:
    check_doc_mode(docs)
    if special not in SPECIAL_TEXT:
        raise InputError(f"unknown special-token handling {special!r} (known: {', '.join(SPECIAL_TEXT)})")
    if fmt not in OUTPUT_FORMATS:
        raise InputError(f"unknown output format {fmt!r} (known: {', '.join(OUTPUT_FORMATS)})")
    if offsets and fmt != "jsonl":
        raise InputError("--offsets needs --format jsonl (bin and npy hold ids only)")
    dtype = "uint16" if model.vocab_size <= 1 << 16 else "uint32"
    return EncodeSpec(model.to_json(), docs, fmt, dtype, eod_id(model) if eod else None, offsets,
                      model.encoder_choice, special)


# -- writing ------------------------------------------------------------------

def _npy_header(dtype: str, count: int) -> bytes:
    # A fixed 128-byte header, written first with a zero count and again at
    # the end, so the array streams straight to disk.
    descr = {"uint16": "<u2", "uint32": "<u4"}[dtype]
    text = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, count)
    text = text.ljust(128 - 10 - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text.encode("latin-1")


NANOGPT_FILES = ("train.bin", "val.bin", "meta.pkl", "info.json")


def megatron_prefix(output: str | os.PathLike) -> str:
    """``-o data/corpus`` and ``-o data/corpus.bin`` both name the prefix ``data/corpus``."""
    out = os.fspath(output)
    return out[:-4] if out.endswith(".bin") else out


def output_files(output: str | os.PathLike, fmt: str) -> list[str]:
    """Every file that writing ``output`` in ``fmt`` replaces, in the order its writer opens them:
    the one list the writers and the check of ``-o`` against the inputs share."""
    output = os.fspath(output)
    if fmt == "megatron":  # a prefix
        prefix = megatron_prefix(output)
        return [prefix + ".bin", prefix + ".idx", prefix + ".json"]
    if fmt == "nanogpt":  # a folder
        return [os.path.join(output, name) for name in NANOGPT_FILES]
    return [output, output + ".idx", output + ".json"] if fmt != "jsonl" else [output]


def write_results(results: Iterable[RangeResult], output: str | os.PathLike, spec: EncodeSpec,
                  header: dict[str, Any], total: int, progress: ByteProgress | None = None) -> dict[str, Any]:
    """Write the results (in range order) to ``output``; return the header written."""
    output = os.fspath(output)
    arrays = spec.fmt != "jsonl"
    files = FileSet(output_files(output, spec.fmt))
    tokens = documents = done = 0
    with files.writing(output):
        out = files.handles[0]
        if spec.fmt == "npy":
            out.write(_npy_header(spec.dtype, 0))
        if arrays:
            files.handles[1].write((0).to_bytes(8, "little"))
        for res in in_order(results):
            out.write(res.payload)
            if arrays:
                ends = array("Q")
                for n in res.lengths:
                    tokens += n
                    ends.append(tokens)
                if sys.byteorder != "little":
                    ends.byteswap()
                files.handles[1].write(ends.tobytes())
            else:
                tokens += sum(res.lengths)
            documents += len(res.lengths)
            done += res.size
            if progress is not None:
                progress(done, total)
        result = {**header, "format": HEADER_FORMAT, "version": 1, "output": spec.fmt, "documents": documents,
                  "tokens": tokens, "dtype": spec.dtype if arrays else None, "eod_id": spec.eod, "docs": spec.docs}
        if spec.fmt == "npy":
            out.seek(0)
            out.write(_npy_header(spec.dtype, tokens))
        if arrays:
            files.handles[2].write((json.dumps(result, ensure_ascii=False, indent=1) + "\n").encode())
    return result


def in_order(results: Iterable[RangeResult]) -> Iterator[RangeResult]:
    """``results`` as the writers take them: range 0, 1, 2, ... (the runners keep the order;
    another order is a bug, not bad input)."""
    for expected, res in enumerate(results):
        if res.index != expected:
            raise RuntimeError(f"range {res.index} arrived in place of {expected}")
        yield res


def write_shards(results: Iterable[RangeResult], folder: str | os.PathLike, spec: EncodeSpec,
                 header: dict[str, Any], total: int, progress: ByteProgress | None = None) -> dict[str, Any]:
    """One output per range (``shard-00000.bin`` ...) in a new generation folder
    (``FOLDER/shards-<12 hex>/``), then ``manifest.json`` listing them in order.

    The manifest is the switch: until it is replaced the old manifest and the old
    shards are untouched; after it, the old generation is removed.  A killed run
    leaves at most a generation no manifest names, which the next run removes."""
    folder = os.fspath(folder)
    shards: list[dict[str, Any]] = []
    done = 0
    with file_lock(os.path.join(folder, "manifest.json")):
        remove_unlisted_generations(folder)
        generation = f"shards-{secrets.token_hex(6)}"
        staging = os.path.join(folder, generation)
        os.mkdir(staging)
        try:
            for res in results:
                name = f"shard-{res.index:05d}.{spec.fmt}"
                one = RangeResult(0, res.payload, res.lengths, res.size)
                counts = write_results([one], os.path.join(staging, name), spec, header, 0)
                shards.append({"file": f"{generation}/{name}", "documents": counts["documents"],
                               "tokens": counts["tokens"]})
                done += res.size
                if progress is not None:
                    progress(done, total)
            manifest = {**header, "format": HEADER_FORMAT, "version": 1, "output": spec.fmt,
                        "documents": sum(s["documents"] for s in shards), "tokens": sum(s["tokens"] for s in shards),
                        "dtype": spec.dtype if spec.fmt != "jsonl" else None, "eod_id": spec.eod, "docs": spec.docs,
                        "shards": shards}
            old = listed_files(folder)
            atomic_write_text(os.path.join(folder, "manifest.json"),
                              json.dumps(manifest, ensure_ascii=False, indent=1))
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        for path in old:  # the previous result, now named by no manifest
            _remove_shard(folder, path)
        remove_unlisted_generations(folder)
    return manifest


def replaced_files(output: str | os.PathLike, fmt: str) -> list[str]:
    """Every file that encoding into ``output`` replaces or removes: a folder's manifest and
    the shards it lists now, else the output and its side files."""
    output = os.fspath(output)
    if fmt not in ("megatron", "nanogpt") and os.path.isdir(output):  # a folder of shards
        return [os.path.join(output, f) for f in ["manifest.json", *listed_files(output)]]
    return output_files(output, fmt)


_GENERATION = re.compile(r"shards-[0-9a-f]{12}")


def listed_files(folder: str) -> list[str]:
    """The shard files (with their side files) the folder's current manifest names, relative to it."""
    try:
        with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as fh:
            manifest = json.load(fh)
        names = [s["file"] for s in manifest["shards"]]
        fmt = manifest.get("output", "jsonl")
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return []
    return [f for name in names if isinstance(name, str) for f in output_files(name, fmt)]


def _remove_shard(folder: str, relative: str) -> None:
    path = os.path.normpath(os.path.join(folder, relative))
    if os.path.dirname(path) == os.path.normpath(folder) or _GENERATION.fullmatch(
            os.path.basename(os.path.dirname(path))):  # only files of ours: never outside the folder
        try:
            os.unlink(path)
        except OSError:
            pass


def remove_unlisted_generations(folder: str) -> None:
    """Remove ``shards-<hex>`` folders the manifest does not name: what a killed run left."""
    listed = {f.split("/", 1)[0] for f in listed_files(folder) if "/" in f}
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if _GENERATION.fullmatch(name) and name not in listed:
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)


def _file_name(path: str | os.PathLike) -> str:
    """A file name as the header records it: bytes that are not UTF-8 (a name the OS gave as
    surrogates) as ``\\xff`` escapes, so that the header can be written as UTF-8 JSON."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def encode_files(model: Tokenizer, files: Sequence[str | os.PathLike], output: str | os.PathLike, *,
                 fmt: str = "bin", docs: str = "lines", eod: bool = False, offsets: bool = False,
                 workers: int = 1, cluster: str | None = None, progress: ByteProgress | None = None,
                 range_bytes: int | None = None, encoding: str | None = None,
                 special: str = "plain", val_fraction: float | None = None) -> dict[str, Any]:
    """Encode every document of ``files`` into ``output``; return the header (counts).

    ``encoding`` None reads each file in its own encoding (a TextPath's, else detected).
    ``special``: special-token text in the documents (``</s>``) is "plain" text
    (the default: only ``eod`` puts end-of-document ids, at document ends),
    "parse"d as the tokens, or "refuse"d (an ``InputError``).
    ``val_fraction``: the share of documents nanoGPT's ``val.bin`` gets (``fmt`` "nanogpt")."""
    from .runner import run_ranges

    spec = make_spec(model, docs, fmt, eod, offsets, special)
    write = _writer(fmt, os.path.isdir(output), val_fraction)
    ranges = byte_ranges(files, docs, range_bytes or RANGE_BYTES, encoding)
    total = sum(r.size for r in ranges)
    header = {"model": model.model_type, "model_sha256": model_hash(spec.model_json), "vocab_size": model.vocab_size,
              "files": [_file_name(f) for f in files]}
    results: Iterator[RangeResult] = run_ranges(encode_range, spec, ranges, workers=workers, cluster=cluster)
    try:
        return write(results, output, spec, header, total, progress)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def _writer(fmt: str, to_folder: bool, val_fraction: float | None) -> Callable[..., dict[str, Any]]:
    """The writer of ``fmt``: one file set, shards in a folder, or a training stack's layout."""
    if val_fraction is not None and fmt != "nanogpt":
        raise InputError("--val-fraction is for --format nanogpt")
    if fmt == "megatron":
        from .megatron import write_megatron

        return write_megatron
    if fmt == "nanogpt":
        from .nanogpt import DEFAULT_VAL_FRACTION, check_val_fraction, write_nanogpt

        fraction = check_val_fraction(DEFAULT_VAL_FRACTION if val_fraction is None else val_fraction)
        return partial(write_nanogpt, val_fraction=fraction)
    return write_shards if to_folder else write_results
