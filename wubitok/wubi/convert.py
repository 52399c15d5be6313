"""Two-way conversion between Chinese text and Wubi codes, exact both ways.

The code text :func:`to_codes` writes reads back to the same text with
:func:`to_hanzi`, for every string:

- a character coded in the dictionary becomes its code, followed by its
  selector when it is not the first entry on that code: ``vbg`` is 好,
  ``fcu2`` is 支 (``fcu`` alone types 去), ``lwgj2`` is 输 (not the phrase 办理);
- everything else is copied; a stretch that could be read as codes (it has
  ASCII letters or digits, spaces or tabs, the separator or a backquote) is
  quoted between backquotes, a backquote inside doubled: ``` `` ``` ;
- the separator (a space) stands between two codes and around quoted text;
  outside quotes, separators are not text.

``plain=True`` writes codes without selectors and copies all other text
as it is: what a Wubi typist reads, not exact on the way back.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Iterator

from ..errors import InputError, UnknownCodeError, excerpt
from ..text.builder import Slices, text_blocks
from .dictionary import Candidate, WubiDictionary, default_dictionary, is_wubi_code

CODE_STYLES = ("full", "shortest")
QUOTE = "`"


@dataclass(frozen=True)
class Piece:
    """A stretch of the input: one character with its code, or verbatim text.

    ``selector`` is the character's place among the entries of ``code``
    (1 = what the space bar types).
    """

    text: str
    code: str | None
    selector: int = 1

    @property
    def spelled(self) -> str:
        """The code as written in exact code text: ``fcu2``, or ``vbg`` for a first entry."""
        assert self.code is not None
        return self.code if self.selector == 1 else f"{self.code}{self.selector}"


def _check_style(style: str) -> None:
    if style not in CODE_STYLES:
        raise InputError(f"unknown code style {style!r} (choose from {', '.join(CODE_STYLES)})",
                         code="convert.style", style=style)


def to_code_pieces(text: str, *, style: str = "full", dictionary: WubiDictionary | None = None) -> list[Piece]:
    """Split ``text`` into coded characters and verbatim stretches (joined texts == ``text``)."""
    return [piece for piece, _ in _code_pieces(text, style, dictionary)]


# Text is read this many characters at a time: the characters of a block new to the reading are
# looked up together (see WubiDictionary.full_codes).
BLOCK_CHARS = 1 << 16
Alternatives = tuple[Candidate, ...]


def _code_pieces(text: str | Slices, style: str, dictionary: WubiDictionary | None
                 ) -> Iterator[tuple[Piece, Alternatives]]:
    """``to_code_pieces`` one at a time, each with the entries of its code in selector order (none for
    verbatim text): ``to_codes`` holds no Piece per character (issue #37, 5)."""
    _check_style(style)
    d = dictionary or default_dictionary()
    # One lookup per distinct character: a book repeats its characters.
    coded: dict[str, tuple[str, int, Alternatives] | None] = {}
    plain: list[str] = []
    for block in text_blocks(text, BLOCK_CHARS):
        new = set(block).difference(coded)
        if new:
            coded.update(_char_codes(d, new, style))
        for ch in block:
            found = coded[ch]
            if found is None:
                plain.append(ch)
                continue
            if plain:
                yield Piece("".join(plain), None), ()
                plain.clear()
            code, selector, alternatives = found
            yield Piece(ch, code, selector), alternatives
    if plain:
        yield Piece("".join(plain), None), ()


def _char_codes(d: WubiDictionary, chars: set[str], style: str) -> dict[str, tuple[str, int, Alternatives] | None]:
    """Each of ``chars`` with its code in ``style``, its selector and its code's entries, or None when
    it has no code."""
    codes = d.full_codes(chars) if style == "full" else d.shortest_codes(chars)
    entries = d.exact_candidates_of(set(codes.values()))
    out: dict[str, tuple[str, int, Alternatives] | None] = dict.fromkeys(chars)
    for ch, code in codes.items():
        alternatives = tuple(entries.get(code, ()))
        out[ch] = (code, _selector_in([c.text for c in alternatives], ch), alternatives)
    return out


def _selector_in(texts: list[str], ch: str) -> int:
    return texts.index(ch) + 1 if ch in texts else 1


def spelled_code(code: str, text: str, *, dictionary: WubiDictionary | None = None) -> str:
    """``code`` as exact code text writes it for ``text``: with its selector when ``text`` is not
    the code's first entry (``ggtt2`` for 来来往往), the bare code when it is or is not listed."""
    texts = [c.text for c in (dictionary or default_dictionary()).exact_candidates(code)]
    return Piece(text, code, _selector_in(texts, text)).spelled


def _needs_quotes(text: str, separator: str) -> bool:
    return bool(re.search(r"[A-Za-z0-9 \t`]", text)) or bool(separator.strip() and separator in text)


def quote(text: str) -> str:
    """``text`` as a quoted stretch of code text (never read as codes)."""
    return QUOTE + text.replace(QUOTE, QUOTE * 2) + QUOTE


def to_codes(text: str, *, style: str = "full", separator: str = " ", plain: bool = False,
             dictionary: WubiDictionary | None = None) -> str:
    """Chinese characters -> their codes; exact code text unless ``plain`` (see the module docstring)."""
    # A buffer, not a list of pieces: a piece's str object took 10 times its text (issue #37, 5).
    out = io.StringIO()
    for written, _, _ in code_text_items(text, style=style, separator=separator, plain=plain, dictionary=dictionary):
        out.write(written)
    return out.getvalue()


def code_text_items(text: str | Slices, *, style: str = "full", separator: str = " ", plain: bool = False,
                    dictionary: WubiDictionary | None = None) -> Iterator[tuple[str, Piece | None, Alternatives]]:
    """What :func:`to_codes` writes, one stretch at a time: a code (with its piece and its code's
    entries), a separator (no piece), or verbatim or quoted text (its piece).  ``text`` may be given
    as slices of strings (:mod:`wubitok.text.builder`), read a block at a time."""
    if not plain and (not separator or re.search(r"[A-Za-z0-9`]", separator)):
        raise InputError(f"the separator {excerpt(separator)} could be read as part of a code; choose another",
                         code="convert.separator", separator=separator)
    prev_code = False  # the last item written was a code or a quoted stretch
    for piece, alternatives in _code_pieces(text, style, dictionary):
        if piece.code is None:
            if plain or not _needs_quotes(piece.text, separator):
                yield piece.text, piece, ()
                prev_code = False
                continue
            item = quote(piece.text)
        else:
            item = piece.code if plain else piece.spelled
        if prev_code and separator:
            yield separator, None, ()
        yield item, piece, alternatives
        prev_code = True


@dataclass(frozen=True)
class CodeToken:
    """A stretch of code text: a ``code`` (with its ``selector``, 0 when none
    was written), a verbatim ``text``, or a separator (neither)."""

    source: str
    code: str | None = None
    selector: int = 0
    text: str | None = None


_TOKEN_RE = re.compile(r"(?P<code>[A-Za-z]+)(?P<sel>[0-9]*)|`(?P<quoted>(?:[^`]|``)*)`|(?P<open>`)")


def split_code_text(codes: str, separator: str = " ", *, strict: bool = True) -> list[CodeToken]:
    """Code text -> tokens; joined sources == ``codes``.

    Letter runs (with the digits after them) are codes; quoted stretches are
    text; separators (for a whitespace separator, any run of spaces and tabs)
    are neither; everything else is text as it stands.  A quote left open is
    an error, or (not ``strict``: text still being typed) quotes the rest.
    """
    return list(code_tokens(codes, separator, strict=strict))


# Code text given as slices is read this many characters at a time.  The last token of what was read
# (a code, a quote or a run of text the next characters may continue) is read again with the next block;
# one longer than LONG_TOKEN (no code is: a quote left open, say) has the rest read with it at once.
TOKEN_BLOCK_CHARS = 1 << 16
LONG_TOKEN = 1 << 20


def code_tokens(codes: str | Slices, separator: str = " ", *, strict: bool = True) -> Iterator[CodeToken]:
    """:func:`split_code_text` one token at a time.  A reader that keeps no token (the app's
    conversion of a whole book) never holds them all: freeing a list of millions of them was
    one stretch holding the GIL (about 250 ms at 10 MB, in a thread of the app's process).
    ``codes`` may be given as slices of strings (:mod:`wubitok.text.builder`), read a block at a
    time and never joined (the tokens are those of the text they make)."""
    sep_re = r"[ \t]+" if separator.isspace() and not set(separator) & set("\r\n") else re.escape(separator)
    between = re.compile(f"({sep_re})") if separator else None
    if isinstance(codes, str):
        yield from _tokens(codes, between, strict, 0)
        return
    blocks = text_blocks(codes, TOKEN_BLOCK_CHARS)
    text, at = "", 0  # the text read and not yet given out as tokens, and where it starts
    for block in blocks:
        text += block
        if len(text) > LONG_TOKEN:
            text = "".join([text, *blocks])
            break
        # Every token but the last is final: each ends before the text does, where the next begins.
        # But a quote cut after a doubled ` (`a``|b`) reads as a quote and a quote left open: both
        # go on to the next block.
        tokens = list(_tokens(text, between, False, at))
        carry = tokens.pop().source
        if carry.startswith("`") and tokens and tokens[-1].source.startswith("`"):
            carry = tokens.pop().source + carry
        yield from tokens
        at += len(text) - len(carry)
        text = carry
    yield from _tokens(text, between, strict, at)


def _tokens(codes: str, between: re.Pattern[str] | None, strict: bool, at: int) -> Iterator[CodeToken]:
    """The tokens of ``codes``, which starts at character ``at`` of the whole text."""
    pos = 0
    for m in _TOKEN_RE.finditer(codes):
        yield from _between(codes[pos:m.start()], between)
        pos = m.end()
        if m.group("open"):
            if strict:
                raise InputError(f"a quote ` without its closing ` at character {at + m.start()}",
                                 code="convert.open_quote", position=at + m.start())
            rest = codes[m.start():]
            yield CodeToken(rest, text=rest[1:].replace("``", "`"))
            return
        if m.group("code"):
            sel = m.group("sel")
            yield CodeToken(m.group(0), m.group("code").lower(), int(sel) if sel else 0)
        else:
            yield CodeToken(m.group(0), text=m.group("quoted").replace("``", "`"))
    yield from _between(codes[pos:], between)


def _between(stretch: str, between: re.Pattern[str] | None) -> Iterator[CodeToken]:
    parts = between.split(stretch) if between else [stretch]
    for i, part in enumerate(parts):
        if part:
            yield CodeToken(part) if i % 2 else CodeToken(part, text=part)


def code_alternatives(code: str, *, dictionary: WubiDictionary | None = None) -> list[Candidate]:
    """The entries a code selects, in selector order (first is what space would type)."""
    d = dictionary or default_dictionary()
    found = d.exact_candidates(code)
    if not found:
        raise UnknownCodeError(f"unknown Wubi code: {code!r}", code="convert.unknown_code", wubi=code)
    return found


def pick(alternatives: list[Candidate] | tuple[Candidate, ...], code: str, selector: int) -> str:
    """The entry ``selector`` (1-based, 0 = the first) picks among a code's alternatives."""
    index = max(selector, 1) - 1
    if index >= len(alternatives):
        count = len(alternatives)
        raise UnknownCodeError(f"{code}{selector}: code {code!r} has {count} {'entry' if count == 1 else 'entries'}",
                               code="convert.selector", wubi=code, selector=selector, count=count)
    return alternatives[index].text


def to_hanzi(codes: str, *, separator: str = " ", dictionary: WubiDictionary | None = None) -> str:
    """Code text (exact or plain) -> Chinese: each code becomes the entry its
    selector names (the first without one); everything else is kept, except
    separators and quote marks."""
    out = []
    tokens = split_code_text(codes, separator)
    for tok in tokens:
        if tok.code is None:
            out.append(tok.text or "")
            continue
        if not is_wubi_code(tok.code.lower(), wildcard=True):
            raise InputError(f"not a Wubi code: {excerpt(tok.code)} (1-4 keys a-y)", code="convert.not_a_code",
                             wubi=tok.code)
        out.append(pick(code_alternatives(tok.code, dictionary=dictionary), tok.code, tok.selector))
    return "".join(out)
