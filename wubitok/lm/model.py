"""A small causal transformer, after nanoGPT's ``model.py`` (GPT-2's layout, pre-norm).

Token and position embeddings, ``n_layer`` blocks of causal self-attention
and a 4x GELU MLP, a final LayerNorm and an output layer tied to the token
embedding.  Parameters are counted in two parts (:meth:`GPT.parameter_counts`):
the *embedding* ones (the token table, which is also the output layer, and
the position table) grow with the vocabulary and the context; the
*non-embedding* ones (every block and the final norm) are the same for every
tokenizer of one configuration, which is what is held equal between them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812 (PyTorch's usual name)


@dataclass(frozen=True)
class ModelShape:
    vocab: int  # the tokenizer's ids, plus one for the start-of-text token
    block: int  # context length in tokens
    n_layer: int
    n_head: int
    d_model: int


class Block(nn.Module):
    def __init__(self, shape: ModelShape):
        super().__init__()
        d = shape.d_model
        self.n_head = shape.n_head
        self.ln_1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.fc_out = nn.Linear(4 * d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln_1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.n_head, d // self.n_head).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.fc_out(F.gelu(self.fc(self.ln_2(x))))


class GPT(nn.Module):
    def __init__(self, shape: ModelShape):
        super().__init__()
        if shape.d_model % shape.n_head:
            raise ValueError("d_model must be a multiple of n_head")
        self.shape = shape
        self.tok = nn.Embedding(shape.vocab, shape.d_model)
        self.pos = nn.Embedding(shape.block, shape.d_model)
        self.blocks = nn.ModuleList(Block(shape) for _ in range(shape.n_layer))
        self.ln_f = nn.LayerNorm(shape.d_model)
        self.apply(self._init)
        # GPT-2's scaled init of the layers that add into the residual stream.
        for name, p in self.named_parameters():
            if name.endswith(("proj.weight", "fc_out.weight")):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * shape.n_layer))

    @staticmethod
    def _init(module: nn.Module) -> None:
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
            nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """Logits (batch, time, vocab) for ids (batch, time)."""
        positions = torch.arange(ids.shape[1], device=ids.device)
        x = self.tok(ids) + self.pos(positions)
        for block in self.blocks:
            x = block(x)
        return F.linear(self.ln_f(x), self.tok.weight)  # the output layer is the token table

    def parameter_counts(self) -> tuple[int, int]:
        """(embedding, non-embedding) parameters."""
        embedding = self.tok.weight.numel() + self.pos.weight.numel()
        return embedding, sum(p.numel() for p in self.parameters()) - embedding
