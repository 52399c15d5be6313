"""What a user typed into a search or code box, and what it matches.

A lookup box takes characters, a Wubi code (or prefix, ``z`` = any key) or a
pinyin syllable.  :func:`classify_query` decides which, :func:`search` turns
it into table rows, :func:`describe` gives the detail of one entry, and
:func:`decode_code_text` reads typed codes back as Chinese while keeping the
alternatives of shared codes.  The GUI and the CLI both use these, so the
rules live here and nowhere else.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from itertools import islice

from ..errors import InputError, UnknownCodeError
from ..text.builder import Slices
from .convert import code_text_items, code_tokens
from .dictionary import Candidate, CharInfo, CodeEntry, WubiDictionary, default_dictionary, is_wubi_code
from .splits import Split, check, split_of

QUERY_KINDS = ("auto", "chars", "code", "pinyin")
# Rows beyond this are not shown: nobody reads 2,000 completions of "a",
# and building them would stall a live search box.
ROW_LIMIT = 200
TOKEN_BLOCK = 4096  # code tokens read at a time by decode_code_text

PROBLEMS = {
    "code_shape": "a Wubi code is 1-4 letters a-y (z = any key)",
    "not_pinyin": "not a pinyin syllable (e.g. ni, ni3, nǐ, lv4)",
    "one_at_a_time": "one code or pinyin syllable at a time",
    "neither": "not a Wubi code (at most 4 keys) nor a pinyin syllable",
}

_PINYIN_ASCII_RE = re.compile(r"[a-z]+[1-5]?")
_TONE_MARKS = "\u0304\u0301\u030c\u0300"  # macron, acute, caron, grave


@dataclass(frozen=True)
class Query:
    """How a search text was understood.

    ``kind`` is ``empty``, ``chars``, ``code``, ``pinyin`` or ``invalid``;
    ``term`` is what is searched (the code lower-cased, the pinyin without a
    leading ``z``); ``problem`` names why an invalid text matches nothing (a
    key of ``PROBLEMS``, so that a UI can say it in its own language).
    """

    kind: str
    term: str
    via_z: bool = False  # pinyin typed after a leading z, as in the IME
    problem: str = ""

    @property
    def problem_text(self) -> str:
        return PROBLEMS.get(self.problem, "")


@dataclass(frozen=True)
class SearchRow:
    """One character or phrase in a result table."""

    text: str
    full_code: str | None
    short_codes: tuple[str, ...]
    pinyin: tuple[str, ...]
    weight: int
    rank: int | None  # selector index within ``full_code`` (0 = first)
    in_dictionary: bool = True

    @property
    def is_phrase(self) -> bool:
        return len(self.text) > 1


@dataclass(frozen=True)
class SearchResult:
    query: Query
    rows: list[SearchRow]
    truncated: bool  # more matches exist than ROW_LIMIT


@dataclass(frozen=True)
class Detail:
    """Everything a detail view shows about one character or phrase."""

    text: str
    code: str | None  # the code to show on a keyboard: full code or phrase code
    codes: list[CodeEntry]
    pinyin: list[str]
    rank: int | None
    shares: list[Candidate]  # other entries of ``code``, in selector order
    parts: list[tuple[str, str | None]] = field(default_factory=list)  # (char, full code) of a phrase
    in_table: bool = True  # a phrase whose code is computed but that the table lacks
    split: Split | None = None  # a character's verified split (字根拆分); None: none verified


@dataclass(frozen=True)
class CodePiece:
    """A stretch of typed code text and the Chinese it stands for.

    ``source`` joined over all pieces is the typed text; ``text`` joined is the
    conversion.  A code piece has ``code`` set and its ``alternatives`` in
    selector order; an unknown code keeps its letters as ``text``.
    """

    source: str
    text: str
    code: str | None = None
    alternatives: tuple[Candidate, ...] = ()
    selector: int = 0  # as typed: 0 = none (the first entry)

    @property
    def known(self) -> bool:
        return self.code is None or bool(self.alternatives)


def _is_pinyin_shaped(s: str) -> bool:
    decomposed = unicodedata.normalize("NFD", s.lower())
    plain = "".join(c for c in decomposed if c not in _TONE_MARKS and c != "\u0308")
    has_marks = plain != decomposed
    if has_marks:
        return bool(re.fullmatch(r"[a-z]+", plain))
    return bool(_PINYIN_ASCII_RE.fullmatch(plain.replace("u:", "v")))


def _is_syllable(d: WubiDictionary, s: str) -> bool:
    try:
        return bool(d.by_pinyin(s, limit=1))
    except InputError:
        return False


def classify_query(text: str, kind: str = "auto", *, dictionary: WubiDictionary | None = None) -> Query:
    """Decide whether ``text`` is characters, a code or pinyin.

    In ``auto`` mode: anything with Han or other non-Latin text is characters;
    1-4 letters are a code (``z`` = any key), except that a leading ``z`` that
    starts a pinyin syllable (zhong) or is followed by one (zni, as in the IME)
    means pinyin; so do a tone number or tone mark, or more than four letters.
    A forced ``kind`` skips the guess.
    """
    if kind not in QUERY_KINDS:
        raise InputError(f"unknown query kind {kind!r} (choose from {', '.join(QUERY_KINDS)})")
    d = dictionary or default_dictionary()
    s = text.strip()
    if not s:
        return Query("empty", "")
    if kind == "chars":
        return Query("chars", s)
    lower = s.lower()
    if kind == "code":
        if is_wubi_code(lower, wildcard=True):
            return Query("code", lower)
        return Query("invalid", s, problem="code_shape")
    if kind == "pinyin":
        term = lower[1:] if lower.startswith("z") and _is_syllable(d, lower[1:]) else lower
        if _is_pinyin_shaped(term) and _is_syllable(d, term):
            return Query("pinyin", term)
        return Query("invalid", s, problem="not_pinyin")
    # auto
    if not _is_pinyin_shaped(s) and not re.fullmatch(r"[a-z]+", lower):
        if re.fullmatch(r"[\x00-\x7f]*", s) and re.search(r"[a-z]", lower) and " " in s:
            return Query("invalid", s, problem="one_at_a_time")
        return Query("chars", s)
    if lower.startswith("z"):
        # A code rarely starts with a wildcard; pinyin (zhong) or the IME's
        # z + pinyin (zni) is far more likely.
        if _is_syllable(d, lower):
            return Query("pinyin", lower)
        if len(lower) > 1 and _is_syllable(d, lower[1:]):
            return Query("pinyin", lower[1:], via_z=True)
    if is_wubi_code(lower, wildcard=True):
        return Query("code", lower)
    if _is_syllable(d, lower):
        return Query("pinyin", lower)
    return Query("invalid", s, problem="neither")


def _char_row(d: WubiDictionary, ch: str) -> SearchRow:
    codes = d.codes(ch)
    full = next((c for c in codes if c.kind == "full"), None)
    if full is None and ch not in d:
        return SearchRow(ch, None, (), (), 0, None, in_dictionary=False)
    return SearchRow(
        ch,
        full.code if full else None,
        tuple(c.code for c in codes if c.kind.startswith("short")),
        tuple(d.pinyin(ch)),
        full.weight if full else 0,
        full.rank if full else None,
    )


def _phrase_pinyin(d: WubiDictionary, word: str) -> tuple[str, ...]:
    readings = [d.pinyin(ch) for ch in word]
    if not all(readings):
        return ()
    return (" ".join(r[0] for r in readings),)


def _phrase_row(d: WubiDictionary, cand: Candidate) -> SearchRow:
    return SearchRow(cand.text, cand.code, (), _phrase_pinyin(d, cand.text), cand.weight, cand.rank)


def _word_row(d: WubiDictionary, word: str) -> SearchRow | None:
    """The row of a typed word: its phrase code, and its place if the table has it."""
    try:
        code = d.phrase_code(word)
    except (InputError, UnknownCodeError):  # a single character, or one without a code
        return None
    hit = next((c for c in d.exact_candidates(code) if c.text == word), None)
    return SearchRow(word, code, (), _phrase_pinyin(d, word), hit.weight if hit else 0,
                     hit.rank if hit else None, in_dictionary=hit is not None)


def search(text: str, kind: str = "auto", *, dictionary: WubiDictionary | None = None,
           charset: str = "all") -> SearchResult:
    """Rows for a search text: its characters, the entries of a code, or the characters of a reading.

    ``charset`` (one of ``CHARSETS``, the typing setting) leaves out the entries of a code or a
    reading that it excludes; characters typed into the search are always shown."""
    d = dictionary or default_dictionary()
    q = classify_query(text, kind, dictionary=d)
    rows: list[SearchRow] = []
    truncated = False
    if q.kind == "chars":
        chars = list(dict.fromkeys(ch for ch in q.term if not ch.isspace()))
        truncated = len(chars) > ROW_LIMIT
        chars = chars[:ROW_LIMIT]
        han = [ch for ch in q.term if not ch.isspace()]
        if 2 <= len(han) <= 32:
            word = _word_row(d, "".join(han))
            if word is not None:
                rows.append(word)
        rows.extend(_char_row(d, ch) for ch in chars)
    elif q.kind == "code":
        found = d.candidates(q.term, limit=ROW_LIMIT + 1, charset=charset)
        truncated = len(found) > ROW_LIMIT
        for cand in found[:ROW_LIMIT]:
            rows.append(_phrase_row(d, cand) if cand.is_phrase else _char_row(d, cand.text))
    elif q.kind == "pinyin":
        hits = d.by_pinyin(q.term, limit=ROW_LIMIT + 1, charset=charset)
        truncated = len(hits) > ROW_LIMIT
        rows.extend(_char_row(d, h.char) for h in hits[:ROW_LIMIT])
    return SearchResult(q, rows, truncated)


@dataclass(frozen=True)
class TextEntries:
    """What ``wubitok lookup`` shows of a text: each character's entry (None: not in
    the table) and, for two or more characters all with a full code, their phrase code."""

    chars: list[tuple[str, CharInfo | None]]
    phrase: str | None = None
    phrase_in_table: bool = False

    @property
    def known(self) -> list[str]:
        return [ch for ch, info in self.chars if info]


def text_entries(text: str, *, dictionary: WubiDictionary | None = None) -> TextEntries:
    """The dictionary's entry of every non-space character of ``text``, and its phrase code."""
    d = dictionary or default_dictionary()
    infos = [(ch, d.lookup(ch)) for ch in text if not ch.isspace()]
    found = TextEntries(infos)
    known = "".join(found.known)
    if len(known) > 1 and all(info and info.full_code for _, info in infos):
        phrase = d.phrase_code(known)
        return TextEntries(infos, phrase, any(c.text == known for c in d.exact_candidates(phrase)))
    return found


def code_entries(code: str, *, dictionary: WubiDictionary | None = None) -> list[Candidate]:
    """The entries of an exact ``code`` (see :func:`is_wubi_code`) in selector order."""
    return (dictionary or default_dictionary()).exact_candidates(code)


def verified_split(char: str, *, dictionary: WubiDictionary | None = None) -> Split | None:
    """The split of ``char`` to show, or None: only a shipped split whose code is this
    dictionary's full code of ``char`` (another dictionary may code it otherwise)."""
    split = split_of(char) if len(char) == 1 else None
    if split is None or not check(split, dictionary or default_dictionary()):
        return None
    return split


def split_items(split: Split | None) -> list[dict[str, str]] | None:
    """A split as JSON: ``[{"root": "钅", "key": "q", "role": "root"}, ...]``, None if there is none."""
    if split is None:
        return None
    return [{"root": p.root, "key": p.key, "role": p.role} for p in split.parts]


def describe(text: str, *, dictionary: WubiDictionary | None = None) -> Detail | None:
    """Detail of one character or phrase; None if nothing about it is known."""
    d = dictionary or default_dictionary()
    if len(text) == 1:
        info = d.lookup(text)
        if info is None:
            return None
        return Detail(text, info.full_code, info.codes, info.pinyin, info.rank, info.shares_code_with,
                      split=verified_split(text, dictionary=d))
    try:
        code = d.phrase_code(text)
    except (InputError, UnknownCodeError):
        return None
    entries = d.exact_candidates(code)
    me = next((c for c in entries if c.text == text), None)
    parts = [(ch, d.full_code(ch)) for ch in text]
    codes = [CodeEntry(code, "full", me.weight, me.rank)] if me else []
    return Detail(text, code, codes, list(_phrase_pinyin(d, text)), me.rank if me else None,
                  [c for c in entries if c.text != text], parts, in_table=me is not None)


def decode_code_text(text: str | Slices, separator: str = " ", *,
                     dictionary: WubiDictionary | None = None) -> list[CodePiece]:
    """Typed Wubi codes -> pieces of Chinese, each code with its alternatives.

    Reads code text as :func:`wubitok.wubi.convert.to_hanzi` does (selectors,
    quoted text, separators), but never fails, since it follows typing: an
    unknown code or selector keeps its letters as text, and a quote still
    open quotes the rest.  ``text`` may be given as slices of strings (an editor's text, never
    copied whole).
    """
    d = dictionary or default_dictionary()
    pieces: list[CodePiece] = []
    # A text repeats its codes: one lookup per distinct code keeps a book fast, and the codes new
    # to a block of tokens are looked up together (see WubiDictionary.full_codes).
    seen: dict[str, tuple[Candidate, ...]] = {}
    tokens = code_tokens(text, separator, strict=False)  # a block at a time: see code_tokens
    while block := list(islice(tokens, TOKEN_BLOCK)):
        new = {tok.code for tok in block if tok.code is not None and tok.code not in seen}
        plain = {c for c in new if is_wubi_code(c)}
        found = d.exact_candidates_of(plain)
        for code in new:
            if code in plain:
                seen[code] = tuple(found.get(code, ()))
            else:  # z stands for any key; anything else is no code
                seen[code] = tuple(d.exact_candidates(code)) if is_wubi_code(code, wildcard=True) else ()
        for tok in block:
            if tok.code is None:
                pieces.append(CodePiece(tok.source, tok.text or ""))
                continue
            alts = seen[tok.code]
            if alts and tok.selector <= len(alts):
                pieces.append(CodePiece(tok.source, alts[max(tok.selector, 1) - 1].text, tok.code, alts,
                                        tok.selector))
            else:
                pieces.append(CodePiece(tok.source, tok.source, tok.code, ()))
    return pieces


def code_text_pieces(text: str | Slices, *, style: str = "full", separator: str = " ", plain: bool = False,
                     dictionary: WubiDictionary | None = None) -> list[CodePiece]:
    """The code text :func:`~wubitok.wubi.convert.to_codes` writes for ``text``, as pieces: what
    :func:`decode_code_text` reads back from it, made as it is written (no code text to read again:
    at 10 MB, 19 million characters; and never one string, see the app's Convert).

    Each code keeps the character it was written for, so the texts join to ``text`` in plain code
    text too (which does not read back exactly: ``plain`` writes no selectors and quotes nothing).
    ``text`` may be given as slices of strings (an editor's text, never copied whole).
    """
    pieces: list[CodePiece] = []
    for written, piece, alternatives in code_text_items(text, style=style, separator=separator, plain=plain,
                                                        dictionary=dictionary):
        if piece is None:  # a separator
            pieces.append(CodePiece(written, ""))
        elif piece.code is None:
            pieces.append(CodePiece(written, piece.text))
        else:
            selector = 0 if plain or piece.selector == 1 else piece.selector
            known = bool(alternatives) and selector <= len(alternatives)
            pieces.append(CodePiece(written, piece.text, piece.code, alternatives, selector) if known
                          else CodePiece(written, written, piece.code, ()))
    return pieces


def is_code_text(text: str, *, dictionary: WubiDictionary | None = None) -> bool:
    """True if ``text`` reads as typed codes: it has letters, and no character that has a Wubi code."""
    d = dictionary or default_dictionary()
    if not re.search(r"[A-Za-z]", text):
        return False
    return not any(d.full_code(ch) for ch in set(text) if not ch.isascii())
