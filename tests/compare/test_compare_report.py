"""Reports: the table, Markdown, CSV and JSON carry the same figures."""
from __future__ import annotations

import csv
import io
import json

import pytest
from compare_toys import ByteToy, GreedyToy

from wubitok.compare import compare_tokenizers
from wubitok.compare.plot import chart_data
from wubitok.compare.report import format_results


@pytest.fixture(scope="module")
def results():
    # The metrics test's fixture: greedy gives 7 tokens for 8 characters, bytes 16 tokens.
    return compare_tokenizers([("贪心", GreedyToy(["中国", "中", "国", "人", "a", "b"])), ("bytes", ByteToy())],
                              "中国人\nab中\n\nxa\n", per_line=True)


def test_table_aligns_chinese_names_and_shows_figures(results):
    out = format_results(results, "table")
    lines = out.splitlines()
    assert lines[0].startswith("tokenizer  kind")
    row = next(line for line in lines if line.startswith("贪心"))
    # 8 / 7 = 1.143 characters per token, 1 of 7 unknown, 2 of 3 lines round-trip.
    assert "1.143" in row and "14.29%" in row and "66.67%" in row
    # Each Han character takes two terminal columns, so the row has two code points
    # fewer than the header before the kind column.
    assert row.index("greedy-toy") + 2 == lines[0].index("kind")
    # Length shares: 6 of greedy's 7 tokens are 1 character long, 1 is 2 long.
    shares = lines[lines.index(next(line for line in lines if line.startswith("Share"))):]
    share = next(line for line in shares if line.startswith("贪心"))
    assert share.split()[1:4] == ["0.0%", "85.7%", "14.3%"]


def test_markdown_has_all_three_tables(results):
    out = format_results(results, "md")
    assert "| 贪心 | greedy-toy | 7 | 1.143 |" in out
    assert out.count("|---|") == 3
    # Tokens per character by script: bytes spend 3 tokens per GB2312 Han character (4 of them).
    # Greedy: 中国, 人, 中 cover the 4 Han characters: 0.75 each.
    assert "| tokens per char | Han (GB2312) (4) | Latin (4) |" in out
    assert "| 贪心 | 0.750 | 1.000 |" in out and "| bytes | 3.000 | 1.000 |" in out


def test_table_shows_tokens_per_char_by_script(results):
    lines = format_results(results, "table").splitlines()
    at = lines.index(next(line for line in lines if line.startswith("Tokens per character by script")))
    assert lines[at + 1].split()[:3] == ["tokens", "per", "char"]
    assert lines[at + 4].split() == ["bytes", "3.000", "1.000"]


def test_csv_has_full_precision_and_length_columns(results):
    rows = list(csv.DictReader(io.StringIO(format_results(results, "csv"))))
    assert [r["name"] for r in rows] == ["贪心", "bytes"]
    assert float(rows[0]["chars_per_token"]) == pytest.approx(8 / 7, abs=1e-12)
    # Bytes: 中国人 = 9 pieces, ab中 = 2 + 3, xa = 2: 16 tokens, 12 of them pieces of a Han character.
    assert (rows[1]["tokens"], rows[1]["len_0"], rows[1]["len_1"], rows[1]["len_2"]) == ("16", "12", "4", "0")
    assert rows[0]["train_seconds"] == ""
    assert float(rows[1]["tpc_Han (GB2312)"]) == 3.0 and rows[1]["tpc_Han (other)"] == ""


def test_json_is_a_list_of_objects(results):
    data = json.loads(format_results(results, "json"))
    assert [d["name"] for d in data] == ["贪心", "bytes"]
    assert data[1]["tokens_per_han"] == pytest.approx(12 / 4)


def test_chart_data_shares_one_scale(results):
    data = chart_data(results)
    assert [r.name for r in data.rows] == ["贪心", "bytes"]
    assert data.bucket_labels == ["part", "1", "2", "3", "4", "5", "6", "7", "8+"]
    assert data.rows[0].length_shares[:3] == pytest.approx([0, 6 / 7, 1 / 7])
    assert data.rows[1].length_shares[:2] == pytest.approx([12 / 16, 4 / 16])
    assert data.max_share == pytest.approx(6 / 7) and data.max_chars_per_token == pytest.approx(8 / 7)
    assert data.caption == "3 lines, 8 characters"
