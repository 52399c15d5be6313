"""An :class:`~wubitok.lm.experiment.LmEvalResult` as text: a table, then what was held equal.

The same rows in a terminal (``wubitok lm-eval``) and in docs (``--format md``
by ``bench/bench_lm_eval.py``).
"""
from __future__ import annotations

from .experiment import LmEvalResult
from .stats import Interval

COLUMNS = ("tokenizer", "vocab", "bits/char", "rare bits/char", "tokens/char", "params emb", "params non-emb",
           "GFLOPs", "CPU s")


def _interval(value: Interval | None) -> str:
    if value is None:
        return "-"
    return f"{value.mean:.3f}" if value.half_width is None else f"{value.mean:.3f} ± {value.half_width:.3f}"


def rows(result: LmEvalResult) -> list[list[str]]:
    out = []
    for s in result.scores:
        flops = sum(r.flops for r in s.runs) / len(s.runs)
        cpu = sum(r.cpu_seconds for r in s.runs) / len(s.runs)
        out.append([s.name, f"{s.vocab - 1:,}", _interval(s.bits_per_char), _interval(s.rare_bits_per_char),
                    f"{s.tokens_per_char:.3f}", f"{s.params_embedding:,}", f"{s.params_non_embedding:,}",
                    f"{flops / 1e9:,.0f}", f"{cpu:,.0f}"])
    return out


def format_table(result: LmEvalResult, markdown: bool = False) -> str:
    table = [list(COLUMNS), *rows(result)]
    if markdown:
        lines = ["| " + " | ".join(r) + " |" for r in table]
        lines.insert(1, "|" + "|".join("---" for _ in COLUMNS) + "|")
    else:
        widths = [max(len(r[i]) for r in table) for i in range(len(COLUMNS))]
        lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
                 for r in table]
    return "\n".join(lines) + "\n"


def format_notes(result: LmEvalResult) -> str:
    c = result.config
    n = len(c.seeds)
    lines = [
        f"mean over {n} seed{'s' if n != 1 else ''} ({', '.join(map(str, c.seeds))}),"
        f" ± the 95% interval (t, {n - 1} df);"
        f" bits/char = total NLL in bits / characters of the test text ({result.test_chars:,} characters,"
        f" {result.rare_test_chars:,} rare: outside the {c.common_chars:,} most frequent of the training text's"
        f" {result.train_chars:,}); CPU s and GFLOPs per seed (training and test)",
        f"model: {c.n_layer} layers, {c.n_head} heads, width {c.d_model}; {c.steps} steps of {c.batch} windows of"
        f" {c.context_chars} characters; lr {c.lr}, {c.threads} thread(s), device {result.device}",
        "held equal: " + "; ".join(result.held_equal),
        "not equal: " + "; ".join(result.not_equal),
    ]
    return "\n".join(lines) + "\n"
