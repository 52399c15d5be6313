"""The transformers folder of a Wubi-BPE model: loaded by AutoTokenizer and by the class, same ids as ours."""
from __future__ import annotations

import json
import sys

import pytest
from datasets import Dataset
from hypothesis import given
from hypothesis import strategies as st
from transformers import AutoTokenizer

from tests.cli.cli_run import run
from wubitok.engines.base import load_tokenizer
from wubitok.integrations.transformers import WubiBPETokenizer
from wubitok.paths import resources_dir

MODEL = resources_dir() / "models" / "wubi-bpe-6000.json"
LINES = [line for line in (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8").splitlines()
         if line.strip()][:200] + ["Mixed 中英 text, 数字 12345 and emoji 😀 with <s> specials </s>."]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("hf") / "wubi-tokenizer"
    assert run_cli("export", "-m", MODEL, "--to", "transformers", "-o", out) == 0
    return out


def run_cli(*argv):
    from wubitok.cli import main

    return main([str(a) for a in argv])


@pytest.fixture(scope="module")
def auto(folder):
    return AutoTokenizer.from_pretrained(str(folder), trust_remote_code=True, local_files_only=True)


def test_folder_carries_the_code_and_the_auto_map(folder):
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert config["auto_map"]["AutoTokenizer"][0] == "tokenization_wubitok.WubiBPETokenizer"
    assert (folder / "tokenization_wubitok.py").is_file() and (folder / "wubitok.json").is_file()


def test_autotokenizer_ids_equal_wubitok_encode(auto, capsys):
    assert type(auto).__name__ == "WubiBPETokenizer"
    for line in LINES[:3] + LINES[-1:]:  # the last one holds <s> and </s>: HF reads them as the tokens
        code, out, _ = run(capsys, "encode", "-m", MODEL, "--special-tokens", "parse", line)
        assert code == 0 and auto(line, add_special_tokens=False)["input_ids"] == [int(x) for x in out.split()]
        code, out, _ = run(capsys, "encode", "-m", MODEL, line)  # the CLI's default: special-token text is text
        assert auto(line, split_special_tokens=True, add_special_tokens=False)["input_ids"] == [
            int(x) for x in out.split()]
    ours = load_tokenizer(MODEL)
    assert [auto(line, add_special_tokens=False)["input_ids"] for line in LINES] == [ours.encode(line).ids
                                                                                    for line in LINES]
    # add_special_tokens (transformers' default) adds what ours adds: <s> ... </s>
    assert [auto(line)["input_ids"] for line in LINES] == [ours.encode(line, add_special_tokens=True).ids
                                                           for line in LINES]


def test_the_class_loads_the_folder_directly(folder, auto):
    direct = WubiBPETokenizer.from_pretrained(str(folder))
    assert [direct(t)["input_ids"] for t in LINES] == [auto(t)["input_ids"] for t in LINES]


def test_special_tokens(auto):
    assert (auto.pad_token_id, auto.unk_token_id, auto.bos_token_id, auto.eos_token_id) == (0, 1, 2, 3)
    assert (auto.pad_token, auto.unk_token, auto.bos_token, auto.eos_token) == ("<pad>", "<unk>", "<s>", "</s>")
    assert auto("a<s>b</s>", add_special_tokens=False)["input_ids"][1] == 2
    assert auto.decode(auto("你好<s>")["input_ids"], skip_special_tokens=True) == "你好"


@given(st.text(max_size=80))
def test_decode_is_exact(auto, text):
    assert auto.decode(auto(text, add_special_tokens=False)["input_ids"]) == text
    assert auto.decode(auto(text)["input_ids"], skip_special_tokens=True) == text


def test_batch_padding_truncation_offsets(auto):
    ours = load_tokenizer(MODEL)
    texts = ["你好", "今天天气很好，我们去公园吧。Hello!", ""]
    batch = auto(texts, padding=True, truncation=True, max_length=8, return_offsets_mapping=True,
                 add_special_tokens=False)
    for i, text in enumerate(texts):
        enc = ours.encode(text)
        n = min(len(enc.ids), 8)
        assert batch["input_ids"][i] == enc.ids[:n] + [0] * (8 - n)
        assert batch["attention_mask"][i] == [1] * n + [0] * (len(batch["input_ids"][i]) - n)
        assert [tuple(o) for o in batch["offset_mapping"][i][:n]] == list(enc.offsets[:n])
    left = auto(texts, padding="max_length", truncation=True, max_length=12, padding_side="left",
                add_special_tokens=False)
    assert all(len(row) == 12 for row in left["input_ids"]) and left["input_ids"][0][-2:] == ours.encode("你好").ids


def test_bos_eos_as_asked(folder):
    tok = WubiBPETokenizer.from_pretrained(str(folder), add_bos_token=True, add_eos_token=False)
    assert tok("你好")["input_ids"] == [2, *load_tokenizer(MODEL).encode("你好").ids]
    tok = WubiBPETokenizer.from_pretrained(str(folder), add_bos_token=False, add_eos_token=False)
    assert tok("你好")["input_ids"] == load_tokenizer(MODEL).encode("你好").ids


def test_datasets_map_with_two_processes(auto):
    ds = Dataset.from_dict({"text": LINES})
    mapped = ds.map(lambda batch: auto(batch["text"]), batched=True, num_proc=2)
    ours = load_tokenizer(MODEL)
    assert mapped["input_ids"] == [ours.encode(t, add_special_tokens=True).ids for t in LINES]


def test_transformers_without_torch(folder):
    # The folder loads and encodes with transformers where torch is not installed.  The suite has
    # torch (the lm extra), so a process of its own hides it: a None in sys.modules is what Python
    # reads as "no such module" (find_spec gives None, import raises ImportError).
    import subprocess

    script = ("import sys; sys.modules['torch'] = None; from transformers import AutoTokenizer; "
              f"t = AutoTokenizer.from_pretrained({str(folder)!r}, trust_remote_code=True, local_files_only=True); "
              "print(t('你好，世界', add_special_tokens=False)['input_ids'])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(load_tokenizer(MODEL).encode("你好，世界").ids)


TANG = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"


@pytest.fixture(scope="module")
def small_auto(tmp_path_factory):
    """The export of a small model, whose tokens often end between a character's keys and its index."""
    from wubitok.engines.bpe.wubi import WubiBPE
    from wubitok.integrations.transformers import save_tokenizer_folder

    text = (resources_dir() / "samples" / "tang300.txt").read_text(encoding="utf-8")[:30_000]
    out = tmp_path_factory.mktemp("hf") / "small"
    save_tokenizer_folder(WubiBPE.train([text], vocab_size=500), out)
    return AutoTokenizer.from_pretrained(str(out), trust_remote_code=True, local_files_only=True)


@pytest.mark.parametrize("name", ["auto", "small_auto"])
def test_text_streamer_prints_only_final_text_of_a_tang_line(name, request):
    # What model.generate does with a streamer: put() the prompt, then each
    # new id, then end(); TextStreamer decodes its cache and prints what it
    # takes as final.  A cut-off character must never be printed as another.
    import numpy as np
    from transformers import TextStreamer

    auto = request.getfixturevalue(name)

    class Collect(TextStreamer):
        def on_finalized_text(self, text: str, stream_end: bool = False) -> None:
            self.printed.append(text)

    streamer = Collect(auto, skip_prompt=True)
    streamer.printed = []
    ids = auto(TANG, add_special_tokens=False)["input_ids"]
    streamer.put(np.array([[auto.bos_token_id]]))  # the prompt
    for i in ids:
        streamer.put(np.array([i]))
        assert TANG.startswith("".join(streamer.printed)), "".join(streamer.printed)
    streamer.end()
    assert "".join(streamer.printed) == TANG


def test_decode_stream_of_the_export_gives_the_tang_line(auto):
    stream = auto.decode_stream()
    out = ""
    for i in auto(TANG, add_special_tokens=False)["input_ids"]:
        out += stream.step(i)
        assert TANG.startswith(out)
    assert out + stream.finish() == TANG


@pytest.mark.parametrize("model", ["wubi-bpe-6000", "bpe-6000"])
def test_export_to_transformers_prints_no_foreign_warning(tmp_path, model):
    # transformers advised "PyTorch was not found" on stderr at its first import
    import os
    import subprocess

    out = tmp_path / "folder"
    env = {k: v for k, v in os.environ.items() if k != "TRANSFORMERS_NO_ADVISORY_WARNINGS"}
    proc = subprocess.run([sys.executable, "-m", "wubitok", "export", "-m", str(resources_dir() / "models" /
                           f"{model}.json"), "--to", "transformers", "-o", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr == f"wrote {out} (transformers, 6000 tokens)\n"
