"""Wubi-BPE: byte-pair encoding over Wubi spellings of Chinese text.

Text is cut into pre-tokens (``pre_tokenizers.wubi``), each pre-token is spelled by
the Wubi codec (Han characters as Wubi keys, everything else as UTF-8
bytes) and BPE merges, learned by ``bpe.trainer``, are applied within each
pre-token.  The base symbols are the 256 bytes plus the Wubi symbols, so
there is no unknown token and ``decode(encode(x).ids) == x`` for every
``str``.

Encoding gives exactly what applying the merges by rank would give, but
through ``bpe.encoder`` (longest match with backtracking, checked pair by
pair), and remembers the result for each distinct pre-token: Chinese text
repeats its clauses and words a lot.

Ids: the special tokens ``<pad> <unk> <s> </s>`` (0-3), the codec's symbols
(bytes from 4, then keys, boundary or final keys, index symbols; see
``wubitok.codec``), the user's special tokens, then one id per merge in the
order they were learned.  Special tokens written in the input text come out
as their one id and are never split.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import re
import threading
from collections import Counter
from itertools import accumulate, chain, compress, count, islice, repeat
from operator import add, itemgetter, ne, not_, or_, sub
from typing import Any, Iterable, Iterator, Sequence

from ...codec import RESERVED_TOKENS, CodecOptions, WubiCodec
from ...dictionary import default_dictionary
from ...errors import InputError, ModelError
from ...fileio import check_readable_text, iter_text_chunks
from ..backends import use_fast
from ..base import Encoding, ProgressCallback, Tokenizer, check_cancel, register
from ..pre_tokenizers.special import SpecialSplitter, special_token_list
from ..pre_tokenizers.wubi import pretokens
from .encoder import BacktrackEncoder
from .trainer import train_merges

DEFAULT_SPECIAL_TOKENS = RESERVED_TOKENS

# Training text goes to the counters in blocks of about this many characters;
# a block with no place to cut it safely is cut anyway at MAX_BLOCK_CHARS.
BLOCK_CHARS = 1 << 20
MAX_BLOCK_CHARS = 1 << 24
# Pre-tokens remembered by encode(); Chinese clauses repeat a lot in real text.
CACHE_SIZE = 200_000


# -- counting pre-tokens ------------------------------------------------------
def _blocks(texts: Iterable[str] | None, paths: Sequence, cancel, progress) -> Iterator[str]:
    """The corpus as blocks cut only where no pre-token can span the cut.

    A cut goes right after a line break that is followed by a non-space
    character: that is always a run boundary and no space joins across it,
    so counting block by block (in any number of processes) counts exactly
    the pre-tokens of the whole text.  A block with no such place grows
    until it has one, up to ``MAX_BLOCK_CHARS`` (megabytes without a line
    break: there the cut may split one pre-token in two).
    """
    # Progress counts UTF-8 bytes; the total is unknown (0) only while
    # ``texts`` is an iterator we cannot measure ahead.
    total = sum(os.path.getsize(p) for p in paths)
    known = True
    if isinstance(texts, str):
        texts = [texts]
    if texts is not None:
        if isinstance(texts, (list, tuple)):
            total += sum(len(t.encode("utf-8", "surrogatepass")) for t in texts if isinstance(t, str))
        else:
            known = False
    done = 0

    def report(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress("counting", done, max(total, done) if known else 0)

    report(0)
    for text in texts if texts is not None else ():
        check_cancel(cancel)
        if not isinstance(text, str):
            raise InputError(f"training texts must be str, not {type(text).__name__}")
        if text:
            yield text
        report(len(text.encode("utf-8", "surrogatepass")))
    for path in paths:
        tail = ""
        for chunk in iter_text_chunks(path, BLOCK_CHARS):
            check_cancel(cancel)
            buf = tail + chunk
            cut = _last_safe_cut(buf)
            if not cut and len(buf) >= MAX_BLOCK_CHARS:
                cut = len(buf)
            if cut:
                yield buf[:cut]
                tail = buf[cut:]
            else:
                tail = buf
            report(len(chunk.encode("utf-8", "surrogatepass")))
        if tail:
            yield tail
    if progress is not None:
        # Everything is counted once the consumer asks past the last block.
        progress("counting", done, done)


def _last_safe_cut(text: str) -> int:
    """Just after the last line break that a non-space character follows, or 0."""
    pos = text.rfind("\n", 0, len(text) - 1)
    while pos >= 0:
        if not text[pos + 1].isspace():
            return pos + 1
        pos = text.rfind("\n", 0, pos)
    return 0


def count_pretokens(block: str, specials: Sequence[str] = ()) -> Counter:
    """Pre-token counts of one block; special tokens in the text are left out."""
    counts: Counter = Counter()
    if specials:
        names = sorted(specials, key=lambda s: (-len(s), s))
        parts = re.split("|".join(map(re.escape, names)), block)
    else:
        parts = [block]
    for part in parts:
        counts.update(pretokens(part))
    return counts


def _count_corpus(blocks: Iterator[str], specials: Sequence[str], workers: int, cancel) -> Counter:
    counts: Counter = Counter()
    if workers <= 1:
        for block in blocks:
            counts.update(count_pretokens(block, specials))
            check_cancel(cancel)
        return counts
    # spawn, not fork: the GUI calls this from a thread, and forking a
    # threaded (Qt) process is unsafe.
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(workers)
    try:
        jobs = ((block, tuple(specials)) for block in blocks)
        for part in pool.imap_unordered(_count_job, jobs):
            counts.update(part)
            check_cancel(cancel)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
    return counts


def _count_job(job: tuple[str, tuple[str, ...]]) -> Counter:
    return count_pretokens(*job)


@register
class WubiBPE(Tokenizer):
    """Byte-pair encoding over Wubi-86 spellings; lossless on every ``str``."""

    model_type = "wubi-bpe"
    format_version = 1
    lossless = True

    def __init__(
        self,
        merges: Sequence[tuple[int, int]] = (),
        *,
        special_tokens: Sequence[str] | None = None,
        codec: CodecOptions | None = None,
        training: dict[str, Any] | None = None,
    ):
        self.codec = WubiCodec(codec or CodecOptions(), default_dictionary())
        self.special_tokens = special_token_list(DEFAULT_SPECIAL_TOKENS, special_tokens)
        self.merges = [(int(a), int(b)) for a, b in merges]
        self.training = dict(training or {})
        n_user = len(self.special_tokens) - len(DEFAULT_SPECIAL_TOKENS)
        self.first_merge_id = self.codec.end_id + n_user

        tokens = list(self.codec.tokens)
        tokens += self.special_tokens[len(DEFAULT_SPECIAL_TOKENS) :]
        expansion: list[tuple[int, ...]] = [(i,) for i in range(self.codec.end_id)]
        expansion += [()] * n_user
        for i, (a, b) in enumerate(self.merges):
            new = self.first_merge_id + i
            if not (0 <= a < new and 0 <= b < new) or not expansion[a] or not expansion[b] or a < 4 or b < 4:
                raise ModelError(f"merge {i} ({a}, {b}) refers to an id that is not a symbol made before it")
            tokens.append(tokens[a] + tokens[b])
            expansion.append(expansion[a] + expansion[b])
        self._tokens = tokens
        # symbols each id stands for (empty for special tokens)
        self._expansion = expansion
        self._ids: dict[str, int] = {}
        for i, tok in enumerate(tokens):
            self._ids.setdefault(tok, i)
        self._special_ids = {
            t: i for i, t in enumerate(tokens) if i < 4 or self.codec.end_id <= i < self.first_merge_id
        }
        self._splitter = SpecialSplitter(self._special_ids)
        self._encoder: BacktrackEncoder | None = None  # built on first use
        self._char_symbols = _CharSymbols(self.codec)
        self._cache: dict[str, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[bool, ...]]] = {}

    # -- training ---------------------------------------------------------------
    @classmethod
    def train(
        cls,
        texts: Iterable[str] | None = None,
        *,
        files: Sequence[str | os.PathLike] | None = None,
        vocab_size: int = 8000,
        min_frequency: int = 2,
        special_tokens: Sequence[str] | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        codec: CodecOptions | dict | None = None,
        backend: str = "python",
        workers: int = 1,
    ) -> "WubiBPE":
        """Learn merges from ``texts`` and/or UTF-8 ``files``.

        ``backend="fast"`` learns the merges with Hugging Face ``tokenizers``
        (same pre-tokens, same spelling; needs ``pip install wubitok[fast]``),
        ``"auto"`` uses it when installed.  ``workers`` > 1 counts pre-tokens
        in that many spawned processes (so the program's main module must be
        importable, as for any ``multiprocessing`` use); the result does not
        depend on it.
        """
        if texts is None and files is None:
            raise InputError("nothing to train on: give texts or files")
        fast = use_fast(backend, "tokenizers")
        options = CodecOptions.from_dict(codec) if isinstance(codec, dict) else (codec or CodecOptions())
        specials = special_token_list(DEFAULT_SPECIAL_TOKENS, special_tokens)
        if not isinstance(vocab_size, int) or isinstance(vocab_size, bool):
            raise InputError(f"vocab_size must be an integer, not {vocab_size!r}")
        if not isinstance(min_frequency, int) or min_frequency < 1:
            raise InputError(f"min_frequency must be a positive integer, not {min_frequency!r}")
        empty = cls(special_tokens=specials, codec=options)
        num_merges = vocab_size - empty.first_merge_id
        if num_merges < 0:
            raise InputError(
                f"vocab_size {vocab_size} is too small: the special tokens and base symbols alone "
                f"take {empty.first_merge_id}"
            )
        paths = check_readable_text(files) if files is not None else []
        blocks = _blocks(texts, paths, cancel, progress)
        counts = _count_corpus(blocks, specials, max(1, int(workers)), cancel)
        if not counts:
            raise InputError("the training text is empty")
        check_cancel(cancel)
        words = sorted(counts.items())
        if fast:
            from .fast import train_merges_fast

            merges = train_merges_fast(
                empty, words, num_merges=num_merges, min_frequency=min_frequency, progress=progress, cancel=cancel
            )
        else:
            spell = empty._spell
            merges = train_merges(
                ((spell(w), c) for w, c in words),
                first_new_id=empty.first_merge_id,
                num_merges=num_merges,
                min_frequency=min_frequency,
                progress=progress,
                cancel=cancel,
            )
        check_cancel(cancel)
        training = {
            "backend": "fast" if fast else "python",
            "min_frequency": min_frequency,
            "vocab_size": vocab_size,
        }
        return cls(merges, special_tokens=specials, codec=options, training=training)

    def _spell(self, piece: str) -> tuple[int, ...]:
        return tuple(self.codec.encode(piece))

    # -- encoding -----------------------------------------------------------------
    def encode(self, text: str) -> Encoding:
        return self.encode_batch([text])[0]

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        """``encode`` of each text; the pre-tokens new to all of them are
        encoded together, which on many short lines is several times faster
        than one ``encode`` per line."""
        texts = list(texts)
        for text in texts:
            if not isinstance(text, str):
                raise InputError(f"encode takes a str, not {type(text).__name__}")
        # Encoding makes hundreds of thousands of tuples and lists but no
        # reference cycles, so garbage collections during it free nothing;
        # yet each traverses the young objects, and the full ones the whole
        # cache: a quarter of the time on new text.  Pause the collector
        # (if it is on; another thread's pause is left alone).
        if not gc.isenabled():
            return self._encode_texts(texts)
        gc.disable()
        try:
            return self._encode_texts(texts)
        finally:
            gc.enable()

    def _encode_texts(self, texts: list[str]) -> list[Encoding]:
        # Per piece its cached entry: (ids, end steps, widths, partial flags)
        # of its tokens, where a token's end step is how far its end lies
        # past the previous token's (pieces tile the text, so that needs no
        # piece offsets: the ends are a running sum) and its width is how
        # many characters it spans.  Flat tuples of ints keep the cache cheap
        # for the garbage collector; everything per piece or per token runs
        # in map/chain (C) except the encoding of pieces not in the cache.
        cache = self._cache
        plans: list[tuple[list, list]] = []  # per text: pieces (None: special), entries
        missing: dict[str, None] = {}
        for text in texts:
            keys: list[str | None] = []
            entries: list[tuple | None] = []
            for start, end, special in self._splitter.split(text):
                if special is not None:
                    keys.append(None)
                    entries.append(((special,), (end - start,), (end - start,), (False,)))
                    continue
                pieces = list(pretokens(text[start:end]))
                found = list(map(cache.get, pieces))
                if None in found:
                    missing.update(dict.fromkeys(compress(pieces, map(not_, found))))
                keys += pieces
                entries += found
            plans.append((keys, entries))
        new: dict = {}
        if missing:
            new = dict(zip(missing, self._encode_pieces(list(missing))))
            self._remember(new)
        tokens = self._tokens
        out = []
        for keys, entries in plans:
            if None in entries:
                entries = list(map(new.get, keys, entries))
            ids = list(chain.from_iterable(map(itemgetter(0), entries)))
            ends = list(accumulate(chain.from_iterable(map(itemgetter(1), entries))))
            starts = map(sub, ends, chain.from_iterable(map(itemgetter(2), entries)))
            partial = list(chain.from_iterable(map(itemgetter(3), entries)))
            out.append(Encoding(ids, list(map(tokens.__getitem__, ids)), list(zip(starts, ends)), partial))
        return out

    def _remember(self, new: dict) -> None:
        """Add entries to the cache, dropping the oldest beyond CACHE_SIZE."""
        cache = self._cache
        for key in list(islice(cache, max(0, len(cache) + len(new) - CACHE_SIZE))):
            del cache[key]
        cache.update(islice(new.items(), max(0, len(new) - CACHE_SIZE), None))

    def _encode_pieces(self, pieces: list[str]) -> list[tuple]:
        """The cache entries (see ``_encode``) of ``pieces``, all at once.

        A text brings thousands of new pieces, each a few tokens long, so
        per-piece calls would cost more than the BPE itself: here every step
        maps over all pieces or all tokens in C.  The pieces are spelled as
        one symbol string, encoded by ``BacktrackEncoder.encode_many``, and
        the token offsets computed for all of them together.
        """
        encoder = self._get_encoder()
        char_symbols = list(map(self._char_symbols.__getitem__, "".join(pieces)))
        # char_start[c]: where character c starts among the symbols (and the end)
        char_start = list(accumulate(map(len, char_symbols), initial=0))
        bounds = list(map(char_start.__getitem__, accumulate(map(len, pieces), initial=0)))
        ids = encoder.encode_many("".join(char_symbols), bounds)
        # char_of[s]: the character that symbol s spells (part of)
        char_of = list(chain.from_iterable(map(repeat, count(), map(len, char_symbols))))
        lengths = list(map(encoder.lengths.__getitem__, chain.from_iterable(ids)))
        ends = list(accumulate(lengths))  # of the tokens, in symbols
        starts = list(map(sub, ends, lengths))
        firsts = list(map(char_of.__getitem__, starts))
        lasts = list(map(add, map(char_of.__getitem__, map(sub, ends, repeat(1))), repeat(1)))  # one past
        # a token is partial unless it starts and ends where characters do
        partial = list(map(or_, map(ne, map(char_start.__getitem__, firsts), starts),
                           map(ne, map(char_start.__getitem__, lasts), ends)))
        steps = map(sub, lasts, chain((0,), lasts))
        widths = map(sub, lasts, firsts)
        cuts = list(accumulate(map(len, ids), initial=0))  # where each piece's tokens start
        spans = list(map(slice, cuts, islice(cuts, 1, None)))

        def per_piece(values) -> list[tuple]:
            return list(map(tuple, map(list(values).__getitem__, spans)))

        return list(zip(ids, per_piece(steps), per_piece(widths), per_piece(partial)))

    def _get_encoder(self) -> BacktrackEncoder:
        if self._encoder is None:
            self._encoder = BacktrackEncoder(self.merges, self.first_merge_id, range(4, self.codec.end_id))
        return self._encoder

    def decode(self, ids: Sequence[int]) -> str:
        out: list[str] = []
        symbols: list[int] = []
        expansion, tokens, n = self._expansion, self._tokens, len(self._tokens)
        for i in ids:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
                raise InputError(f"unknown token id {i!r} (this model has ids 0-{n - 1})")
            exp = expansion[i]
            if exp and i >= 4:
                symbols.extend(exp)
            else:
                if symbols:
                    out.append(self.codec.decode(symbols))
                    symbols = []
                out.append(tokens[i])
        if symbols:
            out.append(self.codec.decode(symbols))
        return "".join(out)

    # -- vocabulary -------------------------------------------------------------
    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._tokens[id] if isinstance(id, int) and 0 <= id < len(self._tokens) else None

    @property
    def vocab_size(self) -> int:
        return len(self._tokens)

    def symbols(self, id: int) -> tuple[int, ...]:
        """The codec symbols a token stands for (empty for special tokens)."""
        return self._expansion[id] if id >= 4 else ()

    def display_token(self, id: int) -> str:
        """Keys as typed plus, if the token spells whole characters, those:
        ``wqiy▁ (你)``.  Bytes show in GPT-2 form, special tokens as they are."""
        tok = self.id_to_token(id)
        if tok is None:
            return ""
        symbols = self.symbols(id)
        if not symbols:
            return tok
        shown = self.codec.display(symbols)
        text = self.codec.decode(symbols)
        if "\ufffd" in text or text == shown:
            return shown
        return f"{shown} ({_escape(text)})"

    # -- persistence ------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "codec": self.codec.options.to_dict(),
            "dictionary_hash": self.codec.content_hash,
            "special_tokens": self.special_tokens,
            "merges": [list(m) for m in self.merges],
            "vocab": self._tokens,
            "training": self.training,
        }

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> "WubiBPE":
        missing = [k for k in ("codec", "dictionary_hash", "special_tokens", "merges", "vocab") if k not in data]
        if missing:
            raise ModelError(f"wubi-bpe model is missing {', '.join(missing)}")
        here = default_dictionary().content_hash
        if data["dictionary_hash"] != here:
            raise ModelError(
                f"model was made with dictionary {data['dictionary_hash']}, but this wubitok has {here}"
            )
        try:
            options = CodecOptions.from_dict(data["codec"])
        except InputError as exc:
            raise ModelError(f"bad codec options: {exc}") from None
        specials = data["special_tokens"]
        if not isinstance(specials, list) or tuple(specials[:4]) != DEFAULT_SPECIAL_TOKENS:
            raise ModelError("special_tokens must be a list starting with <pad> <unk> <s> </s>")
        merges = data["merges"]
        if not isinstance(merges, list) or not all(
            isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m) for m in merges
        ):
            raise ModelError("merges must be a list of [id, id] pairs")
        training = data.get("training", {})
        if not isinstance(training, dict):
            raise ModelError("training must be an object")
        try:
            tok = cls(merges, special_tokens=specials, codec=options, training=training)
        except InputError as exc:
            raise ModelError(str(exc)) from None
        if data["vocab"] != tok._tokens:
            raise ModelError("vocab does not match the codec symbols, special tokens and merges")
        return tok


class _CharSymbols(dict):
    """Character -> its spelling as a str, one code point per symbol (the
    form ``BacktrackEncoder`` takes); filled as characters are met."""

    def __init__(self, codec: WubiCodec):
        super().__init__()
        self._codec = codec

    def __missing__(self, char: str) -> str:
        if len(self) >= 1 << 16:  # bounded, whatever the text
            self.clear()
        symbols = self[char] = "".join(map(chr, self._codec.spelling(char)))
        return symbols


def _escape(text: str) -> str:
    # Whitespace and controls would be invisible in a label; show them escaped.
    return "".join(repr(c)[1:-1] if not c.isprintable() else c for c in text)


