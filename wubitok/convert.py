"""Two-way conversion between Chinese text and Wubi codes."""
from __future__ import annotations

from dataclasses import dataclass

from .dictionary import WILDCARD, WUBI_KEYS, Candidate, WubiDictionary, default_dictionary
from .errors import InputError, UnknownCodeError

CODE_STYLES = ("full", "shortest")


@dataclass(frozen=True)
class Piece:
    """A stretch of the input: one character with its code, or verbatim text."""

    text: str
    code: str | None


def to_code_pieces(text: str, *, style: str = "full", dictionary: WubiDictionary | None = None) -> list[Piece]:
    """Split ``text`` into coded characters and verbatim stretches (joined texts == ``text``)."""
    if style not in CODE_STYLES:
        raise InputError(f"unknown code style {style!r} (choose from {', '.join(CODE_STYLES)})")
    d = dictionary or default_dictionary()
    code_of = d.full_code if style == "full" else d.shortest_code
    codes: dict[str, str | None] = {}  # one query per distinct character
    pieces: list[Piece] = []
    plain: list[str] = []
    for ch in text:
        code = codes.get(ch, "")
        if code == "":
            code = codes[ch] = code_of(ch)
        if code is None:
            plain.append(ch)
            continue
        if plain:
            pieces.append(Piece("".join(plain), None))
            plain.clear()
        pieces.append(Piece(ch, code))
    if plain:
        pieces.append(Piece("".join(plain), None))
    return pieces


def to_codes(text: str, *, style: str = "full", separator: str = " ",
             dictionary: WubiDictionary | None = None) -> str:
    """Chinese characters -> their codes, ``separator`` between adjacent codes;
    everything else (and characters without a code) passes through verbatim."""
    out: list[str] = []
    prev_coded = False
    for piece in to_code_pieces(text, style=style, dictionary=dictionary):
        if piece.code is None:
            out.append(piece.text)
            prev_coded = False
        else:
            if prev_coded:
                out.append(separator)
            out.append(piece.code)
            prev_coded = True
    return "".join(out)


def _is_code_token(token: str) -> bool:
    return all(c in WUBI_KEYS or c == WILDCARD for c in token.lower())


def code_alternatives(code: str, *, dictionary: WubiDictionary | None = None) -> list[Candidate]:
    """The entries a code selects, in selector order (first is what space would type)."""
    d = dictionary or default_dictionary()
    found = d.exact_candidates(code)
    if not found:
        raise UnknownCodeError(f"unknown Wubi code: {code!r}")
    return found


def to_hanzi(codes: str, *, dictionary: WubiDictionary | None = None) -> str:
    """Whitespace-separated codes -> the top-ranked entry for each, concatenated.

    Tokens without letters (punctuation, digits) pass through unchanged.
    """
    tokens = codes.split()
    if not tokens:
        raise InputError("empty input: give Wubi codes separated by spaces")
    out = []
    for tok in tokens:
        if not any(c.isalpha() for c in tok):
            out.append(tok)
            continue
        if not _is_code_token(tok) or len(tok) > 4:
            raise InputError(f"not a Wubi code: {tok!r} (1-4 keys a-y)")
        out.append(code_alternatives(tok.lower(), dictionary=dictionary)[0].text)
    return "".join(out)
