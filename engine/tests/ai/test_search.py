"""The draw rules inside the search, and the search's bookkeeping."""

from __future__ import annotations

from dataclasses import replace

from ai.test_tactics import CASES
from checkers_engine import Board
from checkers_engine.ai import Searcher
from checkers_engine.ai.search import MATE_BOUND, WIN, weights_for
from checkers_engine.movegen import apply, generate

# Drums: kings on e3 and d4, a man on g3; tires: a man on a7 (far from everything).
# Drums are two kings and a man up: every move scores well above a draw.
AHEAD = "B:W28:BK10,K15,9"


def root_scores(board: Board, **kwargs: object) -> dict[str, int]:
    result = Searcher(board.rule_set).run(board.raw_state(), max_depth=4, **kwargs)  # type: ignore[arg-type]
    names = {raw: str(m) for raw, m in _raw_to_moves(board).items()}
    return {names[raw]: score for raw, score in result.scores.items()}


def _raw_to_moves(board: Board) -> dict[tuple, object]:
    out = {}
    state = board.raw_state()
    for raw in generate(*state, board.rule_set):
        for move in board.legal_moves:
            b = board.copy()
            b.push(move)
            if b.raw_state() == apply(*state, raw):
                out[raw] = move
    return out


def test_every_move_scores_a_win_when_far_ahead() -> None:
    scores = root_scores(Board("english", fen=AHEAD))
    assert min(scores.values()) > 150


def test_a_move_back_into_the_game_history_scores_a_draw() -> None:
    board = Board("english", fen=AHEAD)
    after = board.copy()
    after.push_text("15-18")
    scores = root_scores(board, history=[after.raw_state()])
    assert scores["15-18"] == 0
    assert all(s > 150 for m, s in scores.items() if m != "15-18")


def test_the_twentieth_king_ply_scores_a_draw_but_a_man_move_does_not() -> None:
    board = Board("english", fen=AHEAD)
    scores = root_scores(board, king_plies=19)
    man_moves = {"9-13", "9-14"}
    assert set(scores) > man_moves
    for move, score in scores.items():
        if move in man_moves:
            assert score > 150
        else:
            assert score == 0, move


def test_a_forced_win_is_scored_by_its_distance() -> None:
    # 15-18 gives a man; either capture lets the drums take both tires men: the tires
    # are to move with nothing left after exactly three plies.
    board = Board("english", fen="B:W22,23:B6,7,10,15")
    result = Searcher(board.rule_set).run(board.raw_state(), max_depth=6)
    assert result.score == WIN - 3
    assert result.score > MATE_BOUND


def test_the_extensions_see_a_crowning_race_beyond_the_horizon() -> None:
    # Drums men on 2 and 15 against tires men on 17 and 28: 15-19 wins the race to
    # crown, 15-18 only draws (as the endgame tables have it too). At depth 3 only the
    # search that extends crowning threats and runaways finds the move that a 14-ply
    # search proves wins.
    board = Board("english", fen="B:W17,28:B2,15")
    state = board.raw_state()
    with_extensions = Searcher(board.rule_set).run(state, max_depth=3)
    without = Searcher(board.rule_set, extensions=False).run(state, max_depth=3)
    deep = Searcher(board.rule_set).run(state, max_depth=14, margin=3000)
    assert deep.scores[with_extensions.best] > MATE_BOUND  # a forced win
    assert without.best != with_extensions.best
    assert deep.scores[without.best] < MATE_BOUND


# An English middle game (tires to move), the speed bench's "mid 2".
MIDDLE_GAME = "W:W17,20,27,29,30,31:B3,4,6,8,9,15,28"


def test_pruning_searches_fewer_nodes_to_the_same_depth_and_keeps_the_shots() -> None:
    board = Board("english", fen=MIDDLE_GAME)
    plain = Searcher(board.rule_set).run(board.raw_state(), max_depth=11)
    pruned = Searcher(board.rule_set, pruning=True).run(board.raw_state(), max_depth=11)
    assert pruned.depth == plain.depth == 11
    assert pruned.nodes < 0.7 * plain.nodes
    for rule_set, fen, shot in CASES:
        board = Board(rule_set, fen=fen)
        result = Searcher(board.rule_set, pruning=True).run(board.raw_state(), max_depth=8)
        assert str(_raw_to_moves(board)[result.best]) == shot, (rule_set, fen)  # type: ignore[index]


# Black to move, even material, no capture: White's 26 threatens 26x17 over Black's
# advanced man on 22, and each of Black's seven moves loses a man (22-25 to 29x22).
THREATENED = "B:W13,19,21,23,24,26,27,28,29,31,32:B1,2,4,5,6,7,8,9,10,12,22"


def test_a_capture_threat_at_the_horizon_gets_one_more_ply() -> None:
    board = Board("english", fen=THREATENED)
    state = board.raw_state()
    # The row alone: English's pattern table already scores this position some 0.7 men
    # lower than the row does (it sees part of the threat), and what is tested here is
    # the search's extra ply, for an evaluation that does not.
    row = replace(weights_for(board.rule_set), patterns=b"")
    scores = []
    for threats in (False, True):
        searcher = Searcher(board.rule_set, weights=row, threats=threats)
        searcher.extend_below = 8  # as a run of depth 4 sets it
        scores.append(searcher.search(state, 0, -WIN, WIN, 0, 0))
    static, extended = scores
    one_ply = Searcher(board.rule_set, weights=row, extensions=False).search(
        state, 1, -WIN, WIN, 0, 0
    )
    assert extended == one_ply
    assert extended <= static - 80  # the man is lost
