"""Special-token text in a corpus is plain text unless asked (issue #32).

``printf '第一行\\n<s>第二行</s>\\n' > c.txt; wubitok encode -m wubi.json --file c.txt -o o.bin --eod``
gave the second document as ``[2, ..., 3, 3]``: the literal ``</s>`` made a
fake end of document.  Now it is spelled like any other text, ``--eod`` ids
stand only at document ends, and ``--special-tokens parse|refuse`` ask for
the tokens or for an error.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.cli.cli_run import run
from wubitok.engines.base import available_models, engine_class, load_tokenizer
from wubitok.paths import resources_dir

MODELS = resources_dir() / "models"
CORPUS = "第一行\n<s>第二行</s>\n"


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(CORPUS, encoding="utf-8")
    return path


def _documents(out):
    ids = np.fromfile(out, dtype="<u2").tolist()
    ends = np.fromfile(f"{out}.idx", dtype="<u8").tolist()
    return [ids[a:b] for a, b in zip(ends, ends[1:])]


@pytest.mark.parametrize("name", ["wubi-bpe-6000", "bpe-6000", "unigram-6000", "wordpiece-6000"])
def test_a_literal_end_token_in_a_corpus_is_text_by_default(capsys, corpus, tmp_path, name):
    model = MODELS / f"{name}.json"
    tok = load_tokenizer(model)
    out = tmp_path / "o.bin"
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "--eod", "-q")[0] == 0
    eod = tok.token_to_id("</s>") if tok.token_to_id("</s>") is not None else tok.token_to_id("[SEP]")
    first, second = _documents(out)
    assert first[-1] == second[-1] == eod
    assert eod not in first[:-1] + second[:-1] and not set(second) & tok.special_ids() - {eod}
    if tok.lossless:
        assert tok.decode(second[:-1]) == "<s>第二行</s>"


def test_parse_reads_them_as_the_tokens_and_refuse_fails_in_one_line(capsys, corpus, tmp_path):
    model = MODELS / "wubi-bpe-6000.json"
    out = tmp_path / "o.bin"
    assert run(capsys, "encode", "-m", model, "--file", corpus, "-o", out, "--eod", "-q",
               "--special-tokens", "parse")[0] == 0
    second = _documents(out)[1]
    assert second[0] == 2 and second[-2:] == [3, 3]  # as before: <s> ... </s> and the --eod id
    refused = tmp_path / "r.bin"
    code, _, err = run(capsys, "encode", "-m", model, "--file", corpus, "-o", refused, "--special-tokens", "refuse")
    assert code == 2 and err.count("\n") == 1 and "'<s>'" in err
    assert not any(p.name.startswith("r.bin") for p in tmp_path.iterdir())


def test_text_and_file_encoding_take_the_same_option(capsys, corpus):
    model = MODELS / "wubi-bpe-6000.json"
    tok = load_tokenizer(model)
    code, out, _ = run(capsys, "encode", "-m", model, "<s>你好</s>")
    assert code == 0 and list(map(int, out.split())) == tok.encode_ordinary("<s>你好</s>").ids
    code, out, _ = run(capsys, "encode", "-m", model, "--special-tokens", "parse", "<s>你好</s>")
    assert list(map(int, out.split())) == tok.encode("<s>你好</s>").ids
    code, out, _ = run(capsys, "encode", "-m", model, "--file", corpus)
    assert code == 0 and 2 not in map(int, out.split())
    assert run(capsys, "encode", "-m", model, "--file", corpus, "--special-tokens", "refuse")[0] == 2


@pytest.mark.parametrize("model_type", available_models())
def test_encode_ordinary_and_n_vocab_on_every_engine(model_type):
    tok = engine_class(model_type).train(["第一行 some text\n第二行 more text\n" * 20], vocab_size=400)
    text = "".join(tok.special_tokens) + "第二行"
    assert set(tok.encode(text).ids) >= tok.special_ids()
    plain = tok.encode_ordinary(text)
    unknown = {tok.token_to_id("[UNK]")}  # WordPiece spells characters it lacks so
    assert not set(plain.ids) & (tok.special_ids() - unknown)
    assert tok.ordinary().encode_batch([text])[0].ids == plain.ids
    if tok.lossless:
        assert tok.decode(plain.ids) == text
    assert tok.find_special("a " + tok.special_tokens[-1] + " b") == tok.special_tokens[-1]
    assert tok.find_special("第二行") is None
    assert tok.n_vocab == tok.vocab_size


@pytest.mark.parametrize("model_type", available_models())
def test_add_special_tokens_frames_the_text_as_transformers_does(model_type):
    tok = engine_class(model_type).train(["第一行 some text\n第二行 more text\n" * 20], vocab_size=400)
    plain = tok.encode("第二行 text")
    framed = tok.encode("第二行 text", add_special_tokens=True)
    roles = tok.special_roles()
    start = roles.get("bos_token") or roles.get("cls_token")
    end = roles.get("eos_token") or roles.get("sep_token")
    assert framed.ids == [tok.token_to_id(start), *plain.ids, tok.token_to_id(end)]
    assert framed.tokens[0] == start and framed.offsets[0] == (0, 0) and len(framed.partial) == len(framed.ids)
    assert tok.decode(framed.ids, skip_special_tokens=True) == tok.decode(plain.ids)
    assert tok.encode("第二行 text", add_special_tokens=False) == plain
