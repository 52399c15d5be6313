"""Exports with roles: tokenizer.json carries the pad token, and every engine has a transformers folder (issue #32).

``PreTrainedTokenizerFast(tokenizer_file=...)`` pads a batch from the
tokenizer.json alone; ``AutoTokenizer.from_pretrained(folder)`` loads the
folder of byte-level BPE, WordPiece and Unigram without code of ours, pads,
truncates and gives our ids.
"""
from __future__ import annotations

import json

import pytest
from transformers import AutoTokenizer, PreTrainedTokenizerFast

from tests.cli.cli_run import run
from wubitok.engines.base import load_tokenizer
from wubitok.exports import export
from wubitok.paths import resources_dir

MODELS = resources_dir() / "models"
LINES = [line for line in (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8").splitlines()
         if line.strip()][:150] + ["床前明月光，疑是地上霜。", "Mixed 中英 text 12345"]
KINDS = ["bpe", "wordpiece", "unigram"]
PAD = {"bpe": "<pad>", "wordpiece": "[PAD]", "unigram": "</s>"}  # Unigram has no pad token: its end token


def _model(kind):
    return load_tokenizer(MODELS / f"{kind}-6000.json")


def test_special_roles_by_engine():
    assert _model("bpe").special_roles() == {"pad_token": "<pad>", "unk_token": "<unk>", "bos_token": "<s>",
                                             "eos_token": "</s>"}
    assert _model("wordpiece").special_roles() == {"pad_token": "[PAD]", "unk_token": "[UNK]", "cls_token": "[CLS]",
                                                   "sep_token": "[SEP]", "mask_token": "[MASK]"}
    assert _model("unigram").special_roles() == {"unk_token": "<unk>", "bos_token": "<s>", "eos_token": "</s>"}
    assert _model("wubi-bpe").special_roles()["pad_token"] == "<pad>"


@pytest.mark.parametrize("kind", KINDS)
def test_pretrained_tokenizer_fast_pads_a_tokenizer_json_export(kind, tmp_path):
    path = tmp_path / "tokenizer.json"
    export(_model(kind), "tokenizer.json", path)
    tok = PreTrainedTokenizerFast(tokenizer_file=str(path))
    assert tok.pad_token == PAD[kind]
    batch = tok(LINES[:4], padding=True, add_special_tokens=False)
    width = max(map(len, batch["input_ids"]))
    assert all(len(row) == width for row in batch["input_ids"])
    ours = _model(kind)
    for ids, mask, line in zip(batch["input_ids"], batch["attention_mask"], LINES[:4]):
        n = sum(mask)
        assert ids[:n] == ours.encode(line).ids and set(ids[n:]) <= {ours.token_to_id(PAD[kind])}


@pytest.mark.parametrize("kind", KINDS)
def test_autotokenizer_loads_the_folder_of_every_engine(kind, tmp_path, capsys):
    folder = tmp_path / kind
    code, out, err = run(capsys, "export", "-m", MODELS / f"{kind}-6000.json", "--to", "transformers", "-o", folder)
    assert code == 0, err
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert config["tokenizer_class"] == "PreTrainedTokenizerFast" and config["pad_token"] == PAD[kind]
    auto = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    ours = _model(kind)
    assert [auto(line, add_special_tokens=False)["input_ids"] for line in LINES] == [ours.encode(line).ids
                                                                                     for line in LINES]
    batch = auto(LINES[:8], padding=True, truncation=True, max_length=6, add_special_tokens=False)
    assert all(len(row) == 6 for row in batch["input_ids"])
    assert [row[:sum(m)] for row, m in zip(batch["input_ids"], batch["attention_mask"])] == [
        ours.encode(line).ids[:6] for line in LINES[:8]]
    if ours.lossless:
        assert auto.decode(ours.encode(LINES[-2]).ids) == LINES[-2]


@pytest.mark.parametrize("kind", KINDS + ["wubi-bpe"])
def test_add_special_tokens_gives_our_ids_in_every_transformers_export(kind, tmp_path, capsys):
    # transformers as the oracle: its add_special_tokens (on by default) and ours add the same
    # tokens (<s> ... </s>, WordPiece [CLS] ... [SEP]); off, neither adds any.
    folder = tmp_path / kind
    code, _, err = run(capsys, "export", "-m", MODELS / f"{kind}-6000.json", "--to", "transformers", "-o", folder)
    assert code == 0, err
    auto = AutoTokenizer.from_pretrained(str(folder), local_files_only=True, trust_remote_code=kind == "wubi-bpe")
    ours = _model(kind)
    framed = [ours.encode(line, add_special_tokens=True).ids for line in LINES]
    assert [auto(line)["input_ids"] for line in LINES] == framed
    assert auto(LINES[:5])["input_ids"] == framed[:5]
    assert [auto(line, add_special_tokens=False)["input_ids"] for line in LINES] == [
        ours.encode(line).ids for line in LINES]
    first, last = ours.special_frame()
    assert framed[0][0] == ours.token_to_id(first[0]) and framed[0][-1] == ours.token_to_id(last[0])
    if kind == "wordpiece":  # a pair as BERT's: [CLS] A [SEP] B [SEP]
        a, b = ours.encode(LINES[0]).ids, ours.encode(LINES[1]).ids
        assert auto(LINES[0], LINES[1])["input_ids"] == [2, *a, 3, *b, 3] == framed[0] + b + framed[0][-1:]
