"""Compare's language-model run in a spawned process: the numbers of a run here, progress, a Cancel that ends it."""
from __future__ import annotations

import multiprocessing
import threading

import pytest

from wubitok.errors import Cancelled
from wubitok.lm.experiment import LmConfig
from wubitok.paths import resources_dir
from wubitok.services.lm_eval import LmEvalRequest, run_lm_eval
from wubitok.services.lm_eval_process import lm_eval_in_process

POEMS = resources_dir() / "samples" / "tang300.txt"
TINY = LmConfig(n_layer=1, n_head=2, d_model=16, context_chars=16, batch=4, steps=10, seeds=(0, 1))


def request(steps: int = 10) -> LmEvalRequest:
    return LmEvalRequest(["wubi-bpe-6000", "chars:600"], [str(POEMS)], config=LmConfig(**{**TINY.__dict__,
                         "steps": steps}), train_chars=3000, test_chars=400)


def test_the_child_gives_the_numbers_of_a_run_here():
    stages: list[str] = []
    there = lm_eval_in_process(request(), progress=lambda stage, done, total: stages.append(stage))
    here = run_lm_eval(request())
    assert [[r.bits_per_char for r in s.runs] for s in there.scores] == \
           [[r.bits_per_char for r in s.runs] for s in here.scores]
    assert any(s.startswith("training chars:600, seed 1") for s in stages)


def test_cancel_ends_the_child(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cancel = threading.Event()

    def progress(stage: str, done: int, total: int) -> None:
        if stage.startswith("training"):
            cancel.set()

    with pytest.raises(Cancelled):
        lm_eval_in_process(request(steps=100000), progress=progress, cancel=cancel)
    assert not [p for p in multiprocessing.active_children() if p.name == "lm-eval"]
    assert list(tmp_path.iterdir()) == []
