"""Property tests (Hypothesis) over random games and random positions in all six rule sets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checkers_engine import RULE_SETS, Board, Move, Side

ALL = tuple(RULE_SETS)
PLIES = 80
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def move_key(move: Move) -> tuple[int, int, frozenset[int]]:
    return move.start, move.end, frozenset(move.captured)


def legal_keys(board: Board) -> set[tuple[int, int, frozenset[int]]]:
    return {move_key(m) for m in board.legal_moves}


@st.composite
def random_positions(draw: st.DrawFn, rule_set: str) -> tuple[str, str]:
    """The rule set and a legal-looking FEN: random men and kings, within the piece limit."""
    limit = RULE_SETS[rule_set].men_per_side
    cells = draw(
        st.lists(
            st.sampled_from(["", "", "", "d", "D", "t", "T"]),
            min_size=32,
            max_size=32,
        )
    )
    drums: list[str] = []
    tires: list[str] = []
    for square, cell in enumerate(cells, 1):
        if cell in ("d", "D") and len(drums) < limit:
            # A drums man cannot stand on its far row (29-32): there it is a king.
            drums.append(f"K{square}" if cell == "D" or square >= 29 else str(square))
        elif cell in ("t", "T") and len(tires) < limit:
            tires.append(f"K{square}" if cell == "T" or square <= 4 else str(square))
    turn = draw(st.sampled_from("BW"))
    return rule_set, f"{turn}:W{','.join(tires)}:B{','.join(drums)}"


@st.composite
def games(draw: st.DrawFn, rule_set: str) -> tuple[str, str | None, list[int]]:
    """The rule set, a start FEN (None: the rule set's start) and move choices for a game."""
    fen = draw(random_positions(rule_set))[1] if draw(st.booleans()) else None
    choices = draw(st.lists(st.integers(0, 1_000), min_size=PLIES // 2, max_size=PLIES))
    return rule_set, fen, choices


def walk(rule_set: str, fen: str | None, choices: list[int]) -> Iterator[Board]:
    """Each position of a game played by the given choices, until it ends."""
    board = Board(rule_set, fen=fen)
    for choice in choices:
        yield board
        moves = board.legal_moves
        if board.outcome() is not None or not moves:
            return
        board.push(moves[choice % len(moves)])
    yield board


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_notation_parses_back(rule_set: str, data: st.DataObject) -> None:
    game = data.draw(games(rule_set))
    for board in walk(*game):
        for move in board.legal_moves:
            assert board.parse_move(move.notation()) == move
            assert board.parse_move(move.algebraic()) == move


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_fen_round_trips(rule_set: str, data: st.DataObject) -> None:
    game = data.draw(games(rule_set))
    for board in walk(*game):
        fen = board.fen()
        again = Board(rule_set, fen=fen)
        assert again.fen() == fen
        assert again.pieces() == board.pieces()
        assert again.turn is board.turn
        # The position key depends on the position only, however it was reached.
        assert again.key == board.key
        assert legal_keys(again) == legal_keys(board)


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_push_then_pop_restores_everything(rule_set: str, data: st.DataObject) -> None:
    game = data.draw(games(rule_set))
    for board in walk(*game):

        def snapshot(b: Board = board) -> tuple[object, ...]:
            return (
                b.fen(),
                b.key,
                b.king_plies,
                b.ply,
                list(b.move_stack),
                legal_keys(b),
                b.outcome(),
            )

        before = snapshot()
        for move in board.legal_moves:
            board.push(move)
            assert board.pop() == move
            assert snapshot() == before


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_if_any_move_captures_every_move_captures(rule_set: str, data: st.DataObject) -> None:
    game = data.draw(games(rule_set))
    for board in walk(*game):
        moves = board.legal_moves
        assert len(moves) == len(set(moves)), "a move is listed twice"
        for move in moves:
            assert move.is_capture == bool(move.captured)
            assert len(set(move.captured)) == len(move.captured)
            mover = board.piece_at(move.start)
            assert mover is not None and mover.side is board.turn
            for square in move.captured:
                taken = board.piece_at(square)
                assert taken is not None and taken.side is board.turn.opponent
        if any(m.is_capture for m in moves):
            assert all(m.is_capture for m in moves)


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_piece_counts_never_grow(rule_set: str, data: st.DataObject) -> None:
    game = data.draw(games(rule_set))
    previous: Counter[Side] | None = None
    for board in walk(*game):
        counts = Counter(piece.side for piece in board.pieces().values())
        if previous is not None:
            played = board.move_stack[-1]
            mover = board.turn.opponent
            assert counts[mover] == previous[mover]
            assert counts[mover.opponent] == previous[mover.opponent] - len(played.captured)
        previous = counts


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_mirror_maps_legal_moves_onto_legal_moves(rule_set: str, data: st.DataObject) -> None:
    game = data.draw(games(rule_set))
    for board in walk(*game):
        mirrored = board.mirror()
        assert mirrored.turn is board.turn.opponent
        assert mirrored.pieces() == {
            33 - square: piece._replace(side=piece.side.opponent)
            for square, piece in board.pieces().items()
        }
        expected = {
            (33 - start, 33 - end, frozenset(33 - s for s in captured))
            for start, end, captured in legal_keys(board)
        }
        assert legal_keys(mirrored) == expected
        assert mirrored.mirror().fen() == board.fen()


@pytest.mark.parametrize("rule_set", ALL)
@SETTINGS
@given(data=st.data())
def test_no_legal_move_means_the_game_is_lost(rule_set: str, data: st.DataObject) -> None:
    board = Board(*data.draw(random_positions(rule_set)))
    outcome = board.outcome()
    if not board.legal_moves:
        assert outcome is not None and outcome.winner is board.turn.opponent
    else:
        assert outcome is None  # a fresh position has no history to repeat
