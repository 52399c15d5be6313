"""The training loop, after nanoGPT's ``train.py``: AdamW, warm-up then cosine decay, clipped gradients.

Each step is one batch of ``batch`` windows drawn at random places of the
training ids (the seed's own generator, so the windows are the seed's too).
A window is ``block`` tokens, ``block`` being the tokenizer's tokens for
``context_chars`` characters: every tokenizer's model sees about the same
characters per step, and so the same characters in all.
"""
from __future__ import annotations

import math
import threading

import numpy as np
import torch
from torch.nn import functional as F  # noqa: N812

from ..errors import InputError
from ..progress import ProgressCallback, check_cancel
from .model import GPT


def learning_rate(step: int, steps: int, peak: float, warmup: int) -> float:
    """Linear warm-up to ``peak``, then cosine decay to a tenth of it (nanoGPT's schedule)."""
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


def train_model(model: GPT, ids: np.ndarray, *, steps: int, batch: int, lr: float, warmup: int, seed: int,
                device: str, progress: ProgressCallback | None = None, stage: str = "training",
                cancel: threading.Event | None = None) -> float | None:
    """Train ``model`` on ``ids`` in place; returns the mean loss (nats per token) of the last tenth of the steps
    (None after no step)."""
    block = model.shape.block
    if len(ids) < block + 2:
        raise InputError(f"the training text is too short: {len(ids)} tokens for windows of {block}")
    data = torch.from_numpy(ids)
    generator = torch.Generator().manual_seed(seed)
    # Weight decay on matrices only, as nanoGPT: not on biases, norms.
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                                  lr=lr, betas=(0.9, 0.95))
    offsets = torch.arange(block + 1)
    tail: list[float] = []
    model.train()
    for step in range(steps):
        check_cancel(cancel)
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, steps, lr, warmup)
        starts = torch.randint(0, len(ids) - block - 1, (batch,), generator=generator)
        windows = data[starts[:, None] + offsets].to(device)
        logits = model(windows[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), windows[:, 1:].reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step >= steps - max(1, steps // 10):
            tail.append(float(loss.item()))
        if progress is not None:
            progress(stage, step + 1, steps)
    return sum(tail) / len(tail) if tail else None


@torch.no_grad()
def token_nll_bits(model: GPT, ids: np.ndarray, *, batch: int, device: str,
                   cancel: threading.Event | None = None) -> np.ndarray:
    """The NLL in bits of ``ids[1:]``, each predicted from what comes before it (``ids[0]`` is the start token).

    Windows of ``block`` tokens slide by half a window; each scores the tokens
    the previous one did not (Hugging Face's strided perplexity), so every
    token is predicted once with at least half a window of context (all it
    has at the start of the text).
    """
    block = model.shape.block
    inputs, targets = ids[:-1], ids[1:]
    n = len(targets)
    stride = max(1, block // 2)
    windows: list[tuple[int, int, int]] = []  # (begin, end, first scored position)
    scored_to = 0
    for begin in range(0, n, stride):
        end = min(begin + block, n)
        windows.append((begin, end, scored_to))
        scored_to = end
        if end == n:
            break
    out = np.zeros(n, dtype=np.float64)
    model.eval()
    for length in sorted({e - b for b, e, _ in windows}):
        same = [w for w in windows if w[1] - w[0] == length]
        for i in range(0, len(same), batch):
            check_cancel(cancel)
            group = same[i:i + batch]
            x = torch.from_numpy(np.stack([inputs[b:e] for b, e, _ in group])).to(device)
            y = torch.from_numpy(np.stack([targets[b:e] for b, e, _ in group])).to(device)
            nats = F.cross_entropy(model(x).transpose(1, 2), y, reduction="none").double().cpu().numpy()
            for (b, e, first), row in zip(group, nats):
                out[first:e] = row[first - b:]
    return out / math.log(2)
