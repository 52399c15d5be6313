"""Per-sample spans: every token, its characters, pieces of a character shown as such."""
from __future__ import annotations

from compare_toys import ByteToy, GreedyToy

from wubitok.compare import sample_spans, token_spans


def test_byte_pieces_carry_their_character_and_partial_flag():
    spans = token_spans(ByteToy(), "a中")
    assert [(s.index, s.id, s.start, s.end, s.text, s.display, s.partial, s.unknown) for s in spans] == [
        (0, 0x61, 0, 1, "a", "<61>", False, False),
        (1, 0xE4, 1, 2, "中", "<E4>", True, False),
        (2, 0xB8, 1, 2, "中", "<B8>", True, False),
        (3, 0xAD, 1, 2, "中", "<AD>", True, False),
    ]


def test_unknown_tokens_are_flagged_and_spans_cover_the_text():
    spans = token_spans(GreedyToy(["中国", "人"]), "中国x人")
    assert [(s.text, s.display, s.unknown) for s in spans] == [("中国", "中国", False), ("x", "[UNK]", True),
                                                               ("人", "人", False)]
    assert spans[1].to_json() == {"index": 1, "id": 0, "start": 2, "end": 3, "text": "x", "display": "[UNK]",
                                  "partial": False, "unknown": True}


def test_sample_spans_keeps_the_given_order():
    spans = sample_spans([("bytes", ByteToy()), ("greedy", GreedyToy(["a"]))], "ab")
    assert list(spans) == ["bytes", "greedy"]
    assert [s.display for s in spans["greedy"]] == ["a", "[UNK]"]
