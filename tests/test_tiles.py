"""Tests for mjrules.model.tiles: tile model, notation parsing/formatting, melds and copy checks."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mjrules.model.tiles import (
    CHINESE_NAMES,
    N_KINDS,
    N_PLAYABLE_STD,
    SUITS,
    TILE_NAMES,
    Meld,
    Tile,
    TileError,
    check_copies,
    chinese_name,
    counts,
    format_meld,
    format_tiles,
    is_flower,
    is_honour,
    is_suited,
    kind,
    parse_meld,
    parse_melds,
    parse_tile,
    parse_tiles,
    rank_of,
    suit_of,
    tile_name,
)


def names(text: str) -> list[str]:
    """Parse and render each tile as 'name' or 'name*' so expectations read naturally."""
    return [tile_name(t.kind) + ("*" if t.wild else "") for t in parse_tiles(text)]


# ---------------------------------------------------------------- tile model


def test_constants() -> None:
    assert (N_KINDS, N_PLAYABLE_STD, SUITS) == (42, 34, "mps")
    assert len(TILE_NAMES) == len(CHINESE_NAMES) == N_KINDS
    assert len(set(TILE_NAMES)) == len(set(CHINESE_NAMES)) == N_KINDS


@pytest.mark.parametrize(
    ("k", "name", "cn", "suit", "rank"),
    [
        (0, "1m", "一萬", "m", 1),
        (8, "9m", "九萬", "m", 9),
        (9, "1p", "一筒", "p", 1),
        (13, "5p", "五筒", "p", 5),
        (26, "9s", "九條", "s", 9),
        (27, "1z", "東", "z", 1),
        (28, "2z", "南", "z", 2),
        (29, "3z", "西", "z", 3),
        (30, "4z", "北", "z", 4),
        (31, "5z", "中", "z", 5),
        (32, "6z", "發", "z", 6),
        (33, "7z", "白", "z", 7),
        (34, "f1", "春", "f", 1),
        (39, "f6", "蘭", "f", 6),
        (41, "f8", "菊", "f", 8),
    ],
)
def test_kind_names_and_ranks(k: int, name: str, cn: str, suit: str, rank: int) -> None:
    assert tile_name(k) == name
    assert chinese_name(k) == cn
    assert suit_of(k) == suit
    assert rank_of(k) == rank
    assert kind(suit, rank) == k


@pytest.mark.parametrize(
    ("k", "suited", "honour", "flower"),
    [(0, True, False, False), (26, True, False, False), (27, False, True, False), (33, False, True, False),
     (34, False, False, True), (41, False, False, True)],
)  # fmt: skip
def test_predicates(k: int, suited: bool, honour: bool, flower: bool) -> None:
    assert (is_suited(k), is_honour(k), is_flower(k)) == (suited, honour, flower)


def test_dragons_are_not_tenhou_order() -> None:
    assert parse_tile("5z") == parse_tile("中") == Tile(31)
    assert parse_tile("6z") == parse_tile("發") == Tile(32)
    assert parse_tile("7z") == parse_tile("白") == Tile(33)


@pytest.mark.parametrize(("suit", "rank"), [("m", 0), ("p", 10), ("z", 8), ("f", 9), ("x", 1)])
def test_kind_rejects_bad_input(suit: str, rank: int) -> None:
    with pytest.raises(TileError):
        kind(suit, rank)


@pytest.mark.parametrize("k", [-1, 42])
def test_names_reject_out_of_range(k: int) -> None:
    with pytest.raises(TileError):
        tile_name(k)
    with pytest.raises(TileError):
        chinese_name(k)


# ---------------------------------------------------------------- ASCII notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("1m", ["1m"]),
        ("123m456p789s", ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"]),
        ("1234567z", ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]),
        ("123m 456p", ["1m", "2m", "3m", "4p", "5p", "6p"]),
        ("  9p\t1s  ", ["9p", "1s"]),
        ("f1f2", ["f1", "f2"]),
        ("f1 f8 1m", ["f1", "f8", "1m"]),
        ("11m f3 11m", ["1m", "1m", "f3", "1m", "1m"]),
        ("9s*", ["9s*"]),
        ("12*3m", ["1m", "2m*", "3m"]),
        ("55s*", ["5s", "5s*"]),
        ("5*5s*", ["5s*", "5s*"]),
        ("1m*2p", ["1m*", "2p"]),
        ("f1*", ["f1*"]),
        ("7z*", ["7z*"]),
    ],
)
def test_parse_ascii(text: str, expected: list[str]) -> None:
    assert names(text) == expected


def test_parse_returns_tiles() -> None:
    assert parse_tiles("1m2*p") == [Tile(0, False), Tile(10, True)]
    assert parse_tile(" 9s* ") == Tile(26, True)


# ---------------------------------------------------------------- Chinese notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("一萬", ["1m"]),
        ("九万", ["9m"]),
        ("五筒", ["5p"]),
        ("五饼", ["5p"]),
        ("五餅", ["5p"]),
        ("九條", ["9s"]),
        ("九条", ["9s"]),
        ("三索", ["3s"]),
        ("東南西北中發白", ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]),
        ("东 发", ["1z", "6z"]),
        ("春夏秋冬梅蘭竹菊", ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]),
        ("兰", ["f6"]),
        ("一萬*", ["1m*"]),
        ("中*白", ["5z*", "7z"]),
        ("二万三万四万", ["2m", "3m", "4m"]),
    ],
)
def test_parse_chinese(text: str, expected: list[str]) -> None:
    assert names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m東東", ["1m", "2m", "3m", "1z", "1z"]),
        ("一萬 2m 三萬", ["1m", "2m", "3m"]),
        ("中9s*白", ["5z", "9s*", "7z"]),
        ("f1 夏 f3*", ["f1", "f2", "f3*"]),
    ],
)
def test_parse_mixed(text: str, expected: list[str]) -> None:
    assert names(text) == expected


@pytest.mark.parametrize("k", range(N_KINDS))
def test_chinese_name_parses_back(k: int) -> None:
    assert parse_tile(chinese_name(k)) == Tile(k)
    assert parse_tile(tile_name(k)) == Tile(k)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "pos", "token", "fragments"),
    [
        ("0m", 0, "0m", ["bad tile '0m'", "position 0", "ranks run 1..9"]),
        ("123 0m", 4, "0m", ["bad tile '0m'", "position 4", 'in "123 0m"', "ranks run 1..9"]),
        ("8z", 0, "8z", ["bad tile '8z'", "position 0", "honours run 1z..7z"]),
        ("1m 18z", 4, "8z", ["bad tile '8z'", "position 4"]),
        ("12x", 2, "x", ["unexpected character 'x'", "position 2", 'in "12x"']),
        ("1M", 1, "M", ["unexpected character 'M'", "position 1"]),
        ("12", 0, "12", ["digits '12'", "position 0", "not followed by a suit letter"]),
        ("1m 34", 3, "34", ["digits '34'", "position 3"]),
        ("12 東", 0, "12", ["digits '12'", "position 0"]),
        ("5f1", 0, "5", ["digits '5'", "position 0"]),
        ("m", 0, "m", ["suit letter 'm'", "position 0"]),
        ("f9", 0, "f9", ["bad tile 'f9'", "position 0", "flowers run f1..f8"]),
        ("1m f0", 3, "f0", ["bad tile 'f0'", "position 3"]),
        ("f", 0, "f", ["'f'", "position 0", "flower number"]),
        ("*1m", 0, "*", ["unexpected character '*'", "position 0"]),
        ("1m *", 3, "*", ["'*'", "position 3"]),
        ("9*s*", 3, "*", ["'*'", "position 3"]),
        ("1**m", 2, "*", ["'*'", "position 2"]),
        ("五x", 0, "五", ["'五'", "position 0", "suit"]),
        ("一萬 九", 3, "九", ["'九'", "position 3"]),
        ("萬", 0, "萬", ["unexpected character '萬'", "position 0"]),
    ],
)
def test_parse_errors(text: str, pos: int, token: str, fragments: list[str]) -> None:
    with pytest.raises(TileError) as info:
        parse_tiles(text)
    err = info.value
    assert (err.text, err.pos, err.token) == (text, pos, token)
    for fragment in fragments:
        assert fragment in str(err)


def test_tile_error_is_value_error() -> None:
    with pytest.raises(ValueError, match="8z"):
        parse_tiles("8z")


@pytest.mark.parametrize("text", ["", "12m", "1m 中"])
def test_parse_tile_needs_exactly_one(text: str) -> None:
    with pytest.raises(TileError, match="exactly one tile"):
        parse_tile(text)


# ---------------------------------------------------------------- melds


@pytest.mark.parametrize(
    ("text", "meld_kind", "tiles", "concealed", "canonical"),
    [
        ("[555p]", "pon", "555p", False, "[555p]"),
        ("[5555s]", "kong", "5555s", False, "[5555s]"),
        ("[345s]", "chi", "345s", False, "[345s]"),
        ("[534s]", "chi", "345s", False, "[345s]"),
        ("[789m]", "chi", "789m", False, "[789m]"),
        ("{1111m}", "kong", "1111m", True, "{1111m}"),
        ("[中中中]", "pon", "555z", False, "[555z]"),
        ("{7777z}", "kong", "7777z", True, "{7777z}"),
        ("[ 3p 4p 5p ]", "chi", "345p", False, "[345p]"),
        ("  [111z]  ", "pon", "111z", False, "[111z]"),
    ],
)
def test_parse_meld(text: str, meld_kind: str, tiles: str, concealed: bool, canonical: str) -> None:
    meld = parse_meld(text)
    assert meld == Meld(meld_kind, tuple(t.kind for t in parse_tiles(tiles)), concealed)  # type: ignore[arg-type]
    assert format_meld(meld) == canonical
    assert parse_meld(format_meld(meld)) == meld


def test_parse_melds_several() -> None:
    melds = parse_melds("[555p] {1111m}, [345s],[東東東]")
    assert [format_meld(m) for m in melds] == ["[555p]", "{1111m}", "[345s]", "[111z]"]
    assert [m.kind for m in melds] == ["pon", "kong", "chi", "pon"]
    assert [m.concealed for m in melds] == [False, True, False, False]
    assert parse_melds("") == [] and parse_melds(" , ") == []


@pytest.mark.parametrize(
    ("text", "pos", "token", "fragment"),
    [
        ("[135m]", 0, "[135m]", "bad meld '[135m]'"),
        ("[12m]", 0, "[12m]", "3 or 4 tiles"),
        ("[11111m]", 0, "[11111m]", "3 or 4 tiles"),
        ("[]", 0, "[]", "3 or 4 tiles"),
        ("{111m}", 0, "{111m}", "concealed"),
        ("{123m}", 0, "{123m}", "concealed"),
        ("[5556p]", 0, "[5556p]", "bad meld '[5556p]'"),
        ("[123z]", 0, "[123z]", "honours cannot form a sequence"),
        ("[東南西]", 0, "[東南西]", "honours cannot form a sequence"),
        ("[89m1p]", 0, "[89m1p]", "bad meld '[89m1p]'"),
        ("[123m] [135m]", 7, "[135m]", "position 7"),
        ("[f1f1f1]", 0, "[f1f1f1]", "flowers"),
        ("[555p*]", 3, "5p", "a wild tile may not be used in a meld"),
        ("[5*55p]", 1, "5p", "a wild tile may not be used in a meld"),
        ("[中*中中]", 1, "中", "a wild tile may not be used in a meld"),
        ("[555p", 0, "[555p", "not closed"),
        ("[555p}", 0, "[555p", "not closed"),
        ("[55[5p]", 0, "[55", "not closed"),
        ("555p", 0, "5", "unexpected character '5'"),
        ("[555p] x", 7, "x", "unexpected character 'x'"),
        ("[50p5p]", 2, "0p", "bad tile '0p'"),
    ],
)
def test_meld_errors(text: str, pos: int, token: str, fragment: str) -> None:
    with pytest.raises(TileError) as info:
        parse_melds(text)
    err = info.value
    assert (err.pos, err.token) == (pos, token)
    assert fragment in str(err)
    assert f"position {pos}" in str(err)


@pytest.mark.parametrize("text", ["", "[555p] [666p]"])
def test_parse_meld_needs_exactly_one(text: str) -> None:
    with pytest.raises(TileError, match="exactly one meld"):
        parse_meld(text)


# ---------------------------------------------------------------- formatting, counts, copies


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("", ""),
        ("321m", "123m"),
        ("9s* 321m", "123m9s*"),
        ("f2 白 1z 5p f1 3m", "3m5p17zf1f2"),
        ("3m12*m", "12*3m"),
        ("5s*5s", "55s*"),
        ("5s*6s*", "5*6s*"),
        ("f1* 春", "f1f1*"),
        ("一萬九條中", "1m9s5z"),
    ],
)
def test_format_tiles(text: str, canonical: str) -> None:
    assert format_tiles(parse_tiles(text)) == canonical


def test_format_accepts_kinds() -> None:
    assert format_tiles([33, 0, 34, Tile(26, True)]) == "1m9s*7zf1"


def test_counts() -> None:
    c = counts(parse_tiles("1m1m* 中 f8"))
    assert len(c) == N_KINDS
    assert (c[0], c[31], c[41], sum(c)) == (2, 1, 1, 4)


@pytest.mark.parametrize(
    ("text", "copies", "message"),
    [
        ("11111m", 4, "5 copies of 1m, but the variant has 4"),
        ("1111m 1m*", 4, "5 copies of 1m, but the variant has 4"),
        ("中中中", 2, "3 copies of 5z, but the variant has 2"),
        ("f1 春", 4, "2 copies of f1, but the variant has 1"),
        ("99p", [4] * 17 + [1] + [4] * 24, "2 copies of 9p, but the variant has 1"),
    ],
)
def test_check_copies_rejects(text: str, copies: int | list[int], message: str) -> None:
    with pytest.raises(TileError) as info:
        check_copies(parse_tiles(text), copies)
    assert str(info.value) == message
    assert info.value.token == message.split(" of ")[1].split(",")[0]


@pytest.mark.parametrize(
    ("text", "copies"),
    [("1111m 9999s 1111z", 4), ("", 4), ("f1f2f3f4f5f6f7f8", 4), ("11111m", 5), ("11m", [2] * N_KINDS)],
)
def test_check_copies_accepts(text: str, copies: int | list[int]) -> None:
    check_copies(parse_tiles(text), copies)


def test_check_copies_wrong_length() -> None:
    with pytest.raises(ValueError, match="42"):
        check_copies([], [4] * 34)


# ---------------------------------------------------------------- properties

tile_lists = st.lists(st.builds(Tile, st.integers(0, N_KINDS - 1), st.booleans()), max_size=30)


@given(tile_lists)
def test_format_parse_round_trip(tiles: list[Tile]) -> None:
    text = format_tiles(tiles)
    back = parse_tiles(text)
    assert Counter(back) == Counter(tiles)
    assert format_tiles(back) == text


@given(tile_lists)
def test_chinese_round_trip(tiles: list[Tile]) -> None:
    text = " ".join(chinese_name(t.kind) + ("*" if t.wild else "") for t in tiles)
    assert parse_tiles(text) == tiles


@given(st.sampled_from(["m", "p", "s"]), st.integers(1, 7), st.booleans())
def test_chi_round_trip(suit: str, low: int, spaced: bool) -> None:
    sep = " " if spaced else ""
    meld = parse_meld(f"[{low}{sep}{low + 1}{sep}{low + 2}{suit}]")
    assert meld.kind == "chi"
    assert meld.tiles == tuple(kind(suit, r) for r in range(low, low + 3))
    assert parse_meld(format_meld(meld)) == meld


@pytest.mark.parametrize("text, code", [
    ("[123m]", bytes([0, 0, 0, 1, 2])),
    ("[555p]", bytes([1, 0, 13, 13, 13])),
    ("[7777z]", bytes([2, 0, 33, 33, 33, 33])),
    ("{1111s}", bytes([2, 1, 18, 18, 18, 18])),
])
def test_a_meld_is_packed_for_the_c_readers(text, code):
    """Meld.code, what the situation check and the kernel read of a meld: its kind, concealed, its tiles' kinds."""
    from mjrules.model.tiles import MELD_CHI, MELD_KONG, MELD_OTHER, MELD_PON, NO_KIND, Meld, meld_code, parse_melds

    (m,) = parse_melds(text)
    assert m.code == code == meld_code(m.kind, m.tiles, m.concealed)
    assert (MELD_CHI, MELD_PON, MELD_KONG, MELD_OTHER, NO_KIND) == (0, 1, 2, 3, 255)
    assert Meld("pung", (1, 99, "x"), True).code == bytes([MELD_OTHER, 1, 1, NO_KIND, NO_KIND])
    assert Meld("chi", None).code == bytes([MELD_CHI, 0, NO_KIND])
    assert m == Meld(m.kind, m.tiles, m.concealed) and "code" not in repr(m)


def test_melds_that_are_no_melds_are_refused_in_one_line():
    import mjrules
    from mjrules.model.situation import SituationError, check_situation, situation_from_dict
    from mjrules.model.tiles import Meld

    v = mjrules.load("guobiao").variant
    s = situation_from_dict(v, {"concealed": "123m456m789m55p", "melds": ["[123p]"], "win_tile": "5p"})
    check_situation(v, s)
    for melds, message in (((("chi", (9, 10, 11)),), "holds a tuple, not a Meld"),
                           ((Meld("chi", (9, 10, 99)),), "uses 99, which is not playable"),
                           ((Meld("chi", (9, 10, 40)),), "uses f7, which is not playable")):
        with pytest.raises(SituationError, match=message):
            check_situation(v, s.replace(melds=melds))
