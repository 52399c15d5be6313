"""Hugging Face ``tokenizer.json`` for byte-level BPE, WordPiece and Unigram models.

The JSON is written here directly (no ``tokenizers`` import needed to export);
the tests load every file with ``tokenizers.Tokenizer.from_file`` and compare
ids with ours.  Where the library cannot say exactly what our engine does,
the function's docstring names the inputs that differ.
"""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Any

from ..engines.base import Tokenizer
from ..engines.bpe.byte_level import ByteLevelBPE
from ..engines.pre_tokenizers.metaspace import WORD_RE, WS_WORD_RE
from ..engines.unigram.model import Unigram
from ..engines.wordpiece.model import UNK as WORDPIECE_UNK
from ..engines.wordpiece.model import WordPiece


def _added_tokens(specials: list[tuple[int, str]]) -> list[dict[str, Any]]:
    # normalized=False: a special written in the raw text is matched before
    # any normalizer runs, as our SpecialSplitter / PreTokenizer do.
    return [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True} for i, t in specials]


def pad_token(model: Tokenizer) -> str | None:
    """The token a padded batch is filled with: the model's pad token, else its
    end token (as for models trained without one; the attention mask hides it)."""
    roles = model.special_roles()
    return roles.get("pad_token") or roles.get("eos_token") or roles.get("sep_token")


def _padding(model: Tokenizer) -> dict[str, Any] | None:
    # transformers' PreTrainedTokenizerFast(tokenizer_file=...) takes its pad
    # token from here; the raw library pads encode_batch to the longest with it.
    token = pad_token(model)
    if token is None:
        return None
    return {"strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None,
            "pad_id": model.token_to_id(token), "pad_type_id": 0, "pad_token": token}


def post_processor(model: Tokenizer) -> dict[str, Any] | None:
    """What ``encode(add_special_tokens=True)`` adds around a text (``Tokenizer.special_frame``), as
    HF's TemplateProcessing, so transformers' ``add_special_tokens`` (on by default) gives our ids.
    A pair: WordPiece's ``[CLS] A [SEP] B [SEP]`` as BERT's; ``<s> A </s> <s> B </s>`` otherwise."""
    first, last = model.special_frame()
    if not first and not last:
        return None

    def special(tokens: list[str], type_id: int) -> list[dict[str, Any]]:
        return [{"SpecialToken": {"id": t, "type_id": type_id}} for t in tokens]

    def text(name: str, type_id: int) -> list[dict[str, Any]]:
        return [{"Sequence": {"id": name, "type_id": type_id}}]

    bert = model.special_roles().get("cls_token") in first
    single = special(first, 0) + text("A", 0) + special(last, 0)
    pair = single + ([] if bert else special(first, 1)) + text("B", 1) + special(last, 1)
    ids = {t: {"id": t, "ids": [model.token_to_id(t)], "tokens": [t]} for t in first + last}
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": ids}


def _document(added: list[dict[str, Any]], normalizer: Any, pre_tokenizer: Any, decoder: Any,
              model: dict[str, Any], padding: dict[str, Any] | None, post: dict[str, Any] | None = None) -> str:
    doc = {"version": "1.0", "truncation": None, "padding": padding, "added_tokens": added,
           "normalizer": normalizer, "pre_tokenizer": pre_tokenizer, "post_processor": post,
           "decoder": decoder, "model": model}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def bpe_tokenizer_json(model: ByteLevelBPE) -> str:
    """GPT-4 regex split, then HF's ByteLevel mapping, then BPE by merge rank.

    Differs from ours on:
    * a merge that re-creates a string that is already a token: HF has one id
      per string, so it gives the first id where we give the merge's own id
      (``token_to_id`` agrees: both say the first);
    * lone surrogates, which a Rust string cannot hold (``tokenizers`` refuses
      such a ``str``).
    """
    k = len(model.special_tokens)
    vocab: dict[str, int] = {}
    for i in range(model.vocab_size):  # specials too: an added token must be in the vocab to keep its id
        vocab.setdefault(model.id_to_token(i) or "", i)
    merges = [f"{model.id_to_token(a + k)} {model.id_to_token(b + k)}" for a, b in model.merges]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    pre = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": model.pattern}, "behavior": "Isolated", "invert": False},
        byte_level,
    ]}
    bpe = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
           "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "vocab": vocab, "merges": merges}
    return _document(_added_tokens(list(enumerate(model.special_tokens))), None, pre, byte_level, bpe,
                     _padding(model), post_processor(model))


def wordpiece_tokenizer_json(model: WordPiece) -> str:
    """HF's BertNormalizer + BertPreTokenizer + WordPiece, with our options.

    Differs from ours on CJK Extension E characters U+2B820..U+2B91F, which
    Google BERT (and we) put on their own but HF's copy of the range does not;
    on unassigned code points, which Google BERT (and we) drop as control
    characters (category C*) and HF keeps; and on 13 format characters newer
    than HF's Unicode tables (U+0890, U+0891, U+08E2, U+110CD,
    U+13430..U+13438).
    """
    vocab = {model.id_to_token(i) or "": i for i in range(model.vocab_size)}
    specials = [(vocab[t], t) for t in model.special_tokens]
    normalizer = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                  "strip_accents": model.strip_accents, "lowercase": model.lowercase}
    wp = {"type": "WordPiece", "unk_token": WORDPIECE_UNK, "continuing_subword_prefix": model.continuing_prefix,
          "max_input_chars_per_word": model.max_input_chars_per_word, "vocab": vocab}
    decoder = {"type": "WordPiece", "prefix": model.continuing_prefix, "cleanup": True}
    return _document(_added_tokens(specials), normalizer, {"type": "BertPreTokenizer"}, decoder, wp, _padding(model),
                     post_processor(model))


# tokenizers reads JSON numbers with serde_json's fast path (its
# float_roundtrip feature is off): the digits as an integer rounded to a
# double, then divided by a power of ten.  Two roundings: one shortest
# decimal (``repr``) in six came back one unit in the last place off (1,035
# of the bundled model's 5,741 scores), and the Viterbi ties that our scores
# make exact (a piece scoring twice another) broke another way in HF.
_POW10 = [float(10 ** k) for k in range(23)]  # exact as doubles up to 1e22
_VOCAB_SLOT = "vocab written by _score_literal"
_PLAIN = re.compile(r"-?([0-9]+)\.([0-9]+)")


def _fast_path_reads(digits: int, k: int, x: float) -> bool:
    """Whether serde_json's fast path reads ``digits * 10**-k`` as ``abs(x)``."""
    return float(digits) / _POW10[k] == abs(x)


def _score_literal(x: float) -> str:
    """A JSON number that ``tokenizers`` reads as exactly ``x``: ``repr(x)``
    when it does, else the decimal of fewest digits (at most 19, a u64) that
    it does and a correctly rounding reader (that feature on) does too.

    About one score in 500 has none (the division's rounding steps over it):
    it is written as ``repr(x)``, which HF reads one unit in the last place
    off, so a tie through that piece can still break another way there."""
    text = repr(x)
    plain = _PLAIN.fullmatch(text)
    if plain and len(plain[2]) < len(_POW10) and _fast_path_reads(int(plain[1] + plain[2]), len(plain[2]), x):
        return text
    for k in range(1, len(_POW10)):
        target = Fraction(abs(x)) * 10 ** k
        if target >= 10 ** 19:
            break
        # The double nearest the target and its neighbours are integers once
        # the target passes 2**53; below, the integers around it are doubles.
        near = float(target)
        for digits in sorted({round(target), round(target) - 1, round(target) + 1, int(near),
                              int(math.nextafter(near, math.inf)), int(math.nextafter(near, -math.inf))}):
            if digits >= 0 and _fast_path_reads(digits, k, x) and float(Fraction(digits, 10 ** k)) == abs(x):
                whole = str(digits).rjust(k + 1, "0")
                return f"{'-' if x < 0 else ''}{whole[:-k]}.{whole[-k:]}"
    return text


def unigram_tokenizer_json(model: Unigram) -> str:
    """Our word split (a space starts a word, or with whitespace pieces a run of
    spaces does; breaks and U+2581 stand alone),
    the space shown as ``▁``, then HF's Unigram Viterbi with byte fallback.

    Specials and byte pieces get the lowest trained score, so the unknown
    penalty HF derives from the vocabulary's minimum is ours.  Differs from
    ours on text holding U+2581 itself (HF cannot tell it from a space: we
    always spell it in bytes) or a byte piece's name such as ``<0x41>`` (HF
    may match the name as that piece), and on an exact tie through a piece
    whose score HF cannot read back exactly (see ``_score_literal``).
    """
    pieces = [(model.id_to_token(i) or "", model.score(i)) for i in range(model.vocab_size)]
    floor = min((s for _, s in pieces if s is not None), default=0.0)
    vocab = [(t, floor if s is None else s) for t, s in pieces]
    specials = list(enumerate(model.special_tokens))
    pre = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": (WS_WORD_RE if model.whitespace_pieces else WORD_RE).pattern},
         "behavior": "Isolated", "invert": False},
        {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "never", "split": False},
    ]}
    # The vocabulary is written by hand below: json.dumps writes repr(score).
    unigram = {"type": "Unigram", "unk_id": model.unk_id, "vocab": _VOCAB_SLOT, "byte_fallback": model.byte_fallback}
    decoder = {"type": "Sequence", "decoders": [
        {"type": "ByteFallback"}, {"type": "Fuse"},
        {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
    ]}
    doc = _document(_added_tokens(specials), None, pre, decoder, unigram, _padding(model), post_processor(model))
    rows = ",\n".join(f"  [{json.dumps(t, ensure_ascii=False)}, {_score_literal(s)}]" for t, s in vocab)
    # rpartition: the model comes last, after any special token that might spell the slot
    head, _, tail = doc.rpartition(json.dumps(_VOCAB_SLOT))
    return f"{head}[\n{rows}\n ]{tail}"
