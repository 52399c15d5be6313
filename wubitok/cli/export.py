"""``wubitok export``: a model to the format a training stack loads."""
from __future__ import annotations

import argparse
import sys

from ..engines.base import load_tokenizer
from ..exports import EXPORTS, FORMATS, export
from ..fileio import check_output
from .common import help_formatter


def register(sub: argparse._SubParsersAction) -> None:
    pairs = "\n".join(f"  {kind:<10} -> {fmt}" for kind, fmt in EXPORTS)
    p = sub.add_parser(
        "export", help="export a model as tokenizer.json, tiktoken, vocab.txt, sentencepiece or transformers",
        formatter_class=help_formatter,
        description="Write a model in a format another library loads, with the same ids.\n"
                    f"What can be exported:\n{pairs}\n"
                    "A transformers folder loads with AutoTokenizer.from_pretrained(folder): for\n"
                    "bpe, wordpiece and unigram with transformers alone (their tokenizer.json, with\n"
                    "the pad/unk/bos/eos roles), for wubi-bpe with trust_remote_code=True where\n"
                    "wubitok is installed; wubi-bpe's transformers-fast folder loads with\n"
                    "transformers alone (its tokenizer.json spells the text in HF's normalizer).",
        epilog="examples:\n"
               "  wubitok export -m bpe.json --to tokenizer.json -o tokenizer.json\n"
               "  wubitok export -m bpe.json --to tiktoken -o bpe.tiktoken\n"
               "  wubitok export -m wp.json --to vocab.txt -o vocab.txt\n"
               "  wubitok export -m uni.json --to sentencepiece -o uni.model\n"
               "  wubitok export -m wubi.json --to transformers -o wubi-tokenizer/\n"
               "  wubitok export -m wubi.json --to transformers-fast -o wubi-fast/\n"
               "  wubitok export -m bpe.json --to transformers -o bpe-tokenizer/",
    )
    p.add_argument("--model", "-m", required=True, metavar="MODEL", help="a model file (JSON)")
    p.add_argument("--to", required=True, choices=FORMATS, metavar="FORMAT", help=", ".join(FORMATS))
    p.add_argument("--output", "-o", required=True, metavar="PATH", help="the file (or folder) to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_output(args.output, [args.model])
    model = load_tokenizer(args.model)
    export(model, args.to, args.output, [args.model])
    print(f"wrote {args.output} ({args.to}, {model.vocab_size} tokens)", file=sys.stderr)
    return 0
