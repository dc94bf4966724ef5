"""Each tradition's FEN: round trips, other tools' FENs, and refusals that say why."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from checkers_engine import RULE_SETS, Board, InvalidFenError, Position, Side, fen
from checkers_engine.messages import TEXTS

ALL = tuple(RULE_SETS)
START_FENS = {
    "english": "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "italian": "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "spanish": "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
    "russian": (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8:H0:F1"
    ),
    "brazilian": (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8:H0:F1"
    ),
    "thai": "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8:H0:F1",
}


@st.composite
def positions(draw: st.DrawFn, rule_set: str) -> Position:
    n = RULE_SETS[rule_set].men_per_side
    squares = draw(st.lists(st.integers(1, 32), unique=True, max_size=2 * n))
    split = draw(st.integers(0, len(squares)))
    drums, tires = squares[:split], squares[split:]
    assume(len(drums) <= n and len(tires) <= n)
    kings = draw(st.sets(st.sampled_from(squares))) if squares else set()
    # Men never stand on their crowning row.
    kings |= {s for s in drums if s >= 29} | {s for s in tires if s <= 4}
    turn = draw(st.sampled_from(list(Side)))
    clock = draw(st.none() | st.integers(0, 60))
    number = draw(st.none() | st.integers(1, 200))
    position = Position(
        rule_set,
        turn,
        frozenset(s for s in drums if s not in kings),
        frozenset(s for s in drums if s in kings),
        frozenset(s for s in tires if s not in kings),
        frozenset(s for s in tires if s in kings),
        clock,
        number,
    )
    try:
        fen.read(rule_set, fen.write(position))
    except InvalidFenError as exc:
        # The one refusal a random position may meet: an army still unmoved, and so the
        # wrong side to move.
        assert "wrong side to move" in str(exc)
        assume(False)
    return position


@pytest.mark.parametrize("rule_set", ALL)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_round_trip_in_every_tradition(rule_set: str, data: st.DataObject) -> None:
    position = data.draw(positions(rule_set))
    with_counters = fen.write(position, counters=True)
    assert fen.read(rule_set, with_counters) == position.with_counters(
        position.half_move_clock or 0, position.move_number or 1
    )
    bare = fen.read(rule_set, fen.write(position))
    assert bare == position.with_counters(None, None)
    # The engine's own FEN of the same position, and a Board built from it, agree.
    board = Board.from_position(position)
    assert board.fen() == position.internal_fen()
    assert board.king_plies == (position.half_move_clock or 0)
    assert board.position() == position.with_counters(
        position.half_move_clock or 0, position.move_number or 1
    )


@pytest.mark.parametrize("rule_set", ALL)
def test_start_positions_in_each_tradition(rule_set: str) -> None:
    board = Board(rule_set)
    counters = rule_set in ("russian", "brazilian", "thai")
    assert fen.write(board.position(), counters=counters) == START_FENS[rule_set]
    assert Board.from_position(fen.read(rule_set, START_FENS[rule_set])).fen() == board.fen()


def test_lidraughts_russian_fen_with_counters() -> None:
    text = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1"
    position = fen.read("russian", text)
    assert position.turn is Side.DRUMS  # White moves first
    assert (position.half_move_clock, position.move_number) == (0, 1)
    assert Board.from_position(position).fen() == Board("russian").fen()
    # Without the suffix the side to move is still White's.
    assert fen.read("russian", text.rsplit(":H", 1)[0]).turn is Side.DRUMS
    # The half-move clock seeds the 20-king-ply count.
    late = Board.from_position(fen.read("russian", "B:WK29:BK4:H19:F40"))
    assert late.king_plies == 19 and late.turn is Side.TIRES and not late.is_game_over()
    late.push(late.legal_moves[0])
    assert late.outcome() is not None and late.outcome().termination.value == "20 king moves"  # type: ignore[union-attr]
    assert fen.write(late.position(), counters=True).endswith(":H20:F41")


def test_pydraughts_algebraic_fen() -> None:
    # pydraughts' Board("russian").fen, squares in its own order.
    text = "W:Wa1,c3,e3,g3,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    assert Board.from_position(fen.read("russian", text)).fen() == Board("russian").fen()
    after = "B:Wa1,e3,g3,d4,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    board = Board("russian")
    board.push_text("c3-d4")
    assert Board.from_position(fen.read("brazilian", after)).fen() == board.fen()
    # py-draughts wraps its FEN in a tag.
    assert fen.read("russian", f'[FEN "{text}"]') == fen.read("russian", text)


def test_ranges_and_kings() -> None:
    position = fen.read("english", "B:W21-24,K30:BK1,9-12")
    assert position.tires == frozenset({21, 22, 23, 24})
    assert position.tire_kings == frozenset({30})
    assert position.drum_kings == frozenset({1})
    assert position.drums == frozenset({9, 10, 11, 12})


@pytest.mark.parametrize(
    ("rule_set", "text", "message"),
    [
        # The English start with the second mover to move: an English FEN read as Russian.
        (
            "russian",
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "wrong side to move: Black to move, but White moves first in Russian and all "
            "White's men still stand on their starting squares",
        ),
        (
            "english",
            "W:W21-32:B1-12",
            "wrong side to move: White to move, but Black moves first in English",
        ),
        (
            "italian",
            "B:W21-32:B1-11,13",
            "wrong side to move: Black to move, but White moves first in Italian",
        ),
        ("russian", "W:Wb8:Ba1", "a White man on square b8, its crowning row"),
        ("english", "B:W20:B29", "a Black man on square 29, its crowning row"),
        ("italian", "W:W1:B30", "a White man on square 1, its crowning row"),
        ("spanish", "W:W20:B1", "a Black man on square 1, its crowning row"),
        ("english", "B:W20-32:B1", "13 White pieces: English starts with 12 a side"),
        ("thai", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3:Bh8", "9 White pieces: Thai starts with 8"),
        ("russian", "W:Wc3,c3:Bf6", "c3 is given twice"),
        ("english", "B:W15:B15", "square 15 is given to both White and Black"),
        ("english", "B:W1-5:B5", "square 5 is given to both White and Black"),
        ("russian", "X:Wc3:Bf6", "starts with the side to move, W or B"),
        ("russian", "W:Wc4:Bf6", "c4 is a light square"),
        ("spanish", "W:Wa1:Bh8", "a1 is a light square"),
        ("russian", "W:Wc3:Bf6:F0", "F starts at 1"),
        ("russian", "W:Wc3:Wd4", "the White piece list appears twice"),
        ("russian", "W", "a FEN lists the pieces"),
        ("russian", "", "empty FEN"),
        ("english", "B:W33:B1", "no square 33"),
    ],
)
def test_inconsistent_or_unreadable_fen_is_refused(rule_set: str, text: str, message: str) -> None:
    with pytest.raises(InvalidFenError) as caught:
        fen.read(rule_set, text)
    assert message in str(caught.value)


def test_a_position_after_one_move_may_have_the_second_mover_to_move() -> None:
    board = Board("italian")
    board.push(board.legal_moves[0])
    text = fen.write(board.position())
    assert text.startswith("B:")
    assert Board.from_position(fen.read("italian", text)).fen() == board.fen()


def test_odds_positions_with_the_first_mover_to_move_are_accepted() -> None:
    # Black (first) gives a man: the second mover's army is unmoved, Black still to move.
    position = fen.read("english", "B:W21-32:B1-11")
    assert position.turn is Side.DRUMS and len(position.drums) == 11


#: Each of the reader's refusals: a FEN that causes it, its code and params.
CODED_REFUSALS: list[tuple[str, str, str, dict[str, str | int]]] = [
    ("russian", "", "fen_empty", {}),
    ("russian", "X:Wc3:Bf6", "fen_bad_turn_white_first", {"turn": "X", "rule_set": "Russian"}),
    ("english", "X:W1:B2", "fen_bad_turn_black_first", {"turn": "X", "rule_set": "English"}),
    ("russian", "W:Wc3:Bf6:H1:H2", "fen_counter_twice", {"letter": "H"}),
    ("russian", "W:Xc3", "fen_bad_list", {"field": "Xc3"}),
    ("russian", "W:Wc3:Wd4", "fen_list_twice_white", {}),
    ("english", "B:B1:B2", "fen_list_twice_black", {}),
    ("russian", "W:H1:Wc3", "fen_counters_last", {}),
    ("english", "B:W33:B1", "fen_square_range", {"item": "33", "square": "33"}),
    ("russian", "W:Wc4:Bf6", "fen_light_square", {"item": "c4", "square": "c4"}),
    ("russian", "W:Wz9:Bf6", "fen_unreadable_square", {"item": "z9", "square": "z9"}),
    ("english", "B:W1-x:B5", "fen_range_numbers", {"item": "1-x"}),
    ("english", "B:W12-1:B20", "fen_range_order", {"item": "12-1"}),
    ("russian", "W:Wc3,c3:Bf6", "fen_square_twice", {"square": "c3"}),
    ("english", "B:W15:B15", "fen_square_both", {"square": "15"}),
    ("russian", "W", "fen_no_pieces", {}),
    ("russian", "W:Wc3:Bf6:F0", "fen_move_number_zero", {}),
    ("russian", "W:Wb8:Ba1", "fen_crowning_white", {"square": "b8"}),
    ("english", "B:W20:B29", "fen_crowning_black", {"square": "29"}),
    (
        "english",
        "B:W20-32:B1",
        "fen_too_many_white",
        {"count": 13, "rule_set": "English", "n": 12},
    ),
    (
        "russian",
        "W:Wc3:Ba7,c7,e7,g7,b8,d8,f8,h8,b6,d6,f6,h6,a5",
        "fen_too_many_black",
        {"count": 13, "rule_set": "Russian", "n": 12},
    ),
    (
        "russian",
        "B:W21-32:B1-12",
        "fen_wrong_turn_white_first",
        {"rule_set": "Russian"},
    ),
    ("english", "W:W21-32:B1-12", "fen_wrong_turn_black_first", {"rule_set": "English"}),
]


@pytest.mark.parametrize(("rule_set", "text", "code", "params"), CODED_REFUSALS)
def test_each_refusal_has_its_code_and_params(
    rule_set: str, text: str, code: str, params: dict[str, str | int]
) -> None:
    """The error's text is the engine table's English for its code, filled from its params."""
    with pytest.raises(InvalidFenError) as caught:
        fen.read(rule_set, text)
    message = caught.value.message
    assert message is not None
    assert (message.code, message.params) == (code, params)
    assert str(caught.value) == TEXTS[code].format(**params)


def test_a_fen_that_is_not_text_has_a_code() -> None:
    with pytest.raises(InvalidFenError) as caught:
        fen.read("english", 12)  # type: ignore[arg-type]
    assert caught.value.message is not None and caught.value.message.code == "fen_not_string"


#: The engine's own FEN (B the drums, W the tires): a FEN, its refusal's code and params.
INTERNAL_REFUSALS: list[tuple[str, str, str, dict[str, str | int]]] = [
    ("english", "", "fen_empty", {}),
    ("english", "X:W21:B1", "fen_internal_bad_turn", {"turn": "X"}),
    ("english", "B:X21", "fen_internal_bad_list", {"field": "X21"}),
    ("english", "B:W21:W22", "fen_internal_list_twice", {"letter": "W"}),
    ("english", "B:W12-1:B20", "fen_internal_bad_range", {"item": "12-1", "range": "12-1"}),
    ("english", "B:W21::B1", "fen_internal_too_many_lists", {}),
    ("english", "B:W21:B1,1", "fen_square_twice", {"square": 1}),
    ("english", "B:W33:B1", "fen_square_range", {"item": "33", "square": "33"}),
    ("english", "B:WK1-40:B5", "fen_square_range", {"item": "K1-40", "square": "40"}),
    ("english", "B:Wa2:B1", "fen_light_square", {"item": "a2", "square": "a2"}),
    ("english", "B:Wzz:B1", "fen_unreadable_square", {"item": "zz", "square": "zz"}),
    ("english", "B:W21:B30", "fen_internal_far_row_drums", {"square": 30}),
    ("english", "B:W2:B12", "fen_internal_far_row_tires", {"square": 2}),
    (
        "english",
        "B:W21:B1-13",
        "fen_internal_too_many_drums",
        {"count": 13, "rule_set": "English", "n": 12},
    ),
    (
        "english",
        "B:W9-21:B1",
        "fen_internal_too_many_tires",
        {"count": 13, "rule_set": "English", "n": 12},
    ),
]


@pytest.mark.parametrize(("rule_set", "text", "code", "params"), INTERNAL_REFUSALS)
def test_each_refusal_of_the_engines_own_fen_has_its_code(
    rule_set: str, text: str, code: str, params: dict[str, str | int]
) -> None:
    with pytest.raises(InvalidFenError) as caught:
        Board(rule_set, fen=text)
    message = caught.value.message
    assert message is not None
    assert (message.code, message.params) == (code, params)
    assert str(caught.value) == TEXTS[code].format(**params)


def test_every_fen_code_is_the_reason_of_some_refusal() -> None:
    """The cases above cause every FEN message of the engine's table."""
    caused = {code for _, _, code, _ in CODED_REFUSALS + INTERNAL_REFUSALS}
    assert caused | {"fen_not_string"} == {code for code in TEXTS if code.startswith("fen_")}
