"""The measures, checked against figures computed by hand on small fixtures."""
from __future__ import annotations

import math
import threading

import pytest
from compare_toys import ByteToy, GreedyToy
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.compare import compare_tokenizers, renyi_efficiency
from wubitok.compare.metrics import unknown_token_id
from wubitok.errors import Cancelled, FileError, InputError

PIECES = ["中国", "中", "国", "人", "a", "b"]  # ids 1..6; [UNK] is 0
TEXT = "中国人\nab中\n\nxa\n"


def test_greedy_toy_figures_by_hand():
    (r,) = compare_tokenizers({"toy": GreedyToy(PIECES)}, TEXT, per_line=True)
    # Non-empty lines: "中国人", "ab中", "xa" (the empty line is skipped).
    #   chars 3 + 3 + 2 = 8;  UTF-8 bytes 9 + 5 + 2 = 16;  Han 3 + 1 + 0 = 4
    # Tokens: [中国 人] [a b 中] [[UNK] a]  -> 2 + 3 + 2 = 7
    assert (r.lines, r.chars, r.bytes, r.han_chars, r.tokens) == (3, 8, 16, 4, 7)
    assert r.chars_per_token == pytest.approx(8 / 7)
    assert r.bytes_per_token == pytest.approx(16 / 7)
    # Tokens covering Han: 中国, 人, 中 -> 3 tokens for 4 Han characters.
    assert (r.han_tokens, r.tokens_per_han) == (3, pytest.approx(0.75))
    # One [UNK] (for x) of 7 tokens; "xa" decodes to "[UNK]a": 2 of 3 lines round-trip.
    assert (r.unk_tokens, r.unk_rate) == (1, pytest.approx(1 / 7))
    assert (r.unit, r.samples, r.roundtrip_samples, r.roundtrip_rate) == ("line", 3, 2, pytest.approx(2 / 3))
    # Ids seen: 1 (中国), 4 (人), 5 (a, twice), 6 (b), 2 (中), 0 ([UNK]) -> 6 of 7.
    assert (r.vocab_size, r.vocab_used) == (7, 6)
    # Counts 1,1,2,1,1,1 of 7: sum p^2.5 = (5 + 2^2.5) / 7^2.5 = 10.6569 / 129.642 = 0.082202;
    # H_2.5 = ln(0.082202) / (1 - 2.5) = 1.66569;  / ln 7 (1.94591) = 0.85600.
    assert r.renyi_efficiency == pytest.approx(math.log((5 + 2 ** 2.5) / 7 ** 2.5) / -1.5 / math.log(7))
    assert r.renyi_efficiency == pytest.approx(0.85600, abs=1e-5)
    # Lengths: 中国 covers 2 characters, the six others 1.
    assert r.token_lengths == {1: 6, 2: 1}
    assert r.encode_seconds > 0 and r.encode_mb_per_s > 0


def test_byte_pieces_are_counted_as_partial_and_per_han():
    (r,) = compare_tokenizers({"bytes": ByteToy()}, "中a")
    # 中 is E4 B8 AD: three tokens, each a piece of 中 (bucket 0); "a" is one whole character.
    assert r.tokens == 4 and r.token_lengths == {0: 3, 1: 1}
    # All three pieces cover the one Han character.
    assert r.tokens_per_han == pytest.approx(3.0)
    assert r.roundtrip_rate == 1.0 and r.unk_rate == 0.0
    assert unknown_token_id(ByteToy()) is None


def test_json_record_has_the_issue_fields():
    (r,) = compare_tokenizers([("toy", GreedyToy(PIECES))], TEXT, per_line=True)
    rec = r.to_json()
    for key in ("name", "tokens", "chars_per_token", "bytes_per_token", "unk_rate", "roundtrip_rate",
                "vocab_size", "vocab_used", "renyi_efficiency", "encode_mb_per_s"):
        assert key in rec
    assert rec["name"] == "toy" and rec["tokens"] == 7 and rec["token_lengths"] == {"1": 6, "2": 1}


def test_renyi_efficiency_limits():
    # Every one of 4 vocabulary entries used equally: H = log 4, efficiency 1.
    assert renyi_efficiency([5, 5, 5, 5], 4) == pytest.approx(1.0)
    # One token type only: H = log 1 = 0.
    assert renyi_efficiency([9], 100) == pytest.approx(0.0)
    # Two of four entries, equally: log 2 / log 4 = 0.5 for every alpha.
    assert renyi_efficiency([3, 3], 4) == pytest.approx(0.5)
    assert renyi_efficiency([3, 3], 4, alpha=1.0) == pytest.approx(0.5)
    assert renyi_efficiency([], 10) is None and renyi_efficiency([1], 1) is None
    # Skewed counts lower it below Shannon's for alpha > 1: p = (3/4, 1/4), |V| = 2.
    #   H_2.5 = ln(0.75^2.5 + 0.25^2.5) / -1.5 = ln(0.487139 + 0.03125) / -1.5 = 0.438019;
    #   / ln 2 (0.693147) = 0.631928
    assert renyi_efficiency([3, 1], 2) == pytest.approx(0.631928, abs=1e-6)


def test_files_are_streamed_with_the_same_figures(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("中国人\r\nab中\n", encoding="utf-8", newline="")
    b.write_text("\nxa", encoding="utf-8")
    (from_files,) = compare_tokenizers({"toy": GreedyToy(PIECES)}, files=[a, b], per_line=True)
    (from_text,) = compare_tokenizers({"toy": GreedyToy(PIECES)}, TEXT, per_line=True)
    for key in ("samples", "lines", "chars", "bytes", "tokens", "unk_tokens", "roundtrip_samples", "vocab_used",
                "token_lengths"):
        assert getattr(from_files, key) == getattr(from_text, key)


def test_progress_counts_bytes_times_tokenizers_and_ends_full():
    calls = []
    text = "中国人\n" * 3000  # 30,000 bytes, several batches
    compare_tokenizers({"a": GreedyToy(PIECES), "b": ByteToy()}, [text], per_line=True,
                       progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert {c[0] for c in calls} == {"encoding"}
    dones = [c[1] for c in calls]
    assert dones == sorted(dones) and len(calls) > 3
    assert calls[-1][1] == calls[-1][2] == 2 * len(text.encode())


def test_cancel_stops_between_batches():
    cancel = threading.Event()

    def progress(stage, done, total):
        if done > 0:
            cancel.set()

    with pytest.raises(Cancelled):
        compare_tokenizers({"toy": ByteToy()}, ["中国人\n" * 5000], progress=progress, cancel=cancel)


def test_bad_input_is_a_user_error(tmp_path):
    toy = GreedyToy(PIECES)
    with pytest.raises(FileError, match="no such file"):
        compare_tokenizers({"toy": toy}, files=[tmp_path / "missing.txt"])
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(FileError, match="not UTF-8"):
        compare_tokenizers({"toy": toy}, files=[bad])
    with pytest.raises(InputError, match="named 'x'"):
        compare_tokenizers([("x", toy), ("x", ByteToy())], "a")
    with pytest.raises(InputError):
        compare_tokenizers({}, "a")
    with pytest.raises(InputError):
        compare_tokenizers({"toy": toy}, "a", files=[bad])


def test_no_lines_gives_zeros_not_errors():
    (r,) = compare_tokenizers({"toy": GreedyToy(PIECES)}, "\n\n", per_line=True)
    assert r.tokens == 0 and r.chars_per_token is None and r.renyi_efficiency is None and r.roundtrip_rate is None


def test_only_a_lossy_tokenizer_has_unknown_tokens():
    class Lossless(GreedyToy):
        lossless = True  # as if "[UNK]" were a special token that decodes to itself

    assert unknown_token_id(GreedyToy(PIECES)) == 0
    assert unknown_token_id(Lossless(PIECES)) is None
    (r,) = compare_tokenizers({"toy": Lossless(PIECES)}, TEXT)
    assert r.unk_tokens == 0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(), max_size=5))
def test_byte_tokenizer_invariants_on_any_text(texts):
    (r,) = compare_tokenizers({"bytes": ByteToy()}, texts, per_line=True)
    lines = [line for t in texts for line in t.splitlines() if line]
    assert r.lines == len(lines) and r.chars == sum(map(len, lines))
    # One token per UTF-8 byte, every line given back, every token in one length bucket.
    assert r.tokens == r.bytes == sum(len(line.encode("utf-8")) for line in lines)
    assert r.roundtrip_samples == r.samples == r.lines and sum(r.token_lengths.values()) == r.tokens
    assert r.token_lengths.get(1, 0) == sum(1 for line in lines for ch in line if ch < "\x80")


def test_tokens_per_char_by_script_by_hand():
    # 中 (GB2312), 𠀀 (Ext B: the tail), "ab", "1", " " and "!": the byte toy gives
    # one token per UTF-8 byte, each covering exactly one character.
    (r,) = compare_tokenizers({"bytes": ByteToy()}, "中𠀀ab 1!")
    assert r.script_chars == {"Han (GB2312)": 1, "Han (other)": 1, "Latin": 2, "space": 1, "digit": 1, "punct": 1}
    assert r.tokens_per_char_by_script == {
        "Han (GB2312)": 3.0, "Han (other)": 4.0, "Latin": 1.0, "digit": 1.0, "space": 1.0, "punct": 1.0}
    # A token over two classes counts in both: 中国 covers 2 GB2312 Han, "a" one Latin.
    (g,) = compare_tokenizers({"toy": GreedyToy(PIECES)}, "中国a")
    assert g.tokens_per_char_by_script == {"Han (GB2312)": 0.5, "Latin": 1.0}
    assert g.to_json()["tokens_per_char_by_script"] == g.tokens_per_char_by_script
