"""One small language model per tokenizer on the same text, scored in bits per character.

:func:`evaluate_tokenizers` encodes the training and test text with every
tokenizer, then for each seed trains one model per tokenizer and scores the
test text.  What is held equal between tokenizers (:data:`HELD_EQUAL`) and
what is not is part of every result, so that no figure travels without it.
"""
from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np

from ..errors import InputError
from ..progress import ProgressCallback, check_cancel
from .backend import deterministic, pick_device, require_torch
from .data import COMMON_CHARS, Tokenized, TokenSource, char_bits, encode_text, frequent_chars, rare_mask, vocab_of
from .stats import Interval

HELD_EQUAL = (
    "architecture: layers, heads and width, so the non-embedding parameters are the same for every tokenizer "
    "(the embedding table grows with the vocabulary, and is counted apart)",
    "training text: the same characters; each tokenizer's model trains on its own ids of that text",
    "characters per step: a window is the tokenizer's tokens for the same number of characters (context_chars), "
    "so every model sees about the same characters per step, and in all (same steps and batch)",
    "optimizer, schedule, steps and seeds",
    "test text and the measure: bits per character = total NLL in bits / Unicode characters of the test text",
)
NOT_EQUAL = (
    "tokens per step and compute: a tokenizer with more tokens per character runs longer windows "
    "(see flops and cpu_seconds)",
)


@dataclass(frozen=True)
class LmConfig:
    n_layer: int = 2
    n_head: int = 4
    d_model: int = 128
    context_chars: int = 128  # characters a training window covers; its tokens depend on the tokenizer
    batch: int = 16
    steps: int = 400
    lr: float = 3e-3
    warmup: int = 20
    seeds: tuple[int, ...] = (0, 1, 2)
    threads: int = 1  # CPU threads: part of what makes a run repeatable
    device: str = "auto"
    common_chars: int = COMMON_CHARS

    def check(self) -> None:
        for name in ("n_layer", "n_head", "d_model", "context_chars", "batch", "threads", "common_chars"):
            if getattr(self, name) < 1:
                raise InputError(f"{name} must be at least 1")
        if self.steps < 0:  # 0: the untrained model, a baseline of log2(vocab) bits per token
            raise InputError("steps must be at least 0")
        if self.d_model % self.n_head:
            raise InputError(f"d_model {self.d_model} is not a multiple of n_head {self.n_head}")
        if not self.seeds:
            raise InputError("no seeds")
        if len(set(self.seeds)) != len(self.seeds):
            raise InputError("a seed is listed twice")


@dataclass
class SeedRun:
    seed: int
    bits_per_char: float
    rare_bits_per_char: float | None  # None when the test text has no rare character
    train_loss: float | None  # nats per token, the last tenth of the steps (None: no step)
    flops: float
    cpu_seconds: float
    seconds: float


@dataclass
class TokenizerScore:
    name: str
    vocab: int  # model ids: the tokenizer's and the start token
    block: int  # window in tokens
    train_tokens_per_char: float
    tokens_per_char: float  # on the test text
    params_embedding: int
    params_non_embedding: int
    train_chars_seen: int
    runs: list[SeedRun] = field(default_factory=list)

    @property
    def bits_per_char(self) -> Interval:
        return Interval.of([r.bits_per_char for r in self.runs])

    @property
    def rare_bits_per_char(self) -> Interval | None:
        values = [r.rare_bits_per_char for r in self.runs if r.rare_bits_per_char is not None]
        return Interval.of(values) if values else None

    def to_json(self) -> dict[str, Any]:
        rare = self.rare_bits_per_char
        out = {k: v for k, v in asdict(self).items() if k != "runs"}
        out.update(bits_per_char=asdict(self.bits_per_char), rare_bits_per_char=asdict(rare) if rare else None,
                   flops=sum(r.flops for r in self.runs) / len(self.runs),
                   cpu_seconds=sum(r.cpu_seconds for r in self.runs), runs=[asdict(r) for r in self.runs])
        return out


@dataclass
class LmEvalResult:
    scores: list[TokenizerScore]
    config: LmConfig
    device: str
    train_chars: int
    test_chars: int
    rare_test_chars: int
    held_equal: tuple[str, ...] = HELD_EQUAL
    not_equal: tuple[str, ...] = NOT_EQUAL

    def to_json(self) -> dict[str, Any]:
        return {"config": asdict(self.config), "device": self.device, "train_chars": self.train_chars,
                "test_chars": self.test_chars, "rare_test_chars": self.rare_test_chars,
                "held_equal": list(self.held_equal), "not_equal": list(self.not_equal),
                "tokenizers": [s.to_json() for s in self.scores]}


def flops_per_token(vocab: int, non_embedding: int, n_layer: int, block: int, d_model: int) -> float:
    """Forward FLOPs per token (Kaplan et al. 2020): 2 per weight (the blocks and the output layer)
    and 2 per attended position (n_layer x block x d_model); training is 3x this (forward and backward)."""
    return 2.0 * (non_embedding + vocab * d_model) + 2.0 * n_layer * block * d_model


def evaluate_tokenizers(tokenizers: Sequence[tuple[str, TokenSource]], train_text: str, test_text: str,
                        config: LmConfig = LmConfig(), *, progress: ProgressCallback | None = None,
                        cancel: threading.Event | None = None) -> LmEvalResult:
    """Train one model per tokenizer and seed on ``train_text``; score ``test_text``. See the module doc."""
    config.check()
    names = [name for name, _ in tokenizers]
    if not names:
        raise InputError("no tokenizers to compare")
    if len(set(names)) != len(names):
        raise InputError("two tokenizers have the same name")
    if not train_text.strip() or not test_text.strip():
        raise InputError("the training and test text must not be empty")
    require_torch()  # the missing extra in one line, before any work
    from .model import GPT, ModelShape
    from .train import token_nll_bits, train_model

    device = pick_device(config.device)
    rare = rare_mask(test_text, frequent_chars(train_text, config.common_chars))
    encoded: list[tuple[str, Tokenized, Tokenized, int]] = []
    for name, tok in tokenizers:
        train = encode_text(tok, train_text, progress=progress, stage=f"encoding {name}: training text", cancel=cancel)
        test = encode_text(tok, test_text, progress=progress, stage=f"encoding {name}: test text", cancel=cancel)
        encoded.append((name, train, test, vocab_of(tok, train, test)))

    scores: list[TokenizerScore] = []
    for name, train, test, vocab in encoded:
        start_id = vocab  # one more id: the start of the text, so its first token is predicted too
        block = max(2, round(config.context_chars * train.tokens_per_char))
        shape = ModelShape(vocab + 1, block, config.n_layer, config.n_head, config.d_model)
        train_ids = np.concatenate([[start_id], train.ids])
        test_ids = np.concatenate([[start_id], test.ids])
        score: TokenizerScore | None = None
        for seed in config.seeds:
            check_cancel(cancel)
            deterministic(seed, config.threads)
            model = GPT(shape).to(device)
            embedding, non_embedding = model.parameter_counts()
            if score is None:
                score = TokenizerScore(name, shape.vocab, block, train.tokens_per_char, test.tokens_per_char,
                                       embedding, non_embedding,
                                       round(config.steps * config.batch * block / train.tokens_per_char))
            cpu, wall = time.process_time(), time.perf_counter()
            loss = train_model(model, train_ids, steps=config.steps, batch=config.batch, lr=config.lr,
                               warmup=config.warmup, seed=seed, device=device, progress=progress,
                               stage=f"training {name}, seed {seed}", cancel=cancel)
            if progress is not None:
                progress(f"testing {name}, seed {seed}", 0, 0)
            bits = token_nll_bits(model, test_ids, batch=config.batch, device=device, cancel=cancel)
            per_char = char_bits(test, bits)
            per_token = flops_per_token(shape.vocab, non_embedding, shape.n_layer, block, shape.d_model)
            evaluated = len(bits) * 2  # strided windows: about two forward positions per scored token
            score.runs.append(SeedRun(
                seed, float(bits.sum() / test.n_chars),
                float(per_char[rare].sum() / rare.sum()) if rare.any() else None,
                loss, per_token * (3 * config.steps * config.batch * block + evaluated),
                time.process_time() - cpu, time.perf_counter() - wall))
            del model
        assert score is not None
        scores.append(score)
    return LmEvalResult(scores, config, device, len(train_text), len(test_text), int(rare.sum()))
