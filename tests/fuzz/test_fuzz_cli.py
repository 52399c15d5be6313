"""Fuzzing the command line and the model loaders with hypothesis.

Random bytes, random JSON and mutated real models as model and ids files,
random text as arguments: every run ends with exit 0 or one line and exit 2,
never a traceback, never a hang (an alarm bounds each run), and never a file
left behind.  The budget is small so that the default run stays short; raise
it with ``WUBITOK_FUZZ_EXAMPLES=2000`` to fuzz longer.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wubitok.cli import main
from wubitok.paths import resources_dir

MODELS = resources_dir() / "models"
REAL_MODELS = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(MODELS.glob("*.json"))}
EXAMPLES = int(os.environ.get("WUBITOK_FUZZ_EXAMPLES", "60"))
# Far longer than any run takes (well under a second each): only a hang gets there.
HANG_SECONDS = 60

fuzz = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


class Hang(Exception):
    pass


@contextlib.contextmanager
def _bounded():
    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"a run took more than {HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _run(capsys, folder: Path, *argv: object) -> tuple[int, str, str]:
    """Run wubitok in-process; any exception but the CLI's own exits fails the test."""
    before = set(os.listdir(folder))
    with _bounded():
        try:
            code = main([os.fspath(a) if isinstance(a, Path) else str(a) for a in argv])
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err
    if code == 2:
        # One error line, last; before it at most the note on a detected encoding.
        *notes, last = err.splitlines()
        assert last.startswith("wubitok") and ": error: " in last, err
        assert all(" reading " in n and n.startswith("wubitok ") for n in notes), err
    left = set(os.listdir(folder)) - before
    assert not {n for n in left if n.endswith((".tmp", ".partial"))}, left
    return code, out, err


def _mutate(data: Any, draw: Any) -> Any:
    """``data`` with one value somewhere inside replaced, removed or made huge."""
    if isinstance(data, dict) and data:
        key = draw(st.sampled_from(sorted(data)))
        action = draw(st.sampled_from(["replace", "delete", "recurse"]))
        out = dict(data)
        if action == "delete":
            del out[key]
        elif action == "replace":
            out[key] = draw(json_values)
        else:
            out[key] = _mutate(data[key], draw)
        return out
    if isinstance(data, list) and data:
        i = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["replace", "delete", "recurse", "duplicate"]))
        out = list(data)
        if action == "delete":
            del out[i]
        elif action == "replace":
            out[i] = draw(json_values)
        elif action == "duplicate":
            out.insert(i, data[i])
        else:
            out[i] = _mutate(data[i], draw)
        return out
    return draw(json_values)


@st.composite
def mutated_models(draw: Any) -> bytes:
    name = draw(st.sampled_from(sorted(REAL_MODELS)))
    data = REAL_MODELS[name]
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate(data, draw)
    text = json.dumps(data, ensure_ascii=False)
    if draw(st.booleans()):
        return text.encode()
    # Or cut or damaged as bytes: a partial download, a flipped bit.
    raw = bytearray(text.encode())
    at = draw(st.integers(0, len(raw) - 1))
    if draw(st.booleans()):
        return bytes(raw[:at])
    raw[at] ^= 1 << draw(st.integers(0, 7))
    return bytes(raw)


# What JSON parsers choke on: nesting deeper than Python recurses, numbers
# longer than Python converts (4,300 digits).
json_extremes = st.one_of(
    st.integers(1, 200_000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.integers(1, 100_000).map(lambda n: ('{"a":' * n + "1" + "}" * n).encode()),
    st.integers(4_000, 6_000).map(lambda n: ("[" + "9" * n + "]").encode()),
)
model_files = st.one_of(
    st.binary(max_size=400),
    json_values.map(lambda v: json.dumps(v).encode()),
    json_extremes,
    mutated_models(),
)


@fuzz
@given(model=model_files, text=st.text(max_size=30))
def test_any_model_file(capsys, tmp_path_factory, model, text):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "m.json"
    path.write_bytes(model)
    code, _, _ = _run(capsys, folder, "encode", "-m", path, text or "你好 abc")
    if code == 0:
        out = folder / "out.txt"
        _run(capsys, folder, "decode", "-m", path, "0", "1", "2", "-o", out)


@fuzz
@given(data=st.binary(max_size=400), kind=st.sampled_from(["--hf-tokenizer", "--spm-model", "--tiktoken"]))
def test_any_external_tokenizer_file(capsys, tmp_path_factory, data, kind):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / {"--hf-tokenizer": "tokenizer.json", "--spm-model": "x.model", "--tiktoken": "x.tiktoken"}[kind]
    path.write_bytes(data)
    _run(capsys, folder, "compare", "你好 abc", kind, path)


@fuzz
@given(ids=st.one_of(st.binary(max_size=300), json_values.map(lambda v: json.dumps(v).encode()), json_extremes,
                     st.lists(st.integers(-5, 10_000), max_size=20).map(lambda xs: " ".join(map(str, xs)).encode())))
def test_any_ids_file(capsys, tmp_path_factory, ids):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "ids.txt"
    path.write_bytes(ids)
    _run(capsys, folder, "decode", "-m", MODELS / "bpe-6000.json", "--ids-file", path, "-o", folder / "out.txt")


# Arguments as a shell passes them: any bytes, decoded the way Python decodes argv.
arguments = st.binary(min_size=1, max_size=20).map(os.fsdecode) | st.text(min_size=1, max_size=20)


@fuzz
@given(command=st.sampled_from([["lookup"], ["pinyin"], ["candidates"], ["convert", "--to", "wubi"],
                                ["convert", "--to", "hanzi"], ["segment"],
                                ["decode", "-m", str(MODELS / "bpe-6000.json")]]),
       words=st.lists(arguments, min_size=1, max_size=3))
def test_any_arguments(capsys, tmp_path_factory, command, words):
    folder = tmp_path_factory.mktemp("fuzz")
    if command[0] in ("lookup", "pinyin", "candidates"):
        words = words[:1]
    if any(w.startswith("-") for w in words):
        words = ["--", *words] if command[0] != "decode" else words
    _run(capsys, folder, *command, *words)


def test_the_fuzz_sees_real_models():
    assert {"bpe-6000.json", "wubi-bpe-6000.json", "unigram-6000.json", "wordpiece-6000.json"} <= set(REAL_MODELS)


# -- the readers of issue #31: user data, settings, phrase tables, model patterns, rank files ----------

userdata_rows = st.lists(st.tuples(st.text(max_size=6) | st.just("abcd"), st.text(max_size=6) | st.just("\udc80"),
                                   json_values), max_size=4).map(lambda rows: [list(r) for r in rows])


@st.composite
def userdata_files(draw: Any) -> bytes:
    doc = {"format": "wubitok-userdata", "version": 1, "frequencies": draw(userdata_rows),
           "phrases": draw(userdata_rows), "pins": draw(userdata_rows), "settings": draw(json_values)}
    return json.dumps(_mutate(doc, draw) if draw(st.booleans()) else doc).encode()


@fuzz
@given(data=st.one_of(userdata_files(), json_extremes, st.binary(max_size=300)))
def test_any_userdata_file(capsys, tmp_path_factory, monkeypatch, data):
    folder = tmp_path_factory.mktemp("fuzz")
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(folder / "data"))
    path = folder / "u.json"
    path.write_bytes(data)
    _run(capsys, folder, "userdata", "import", path)


@fuzz
@given(data=st.one_of(json_values.map(lambda v: json.dumps(v).encode()), json_extremes, st.binary(max_size=200)))
def test_any_settings_file(capsys, tmp_path_factory, monkeypatch, data):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "data").mkdir()
    (folder / "data" / "ime_settings.json").write_bytes(data)
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(folder / "data"))
    _run(capsys, folder, "settings", "show")


@fuzz
@given(lines=st.lists(st.text(max_size=12) | st.sampled_from(["你好\twqvb", "---", "...", "name: x"]), max_size=8))
def test_any_phrase_table(capsys, tmp_path_factory, monkeypatch, lines):
    folder = tmp_path_factory.mktemp("fuzz")
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(folder / "data"))
    path = folder / "t.txt"
    path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    _run(capsys, folder, "table", "import", path)


# Patterns a model can bring: the shapes that backtrack catastrophically, among random ones.
patterns = st.one_of(
    st.sampled_from(["(a+)+$", "(?:a|aa)+$", "(\\w+\\s?)*$", "(.*a){9,}", "(a|b|ab)*c", "\\p{L}+", "(?>a+)+$"]),
    st.text(alphabet="ab()|+*?{}[]^$.\\,1", max_size=14),
)


@fuzz
@given(pattern=patterns, text=st.sampled_from(["a" * 60 + "!", "ab" * 40, "你好 abc"]))
def test_any_model_pattern(capsys, tmp_path_factory, pattern, text):
    folder = tmp_path_factory.mktemp("fuzz")
    data = dict(REAL_MODELS["bpe-6000.json"], pre_tokenizer={"type": "regex", "pattern": pattern})
    path = folder / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _run(capsys, folder, "encode", "-m", path, text)


@fuzz
@given(extra=st.lists(st.tuples(st.binary(min_size=2, max_size=4), st.integers(-(2**64), 2**64)), max_size=4))
def test_any_tiktoken_ranks(capsys, tmp_path_factory, extra):
    import base64

    folder = tmp_path_factory.mktemp("fuzz")
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines += [f"{base64.b64encode(token).decode()} {rank}" for token, rank in extra]
    path = folder / "x.tiktoken"
    path.write_text("\n".join(lines) + "\n")
    _run(capsys, folder, "compare", "你好 abc", "--tiktoken", path)
