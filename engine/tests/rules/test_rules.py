"""Scenario tests: each rule that tells the rule sets apart, on a small hand-built position.

Every expected move list is written out by hand from rules.md. Squares are the numbers
1-32 of rules.md (drums hold 1-12 at the start and move towards 29-32). The diagonals
these positions use, listed square by square:

    a1-h8: 4 8 11 15 18 22 25 29        a7-g1: 28 24 19 15 10 6 1
    b8-h2: 32 27 23 18 14 9 5           a3-f8: 12 16 19 23 26 30
    a5-e1: 20 16 11 7 2                 a5-d8: 20 24 27 31
    c1-h6: 3 7 10 14 17 21              d8-h4: 31 26 22 17 13
    e1-h4: 2 6 9 13                     f8-h6: 30 25 21
"""

from __future__ import annotations

import pytest

from checkers_engine import (
    RULE_SETS,
    AmbiguousMoveError,
    Board,
    EngineError,
    IllegalMoveError,
    InvalidFenError,
    Move,
    Outcome,
    Piece,
    Side,
    Termination,
    parse_square,
    pdn_result,
    perft,
    result_text,
    square_name,
)

ALL = ("english", "brazilian", "russian", "spanish", "italian", "thai")
FLYING = ("brazilian", "russian", "spanish", "thai")
SHORT = ("english", "italian")
MAJORITY = ("brazilian", "spanish", "italian")
FREE_CHOICE = ("english", "russian", "thai")
MEN_BACKWARD = ("brazilian", "russian")
MEN_FORWARD_ONLY = ("english", "spanish", "italian", "thai")


def moves_of(rule_set: str, fen: str) -> set[str]:
    """The legal moves of a position in numeric notation."""
    return {m.notation() for m in Board(rule_set, fen=fen).legal_moves}


def key(move: Move) -> tuple[int, int, frozenset[int]]:
    """What identifies a move (rules.md rule 8): start, end and the set it takes."""
    return move.start, move.end, frozenset(move.captured)


# --- squares and start positions -------------------------------------------------------

SQUARE_TABLE = {
    29: "h8", 30: "f8", 31: "d8", 32: "b8",
    25: "g7", 26: "e7", 27: "c7", 28: "a7",
    21: "h6", 22: "f6", 23: "d6", 24: "b6",
    17: "g5", 18: "e5", 19: "c5", 20: "a5",
    13: "h4", 14: "f4", 15: "d4", 16: "b4",
    9: "g3", 10: "e3", 11: "c3", 12: "a3",
    5: "h2", 6: "f2", 7: "d2", 8: "b2",
    1: "g1", 2: "e1", 3: "c1", 4: "a1",
}  # fmt: skip


@pytest.mark.parametrize("number, name", sorted(SQUARE_TABLE.items()))
def test_square_names_follow_rules_md(number: int, name: str) -> None:
    assert square_name(number) == name
    assert parse_square(name) == number
    assert parse_square(str(number)) == number


@pytest.mark.parametrize("text", ["0", "33", "a2", "b1", "i1", "a9", "", "x", "-1"])
def test_parse_square_rejects_what_is_not_a_dark_square(text: str) -> None:
    with pytest.raises(EngineError):
        parse_square(text)


def test_rule_set_table() -> None:
    assert tuple(RULE_SETS) == ALL
    assert {k: RULE_SETS[k].pdn_gametype for k in ALL} == {
        "english": 21,
        "brazilian": 26,
        "russian": 25,
        "spanish": 24,
        "italian": 22,
        "thai": 31,
    }
    assert {k for k in ALL if RULE_SETS[k].flying_kings} == set(FLYING)
    assert {k for k in ALL if RULE_SETS[k].majority_capture} == set(MAJORITY)
    assert {k for k in ALL if RULE_SETS[k].men_capture_backward} == set(MEN_BACKWARD)
    assert {k for k in ALL if not RULE_SETS[k].men_capture_kings} == {"italian"}
    assert {k: RULE_SETS[k].men_per_side for k in ALL} == {k: 8 if k == "thai" else 12 for k in ALL}
    for k in ALL:
        assert RULE_SETS[k].key == k and RULE_SETS[k].name and RULE_SETS[k].description


def test_unknown_rule_set_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="checkers960"):
        Board("checkers960")


TWELVE_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
THAI_START = "B:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8"


@pytest.mark.parametrize("rule_set", ALL)
def test_start_position(rule_set: str) -> None:
    board = Board(rule_set)
    men = 8 if rule_set == "thai" else 12
    drums = set(range(1, men + 1))
    tires = set(range(33 - men, 33))
    assert board.turn is Side.DRUMS
    assert board.pieces() == {
        **{s: Piece(Side.DRUMS, False) for s in drums},
        **{s: Piece(Side.TIRES, False) for s in tires},
    }
    assert board.fen() == (THAI_START if rule_set == "thai" else TWELVE_START)
    assert board.ply == 0 and board.move_stack == [] and board.king_plies == 0
    assert board.outcome() is None and not board.is_game_over()


@pytest.mark.parametrize("rule_set", [k for k in ALL if k != "thai"])
def test_twelve_man_opening_moves(rule_set: str) -> None:
    assert {m.notation() for m in Board(rule_set).legal_moves} == {
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16",
    }  # fmt: skip


def test_thai_eight_man_start() -> None:
    # Drums men on ranks 1-2 (1-8); only the four on rank 2 can step, to rank 3 (9-12).
    board = Board("thai")
    assert {m.notation() for m in board.legal_moves} == {
        "5-9", "6-9", "6-10", "7-10", "7-11", "8-11", "8-12",
    }  # fmt: skip
    board.push_text("6-10")
    # Tires men on ranks 7-8 (25-32); those on rank 7 step to rank 6 (21-24).
    assert {m.notation() for m in board.legal_moves} == {
        "25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24",
    }  # fmt: skip


# --- men capturing backward --------------------------------------------------------------


@pytest.mark.parametrize("rule_set", ALL)
def test_men_capture_backward_only_where_allowed(rule_set: str) -> None:
    # A drums man on e5 (18) with a tires man behind it on d4 (15); c3 (11) is empty.
    expected = {"18x11"} if rule_set in MEN_BACKWARD else {"18-22", "18-23"}
    assert moves_of(rule_set, "B:W15:B18") == expected


@pytest.mark.parametrize("rule_set", ALL)
def test_tires_men_capture_backward_only_where_allowed(rule_set: str) -> None:
    # The same seen from the other side: a tires man on d4 (15), a drums man behind it on
    # e5 (18); f6 (22) is empty. Tires men step towards 1-4.
    expected = {"15x22"} if rule_set in MEN_BACKWARD else {"15-10", "15-11"}
    assert moves_of(rule_set, "W:W15:B18") == expected


# --- kings: short and flying ---------------------------------------------------------------


@pytest.mark.parametrize("rule_set", ALL)
def test_king_quiet_moves(rule_set: str) -> None:
    # A drums king on e5 (18), a tires man out of its way on a7 (28).
    if rule_set in SHORT:
        expected = {"18-22", "18-23", "18-14", "18-15"}
    else:
        expected = {
            "18-22", "18-25", "18-29",  # towards h8
            "18-23", "18-27", "18-32",  # towards b8
            "18-14", "18-9", "18-5",  # towards h2
            "18-15", "18-11", "18-8", "18-4",  # towards a1
        }  # fmt: skip
    assert moves_of(rule_set, "B:W28:BK18") == expected


@pytest.mark.parametrize("rule_set", ALL)
def test_flying_king_captures_at_a_distance_and_picks_its_landing(rule_set: str) -> None:
    # A drums king on a1 (4), a tires man on c3 (11) with b2 empty: a flying king takes it
    # from two squares away and may land on any empty square beyond: d4 e5 f6 g7 h8.
    # A short king is not next to it and just steps to b2.
    expected = {"4-8"} if rule_set in SHORT else {"4x15", "4x18", "4x22", "4x25", "4x29"}
    assert moves_of(rule_set, "B:W11:BK4") == expected


@pytest.mark.parametrize("rule_set", ALL)
def test_flying_king_must_land_where_the_capture_goes_on(rule_set: str) -> None:
    # As above plus a tires man on f4 (14). Of the landing squares beyond c3 only e5 (18)
    # lets the king take again (f4, landing g3 or h2), so it must land there.
    expected = {"4-8"} if rule_set in SHORT else {"4x18x9", "4x18x5"}
    assert moves_of(rule_set, "B:W11,14:BK4") == expected


@pytest.mark.parametrize("rule_set", ALL)
def test_flying_king_cannot_cross_captured_piece(rule_set: str) -> None:
    # Drums king a1 (4); tires men g3, d4, g5, c5 (9, 15, 17, 19).
    # a1xd4 lands e5 (then takes g3 to h2) or f6 (then g5 to h4, then g3 to f2 or e1);
    # g7 and h8 lead nowhere. From f2 the diagonal to c5 runs over the captured d4, which
    # stays on the board until the move ends: no 4x22x13x6x24 / x28.
    if rule_set in SHORT:
        expected = {"4-8"}
    elif rule_set in MAJORITY:
        expected = {"4x22x13x6", "4x22x13x2"}
    else:
        expected = {"4x22x13x6", "4x22x13x2", "4x18x5"}
    assert moves_of(rule_set, "B:W9,15,17,19:BK4") == expected


# --- majority capture and the Italian tie-breaks ----------------------------------------


@pytest.mark.parametrize("rule_set", ALL)
def test_majority_capture_or_free_choice(rule_set: str) -> None:
    # Drums man e3 (10); tires men f4, d4, d6 (14, 15, 23). 10x17 takes one piece,
    # 10x19x26 two.
    expected = {"10x19x26"} if rule_set in MAJORITY else {"10x19x26", "10x17"}
    assert moves_of(rule_set, "B:W14,15,23:B10") == expected


def test_majority_counts_pieces_not_kings_outside_italy() -> None:
    # A king counts as one piece. Drums men e3 (10) and a3 (12); tires men f4, f6 (14, 22)
    # and a tires king on b4 (16). 10x17x26 takes two men; 12x19 one king.
    fen = "B:W14,22,K16:B10,12"
    assert moves_of("brazilian", fen) == {"10x17x26"}
    assert moves_of("spanish", fen) == {"10x17x26"}
    assert moves_of("english", fen) == {"10x17x26", "12x19"}


def test_italian_prefers_capturing_more_kings() -> None:
    # Drums kings e3 (10) and a3 (12); a tires man on f4 (14), a tires king on b4 (16).
    # Each capture takes one piece; Italian must take the king.
    fen = "B:W14,K16:BK10,K12"
    assert moves_of("italian", fen) == {"12x19"}
    assert moves_of("english", fen) == {"10x17", "12x19"}


def test_italian_prefers_capturing_with_a_king() -> None:
    # A drums king on e3 (10) and a drums man on a3 (12) can each take one tires man
    # (f4 = 14, b4 = 16). Italian: the king must capture.
    fen = "B:W14,16:BK10,12"
    assert moves_of("italian", fen) == {"10x17"}
    assert moves_of("english", fen) == {"10x17", "12x19"}
    # Spanish has no tie-break (and its flying king may land on g5 or h6).
    assert moves_of("spanish", fen) == {"10x17", "10x21", "12x19"}


def test_italian_free_choice_after_tie_breaks() -> None:
    # Two kings, each taking one man: nothing left to choose between them.
    assert moves_of("italian", "B:W14,16:BK10,K12") == {"10x17", "12x19"}


def test_italian_count_comes_before_the_king_tie_break() -> None:
    # The man on e3 (10) takes two (d4, d6); the king on h8 (29) takes one (g7 = 25).
    fen = "B:W15,23,25:BK29,10"
    assert moves_of("italian", fen) == {"10x19x26"}
    assert moves_of("english", fen) == {"10x19x26", "29x22"}


@pytest.mark.parametrize("rule_set", ALL)
def test_italian_men_cannot_capture_kings(rule_set: str) -> None:
    # A drums man on c3 (11) next to a tires king on d4 (15), e5 (18) empty.
    expected = {"11-16"} if rule_set == "italian" else {"11x18"}
    assert moves_of(rule_set, "B:WK15:B11") == expected


def test_italian_man_stops_before_a_king() -> None:
    # c3 (11) takes the man on d4 and lands e5; the next piece, d6 (23), is a king.
    assert moves_of("italian", "B:W15,K23:B11") == {"11x18"}
    assert moves_of("english", "B:W15,K23:B11") == {"11x18x27"}


def test_italian_king_may_capture_kings() -> None:
    assert moves_of("italian", "B:WK15:BK11") == {"11x18"}


# --- promotion in the middle of a capture ------------------------------------------------


@pytest.mark.parametrize("rule_set", ALL)
def test_promotion_during_a_capture(rule_set: str) -> None:
    # Drums man f6 (22); tires men e7 (26) and c7 (27). 22x31 reaches d8 on the far row.
    #  - English, Spanish, Italian, Thai: the move ends there and the man is crowned.
    #  - Brazilian: it carries on as a man, taking c7 backward to b6 (24), uncrowned.
    #  - Russian: crowned at once, it goes on as a flying king over c7 to b6 or a5.
    board = Board(rule_set, fen="B:W26,27:B22")
    expected = {
        "brazilian": {"22x31x24"},
        "russian": {"22x31x24", "22x31x20"},
    }.get(rule_set, {"22x31"})
    assert {m.notation() for m in board.legal_moves} == expected
    for move in board.legal_moves:
        crowned = rule_set != "brazilian"
        assert move.crowns is crowned
        board.push(move)
        assert board.piece_at(move.end) == Piece(Side.DRUMS, crowned)
        board.pop()


@pytest.mark.parametrize("rule_set", ALL)
def test_man_reaching_the_far_row_is_crowned(rule_set: str) -> None:
    board = Board(rule_set, fen="B:W5:B27")
    assert {m.notation() for m in board.legal_moves} == {"27-31", "27-32"}
    move = board.push_text("27-32")
    assert move.crowns
    assert board.piece_at(32) == Piece(Side.DRUMS, True)
    assert board.piece_at(27) is None


def test_brazilian_man_ending_on_the_far_row_is_crowned() -> None:
    board = Board("brazilian", fen="B:W26:B22")
    move = board.push_text("22x31")
    assert move.crowns and board.piece_at(31) == Piece(Side.DRUMS, True)


# --- same route dedupe (rule 8) ---------------------------------------------------------


@pytest.mark.parametrize("rule_set", SHORT)
def test_same_route_is_one_move(rule_set: str) -> None:
    # A drums king on c3 (11), tires men d4, b4, d6, b6 (15, 16, 23, 24). It jumps round
    # the diamond either way and stops on c3: no piece may be jumped twice.
    board = Board(rule_set, fen="B:W15,16,23,24:BK11")
    (move,) = board.legal_moves
    assert move.notation() in {"11x18x27x20x11", "11x20x27x18x11"}
    assert move.captured == (15, 16, 23, 24)
    assert perft(board, 1, paths=True) == 2
    assert perft(board, 1, paths=False) == 1
    board.push(move)
    assert board.pieces() == {11: Piece(Side.DRUMS, True)}


@pytest.mark.parametrize("rule_set", FLYING)
def test_flying_king_same_route_dedupe(rule_set: str) -> None:
    # The same diamond with a flying king. Clockwise it must land e5 and c7 and ends on
    # c3, d2 or e1; anticlockwise it lands a5, c7, e5 and ends on c3, b2 or a1.
    board = Board(rule_set, fen="B:W15,16,23,24:BK11")
    took = frozenset({15, 16, 23, 24})
    assert {key(m) for m in board.legal_moves} == {(11, end, took) for end in (11, 7, 2, 8, 4)}
    by_end = {m.end: m.notation() for m in board.legal_moves}
    assert by_end[7] == "11x18x27x20x7"
    assert by_end[2] == "11x18x27x20x2"
    assert by_end[8] == "11x20x27x18x8"
    assert by_end[4] == "11x20x27x18x4"
    assert by_end[11] in {"11x18x27x20x11", "11x20x27x18x11"}
    assert perft(board, 1, paths=True) == 6
    assert perft(board, 1, paths=False) == 5


@pytest.mark.parametrize("rule_set", ALL)
def test_men_routes(rule_set: str) -> None:
    # A drums man on c3 (11) with the four tires men of the diamond. Forward-only men
    # reach c7 (27) two ways taking different pieces: two moves. Men that capture backward
    # go on round the diamond back to c3 either way: one move.
    board = Board(rule_set, fen="B:W15,16,23,24:B11")
    if rule_set in MEN_BACKWARD:
        (move,) = board.legal_moves
        assert key(move) == (11, 11, frozenset({15, 16, 23, 24}))
        assert perft(board, 1, paths=True) == 2
    else:
        assert {m.notation() for m in board.legal_moves} == {"11x18x27", "11x20x27"}
        assert perft(board, 1, paths=True) == 2


def test_move_equality_follows_rule_8() -> None:
    a = Move((11, 18, 27, 20, 11), (15, 23, 24, 16))
    b = Move((11, 20, 27, 18, 11), (16, 24, 23, 15))
    c = Move((11, 18, 27), (15, 23))
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2


# --- captures are mandatory and whole -----------------------------------------------------


@pytest.mark.parametrize("rule_set", ALL)
def test_capture_is_mandatory(rule_set: str) -> None:
    # c3 (11) can take d4 (15); the quiet step 11-16 is not allowed.
    board = Board(rule_set, fen="B:W15:B11,12")
    assert {m.notation() for m in board.legal_moves} == {"11x18"}
    with pytest.raises(IllegalMoveError):
        board.parse_move("12-16")


@pytest.mark.parametrize("rule_set", ALL)
def test_capture_goes_on_to_the_end(rule_set: str) -> None:
    # c3 (11) x d4 (15) lands e5 and must go on over d6 (23) to c7 (27).
    assert moves_of(rule_set, "B:W15,23:B11") == {"11x18x27"}


# --- notation ---------------------------------------------------------------------------


def test_notation_quiet_move_both_styles() -> None:
    board = Board("english")
    move = board.parse_move("11-15")
    assert board.parse_move("c3-d4") == move
    assert board.parse_move(" 11-15 ") == move
    assert move.path == (11, 15) and move.captured == () and not move.is_capture
    assert move.notation() == str(move) == "11-15"
    assert move.algebraic() == "c3-d4"
    assert move.start == 11 and move.end == 15 and not move.crowns


def test_notation_capture_every_style() -> None:
    board = Board("english", fen="B:W15,23:B11")
    move = board.parse_move("11x18x27")
    assert move.path == (11, 18, 27) and move.captured == (15, 23) and move.is_capture
    assert move.notation() == "11x18x27"
    assert move.algebraic() == "c3:e5:c7"
    for text in ("11:18:27", "c3:e5:c7", "c3xe5xc7", "11x27", "c3:c7", "C3:E5:C7"):
        assert board.parse_move(text) == move, text


def test_short_form_ambiguous_names_candidates() -> None:
    # The man on c3 (11) reaches c7 (27) over d4+d6 or over b4+b6: "11x27" is ambiguous.
    board = Board("english", fen="B:W15,16,23,24:B11")
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move("11x27")
    assert "11x18x27" in str(info.value) and "11x20x27" in str(info.value)
    assert isinstance(info.value, ValueError)
    assert board.parse_move("11x18x27").captured == (15, 23)
    assert board.parse_move("c3:a5:c7").captured == (16, 24)


def test_illegal_move_names_the_legal_moves() -> None:
    board = Board("english")
    for text in ("11-14", "22-18", "15-19", "11x18", "1-6"):
        with pytest.raises(IllegalMoveError) as info:
            board.parse_move(text)
        message = str(info.value)
        assert "9-13" in message and "12-16" in message, message
        assert isinstance(info.value, ValueError)
    assert board.fen() == TWELVE_START and board.ply == 0


def test_x_claims_a_capture_but_a_dash_reads_either_kind() -> None:
    # A plain move written with "x" or ":" claims a capture that is not there.
    board = Board("english")
    for text in ("11x15", "c3:d4", "11:15"):
        with pytest.raises(IllegalMoveError) as info:
            board.parse_move(text)
        assert "11-15" in str(info.value), text
        assert len(info.value.candidates) == 7
    # Older English texts (the 3-move ballots among them) write captures with "-".
    capture = Board("english", fen="B:W15,23:B11").parse_move("11-18-27")
    assert capture.path == (11, 18, 27) and capture.captured == (15, 23)


def test_errors_carry_their_candidates() -> None:
    board = Board("english", fen="B:W15,16,23,24:B11")
    with pytest.raises(AmbiguousMoveError) as ambiguous:
        board.parse_move("11x27")
    assert {m.notation() for m in ambiguous.value.candidates} == {"11x18x27", "11x20x27"}
    with pytest.raises(IllegalMoveError) as illegal:
        board.parse_move("11x22")
    assert set(illegal.value.candidates) == set(board.legal_moves)


@pytest.mark.parametrize("text", ["", "hello", "11", "11-", "99-100", "a3-a4", "11-15-", "x"])
def test_unreadable_move_text(text: str) -> None:
    board = Board("english")
    with pytest.raises(EngineError):
        board.parse_move(text)
    with pytest.raises(EngineError):
        board.push_text(text)
    assert board.ply == 0 and board.fen() == TWELVE_START


def test_push_rejects_a_move_that_is_not_legal() -> None:
    board = Board("english")
    with pytest.raises(IllegalMoveError):
        board.push(Move((11, 14)))
    with pytest.raises(IllegalMoveError):
        board.push(Move((22, 18)))
    assert board.ply == 0 and board.fen() == TWELVE_START


def test_push_pop_and_turn() -> None:
    board = Board("english")
    first = board.push_text("11-15")
    assert board.turn is Side.TIRES and board.ply == 1 and board.move_stack == [first]
    assert board.fen() == ("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15")
    second = board.push_text("22-18")
    assert board.legal_moves == [Move((15, 22), (18,))]
    assert board.pop() == second and board.pop() == first
    assert board.fen() == TWELVE_START and board.turn is Side.DRUMS


def test_copy_is_independent() -> None:
    board = Board("russian")
    board.push_text("c3-d4")
    twin = board.copy()
    twin.push_text("f6-g5")
    assert board.ply == 1 and twin.ply == 2
    assert twin.move_stack[0] == board.move_stack[0]


# --- FEN ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "   ",
        "X:W21:B1",
        "B:W33:B1",
        "B:W0:B1",
        "B:Wfoo:B1",
        "B:W5:B5",
        "B:WK21,K:B1",
        "B:Q21:B1",
        "B:W21:B1:W22",
        "B:W1-40:B5",
        "B:W21,22,23,24,25,26,27,28,29,30,31,32,20:B1",
    ],
)
def test_invalid_fen_says_what_is_wrong(fen: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board("english", fen=fen)
    assert isinstance(info.value, ValueError)
    assert str(info.value).strip()


def test_thai_fen_with_too_many_men() -> None:
    with pytest.raises(InvalidFenError):
        Board("thai", fen=TWELVE_START)


@pytest.mark.parametrize(
    "fen",
    [
        TWELVE_START,
        "W:W18,K30:BK1,5,9",
        "B:WK15,K23:B11",
        "W:W5:BK32",
        "B:W9,15,17,19:BK4",
    ],
)
def test_fen_round_trip(fen: str) -> None:
    board = Board("russian", fen=fen)
    assert board.fen() == fen
    assert Board("russian", fen=board.fen()).pieces() == board.pieces()


def test_fen_is_normalised() -> None:
    # Squares out of order, kings in place, whitespace: written back in order.
    board = Board("english", fen=" B:B12,K3,1:W32,K22,30 ")
    assert board.fen() == "B:WK22,30,32:B1,K3,12"
    assert board.piece_at(3) == Piece(Side.DRUMS, True)
    assert board.piece_at(22) == Piece(Side.TIRES, True)
    assert board.piece_at(2) is None


def test_fen_side_to_move() -> None:
    assert Board("english", fen="W:W21:B1").turn is Side.TIRES
    assert Board("english", fen="B:W21:B1").turn is Side.DRUMS


# --- end of the game --------------------------------------------------------------------


@pytest.mark.parametrize("rule_set", ALL)
def test_loss_with_no_legal_move(rule_set: str) -> None:
    # The drums man on a1 (4) is blocked by b2 (8), and c3 (11) behind it is taken.
    board = Board(rule_set, fen="B:W8,11:B4")
    assert board.legal_moves == []
    assert board.outcome() == Outcome(Side.TIRES, Termination.NO_MOVES)
    assert board.is_game_over()
    assert board.outcome() is not None and "Tires" in board.outcome().reason  # type: ignore[union-attr]


@pytest.mark.parametrize("rule_set", ALL)
def test_loss_with_no_pieces(rule_set: str) -> None:
    board = Board(rule_set, fen="B:W15:B11")
    board.push_text("11x18")
    assert board.turn is Side.TIRES and board.legal_moves == []
    assert board.outcome() == Outcome(Side.DRUMS, Termination.NO_PIECES)
    board.pop()
    assert board.outcome() is None


def test_no_pieces_from_fen() -> None:
    board = Board("english", fen="B:W15:B")
    assert board.outcome() == Outcome(Side.TIRES, Termination.NO_PIECES)


# Short kings: drums shuffles a1-b2; the tires king walks h8 g7 h6 g5 f6 e7 d8 c7 b8 a7 b6,
# so no position repeats and nothing can be taken.
SHORT_WALK = ("B:WK29:BK4", [29, 25, 21, 17, 22, 26, 31, 27, 32, 28, 24], (4, 8))
# Flying kings: drums shuffles g1-h2 (off every line the tires king uses); the tires king
# flies h8 f6 h4 e1 a5 d8 g5 c1 a3 f8 h6.
FLYING_WALK = ("B:WK29:BK1", [29, 22, 13, 2, 20, 31, 17, 3, 12, 30, 21], (1, 5))


def king_walk(rule_set: str) -> list[str]:
    """Twenty plain king plies that repeat no position."""
    fen, tires, (home, away) = SHORT_WALK if rule_set in SHORT else FLYING_WALK
    plies = []
    for i in range(10):
        plies.append(f"{home}-{away}" if i % 2 == 0 else f"{away}-{home}")
        plies.append(f"{tires[i]}-{tires[i + 1]}")
    return [fen, *plies]


@pytest.mark.parametrize("rule_set", ALL)
def test_draw_by_twenty_king_plies(rule_set: str) -> None:
    fen, *plies = king_walk(rule_set)
    board = Board(rule_set, fen=fen)
    for n, text in enumerate(plies, 1):
        assert board.outcome() is None, n
        board.push_text(text)
        assert board.king_plies == n
    assert board.outcome() == Outcome(None, Termination.KING_MOVES)
    assert board.is_game_over()
    board.pop()
    assert board.outcome() is None and board.king_plies == 19


def test_man_move_and_capture_reset_the_king_ply_count() -> None:
    _, *plies = king_walk("english")
    board = Board("english", fen="B:WK29:BK4,12")
    for text in plies[:18]:
        board.push_text(text)
    assert board.king_plies == 18
    board.push_text("12-16")  # a man moves
    assert board.king_plies == 0
    board.pop()
    assert board.king_plies == 18

    # A king capture resets the count too. The drums king b8 (32) walks to b6 (24), from
    # where it must take the tires man on c5 (19); tires men never capture backward.
    board = Board("english", fen="B:WK29,19:BK32")
    for text in ("32-27", "29-25", "27-24", "25-29"):
        board.push_text(text)
    assert board.king_plies == 4
    assert {m.notation() for m in board.legal_moves} == {"24x15"}
    board.push_text("24x15")
    assert board.king_plies == 0


@pytest.mark.parametrize("rule_set", ALL)
def test_draw_by_threefold_repetition(rule_set: str) -> None:
    if rule_set in SHORT:
        fen, cycle = "B:WK29:BK4", ["4-8", "29-25", "8-4", "25-29"]
    else:
        fen, cycle = "B:WK29:BK1", ["1-5", "29-22", "5-1", "22-29"]
    board = Board(rule_set, fen=fen)
    for n, text in enumerate(cycle * 2, 1):
        assert board.outcome() is None, n  # the second occurrence (after ply 4) is no draw
        board.push_text(text)
    # The start position now stands for the third time.
    assert board.fen() == fen
    assert board.outcome() == Outcome(None, Termination.REPETITION)
    assert "repetition" in board.outcome().reason  # type: ignore[union-attr]
    board.pop()
    assert board.outcome() is None


def test_position_key_is_pieces_and_side_to_move() -> None:
    # Repetition compares positions: the same pieces on the same squares, the same side
    # to move (rules.md rule 11).
    def key_of(fen: str) -> int:
        return Board("english", fen=fen).key

    assert key_of("B:WK29:BK4") == key_of("B:WK29:BK4")
    assert key_of("B:WK29:BK4") != key_of("W:WK29:BK4")
    assert key_of("B:WK29:BK4") != key_of("B:W29:BK4")
    assert key_of("B:WK29:BK4") != key_of("B:WK29:BK8")
    assert key_of("B:WK29:BK4") != key_of("B:WK4:BK29")


def test_irreversible_moves_are_captures_and_mens_moves() -> None:
    board = Board("english", fen="B:WK29,19:BK32,12")
    by_text = {m.notation(): m for m in board.legal_moves}
    assert board.is_irreversible(by_text["12-16"])  # a man
    assert not board.is_irreversible(by_text["32-27"])  # a plain king move
    capture = Board("english", fen="B:WK29,19:BK24").legal_moves[0]
    assert capture.notation() == "24x15"
    assert Board("english", fen="B:WK29,19:BK24").is_irreversible(capture)


def test_reversible_history_rebuilds_the_draw_state() -> None:
    # A man's move, then plain king moves: the history starts after the man's move.
    board = Board("english", fen="B:WK29:BK4,12")
    for text in ("12-16", "29-25", "4-8", "25-29", "8-4", "29-25", "4-8"):
        board.push_text(text)
    base, tail = board.reversible_history()
    assert [m.notation() for m in tail] == ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8"]
    rebuilt = Board("english", fen=base)
    for move in tail:
        rebuilt.push(move)
    assert rebuilt.fen() == board.fen()
    assert rebuilt.king_plies == board.king_plies == 6
    assert rebuilt.repetitions() == board.repetitions() == 2
    # Right after an irreversible move the history is just the position.
    board.push_text("25-29")
    board.push_text("16-20")
    assert board.reversible_history() == (board.fen(), [])


def test_result_texts_and_pdn_results() -> None:
    assert result_text(Side.TIRES, "drums resigned") == "Tires win: drums resigned"
    assert result_text(None, "agreed by both players") == "Draw: agreed by both players"
    assert Outcome(Side.DRUMS, Termination.NO_MOVES).reason == (
        "Drums win: tires have no legal move"
    )
    assert pdn_result(None) == Outcome(None, Termination.REPETITION).pdn_result == "1/2-1/2"
    # CheckerBoard's convention in every GameType: "1-0" when the first mover wins.
    assert pdn_result(Side.DRUMS) == Outcome(Side.DRUMS, Termination.NO_PIECES).pdn_result
    assert pdn_result(Side.DRUMS) == "1-0"
    assert pdn_result(Side.TIRES) == Outcome(Side.TIRES, Termination.NO_MOVES).pdn_result == "0-1"
