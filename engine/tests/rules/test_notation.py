"""Each rule set's notation: every square both ways, and the anchors the sources give."""

from __future__ import annotations

import pytest

from checkers_engine import (
    RULE_SETS,
    AmbiguousMoveError,
    Board,
    Colour,
    IllegalMoveError,
    NotationError,
    Side,
    Style,
    notation,
    tradition,
)

ALL = tuple(RULE_SETS)
FILES = "abcdefgh"


@pytest.mark.parametrize("rule_set", ALL)
@pytest.mark.parametrize("style", list(Style))
def test_every_square_both_ways(rule_set: str, style: Style) -> None:
    texts = [notation.format_square(rule_set, s, style) for s in range(1, 33)]
    assert len(set(texts)) == 32
    for square, text in zip(range(1, 33), texts, strict=True):
        assert notation.parse_square(rule_set, text) == square
        assert notation.parse_square(rule_set, text.upper()) == square
    if style is Style.NUMERIC:
        assert sorted(map(int, texts)) == list(range(1, 33))
    else:
        # Names are the dark squares of the tradition's own board: a1 is dark, except on
        # the Italian and Spanish boards, which lie the other way round.
        parity = 1 if tradition(rule_set).mirrored else 0
        assert all((FILES.index(t[0]) + int(t[1]) - 1) % 2 == parity for t in texts)


@pytest.mark.parametrize("rule_set", ALL)
def test_light_squares_and_nonsense_are_refused(rule_set: str) -> None:
    mirrored = tradition(rule_set).mirrored
    light = "a1" if mirrored else "b1"
    with pytest.raises(NotationError, match="light square"):
        notation.parse_square(rule_set, light)
    for text in ("0", "33", "i9", "", "c"):
        with pytest.raises(NotationError):
            notation.parse_square(rule_set, text)
    with pytest.raises(NotationError):
        notation.square_number(rule_set, 0)


def _starts(rule_set: str, side: Side, style: Style) -> set[str]:
    board = Board(rule_set)
    return {
        notation.format_square(rule_set, s, style)
        for s, piece in board.pieces().items()
        if piece.side is side
    }


def test_first_movers_colour_in_each_tradition() -> None:
    colours = {k: tradition(k).first_mover for k in ALL}
    assert colours == {
        "english": Colour.BLACK,
        "brazilian": Colour.WHITE,
        "russian": Colour.WHITE,
        "spanish": Colour.WHITE,
        "italian": Colour.WHITE,
        "thai": Colour.WHITE,
    }
    for key in ALL:
        trad = tradition(key)
        assert trad.colour(Side.DRUMS) is trad.first_mover
        assert trad.side(trad.first_mover.other) is Side.TIRES
        assert trad.gametype == RULE_SETS[key].pdn_gametype


def test_start_squares_follow_the_sources() -> None:
    numeric = Style.NUMERIC
    low, high = {str(n) for n in range(1, 13)}, {str(n) for n in range(21, 33)}
    # English PDN: Black (first) on 1-12.
    assert _starts("english", Side.DRUMS, numeric) == low
    # lidraughts: W:W21,...,32:B1,...,12 for Russian and Brazilian; CheckerBoard's Italian
    # ballots: W:W21,...,32:B1,...,12 with White to move.
    for key in ("russian", "brazilian", "italian"):
        assert _starts(key, Side.DRUMS, numeric) == high
        assert _starts(key, Side.TIRES, numeric) == low
    # Spanish: White on 1-12, Black on 21-32.
    assert _starts("spanish", Side.DRUMS, numeric) == low
    assert _starts("spanish", Side.TIRES, numeric) == high
    # Thai: eight a side on two rows; White (first) on the two rows of a1.
    assert _starts("thai", Side.DRUMS, numeric) == {str(n) for n in range(25, 33)}
    assert _starts("thai", Side.DRUMS, Style.ALGEBRAIC) == {
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2",
    }  # fmt: skip


def test_lidraughts_fields_name_the_same_squares() -> None:
    # lidraughts Pos64: field = 4 * (y - 1) + x with x 1-4 and y 1-8 from the top, named
    # rank 9 - y and file 2x - (rank % 2).
    for y in range(1, 9):
        for x in range(1, 5):
            field = 4 * (y - 1) + x
            rank = 9 - y
            name = f"{FILES[2 * x - rank % 2 - 1]}{rank}"
            for key in ("russian", "brazilian", "thai"):
                square = notation.parse_square(key, name)
                assert notation.square_number(key, square) == field
                assert notation.square_name(key, square) == name


def test_corner_squares_of_the_mirrored_boards() -> None:
    # Spanish: square 1 is the first dark square at White's lower right; 32 its upper left.
    assert notation.square_name("spanish", notation.parse_square("spanish", "1")) == "h1"
    assert notation.square_name("spanish", notation.parse_square("spanish", "32")) == "a8"
    # Italian (pydraughts' board): 1-4 on a8, c8, e8, g8 and 29-32 on b1, d1, f1, h1.
    names = [
        notation.square_name("italian", notation.parse_square("italian", str(n)))
        for n in (1, 4, 29, 32)
    ]
    assert names == ["a8", "g8", "b1", "h1"]
    # Internally both boards hold the first mover's left-hand corner at a1 (square 4).
    assert notation.format_square("spanish", 4) == "1"
    assert notation.format_square("italian", 4) == "32"


def test_english_and_the_internal_notation_agree() -> None:
    for square in range(1, 33):
        assert notation.format_square("english", square) == str(square)
    assert notation.format_square("english", 11, Style.ALGEBRAIC) == "c3"


@pytest.mark.parametrize(
    ("rule_set", "expected"),
    [
        ("english", ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]),
        ("italian", ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]),
        ("russian", ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]),
        ("spanish", ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]),
    ],
)
def test_opening_moves_in_each_notation(rule_set: str, expected: list[str]) -> None:
    # English: the seven opening moves of every English text; Italian: pydraughts' list
    # for its start position; Russian: the seven moves of the a1-h8 board; Spanish: from
    # 9 (its rank 3 starts at the right-hand edge) to 16 on the board numbered right to
    # left from White's lower right.
    board = Board(rule_set)
    assert sorted(notation.format_move(rule_set, m) for m in board.legal_moves) == sorted(expected)


def test_captures_are_written_with_every_landing_square() -> None:
    board = Board("russian", fen="B:W14,22:B9")  # White g3 takes f4 and f6 (internal FEN)
    (move,) = board.legal_moves
    assert notation.format_move("russian", move) == "g3:e5:g7"
    assert move.is_capture
    text = notation.format_move("russian", move)
    assert ":" in text and text.count(":") == len(move.path) - 1
    assert notation.format_move("russian", move, Style.NUMERIC).count("x") == len(move.path) - 1
    assert notation.parse_move(board, text) == move


def test_parse_move_reads_the_tradition_and_explains_in_it() -> None:
    board = Board("russian")
    assert notation.parse_move(board, "c3-d4") == board.parse_move("11-15")
    assert notation.parse_move(board, "22-18") == board.parse_move("11-15")  # fields
    with pytest.raises(IllegalMoveError, match=r"legal moves: a3-b4, c3-b4, .*, g3-h4$") as caught:
        notation.parse_move(board, "c3-c5")
    assert len(caught.value.candidates) == 7
    with pytest.raises(IllegalMoveError, match="light square"):
        notation.parse_move(board, "c3-c4")
    with pytest.raises(IllegalMoveError, match="written as a capture"):
        notation.parse_move(board, "c3:d4")
    assert notation.parse_move(board, "c3xd4", lenient_capture_mark=True) == board.parse_move(
        "11-15"
    )
    italian = Board("italian")
    assert notation.parse_move(italian, "21-17") == italian.parse_move("9-13")
    with pytest.raises(IllegalMoveError, match="legal moves: 21-17, 21-18"):
        notation.parse_move(italian, "9-13")


def test_ambiguous_move_names_candidates_in_the_tradition() -> None:
    # A flying king in Brazilian with two captures from the same start to the same end.
    board = Board("brazilian", fen="B:W26,9,25,16,28,14:BK20,21,5")
    captures = [m for m in board.legal_moves if m.is_capture]
    by_ends: dict[tuple[int, int], int] = {}
    for m in captures:
        by_ends[(m.start, m.end)] = by_ends.get((m.start, m.end), 0) + 1
    shared = [ends for ends, count in by_ends.items() if count > 1]
    if not shared:
        pytest.fail("the position must hold two captures with the same start and end")
    start, end = shared[0]
    text = (
        f"{notation.format_square('brazilian', start)}:{notation.format_square('brazilian', end)}"
    )
    with pytest.raises(AmbiguousMoveError) as caught:
        notation.parse_move(board, text)
    assert len(caught.value.candidates) >= 2
    for candidate in caught.value.candidates:
        assert notation.format_move("brazilian", candidate) in str(caught.value)
