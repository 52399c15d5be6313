"""``wubitok encode``: text to token ids with any saved model, from one text to a whole corpus."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..engines.backends import BACKENDS
from ..engines.base import SPECIAL_TEXT, load_tokenizer
from ..errors import InputError
from ..fileio import check_output, file_encoding, iter_text_chunks
from ..scale import DOC_MODES, OUTPUT_FORMATS, encode_files
from ..scale.encode import replaced_files, special_text_model
from ..scale.stream import encode_blocks, write_ids, write_json
from .common import add_encoding, help_formatter, note_encoding, print_json, utf8_argument
from .scale_options import add_quiet_progress, stderr_progress


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "encode", help="encode text (or a corpus, on all cores or a Dask cluster) to token ids",
        formatter_class=help_formatter,
        description="Encode TEXT (or a UTF-8 file, newlines included) with a model file made by\n"
                    "'wubitok train' (any model type). Plain output: the ids on one line, separated\n"
                    "by spaces. --json: one object {\"ids\", \"tokens\", \"offsets\"} for the whole input;\n"
                    "offsets are [start, end] character positions in the input. A --file is read,\n"
                    "encoded and written a block at a time: memory does not grow with the file.\n\n"
                    "With -o, a corpus: every document of the --file(s) (--docs lines, paragraphs or\n"
                    "files) encoded on its own, streamed, in order, into OUT as --format\n"
                    "  jsonl  one {\"ids\": [...]} per document (+ \"offsets\" with --offsets)\n"
                    "  bin    all ids back to back, little-endian uint16 (uint32 if the vocabulary\n"
                    "         needs it), OUT.idx (uint64 document starts + total) and OUT.json (header)\n"
                    "  npy    the same array as a .npy file, with OUT.idx and OUT.json\n"
                    "  megatron  Megatron-Core's indexed dataset: OUT.bin + OUT.idx (MMIDIDX), OUT.json\n"
                    "  nanogpt   the folder OUT with nanoGPT's train.bin, val.bin (--val-fraction of\n"
                    "            the documents) and meta.pkl (vocab_size)\n"
                    "The output is the same for any --workers or --cluster, and appears only when\n"
                    "complete (Ctrl-C or an error leaves nothing). Progress (rate, ETA) is drawn on\n"
                    "stderr when it is a terminal, or with --progress.\n\n"
                    "Special-token text in the input (a literal </s>) is plain text unless\n"
                    "--special-tokens parse; --eod puts the end-of-document id only at document ends.",
        epilog="examples:\n"
               "  wubitok encode -m wubi8k.json 你好，世界\n"
               "  wubitok encode -m wubi8k.json --file article.txt --json > article.ids.json\n"
               "  wubitok encode -m wubi8k.json --file a.txt --file b.txt -o train.bin --workers 2 --eod\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o corpus.jsonl --offsets\n"
               "  wubitok encode -m wubi8k.json --file chat.txt -o chat.bin --special-tokens parse\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o data/corpus --format megatron --eod\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o data/wubi --format nanogpt --eod\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o ids.npy --cluster local:2\n"
               "  wubitok encode -m wubi8k.json --file corpus.txt -o ids.bin --cluster tcp://10.0.0.5:8786\n"
               "  python -c \"import numpy; print(numpy.memmap('train.bin', 'uint16', 'r')[:10])\"",
    )
    p.add_argument("--model", "-m", required=True, metavar="MODEL", help="a model file (JSON)")
    p.add_argument("text", nargs="*", metavar="TEXT", help="the input text (or use --file)")
    p.add_argument("--file", "-f", action="append", default=[], metavar="PATH",
                   help="read the input from a text file (repeatable with -o)")
    add_encoding(p)
    p.add_argument("--json", action="store_true", help="print ids, tokens and offsets as JSON")
    p.add_argument("--special-tokens", choices=SPECIAL_TEXT, default="plain", dest="special",
                   help="special-token text in the input (</s>, [SEP]): plain text (default), "
                        "parse as the tokens, or refuse (exit 2)")
    p.add_argument("--encoder", choices=BACKENDS, default="auto",
                   help="wubi-bpe and bpe: apply the merges with HF tokenizers (fast; the same ids, for bpe "
                        "in corpus encoding) or in Python; auto: fast when installed (default)")
    corpus = p.add_argument_group("corpus encoding (with -o)")
    corpus.add_argument("--output", "-o", metavar="OUT", help="write the encoded corpus here")
    corpus.add_argument("--format", choices=OUTPUT_FORMATS,
                        help=f"{', '.join(OUTPUT_FORMATS)} (default: by OUT's extension)")
    corpus.add_argument("--docs", choices=DOC_MODES, default="lines", help="what a document is (default: lines)")
    corpus.add_argument("--workers", type=int, default=1, metavar="N", help="processes to encode with (default 1)")
    corpus.add_argument("--cluster", metavar="WHERE",
                        help="encode on Dask: local:N (a LocalCluster of N processes) or tcp://HOST:PORT")
    corpus.add_argument("--eod", action="store_true", help="end every document with the model's </s> ([SEP])")
    corpus.add_argument("--offsets", action="store_true", help="jsonl: add each token's [start, end] characters")
    corpus.add_argument("--val-fraction", type=float, metavar="F",
                        help="nanogpt: the share of documents in val.bin (default 0.0005, as nanoGPT's openwebtext)")
    add_quiet_progress(corpus)
    p.set_defaults(func=run, stdin_copied=("file",))


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    ext = os.path.splitext(args.output)[1].lstrip(".").lower()
    if ext in OUTPUT_FORMATS:
        return ext
    raise InputError(f"give --format ({', '.join(OUTPUT_FORMATS)}): {args.output!r} has no known extension")


def run_corpus(args: argparse.Namespace) -> int:
    if args.text:
        raise InputError("with -o, give the corpus as --file PATH (repeatable), not TEXT")
    if not args.file:
        raise InputError("with -o, give the corpus as --file PATH (repeatable)")
    if args.output == "-" and _format(args) != "jsonl":
        raise InputError("-o - (standard output) takes --format jsonl: bin and npy have side files")
    check_output(args.output, [*args.file, args.model])
    # side files, shards and every file a prefix or folder format writes, by inode
    for target in replaced_files(args.output, _format(args)):
        check_output(target, [*args.file, args.model])
    tokenizer = load_tokenizer(args.model)
    tokenizer.use_encoder(args.encoder)
    # A progress line on a terminal, or when asked: in a log or a pipe it would be noise.
    with stderr_progress(_show_progress(args)) as bar:
        header = encode_files(tokenizer, args.file, args.output, fmt=_format(args), docs=args.docs, eod=args.eod,
                              offsets=args.offsets, workers=args.workers, cluster=args.cluster,
                              encoding=args.encoding, special=args.special, val_fraction=args.val_fraction,
                              progress=None if bar is None else (lambda done, total: bar("encoding", done, total)))
    if not args.quiet:
        print(f"wrote {args.output}: {header['documents']:,} documents, {header['tokens']:,} tokens"
              + (f" ({header['dtype']})" if header["dtype"] else ""), file=sys.stderr)
    return 0


def _show_progress(args: argparse.Namespace) -> bool:
    return not args.quiet and (args.progress or sys.stderr.isatty())


def encode_file(args: argparse.Namespace) -> int:
    """One file as one text, streamed (``scale.stream``); ``-`` arrives as a copy of standard input."""
    path = args.file[0]
    tokenizer = load_tokenizer(args.model)
    tokenizer.use_encoder(args.encoder)
    encoding = file_encoding(path, args.encoding)  # detected once (a bad file fails here)
    note_encoding(args, path, encoding)
    total = Path(path).stat().st_size
    with stderr_progress(_show_progress(args)) as bar:
        done = 0

        def chunks():
            nonlocal done
            for chunk in iter_text_chunks(path, encoding=encoding):
                special_text_model(tokenizer, args.special, [chunk])  # refuse: checked block by block
                yield chunk
                if bar is not None:  # bytes, to compare with the file's size
                    done += len(chunk.encode(encoding, "surrogatepass"))
                    bar("encoding", min(done, total), total)

        encodings = encode_blocks(special_text_model(tokenizer, args.special, []), chunks())
        (write_json if args.json else write_ids)(encodings, sys.stdout)
        if bar is not None:
            bar("encoding", total, total)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        return run_corpus(args)
    corpus_only = [flag for flag, on in (("--workers", args.workers != 1), ("--cluster", args.cluster),
                                         ("--eod", args.eod), ("--offsets", args.offsets), ("--format", args.format),
                                         ("--val-fraction", args.val_fraction is not None))
                   if on]
    if corpus_only:
        raise InputError(f"{corpus_only[0]} is for corpus encoding: add -o OUT")
    if len(args.file) > 1:
        raise InputError("one --file without -o (several files: encode them as a corpus with -o OUT)")
    if args.text and args.file:
        raise InputError("give TEXT or --file, not both")
    if args.file:
        return encode_file(args)
    if args.text:
        text = utf8_argument(" ".join(args.text))
    else:
        raise InputError("no input: give TEXT or --file PATH")
    tokenizer = load_tokenizer(args.model)
    tokenizer.use_encoder(args.encoder)
    enc = special_text_model(tokenizer, args.special, [text]).encode(text)
    if args.json:
        print_json(enc.to_json())
    else:
        sys.stdout.write(" ".join(map(str, enc.ids)) + "\n")
    return 0
