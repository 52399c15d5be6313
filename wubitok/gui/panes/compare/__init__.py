"""Compare: 2 to 4 tokenizers on the same text, or measured over corpus files.

``pane`` (the pane: choosers, modes, results, export), ``text_mode`` (the text
worker and the token views side by side), ``corpus_mode`` (the corpus picker,
run, progress, and its worker), ``metrics_table`` and ``chart``.
"""
from .corpus_mode import compare_files
from .metrics_table import MetricsTable, metric_headers
from .pane import ComparePane
from .text_mode import TextComparison, compare_text, unique_names

__all__ = ["ComparePane", "MetricsTable", "TextComparison", "compare_files", "compare_text", "metric_headers",
           "unique_names"]
