"""The Wubi codec against the real bundled dictionary."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wubitok.errors import InputError
from wubitok.text.segment import is_han
from wubitok.wubi.codec import (
    BOUNDARY_CHOICES,
    BYTE_BASE,
    CODE_CHOICES,
    INDEX_CHOICES,
    KEY_BASE,
    LAYOUT_CHOICES,
    MAX_INDEX,
    CodecOptions,
    WubiCodec,
)

ALL_OPTIONS = [CodecOptions(*o)
               for o in itertools.product(CODE_CHOICES, BOUNDARY_CHOICES, INDEX_CHOICES, LAYOUT_CHOICES)]


@pytest.fixture(scope="module", params=ALL_OPTIONS, ids=lambda o: f"{o.code}-{o.boundary}-{o.index}-{o.layout}")
def codec(request, wubi_dict):
    return WubiCodec(request.param, wubi_dict)


@pytest.fixture(scope="module")
def default_codec(wubi_dict):
    return WubiCodec(dictionary=wubi_dict)


@pytest.fixture(scope="module")
def separator_codec(wubi_dict):
    return WubiCodec(CodecOptions("full", "separator", "symbol", "index-first"), wubi_dict)


@pytest.fixture(scope="module")
def dict_chars(wubi_dict):
    return [ch for ch, _, _ in wubi_dict.iter_full_codes()]


def test_every_dictionary_character_round_trips(codec, dict_chars):
    text = "".join(dict_chars)
    assert codec.decode(codec.encode(text)) == text
    # and each one alone: a character's spelling is self-delimiting
    for ch in dict_chars[::97]:
        assert codec.decode(list(codec.spelling(ch))) == ch


def test_every_han_dictionary_character_is_spelled_in_wubi(codec, dict_chars):
    han = [ch for ch in dict_chars if is_han(ch)]
    assert len(han) > 70_000
    missing = [ch for ch in han if not codec.spells_in_wubi(ch)]
    if codec.options.code == "prefix" and codec.options.index == "symbol":
        # A 3-key full code such as nhd heads more than 50 heavier 4-key
        # codes; a prefix list only grows as the prefix shortens, so no
        # index symbol can name these few and they go as bytes.
        assert 0 < len(missing) <= 5
        for ch in missing:
            assert codec._table[codec.dictionary.full_code(ch)].index(ch) >= MAX_INDEX
            assert codec.decode(codec.encode(ch)) == ch
    elif codec.options.code == "hybrid" and codec.options.index == "symbol":
        # Likewise a character whose every code and prefix already names 51
        # heavier characters (𤴔: one).
        assert 0 < len(missing) <= 5
        for ch in missing:
            assert len(codec._table[codec.dictionary.full_code(ch)]) >= MAX_INDEX
            assert codec.decode(codec.encode(ch)) == ch
    elif codec.options.layout in ("shared-index", "shared-bytes") and codec.options.index == "digits":
        # One digit numbers only ten characters of a code: about 500-650 rare
        # characters find every code they have full and go as bytes.
        assert 0 < len(missing) < 0.01 * len(han)
        assert codec.decode(codec.encode("".join(missing))) == "".join(missing)
        assert all(len(codec._table.get(codec.dictionary.full_code(ch), ())) >= 10 for ch in missing)
    else:
        assert missing == []
    # non-Han entries of the table (degree sign, private-use) go as bytes
    assert not codec.spells_in_wubi("°")
    assert codec.spelling("°") == tuple(BYTE_BASE + b for b in "°".encode())


def test_characters_sharing_a_code_each_decode_to_themselves(codec, wubi_dict):
    assert wubi_dict.full_code("工") == wubi_dict.full_code("㠭") == "aaaa"
    gong, other = codec.spelling("工"), codec.spelling("㠭")
    assert gong != other
    assert codec.decode(list(gong)) == "工"
    assert codec.decode(list(other)) == "㠭"
    assert codec.decode(codec.encode("工㠭㠭工")) == "工㠭㠭工"


def test_full_code_spellings_read_as_typed(wubi_dict):
    c = WubiCodec(CodecOptions("full", "separator", "symbol", "index-first"), wubi_dict)
    assert c.display(c.encode("你好")) == "wqiy▁vbg▁"
    assert c.display(c.spelling("工")) == "aaaa▁"
    assert c.display(c.spelling("㠭")) == "①aaaa▁"  # the index first: the end ends the character
    f = WubiCodec(CodecOptions("full", "final-key", "digits", "index-first"), wubi_dict)
    assert f.display(f.encode("你工㠭")) == "wqiYaaaA₁aaaA"
    # models saved before: the index after the keys
    old = WubiCodec(CodecOptions("full", "final-key", "digits", "index-last"), wubi_dict)
    assert old.display(old.encode("你工㠭")) == "wqiYaaaAaaaA₁"
    assert old.decode(old.encode("你工㠭工")) == "你工㠭工"
    # shared-index: after the keys, on every character of a shared code (the first one too)
    shared = WubiCodec(CodecOptions("full", "final-key", "digits", "shared-index"), wubi_dict)
    assert shared.display(shared.encode("你工㠭")) == "wqiY₀aaaA₀aaaA₁"  # wqiy is shared too
    assert shared.decode(shared.encode("你工㠭工")) == "你工㠭工"


def test_shortest_code_uses_short_codes_and_counts_the_index(wubi_dict, dict_chars):
    short = WubiCodec(CodecOptions("shortest", "separator", "symbol", "index-first"), wubi_dict)
    full = WubiCodec(CodecOptions("full", "separator", "symbol", "index-first"), wubi_dict)
    assert short.display(short.spelling("工")) == "a▁"  # short1
    assert short.display(short.spelling("你")) == "wq▁"  # short2
    # Short codes join the candidate lists, so a few rare characters whose
    # 3-key full code equals someone's short code now need an index.
    assert short.display(short.spelling("㐄")) == "①ahk▁"
    assert full.display(full.spelling("㐄")) == "ahk▁"
    total_short = sum(len(short.spelling(ch)) for ch in dict_chars)
    total_full = sum(len(full.spelling(ch)) for ch in dict_chars)
    assert total_short < total_full
    assert short.decode(short.encode("工㠭你")) == "工㠭你"


def test_symbol_layout_is_fixed(codec):
    toks = codec.tokens
    assert toks[:4] == ["<pad>", "<unk>", "<s>", "</s>"]
    assert toks[BYTE_BASE + 0x20] == "Ġ" and toks[BYTE_BASE + ord("a")] == "a"
    if codec.options.layout == "shared-bytes":  # keys, final keys and indexes are byte values
        assert codec.end_id == KEY_BASE
    else:
        assert toks[KEY_BASE] == "ａ" and toks[KEY_BASE + 24] == "ｙ"
    assert len(toks) == codec.end_id
    # one distinct, non-space character per symbol: token strings never collide
    assert all(len(t) == 1 and not t.isspace() for t in toks[4:])
    assert len(set(toks)) == len(toks)


def test_option_validation():
    with pytest.raises(InputError, match="codec code"):
        CodecOptions(code="tiny")
    with pytest.raises(InputError):
        CodecOptions.from_dict({"code": "full"})
    assert CodecOptions.from_dict(CodecOptions().to_dict()) == CodecOptions()


def test_non_codec_ids_are_rejected(default_codec):
    with pytest.raises(InputError):
        default_codec.decode([1])
    with pytest.raises(InputError):
        default_codec.decode([default_codec.end_id])


@pytest.fixture(scope="module")
def shared_index(wubi_dict):
    return WubiCodec(CodecOptions(layout="shared-index"), wubi_dict)


def test_default_options_spell_hybrid_codes_with_a_marked_final_key(default_codec, shared_index):
    assert default_codec.options == CodecOptions("hybrid", "final-key", "symbol", "shared-bytes")
    # 的 and 你 share one-key codes (index ⓪ and ②), 漃's ipH is its own (no index)
    for codec in (default_codec, shared_index):
        assert codec.display(codec.encode("的你漃")) == "R⓪W②ipH"
        assert codec.keys_display(codec.encode("的你漃")) == "r#0·w#2·iph"
        assert codec.decode(codec.encode("的你励工㠭")) == "的你励工㠭"
    # the same spelling on byte ids: keys 0x80 + k, final keys 0x99 + k, the index its own value
    k = "abcdefghijklmnopqrstuvwxy".index
    assert default_codec.encode("的你漃") == [BYTE_BASE + b for b in (0x99 + k("r"), 0, 0x99 + k("w"), 2,
                                                                      0x80 + k("i"), 0x80 + k("p"), 0x99 + k("h"))]
    assert shared_index.encode("的")[0] >= KEY_BASE
    before = WubiCodec(CodecOptions("hybrid", "final-key", "digits", "index-first"))
    assert before.display(before.encode("的你励")) == "R₂W₅dD"
    assert before.keys_display(before.encode("的你励")) == "r·w#2·dd#5"  # the index after its keys


@pytest.mark.parametrize("layout", ["shared-index", "shared-bytes"])
def test_a_shared_index_spelling_ends_where_its_code_says(wubi_dict, layout):
    codec = WubiCodec(CodecOptions(layout=layout), wubi_dict)
    # No spelling is the start of another: the code tells whether one index symbol follows.
    spellings = {codec.spelling(ch) for ch in codec._spelling}
    assert len(spellings) == len(codec._spelling)
    assert not any(sp[:k] in spellings for sp in spellings for k in range(1, len(sp)))
    index_base = BYTE_BASE if layout == "shared-bytes" else codec.index_base
    for code, chars in codec._table.items():
        for index, ch in enumerate(chars):
            sp = codec.spelling(ch)
            if ch in codec._spelling and codec.keys_display(sp).split("#")[0] == code:
                assert len(sp) == len(code) + (len(chars) > 1), (code, ch)
                if len(chars) > 1:
                    assert sp[-1] - index_base == index
    # 帝 and 总 share code u (⑦ and ⑦⑥ in the index-last spelling before): cut-off, a U+FFFD
    di = codec.spelling("帝")
    assert [codec.decode(di[:k]) for k in range(len(di))] == [""] + ["\ufffd"] * (len(di) - 1)


def test_prefix_index_counts_heavier_characters_with_that_prefix(wubi_dict):
    # Recount from the dictionary itself: the index of a character on a
    # prefix is the number of heavier Han characters whose full code starts
    # with it (ties by code point), and no cheaper prefix exists.
    rows = [(ch, code, w) for ch, code, w in wubi_dict.iter_full_code_weights() if len(ch) == 1 and is_han(ch)]
    order = {ch: i for i, (ch, _, _) in enumerate(rows)}
    prefix_codec = WubiCodec(CodecOptions("prefix", "final-key", "digits", "index-first"), wubi_dict)
    for ch in "的你励工㠭我":
        full = wubi_dict.full_code(ch)
        costs = []
        for n in range(1, len(full) + 1):
            index = sum(1 for c, code, _ in rows if code.startswith(full[:n]) and order[c] < order[ch])
            costs.append((n + (len(str(index)) if index else 0), n, index))
        cost, n, index = min(costs)
        expected = "".join(chr(0x2080 + int(d)) for d in str(index) if index) + full[: n - 1] + full[n - 1].upper()
        assert prefix_codec.display(prefix_codec.spelling(ch)) == expected
        assert len(prefix_codec.spelling(ch)) == cost


def test_malformed_sequences_give_replacement_characters(separator_codec, shared_index):
    sym = {t: i for i, t in enumerate(separator_codec.tokens)}
    keys = [sym[chr(0xFF41 + ord(k) - ord("a"))] for k in "wqiy"]
    end = sym["▁"]
    assert separator_codec.decode(keys) == "\ufffd"  # keys that never end
    assert separator_codec.decode([end]) == "\ufffd"  # an end without keys
    assert separator_codec.decode(keys[:3] + [end] + keys + [end]) == "\ufffd你"  # no such code
    first = WubiCodec(CodecOptions("hybrid", "final-key", "digits", "index-first"))
    sym = {t: i for i, t in enumerate(first.tokens)}
    w = sym["ｗ"]
    assert first.decode([w, w]) == "\ufffd"  # no final key
    ni = list(first.spelling("你"))  # ₂W: index, final key
    assert first.decode([w, *ni]) == "\ufffd你"  # keys before an index
    assert first.decode([sym["₉"]] * 6 + ni) == "\ufffd"  # index 9999992: no such character
    assert first.decode(ni[:-1]) == "\ufffd"  # cut before the final key
    # shared-index: 你 is W② (one-key code w, index 2), 漃 ipH (a code of its own)
    ni, li = list(shared_index.spelling("你")), list(shared_index.spelling("漃"))
    index = shared_index.index_base
    assert shared_index.decode(ni[:-1]) == "\ufffd"  # a shared code without its index
    assert shared_index.decode([index, *ni]) == "\ufffd你"  # an index with no code before it
    assert shared_index.decode([*li, index]) == "漃\ufffd"  # an index after a code of one character
    assert shared_index.decode(ni[:-1] + li) == "\ufffd漃"  # another code where the index belongs
    assert shared_index.decode(li[:-1]) == "\ufffd"  # cut before the final key


def test_malformed_shared_bytes_give_replacement_characters(default_codec):
    # The same spelling on byte ids: what a byte is depends on what came before it.
    codec = default_codec
    ni, li = list(codec.spelling("你")), list(codec.spelling("漃"))  # W② and ipH on bytes
    assert codec.decode(ni[:-1]) == "\ufffd"  # a shared code without its index
    assert codec.decode(li[:-1]) == "\ufffd"  # keys that never end
    assert codec.decode([BYTE_BASE + 0xB5, *ni]) == "\ufffd你"  # a continuation byte no spelling starts with
    assert codec.decode([*li, BYTE_BASE + 2]) == "漃\x02"  # after a code of one character: a byte
    assert codec.decode([*ni[:-1], BYTE_BASE + 120]) == "\ufffd"  # an index past the code's characters
    # an index may be any byte: where one belongs, the first byte of 漃 is taken as one
    assert codec.decode(ni[:-1] + li) == "\ufffd" + codec.decode(li[1:])
    # UTF-8 goes first: a continuation byte after a lead byte is the lead byte's
    e_acute = [BYTE_BASE + b for b in "é".encode()]
    assert codec.decode(e_acute + ni) == "é你"
    assert codec.decode(e_acute[:1] + ni) == codec.decode(e_acute[:1] + ni[:1]) + codec.decode(ni[1:])
    assert codec.decode(e_acute[:1]) == "\ufffd"  # a character cut after its lead byte
    with pytest.raises(InputError):
        codec.decode([KEY_BASE])


def test_invalid_utf8_bytes_decode_to_replacement(default_codec):
    assert default_codec.decode([BYTE_BASE + 0xFF, BYTE_BASE + ord("a")]) == "\ufffda"
    assert default_codec.decode([BYTE_BASE + 0xE4, BYTE_BASE + 0xBD]) == "\ufffd"


def test_lone_surrogates_round_trip(codec):
    text = "a\ud800b\udfff\ud83d\ude00工"
    assert codec.decode(codec.encode(text)) == text


@st.composite
def mixed_text(draw, chars):
    return draw(st.text(st.one_of(st.characters(), st.sampled_from(chars)), max_size=40))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_round_trip_on_arbitrary_unicode(codec, dict_chars, data):
    text = data.draw(mixed_text(dict_chars[:2000] + dict_chars[-500:]))
    assert codec.decode(codec.encode(text)) == text


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=())))
def test_round_trip_with_surrogates(default_codec, text):
    assert default_codec.decode(default_codec.encode(text)) == text


def test_hybrid_takes_each_characters_cheapest_code_indexed_among_those_that_took_it(wubi_dict):
    # Recount from the dictionary: heaviest first, each character takes the
    # cheapest of its codes and full-code prefixes, its index being how many
    # heavier characters took that same code (shorter code on a tie).
    hybrid = WubiCodec(CodecOptions("hybrid", "final-key", "digits", "index-first"), wubi_dict)
    prefix = WubiCodec(CodecOptions("prefix", "final-key", "digits", "index-first"), wubi_dict)
    codes: dict[str, set[str]] = {}
    for ch, code, _, _ in wubi_dict.iter_char_codes():
        codes.setdefault(ch, set()).add(code)
    taken: dict[str, int] = {}
    spelled: dict[str, tuple[str, int]] = {}
    for ch, full, _ in wubi_dict.iter_full_code_weights():
        if len(ch) != 1 or not is_han(ch):
            continue
        cands = sorted(codes[ch] | {full[:n] for n in range(1, len(full) + 1)}, key=lambda c: (len(c), c))
        code = min(cands, key=lambda c: len(c) + (len(str(taken.get(c, 0))) if taken.get(c) else 0))
        spelled[ch] = (code, taken.get(code, 0))
        taken[code] = taken.get(code, 0) + 1
    for ch in "的你励工㠭我犹𠀀":
        code, index = spelled[ch]
        expected = "".join(chr(0x2080 + int(d)) for d in str(index) if index) + code[:-1] + code[-1].upper()
        assert hybrid.display(hybrid.spelling(ch)) == expected
    assert hybrid.display(hybrid.spelling("励")) == "₅dD"  # prefix: ₁₅₈D
    # fewer symbols than the prefix spelling over the whole table
    chars = list(spelled)
    assert sum(map(len, map(hybrid.spelling, chars))) < sum(map(len, map(prefix.spelling, chars)))
    assert len({hybrid.spelling(ch) for ch in chars}) == len(chars)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_prefix_of_a_spelling_never_decodes_to_another_character(wubi_dict, dict_chars, data):
    # The self-delimiting layouts: any cut shows a prefix of the text, its last character at most a U+FFFD.
    text = data.draw(mixed_text(dict_chars[:2000] + dict_chars[-500:]))
    for layout in ("shared-index", "index-first"):
        codec = WubiCodec(CodecOptions(layout=layout), wubi_dict)
        symbols = codec.encode(text)
        for k in range(len(symbols) + 1):
            shown = codec.decode(symbols[:k])
            assert text.startswith(shown) or (shown.endswith("\ufffd") and text.startswith(shown[:-1])), (k, shown)
