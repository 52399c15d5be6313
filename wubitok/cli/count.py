"""``wubitok count``: a corpus's pre-token counts as a word<TAB>count file, to train from later or elsewhere."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..engines.base import available_models, load_tokenizer
from ..engines.pre_tokenizers.wubi import DEFAULT_MODE
from ..errors import FileError, InputError
from ..fileio import check_output, check_readable_text
from ..scale import count_pretokens, write_counts_tsv
from ..scale.runner import check_workers
from ..services.training import check_pre_tokens
from .common import add_encoding, add_pre_tokens, help_formatter, note_encodings
from .scale_options import add_quiet_progress, add_scale_options, stderr_progress


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "count", help="count a corpus's pre-tokens into a word<TAB>count file (to train from later)",
        formatter_class=help_formatter,
        description="Count the pre-tokens of text files as MODEL (a model type, or a model file whose\n"
                    "type and special tokens are used) counts them for training, and write\n"
                    "word<TAB>count lines (highest count first; a tab, line break or backslash in a\n"
                    "word written \\t, \\n, \\r, \\\\): the file sentencepiece's input_format=tsv reads\n"
                    "and 'wubitok train --counts' trains from. Counts of parts of a corpus add up:\n"
                    "count the parts anywhere, train from all the files.",
        epilog="examples:\n"
               "  wubitok count -m wubi-bpe --file corpus.txt -o counts.tsv\n"
               "  wubitok count -m bpe --file a.txt --file b.txt -o counts.tsv --workers 2\n"
               "  wubitok count -m wubi-bpe --file big.txt -o counts.tsv --cluster tcp://10.0.0.5:8786\n"
               "  wubitok train -m wubi-bpe -v 32000 --counts counts.tsv -o wubi32k.json",
    )
    p.add_argument("--model", "-m", required=True, metavar="MODEL", help="a model type or a model file")
    p.add_argument("--file", "-f", action="append", default=[], metavar="PATH", required=True,
                   help="a corpus file (repeatable)")
    add_encoding(p)
    p.add_argument("--output", "-o", required=True, metavar="COUNTS.tsv", help="where to write the counts")
    p.add_argument("--special-token", action="append", default=[], metavar="T", dest="special_tokens",
                   help="an extra special token, counted whole (repeatable; as in 'wubitok train')")
    add_pre_tokens(p, f"default: a model file's, else {DEFAULT_MODE}; train with the same")
    add_scale_options(p)
    p.add_argument("--sample", type=int, metavar="N", help="count N lines of the corpus drawn at random")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="which random sample (default 0)")
    add_quiet_progress(p)
    p.set_defaults(func=run, stdin_copied=("file",))


def _model_and_specials(name: str, extra: list[str]) -> tuple[str, list[str], dict[str, Any]]:
    """The model type, the special tokens and the counting options (a model file's own: its cut)."""
    if name in available_models():
        return name, extra, {}
    if Path(name).is_file():
        tok = load_tokenizer(name)
        return tok.model_type, list(dict.fromkeys([*tok.special_tokens, *extra])), tok.count_options()
    raise InputError(f"unknown model type {name!r} and no such model file "
                     f"(model types: {', '.join(available_models())})")


def run(args: argparse.Namespace) -> int:
    model, specials, options = _model_and_specials(args.model, args.special_tokens)
    check_pre_tokens(model, args.pre_tokens, "--pre-tokens")
    if args.pre_tokens is not None:
        options["pre_tokens"] = args.pre_tokens
    check_workers(args.workers)
    out = check_output(args.output, [*args.file, args.model])
    # Before the counting, not after: the folder is where the temporary file goes.
    if not out.resolve().parent.is_dir():
        raise FileError(f"{out}: folder {out.resolve().parent} does not exist")
    paths = check_readable_text(args.file, encoding=args.encoding)
    note_encodings(args, paths)
    with stderr_progress(not args.quiet and (args.progress or sys.stderr.isatty())) as bar:
        counts = count_pretokens(
            files=paths, model=model, special_tokens=specials, workers=args.workers, cluster=args.cluster,
            sample=args.sample, seed=args.seed, max_words=args.max_words, **options,
            progress=None if bar is None else (lambda done, total: bar("counting", done, total)))
    if not counts:
        raise InputError("no pre-tokens in the corpus: nothing to write")
    write_counts_tsv(counts, out)
    if not args.quiet:
        print(f"wrote {args.output}: {len(counts):,} pre-tokens, {sum(counts.values()):,} in all", file=sys.stderr)
    return 0
