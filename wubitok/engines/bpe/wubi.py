"""Wubi-BPE: byte-pair encoding over Wubi spellings of Chinese text.

Text is cut into pre-tokens (``pre_tokenizers.wubi``: "joined", or "clause" as
models made before it), each pre-token is spelled by
the Wubi codec (Han characters as Wubi keys, everything else as UTF-8
bytes) and BPE merges, learned by ``bpe.trainer``, are applied within each
pre-token.  The base symbols are the 256 bytes plus the Wubi symbols, so
there is no unknown token and ``decode(encode(x).ids) == x`` for every
``str``.

Encoding gives exactly what applying the merges by rank would give.  With
Hugging Face ``tokenizers`` installed (the default encoder, "auto"), the
merges run in its Rust BPE (``bpe.rust_merges``) over the pre-tokens as
spelled here, and the offsets are computed from the tokens (which symbols
can start or end a character: ``WubiCodec.char_edges``); otherwise
(or with ``use_encoder("python")``) through ``bpe.encoder`` (longest match
with backtracking, checked pair by pair), remembering the result for each
distinct pre-token: Chinese text repeats its clauses and words a lot.

Ids: the special tokens ``<pad> <unk> <s> </s>`` (0-3), the codec's symbols
(bytes from 4, then keys, boundary or final keys, index symbols; see
``wubitok.wubi.codec``), the user's special tokens, then one id per merge in the
order they were learned.  Special tokens written in the input text come out
as their one id and are never split.
"""
from __future__ import annotations

import gc
from bisect import bisect_right
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, chain, compress, count, islice, repeat
from operator import add, contains, itemgetter, ne, not_, or_, sub
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping, Sequence, TypeVar

from ...errors import InputError, ModelError, excerpt
from ...progress import check_cancel
from ...wubi.byte_reading import ByteReading
from ...wubi.codec import BYTE_BASE, RESERVED_TOKENS, CodecOptions, WubiCodec
from ...wubi.dictionary import default_dictionary
from ..backends import choose_encoder
from ..base import Encoding, EngineOptions, Tokenizer, TrainingArgs, check_int, check_training
from ..caches import remember
from ..corpus import BlockCounter
from ..pre_tokenizers.special import SpecialSplitter, special_token_list
from ..pre_tokenizers.wubi import DEFAULT_MODE, count_wubi_pretokens, pretokens_for
from .encoder import BacktrackEncoder
from .fast import learn_merges_fast, ordered_alphabet
from .limits import MAX_TOKEN_SYMBOLS, check_token_length
from .rust_merges import ALPHABET, RustMerges, Unsupported
from .trainer import train_merges

DEFAULT_SPECIAL_TOKENS = RESERVED_TOKENS
T = TypeVar("T")
# The pre-token cut of new models (``pre_tokenizers.wubi``); a model file
# without "pre_tokens" was made before there was a choice: "clause".
DEFAULT_PRE_TOKENS = DEFAULT_MODE

# Pre-tokens remembered by encode(); Chinese clauses repeat a lot in real text.
CACHE_SIZE = 200_000
# Joins a text's pre-tokens before they are spelled for the fast encoder,
# which reads it as the space between two (a noncharacter: texts that hold
# it are spelled pre-token by pre-token instead).
_SEPARATOR = "\uffff"


@dataclass(frozen=True)
class WubiBPEOptions(EngineOptions):
    """Wubi-BPE's own training options: ``codec`` chooses how characters are
    spelled; ``pre_tokens`` how text is cut before merging (``pre_tokenizers.wubi``:
    "clause" or "joined"); ``workers`` > 1 counts a corpus in that many
    processes (the result does not depend on it).  ``backend="fast"`` learns
    the merges with Hugging Face ``tokenizers`` (same pre-tokens, same spelling)."""

    codec: CodecOptions | dict | None = None
    pre_tokens: str = DEFAULT_PRE_TOKENS
    workers: int = 1

    counted: ClassVar[tuple[str, ...]] = ("pre_tokens", "workers")
    text_only: ClassVar[tuple[str, ...]] = ("workers",)

    def corpus_workers(self) -> int:
        return check_int("workers", self.workers, 1)


class WubiBPE(Tokenizer):
    """Byte-pair encoding over Wubi-86 spellings; lossless on every ``str``."""

    model_type = "wubi-bpe"
    MAX_CHECKED_VOCAB = 1 << 30  # a vocab_size big enough that only the other arguments are checked
    format_version = 1
    lossless = True

    def __init__(
        self,
        merges: Sequence[tuple[int, int]] = (),
        *,
        special_tokens: Sequence[str] | None = None,
        codec: CodecOptions | None = None,
        training: dict[str, Any] | None = None,
        pre_tokens: str = DEFAULT_PRE_TOKENS,
    ):
        self.codec = WubiCodec(codec or CodecOptions(), default_dictionary())
        self.pre_tokens = pre_tokens
        self._pretokens = pretokens_for(pre_tokens)
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
            if not (BYTE_BASE <= a < new and BYTE_BASE <= b < new) or not expansion[a] or not expansion[b]:
                raise ModelError(f"merge {i} ({a}, {b}) refers to an id that is not a symbol made before it")
            check_token_length(i, len(expansion[a]) + len(expansion[b]))
            tokens.append(tokens[a] + tokens[b])
            expansion.append(expansion[a] + expansion[b])
        self._tokens = tokens
        # symbols each id stands for (empty for special tokens), and how many
        self._expansion = expansion
        self._lengths = list(map(len, expansion))
        self._ids: dict[str, int] = {}
        for i, tok in enumerate(tokens):
            self._ids.setdefault(tok, i)
        self._special_ids = {
            t: i for i, t in enumerate(tokens) if i < BYTE_BASE or self.codec.end_id <= i < self.first_merge_id
        }
        self._splitter = SpecialSplitter(self._special_ids)
        self._encoder: BacktrackEncoder | None = None  # built on first use
        self._char_symbols = _CharSymbols(self.codec)
        self._encoder_choice = "auto"
        self._rust: RustMerges | None = None  # the fast encoder, when chosen and possible
        self._rust_tried = False
        self._symbol_chars = _SymbolChars(self._char_symbols)
        self._joined_chars = _SymbolChars(self._char_symbols, {ord(_SEPARATOR): " "})
        self._cache: dict[str, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[bool, ...]]] = {}
        # the fast encoder's offsets, built on first use
        self._edges: _TokenEdges | _ByteTokenEdges | None = _UNKNOWN

    # -- training (train, count, train_from_counts: see Tokenizer) ---------------
    Options = WubiBPEOptions
    default_specials = DEFAULT_SPECIAL_TOKENS

    @classmethod
    def min_vocab_size(cls, special_tokens: Sequence[str] | None = None, **options: Any) -> int:
        """The special tokens and the codec's base symbols (``codec`` may change them)."""
        args = check_training(cls.model_type, vocab_size=cls.MAX_CHECKED_VOCAB, min_frequency=2,
                              special_tokens=special_tokens, progress=None, cancel=None, backend="python",
                              default_specials=DEFAULT_SPECIAL_TOKENS)
        own = WubiBPEOptions(codec=options.get("codec"), pre_tokens=options.get("pre_tokens", DEFAULT_PRE_TOKENS))
        return cls._checked(args, own).first_merge_id

    def count_options(self) -> dict[str, Any]:
        return {"pre_tokens": self.pre_tokens}

    def train_options(self) -> dict[str, Any]:
        return {**super().train_options(), "codec": self.codec.options}

    @classmethod
    def _block_counter(cls, special_tokens: Sequence[str], own: WubiBPEOptions) -> BlockCounter:
        pretokens_for(own.pre_tokens)  # an unknown cut fails before any reading
        return partial(count_wubi_pretokens, special_tokens=tuple(special_tokens), mode=own.pre_tokens)

    @classmethod
    def _checked(cls, args: TrainingArgs, own: WubiBPEOptions) -> WubiBPE:
        """The model without merges (its ids say where merges start)."""
        codec = own.codec
        if isinstance(codec, dict):
            codec = CodecOptions.from_dict(codec)
        elif codec is not None and not isinstance(codec, CodecOptions):
            raise InputError(f"codec must be CodecOptions or a dict, not {codec!r}")
        if not isinstance(own.pre_tokens, str):
            raise InputError(f"pre_tokens must be a str, not {own.pre_tokens!r}")
        empty = cls(special_tokens=args.special_tokens, codec=codec, pre_tokens=own.pre_tokens)
        if args.vocab_size < empty.first_merge_id:
            raise InputError(
                f"vocab_size {args.vocab_size} is too small: the special tokens and base symbols alone "
                f"take {empty.first_merge_id}"
            )
        own.corpus_workers()  # checked before any reading
        return empty

    @classmethod
    def _learn(cls, counts: Mapping[str, int], args: TrainingArgs, own: WubiBPEOptions, empty: WubiBPE) -> WubiBPE:
        num_merges = args.vocab_size - empty.first_merge_id
        # Sorted: the merges depend only on the counts, not on the order they were made in.
        # The keys only: (word, count) tuples for millions of words would cost 64 bytes each.
        words: Iterator[tuple[str, int]] = ((w, counts[w]) for w in sorted(counts))
        if args.fast:
            total = sum(counts.values())
            if args.owns_counts and isinstance(counts, dict):
                # HF keeps its own copy of the words: ours go before its training starts
                words = _emptied_after(words, counts)
            # HF breaks count ties by its ids, its alphabet numbered in code-point order: spelled in
            # characters in the codec's order, its ties go as ``train_merges``' (by our ids).
            chars = ordered_alphabet(empty.codec.end_id)
            base = range(BYTE_BASE, empty.codec.end_id)
            # A text's spelling is its characters' spellings one after the other (what the fast
            # encoder relies on too): str.translate spells every word in C.
            spelled = _SymbolChars(empty._char_symbols, alphabet=dict(enumerate(chars)))
            merges = learn_merges_fast(
                ((w.translate(spelled), c) for w, c in words),
                [(chars[i], i) for i in base],
                first_new_id=empty.first_merge_id, num_merges=num_merges, min_frequency=args.min_frequency,
                max_token_length=MAX_TOKEN_SYMBOLS, total=total, progress=args.progress,
                cancel=args.cancel,
            )
        else:
            ids = _SymbolChars(empty._char_symbols, alphabet={})
            merges = train_merges(
                ((tuple(map(ord, w.translate(ids))), c) for w, c in words),
                first_new_id=empty.first_merge_id,
                num_merges=num_merges,
                min_frequency=args.min_frequency,
                max_token_length=MAX_TOKEN_SYMBOLS,
                progress=args.progress,
                cancel=args.cancel,
            )
        check_cancel(args.cancel)
        training = {"backend": args.backend, "min_frequency": args.min_frequency, "vocab_size": args.vocab_size}
        return cls(merges, special_tokens=args.special_tokens, codec=empty.codec.options, training=training,
                   pre_tokens=empty.pre_tokens)

    # -- encoding -----------------------------------------------------------------
    def use_encoder(self, backend: str = "auto") -> str:
        """How ``encode`` applies the merges: ``"python"`` (this project's
        encoder), ``"fast"`` (HF ``tokenizers``' Rust BPE: the same ids and
        offsets, several times faster on new text) or ``"auto"`` (fast when
        installed; the default).  Returns the encoder now in use, which is
        "python" for a model HF cannot run (see ``bpe.rust_merges``)."""
        choose_encoder(backend, self.model_type)  # a bad choice fails here
        if backend != self._encoder_choice:
            self._encoder_choice, self._rust, self._rust_tried = backend, None, False
        return self.encoder_backend

    @property
    def encoder_choice(self) -> str:
        """What ``use_encoder`` was given ("auto" unless changed)."""
        return self._encoder_choice

    @property
    def encoder_backend(self) -> str:
        """The encoder ``encode`` uses: "fast" or "python"."""
        return "python" if self._rust_merges() is None else "fast"

    def _rust_merges(self) -> RustMerges | None:
        if not self._rust_tried:
            self._rust_tried = True
            if choose_encoder(self._encoder_choice, self.model_type) == "fast":
                try:
                    self._rust = RustMerges(self.merges, self.first_merge_id, range(BYTE_BASE, self.codec.end_id))
                except Unsupported:
                    self._rust = None
        return self._rust

    def _encode(self, text: str) -> Encoding:
        return self.encode_batch([text])[0]

    def encode_batch(self, texts: Iterable[str]) -> list[Encoding]:
        """``encode`` of each text; the pre-tokens new to all of them are
        encoded together, which on many short lines is several times faster
        than one ``encode`` per line."""
        return self._batch(texts, self._encode_cached, self._encode_fast)

    def encode_batch_ids(self, texts: Iterable[str]) -> list[list[int]]:
        """``encode_batch(texts)``'s ids alone; with the fast encoder, the
        offsets (a third of its time) are not computed."""
        return self._batch(texts, lambda ts: [e.ids for e in self._encode_cached(ts)], self._ids_fast)

    def _batch(self, texts: Iterable[str], python: Callable[[list[str]], list[T]],
               fast: Callable[[list[str], RustMerges], list[T]]) -> list[T]:
        texts = list(texts)
        for text in texts:
            if not isinstance(text, str):
                raise InputError(f"encode takes a str, not {type(text).__name__}")
        # Encoding makes hundreds of thousands of tuples and lists but no
        # reference cycles, so garbage collections during it free nothing;
        # yet each traverses the young objects, and the full ones the whole
        # cache: a quarter of the time on new text.  Pause the collector
        # (if it is on; another thread's pause is left alone).
        paused = gc.isenabled()
        gc.disable()
        try:
            rust = self._rust_merges()
            if rust is None:
                return python(texts)
            # Special tokens written in a text are rare: such texts take the
            # Python path.  One search over all texts first (a match across
            # two of them only costs the search text by text).
            if not self._splitter.has_special("".join(texts)):
                return fast(texts, rust)
            special = list(map(self._splitter.has_special, texts))
            done = iter(python(list(compress(texts, special))))
            plain = iter(fast(list(compress(texts, map(not_, special))), rust))
            return [next(done) if s else next(plain) for s in special]
        finally:
            if paused:
                gc.enable()

    def _spell_and_merge(self, texts: list[str], rust: RustMerges) -> tuple[list[int], list[str]]:
        """The ids of all ``texts`` (without special tokens) one after the
        other, and each text spelled as ``rust`` got it.

        Each text's pre-tokens are spelled in ``rust_merges``' alphabet
        (``str.translate``, in C) and all texts go to ``rust`` in one string.
        """
        cut = self._pretokens
        if any(map(contains, texts, repeat(_SEPARATOR))):
            table = self._symbol_chars
            spelled = [" ".join(map(str.translate, cut(t), repeat(table))) for t in texts]
        else:
            # One translate per text rather than per pre-token: the pre-tokens
            # are joined by a character the text lacks, spelled as the space.
            spelled = list(map(str.translate, map(_SEPARATOR.join, map(cut, texts)), repeat(self._joined_chars)))
        return rust.encode(" ".join(spelled)), spelled

    def _merge_fast(self, texts: list[str], rust: RustMerges) -> tuple[list[int], list[int], list[int]]:
        """``_spell_and_merge``'s ids, each token's end in symbols (counted
        over all texts), and where each text's tokens start (then the total)."""
        ids, spelled = self._spell_and_merge(texts, rust)
        ends = list(accumulate(map(self._lengths.__getitem__, ids)))
        # tokens tile the symbols, so a text's tokens end where its symbols do
        text_ends = accumulate(map(sub, map(len, spelled), map(str.count, spelled, repeat(" "))))
        cuts = [0, *map(bisect_right, repeat(ends), text_ends)]
        return ids, ends, cuts

    def _ids_fast(self, texts: list[str], rust: RustMerges) -> list[list[int]]:
        ids, _, cuts = self._merge_fast(texts, rust)
        return list(map(ids.__getitem__, map(slice, cuts, islice(cuts, 1, None))))

    def _encode_fast(self, texts: list[str], rust: RustMerges) -> list[Encoding]:
        """``encode`` of texts without special tokens, the merges done by ``rust``.

        The offsets come from the tokens alone (``_TokenEdges``): where a
        token starts or ends mid-character, and how many characters start
        inside it, say which characters it spans, in a few passes over the
        tokens, never over the symbols.  A codec whose spellings do not
        delimit themselves pair by pair (none so far) takes ``_encode_symbols``.
        """
        edges = self._token_edges()
        if edges is None:
            return self._encode_symbols(texts, rust)
        if any(map(contains, texts, repeat(_SEPARATOR))):
            ids, _ = self._spell_and_merge(texts, rust)
        else:  # all pre-tokens of all texts in one translate (texts meet where pre-tokens do)
            ids = rust.encode(_SEPARATOR.join(chain.from_iterable(map(self._pretokens, texts))).translate(
                self._joined_chars))
        if not ids:
            return [Encoding([], [], [], []) for _ in texts]
        # per token: how many characters start in it, itself included when it starts one
        starts_in = list(map(edges.starts_in.__getitem__, ids))
        steps = starts_in[:]  # characters that start in it, past the last one's
        partial = [False] * len(ids)
        edges.mend(ids, steps, starts_in, partial)
        # one past its last character, counted over all texts
        lasts = list(accumulate(steps))
        # texts tile the characters and never meet inside one
        cuts = [0, *map(bisect_right, repeat(lasts), accumulate(map(len, texts)))]
        start = 0  # count each text's characters from 0: take the text before off its first step
        for first, end in zip(cuts, islice(cuts, 1, None)):
            if 0 < first < end:
                steps[first] -= lasts[first - 1] - start
                start = lasts[first - 1]
        lasts = list(accumulate(steps))
        offsets = list(zip(map(sub, lasts, starts_in), lasts))
        tokens = list(map(self._tokens.__getitem__, ids))
        spans = list(map(slice, cuts, islice(cuts, 1, None)))
        return list(map(Encoding, map(ids.__getitem__, spans), map(tokens.__getitem__, spans),
                        map(offsets.__getitem__, spans), map(partial.__getitem__, spans)))

    def _token_edges(self) -> _TokenEdges | _ByteTokenEdges | None:
        if self._edges is _UNKNOWN:
            if self.codec.on_bytes:  # its symbols never say alone where characters meet
                self._edges = _ByteTokenEdges(self.codec, self._expansion)
            else:
                char_edges = self.codec.char_edges()
                self._edges = None if char_edges is None else _TokenEdges(self.first_merge_id, self.merges,
                                                                          *char_edges)
        return self._edges

    def _encode_symbols(self, texts: list[str], rust: RustMerges) -> list[Encoding]:
        """``_encode_fast`` symbol by symbol: token offsets come from the tokens'
        ends in symbols and, per symbol, the index of the character it spells
        within its text and whether it is not that character's first, for
        all texts at once."""
        ids, ends, cuts = self._merge_fast(texts, rust)
        starts = list(map(sub, ends, map(self._lengths.__getitem__, ids)))
        widths = list(map(len, map(self._symbol_chars.__getitem__, map(ord, "".join(texts)))))
        # per symbol: its character's index in its text (texts tile the symbols: no offsets to subtract)
        char_of = list(chain.from_iterable(map(repeat, chain.from_iterable(map(range, map(len, texts))), widths)))
        inside = list(chain.from_iterable(map(_INSIDE.__getitem__, widths)))  # not its character's first
        inside.append(False)  # the end of the last text
        lasts = map(add, map(char_of.__getitem__, map(sub, ends, repeat(1))), repeat(1))  # one past
        offsets = list(zip(map(char_of.__getitem__, starts), lasts))
        # a token is partial unless it starts and ends where characters do
        partial = list(map(or_, map(inside.__getitem__, starts), map(inside.__getitem__, ends)))
        tokens = list(map(self._tokens.__getitem__, ids))
        spans = list(map(slice, cuts, islice(cuts, 1, None)))
        return list(map(Encoding, map(ids.__getitem__, spans), map(tokens.__getitem__, spans),
                        map(offsets.__getitem__, spans), map(partial.__getitem__, spans)))

    def _encode_cached(self, texts: list[str]) -> list[Encoding]:
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
                pieces = list(self._pretokens(text[start:end]))
                found = list(map(cache.get, pieces))
                if None in found:
                    missing.update(dict.fromkeys(compress(pieces, map(not_, found))))
                keys += pieces
                entries += found
            plans.append((keys, entries))
        new: dict = {}
        if missing:
            new = dict(zip(missing, self._encode_pieces(list(missing))))
            remember(self._cache, new, CACHE_SIZE)
        tokens = self._tokens
        out = []
        for keys, known in plans:
            # every entry is there now: from the cache, a special token, or just encoded
            filled = list(map(new.get, keys, known)) if None in known else known
            ids = list(chain.from_iterable(map(itemgetter(0), filled)))
            ends = list(accumulate(chain.from_iterable(map(itemgetter(1), filled))))
            starts = map(sub, ends, chain.from_iterable(map(itemgetter(2), filled)))
            partial = list(chain.from_iterable(map(itemgetter(3), filled)))
            out.append(Encoding(ids, list(map(tokens.__getitem__, ids)), list(zip(starts, ends)), partial))
        return out

    def _encode_pieces(self, pieces: list[str]) -> list[tuple]:
        """The cache entries (see ``_encode_texts``) of ``pieces``, all at once.

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
            self._encoder = BacktrackEncoder(self.merges, self.first_merge_id, range(BYTE_BASE, self.codec.end_id))
        return self._encoder

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        if skip_special_tokens:
            ids = self._without_specials(ids)
        out: list[str] = []
        symbols: list[int] = []
        expansion, tokens, n = self._expansion, self._tokens, len(self._tokens)
        for i in ids:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
                raise InputError(f"unknown token id {i!r} (this model has ids 0-{n - 1})")
            exp = expansion[i]
            if exp and i >= BYTE_BASE:
                symbols.extend(exp)
            else:
                if symbols:
                    out.append(self.codec.decode(symbols))
                    symbols = []
                out.append(tokens[i])
        if symbols:
            out.append(self.codec.decode(symbols))
        return "".join(out)

    stream_context = 0  # a final text ends with a character; its last id alone may begin inside one

    def _open_tail(self, ids: Sequence[int], text: str) -> int:
        # Models of the index-last layout: a character whose final key (or
        # index) ends the ids decodes whole, yet its index may still come.
        if text.endswith("\ufffd") or (ids and self.codec.last_char_open(self.symbols(ids[-1]))):
            return 1
        return 0

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
        return self._expansion[id] if id >= BYTE_BASE else ()

    def display_token(self, id: int, *, partial: bool = False) -> str:
        """Keys as typed plus, if the token spells whole characters, those:
        ``wqiy▁ (你)``; a ``partial`` token shows its keys only.  Bytes show in
        GPT-2 form, special tokens as they are.  ``shared-bytes``: read as from
        a character's start (``display_at`` reads it where it stands)."""
        tok = self.id_to_token(id)
        if tok is None:
            return ""
        symbols = self.symbols(id)
        if not symbols:
            return tok
        shown = self.codec.display(symbols)
        if partial:
            return shown
        text = self.codec.decode(symbols)
        if "\ufffd" in text or text == shown:
            return shown
        return f"{shown} ({_escape(text)})"

    @property
    def byte_reading(self) -> ByteReading | None:
        return self.codec.byte_reading

    def byte_values(self, id: int) -> tuple[int, ...]:  # noqa: A002
        return tuple(s - BYTE_BASE for s in self.symbols(id))

    def spelling(self, id: int) -> str:  # noqa: A002
        """Wubi keys as a learner types them, ``·`` between characters and
        an index as ``#N`` (``wqiy``, ``lw#0·t#14``: ``codec.keys_display``),
        bytes in GPT-2 form; special tokens as they are."""
        symbols = self.symbols(id)
        return self.codec.keys_display(symbols) if symbols else (self.id_to_token(id) or "")

    def byte_piece(self, id: int) -> bytes | None:  # noqa: A002
        """The bytes of a token spelled in byte symbols only (text outside the dictionary);
        None in ``shared-bytes``, where a token alone does not say it (its pieces read as
        pieces of their characters)."""
        return self.codec.plain_bytes(self.symbols(id))

    # -- persistence ------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "codec": self.codec.options.to_dict(),
            "pre_tokens": self.pre_tokens,
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
                f"model was made with dictionary {excerpt(data['dictionary_hash'])}, but this wubitok has {here}"
            )
        try:
            options = CodecOptions.from_dict(data["codec"])
        except InputError as exc:
            raise ModelError(f"bad codec options: {exc}") from None
        specials = data["special_tokens"]
        if not isinstance(specials, list) or tuple(specials[:BYTE_BASE]) != DEFAULT_SPECIAL_TOKENS:
            raise ModelError("special_tokens must be a list starting with <pad> <unk> <s> </s>")
        merges = data["merges"]
        if not isinstance(merges, list) or not all(
            isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m) for m in merges
        ):
            raise ModelError("merges must be a list of [id, id] pairs")
        training = data.get("training", {})
        if not isinstance(training, dict):
            raise ModelError("training must be an object")
        pre_tokens = data.get("pre_tokens", "clause")
        if not isinstance(pre_tokens, str):
            raise ModelError("pre_tokens must be a string")
        try:
            tok = cls(merges, special_tokens=specials, codec=options, training=training, pre_tokens=pre_tokens)
        except InputError as exc:
            raise ModelError(str(exc)) from None
        if data["vocab"] != tok._tokens:
            raise ModelError("vocab does not match the codec symbols, special tokens and merges")
        return tok


def _emptied_after(items: Iterator[T], counts: dict) -> Iterator[T]:
    """``items``, then ``counts`` emptied (HF reads all of its input before it trains)."""
    yield from items
    counts.clear()


class _TokenEdges:
    """Per token id, what ``_encode_fast`` reads instead of the symbols: whether
    its first symbol can start a character and its last can end one
    (``WubiCodec.char_edges``), and how many characters start in it when it
    starts one itself.  A character starts at a token's first symbol when
    that can start one and the previous token's last can end one."""

    def __init__(self, first_merge_id: int, merges: Sequence[tuple[int, int]], starts: frozenset[int],
                 ends: frozenset[int]):
        self.starts_char = [i in starts for i in range(first_merge_id)]
        self.ends_char = [i in ends for i in range(first_merge_id)]
        self.starts_in = [1] * first_merge_id
        for a, b in merges:  # a merge of a and b: a character starts at b's first symbol or not
            meet = self.ends_char[a] and self.starts_char[b]
            self.starts_char.append(self.starts_char[a])
            self.ends_char.append(self.ends_char[b])
            self.starts_in.append(self.starts_in[a] + self.starts_in[b] - (not meet))
        # may start or end inside a character
        self.odd = [not (s and e) for s, e in zip(self.starts_char, self.ends_char)]

    def mend(self, ids: list[int], steps: list[int], starts_in: list[int], partial: list[bool]) -> None:
        """Where a token starts inside the character the token before ended in, take that
        character off its ``steps`` and mark both ``partial``.  Tokens that start or end inside
        a character are rare (pieces of characters): only next to one can that happen."""
        ends, starts, last = self.ends_char, self.starts_char, len(ids) - 1
        odd = list(compress(range(len(ids)), map(self.odd.__getitem__, ids)))
        for j in set(chain(odd, map(add, odd, repeat(1)))):  # an odd token's start, the next one's
            if 0 < j <= last and not (ends[ids[j - 1]] and starts[ids[j]]):
                steps[j] -= 1  # its first character is the one the token before ended in
                partial[j] = partial[j - 1] = True


class _ByteTokenEdges:
    """``_TokenEdges`` for the ``shared-bytes`` layout, whose symbols do not say
    alone whether they start a character (a continuation byte starts a Wubi
    spelling or goes on a UTF-8 one).  Per token id, read from a character's
    start (``WubiCodec.follow``): how many characters start in it and where it
    leaves off.  A token that leaves off inside a character is rare (a piece
    of one); the tokens after it are read on from there until one ends where
    a character does."""

    def __init__(self, codec: WubiCodec, expansion: Sequence[tuple[int, ...]]):
        self._codec, self._expansion = codec, expansion
        read = [codec.follow(symbols) for symbols in expansion]
        self.starts_in = [n for _, n in read]
        self.left_in = [state for state, _ in read]  # None: at a character's end
        self.odd = [state is not None for state in self.left_in]
        self._read_on: dict[tuple[Any, int], tuple[Any, int]] = {}  # (state, id) -> what follow gives

    def mend(self, ids: list[int], steps: list[int], starts_in: list[int], partial: list[bool]) -> None:
        """Read the tokens after each odd one on from where it left off: ``steps`` and
        ``starts_in`` count only the characters that start in them, besides the one
        they begin inside; all of them are ``partial``."""
        read_on, last, k = self._read_on, len(ids) - 1, 0
        for j in compress(range(len(ids)), map(self.odd.__getitem__, ids)):
            if j < k:  # read on from a token before it
                continue
            state = self.left_in[ids[j]]
            partial[j] = True
            k = j + 1
            while state is not None and k <= last:
                key = (state, ids[k])
                found = read_on.get(key)
                if found is None:
                    if len(read_on) >= 1 << 16:  # bounded, whatever the text
                        read_on.clear()
                    found = read_on[key] = self._codec.follow(self._expansion[ids[k]], state)
                state, started = found
                partial[k] = True
                steps[k], starts_in[k] = started, started + 1
                k += 1


_UNKNOWN: Any = object()  # not looked at yet


class _InsideFlags(dict):
    """Width -> for each symbol of a character that wide, whether it is not the first."""

    def __missing__(self, width: int) -> tuple[bool, ...]:
        flags = self[width] = (False,) + (True,) * (width - 1) if width else ()
        return flags


_INSIDE = _InsideFlags()


class _SymbolChars(dict):
    """Code point -> its spelling in ``rust_merges``' alphabet (a ``str.translate``
    table); filled as characters are met, after the ``fixed`` entries.  ``alphabet``
    (symbol id -> its character) writes the symbols in another alphabet ({}: as the
    code points of their ids, ``_CharSymbols``' form)."""

    _SHIFT: Mapping[int, int | str] = dict(enumerate(ALPHABET))

    def __init__(self, char_symbols: _CharSymbols, fixed: Mapping[int, str] | None = None,
                 alphabet: Mapping[int, str] | None = None):
        super().__init__(fixed or {})
        self._char_symbols = char_symbols
        self._fixed = dict(fixed or {})
        self._shift: Mapping[int, int | str] = self._SHIFT if alphabet is None else dict(alphabet)

    def __missing__(self, code: int) -> str:
        if len(self) >= 1 << 16:  # bounded, whatever the text
            self.clear()
            self.update(self._fixed)
        spelled = self[code] = self._char_symbols[chr(code)].translate(self._shift)
        return spelled


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


