"""The measures of a comparison, tallied sample by sample.

A sample is a whole document (a text, a file, line breaks included) or, in
per-line mode, a non-empty line without its ending (``compare.run``).
Definitions:

- ``chars_per_token``, ``bytes_per_token``: characters (code points) and UTF-8
  bytes of the input per token.
- ``tokens_per_han``: tokens that cover at least one Han character
  (``wubitok.text.segment.is_han``), per Han character.  Counting only those
  tokens keeps the figure about Chinese on mixed text; on pure Chinese it is
  simply tokens / characters.
- ``unk_rate``: share of tokens whose id is the tokenizer's unknown token.
- ``roundtrip_rate``: share of samples for which ``decode(encode(x)) == x``.
- ``lines``: non-empty lines of the input, in either mode.
- ``vocab_used``: distinct ids seen.
- ``renyi_efficiency``: see :func:`renyi_efficiency`.
- ``encode_mb_per_s``: input bytes (10**6 per MB) per second spent inside
  ``encode_batch`` -- producing ids, tokens and offsets through wubitok's
  interface, so for adapted tokenizers it includes the adapter's offset work.
  Measured and reported, never asserted.
- ``tokens_per_char_by_script``: per script class (``SCRIPTS``: Han in
  GB2312, other Han - the rare-character tail -, Latin, digits, space,
  punctuation, other), tokens that cover at least one character of that
  class per character of it.  A token over several classes counts in each.
- ``token_lengths``: how many tokens cover 1, 2, 3, ... whole characters.
  Bucket 0 holds tokens that cover no whole character on their own: pieces of
  one character (``partial``, e.g. byte-level BPE bytes of a Han character)
  and tokens with an empty span (e.g. SentencePiece's "▁" for the space it
  adds at the start).  They are counted, never dropped.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from typing import Any, Iterable, Protocol, cast

from ..engines.base import Encoding, Tokenizer
from ..text.segment import is_han, segment_texts

RENYI_ALPHA = 2.5


class ModelFacts(Protocol):
    """What a :class:`Tally` of figures measured elsewhere needs of a model: a
    :class:`Tokenizer` has it, and so has the app's ``encode_pool.ModelSummary``
    of a model loaded in a worker process."""

    @property
    def model_type(self) -> str: ...

    @property
    def vocab_size(self) -> int: ...


# Tried in this order when a tokenizer does not say what its unknown token is.
UNK_TOKENS = ("[UNK]", "<unk>", "<UNK>")


def renyi_efficiency(counts: Iterable[int], vocab_size: int, alpha: float = RENYI_ALPHA) -> float | None:
    """Rényi efficiency of a unigram token distribution.

    Zouhar, Meister, Gastaldi, Du, Sachan, Cotterell: "Tokenization and the
    Noiseless Channel", ACL 2023 (arXiv:2306.16842): with p the unigram
    distribution of tokens and V the vocabulary,
    ``H_alpha(p) = 1 / (1 - alpha) * log(sum_w p(w) ** alpha)`` and the
    efficiency is ``H_alpha(p) / log |V|``; alpha = 2.5 is the value the
    paper found to correlate best with BLEU.  |V| here is the tokenizer's
    full vocabulary size, as in the paper's definition (the authors'
    tokenization-scorer package defaults to the number of token types
    observed instead).  The base of the logarithms cancels.
    """
    counts = [c for c in counts if c > 0]
    total = sum(counts)
    if total == 0 or vocab_size < 2:
        return None
    if alpha == 1.0:  # the Shannon limit of the formula
        entropy = -sum(c / total * math.log(c / total) for c in counts)
    else:
        entropy = math.log(sum((c / total) ** alpha for c in counts)) / (1.0 - alpha)
    return entropy / math.log(vocab_size)


def unknown_token_id(tokenizer: Tokenizer) -> int | None:
    """The id of the tokenizer's unknown token, or None if it has none."""
    if tokenizer.lossless:
        # Nothing is lost, so no token stands for lost text: an "<unk>" in such a
        # vocabulary is a special token that stands for the text "<unk>" itself.
        return None
    if hasattr(tokenizer, "unk_id"):  # engines and adapters that say so (None: none)
        return tokenizer.unk_id
    for token in UNK_TOKENS:
        tid = tokenizer.token_to_id(token)
        if tid is not None:
            return tid
    return None


# Script classes of tokens_per_char_by_script, in display order.
HAN_COMMON, HAN_RARE = "Han (GB2312)", "Han (other)"
SCRIPTS = (HAN_COMMON, HAN_RARE, "Latin", "digit", "space", "punct", "other")
_KIND_SCRIPT = {"latin": "Latin", "digit": "digit", "space": "space", "punct": "punct"}


def _in_gb2312(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def char_scripts(text: str) -> list[str]:
    """The script class (one of ``SCRIPTS``) of each character of ``text``."""
    out: list[str] = []
    for piece, kind in zip(*segment_texts(text)):
        if kind == "han":
            out += [HAN_COMMON if _in_gb2312(ch) else HAN_RARE if is_han(ch) else "other" for ch in piece]
        else:
            out += [_KIND_SCRIPT.get(kind, "other")] * len(piece)
    return out


@dataclass(frozen=True)
class Sample:
    """One sample (a document or a line), with what every tokenizer's tally needs from it."""

    text: str
    n_bytes: int
    lines: int  # non-empty lines
    han_prefix: list[int]  # han_prefix[i] = Han characters in text[:i]
    scripts: list[str]  # the script class of each character

    @classmethod
    def of(cls, text: str) -> "Sample":
        return cls(text, len(text.encode("utf-8", "surrogatepass")), sum(1 for line in text.splitlines() if line),
                   list(accumulate(map(is_han, text), initial=0)), char_scripts(text))

    @property
    def han(self) -> int:
        return self.han_prefix[-1]


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


@dataclass
class CompareResult:
    """Everything measured for one tokenizer on one input."""

    name: str
    kind: str
    vocab_size: int
    unit: str = "document"  # what a sample is: "document" or "line"
    samples: int = 0
    lines: int = 0
    chars: int = 0
    bytes: int = 0
    han_chars: int = 0
    tokens: int = 0
    han_tokens: int = 0
    unk_tokens: int = 0
    roundtrip_samples: int = 0
    vocab_used: int = 0
    renyi_efficiency: float | None = None
    encode_seconds: float = 0.0
    train_seconds: float | None = None  # set by the --train experiment
    token_lengths: dict[int, int] = field(default_factory=dict)
    # Counters while tallying (a worker's batch result is added with Counter.update).
    script_chars: dict[str, int] = field(default_factory=Counter)
    script_tokens: dict[str, int] = field(default_factory=Counter)

    @property
    def chars_per_token(self) -> float | None:
        return _ratio(self.chars, self.tokens)

    @property
    def bytes_per_token(self) -> float | None:
        return _ratio(self.bytes, self.tokens)

    @property
    def tokens_per_han(self) -> float | None:
        return _ratio(self.han_tokens, self.han_chars)

    @property
    def tokens_per_char_by_script(self) -> dict[str, float]:
        """Script class -> tokens covering it per character of it (classes present, in ``SCRIPTS`` order)."""
        return {k: self.script_tokens.get(k, 0) / self.script_chars[k] for k in SCRIPTS if self.script_chars.get(k)}

    @property
    def unk_rate(self) -> float | None:
        return _ratio(self.unk_tokens, self.tokens)

    @property
    def roundtrip_rate(self) -> float | None:
        return _ratio(self.roundtrip_samples, self.samples)

    @property
    def encode_mb_per_s(self) -> float | None:
        return _ratio(self.bytes / 1e6, self.encode_seconds)

    def length_buckets(self, top: int = 8) -> list[tuple[str, int]]:
        """Token-length counts for display: "part", "1" ... and "<top>+" (all buckets, zeros kept)."""
        counts = self.token_lengths
        buckets = [("part", counts.get(0, 0))]
        buckets += [(str(n), counts.get(n, 0)) for n in range(1, top)]
        buckets.append((f"{top}+", sum(v for k, v in counts.items() if k >= top)))
        return buckets

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "tokens": self.tokens,
            "chars": self.chars,
            "bytes": self.bytes,
            "han_chars": self.han_chars,
            "unit": self.unit,
            "samples": self.samples,
            "lines": self.lines,
            "chars_per_token": self.chars_per_token,
            "bytes_per_token": self.bytes_per_token,
            "tokens_per_han": self.tokens_per_han,
            "unk_tokens": self.unk_tokens,
            "unk_rate": self.unk_rate,
            "roundtrip_samples": self.roundtrip_samples,
            "roundtrip_rate": self.roundtrip_rate,
            "vocab_size": self.vocab_size,
            "vocab_used": self.vocab_used,
            "renyi_efficiency": self.renyi_efficiency,
            "encode_seconds": self.encode_seconds,
            "encode_mb_per_s": self.encode_mb_per_s,
            "train_seconds": self.train_seconds,
            # JSON keys are strings; "0" is the bucket of partial / empty-span tokens.
            "token_lengths": {str(k): v for k, v in sorted(self.token_lengths.items())},
            "script_chars": {k: self.script_chars[k] for k in SCRIPTS if k in self.script_chars},
            "tokens_per_char_by_script": self.tokens_per_char_by_script,
        }


# CompareResult fields that are sums over samples (what merging two tallies adds).
_SUMMED = ("samples", "lines", "chars", "bytes", "han_chars", "tokens", "han_tokens", "unk_tokens",
           "roundtrip_samples", "encode_seconds")


class Tally:
    """Accumulates one tokenizer's figures over many samples."""

    def __init__(self, name: str, model: ModelFacts, unit: str = "document"):
        """``model`` is the tokenizer that :meth:`add` measures with; a tally that only
        :meth:`merge` s figures measured elsewhere needs only its :class:`ModelFacts`."""
        self.tokenizer = model if isinstance(model, Tokenizer) else None
        self.result = CompareResult(name, model.model_type or type(model).__name__, model.vocab_size, unit)
        self.unk_id = unknown_token_id(self.tokenizer) if self.tokenizer is not None else None
        self.id_counts: Counter[int] = Counter()
        self.lengths: Counter[int] = Counter()

    def add(self, sample: Sample, enc: Encoding) -> None:
        if self.tokenizer is None:
            raise TypeError("Tally.add needs a Tokenizer (this tally only merges figures)")
        r = self.result
        r.samples += 1
        r.lines += sample.lines
        r.chars += len(sample.text)
        r.bytes += sample.n_bytes
        r.han_chars += sample.han
        r.tokens += len(enc.ids)
        self.id_counts.update(enc.ids)
        if self.unk_id is not None:
            r.unk_tokens += enc.ids.count(self.unk_id)
        if self.tokenizer.decode(enc.ids) == sample.text:
            r.roundtrip_samples += 1
        prefix = sample.han_prefix
        scripts = sample.scripts
        script_tokens = r.script_tokens
        cast("Counter[str]", r.script_chars).update(scripts)  # a Counter while tallying
        partial = enc.partial or repeat(False)
        for (start, end), part in zip(enc.offsets, partial):
            self.lengths[0 if part or end <= start else end - start] += 1
            if prefix[end] > prefix[start]:
                r.han_tokens += 1
            if end > start:
                cast("Counter[str]", script_tokens).update(set(scripts[start:end]))

    def merge(self, result: CompareResult, id_counts: Counter[int], lengths: Counter[int]) -> None:
        """Add the figures of another Tally of the same tokenizer (a batch measured elsewhere)."""
        for name in _SUMMED:
            setattr(self.result, name, getattr(self.result, name) + getattr(result, name))
        self.id_counts.update(id_counts)
        self.lengths.update(lengths)
        cast("Counter[str]", self.result.script_chars).update(result.script_chars)
        cast("Counter[str]", self.result.script_tokens).update(result.script_tokens)

    def finish(self) -> CompareResult:
        r = self.result
        r.vocab_used = len(self.id_counts)
        r.renyi_efficiency = renyi_efficiency(self.id_counts.values(), r.vocab_size)
        r.token_lengths = dict(sorted(self.lengths.items()))
        r.script_chars = dict(r.script_chars)
        r.script_tokens = dict(r.script_tokens)
        return r
