"""Compare tokenizers on the same text: the measures, the spans, the reports.

``compare_tokenizers(tokenizers, texts | files=...)`` runs any named tokenizers (wubitok
engines or adapters of other libraries from ``load_external``) over the same
lines and returns one :class:`CompareResult` each; ``sample_spans`` gives the
per-token spans a display draws; ``train_and_compare`` is the experiment of
training every engine on one corpus and measuring them on held-out text.
"""
from .experiment import ExperimentResult, train_and_compare
from .external import load_external
from .metrics import RENYI_ALPHA, CompareResult, renyi_efficiency
from .run import compare_tokenizers
from .spans import TokenSpan, sample_spans, token_spans

__all__ = [
    "CompareResult", "ExperimentResult", "RENYI_ALPHA", "TokenSpan", "compare_tokenizers", "load_external",
    "renyi_efficiency", "sample_spans", "token_spans", "train_and_compare",
]
