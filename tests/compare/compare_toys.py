"""Tokenizers small enough that their figures can be computed by hand."""
from __future__ import annotations

from typing import Sequence

from wubitok.engines.base import Encoding, Tokenizer


class GreedyToy(Tokenizer):
    """Longest match over a fixed list of strings; anything else is [UNK] (id 0).

    Lossy like WordPiece: decode joins the token strings, so [UNK] stays "[UNK]".
    """

    model_type = "greedy-toy"
    lossless = False

    def __init__(self, pieces: Sequence[str]):
        self.vocab = ["[UNK]", *pieces]
        self.ids = {p: i for i, p in enumerate(self.vocab)}
        self.longest = max(map(len, pieces))

    def encode(self, text: str) -> Encoding:
        ids, tokens, offsets = [], [], []
        i = 0
        while i < len(text):
            for n in range(min(self.longest, len(text) - i), 0, -1):
                if text[i:i + n] in self.ids and text[i:i + n] != "[UNK]":
                    tid = self.ids[text[i:i + n]]
                    break
            else:
                n, tid = 1, 0
            ids.append(tid)
            tokens.append(self.vocab[tid])
            offsets.append((i, i + n))
            i += n
        return Encoding(ids, tokens, offsets, [False] * len(ids))

    def decode(self, ids: Sequence[int]) -> str:
        return "".join(self.vocab[i] for i in ids)

    def token_to_id(self, token: str) -> int | None:
        return self.ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self.vocab[id] if 0 <= id < len(self.vocab) else None

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)


class ByteToy(Tokenizer):
    """One token per UTF-8 byte (id = byte value): lossless, pieces of characters flagged partial."""

    model_type = "byte-toy"

    def encode(self, text: str) -> Encoding:
        ids, offsets, partial = [], [], []
        for i, ch in enumerate(text):
            data = ch.encode("utf-8", "surrogatepass")
            ids.extend(data)
            offsets.extend([(i, i + 1)] * len(data))
            partial.extend([len(data) > 1] * len(data))
        return Encoding(ids, [f"<{b:02X}>" for b in ids], offsets, partial)

    def decode(self, ids: Sequence[int]) -> str:
        return bytes(ids).decode("utf-8", "surrogatepass")

    def token_to_id(self, token: str) -> int | None:
        return None

    def id_to_token(self, id: int) -> str | None:
        return f"<{id:02X}>" if 0 <= id < 256 else None

    @property
    def vocab_size(self) -> int:
        return 256
