"""Model files fuzzed: random bytes, random JSON and mutated real models load or fail in one line.

Whatever a model file holds, ``load_tokenizer`` returns a tokenizer or raises
a ``WubitokError`` (the CLI's one line and exit 2, the GUI's dialog); a model
that loads encodes and decodes its sample without an unexpected exception.
"""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wubitok.engines.base import load_tokenizer, tokenizer_from_dict
from wubitok.engines.bpe.byte_level import ByteLevelBPE
from wubitok.errors import WubitokError
from wubitok.paths import resources_dir

MODELS = {p.stem.split("-6000")[0]: json.loads(p.read_text(encoding="utf-8"))
          for p in sorted((resources_dir() / "models").glob("*-6000.json"))}
SAMPLE = "你好，世界 Hello  123\n\t𠀀▁<s>"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def use(data) -> None:
    """Load ``data`` as a model; if it loads, it encodes (and, lossless, gives the text back)."""
    try:
        tok = tokenizer_from_dict(data)
    except WubitokError:
        return
    ids = tok.encode(SAMPLE).ids
    back = tok.decode(ids)
    if tok.lossless:  # an edited pattern, pieces or merges never lose text
        assert back == SAMPLE


def paths(node, prefix=()):
    """Every (path, value) inside a JSON value, lists sampled to keep it small."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i in sorted({0, 1, len(node) // 2, len(node) - 1} & set(range(len(node)))):
            yield from paths(node[i], prefix + (i,))


PATHS = {name: [p for p, _ in paths(model) if p] for name, model in MODELS.items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(MODELS)), data=st.data())
def test_a_mutated_real_model_loads_or_is_one_clear_error(name, data):
    model = copy.deepcopy(MODELS[name])
    where = data.draw(st.sampled_from(PATHS[name]))
    parent = model
    for key in where[:-1]:
        parent = parent[key]
    action = data.draw(st.sampled_from(["replace", "delete"]))
    if action == "delete":
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(json_values)
    use(model)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_random_json_is_not_a_model(value):
    use(value)
    use({"format": "wubitok-tokenizer", "version": 1, "model": "bpe", "x": value})


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_are_one_clear_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "m.json"
    path.write_bytes(raw)
    with pytest.raises(WubitokError):
        load_tokenizer(path)


SMALL_BPE = ByteLevelBPE.train(SAMPLE * 20, vocab_size=300).to_dict()


@settings(max_examples=150, deadline=None)
@given(st.text(st.sampled_from(list("ab你 \\n.*+?|()[]^$-{}1,spwdSLN<=!")), max_size=10))
def test_any_edited_pattern_keeps_a_byte_level_model_lossless(pattern):
    model = copy.deepcopy(SMALL_BPE)
    model["pre_tokenizer"]["pattern"] = pattern
    use(model)
