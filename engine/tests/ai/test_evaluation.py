"""The evaluation's fitted terms: what the tuner fits is what the search evaluates, both
colours are scored alike, and the pattern terms fire where their definitions say."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from checkers_engine import RULE_SETS, Board
from checkers_engine.ai.evaluation import evaluate, features
from checkers_engine.ai.patterns import SIZE, encode, table_for
from checkers_engine.ai.search import weights_for
from checkers_engine.ai.tuned import ROWS
from checkers_engine.ai.weights import (
    FAMILIES,
    MEN_SQUARES,
    PARAMETERS,
    Weights,
    from_vector,
    to_vector,
)
from checkers_engine.movegen import quiet_moves


def random_boards(rule_set: str, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board(rule_set)
        for _ in range(rng.randint(0, 150)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        out.append(board)
    return out


def every_term(flying: bool, seed: int) -> Weights:
    """A row in which every fitted parameter and every pattern entry is non-zero, so none
    can hide."""
    rng = random.Random(seed)
    values = [rng.choice([-1, 1]) * rng.randint(3, 40) for _ in PARAMETERS]
    values[PARAMETERS.index("king")] = rng.randint(120, 300)
    patterns = encode([rng.choice([-1, 1]) * rng.randint(1, 30) for _ in range(SIZE)])
    return replace(from_vector(flying, values), patterns=patterns)


def test_vector_round_trip() -> None:
    for rules in RULE_SETS.values():
        w = weights_for(rules)
        # The vector is the row; a rule set's pattern table is fitted apart.
        assert from_vector(w.flying, to_vector(w)) == replace(w, patterns=b"")


def test_every_rule_set_has_one_row_of_its_own_kind_of_king() -> None:
    served = [r for members in FAMILIES.values() for r in members]
    assert sorted(served) == sorted(RULE_SETS)
    assert set(ROWS) == set(FAMILIES)
    for family, members in FAMILIES.items():
        assert ROWS[family].patterns == b""
        for r in members:
            w = weights_for(RULE_SETS[r])
            assert replace(w, patterns=b"") == ROWS[family]
            assert w.patterns == table_for(r)
            assert ROWS[family].flying == RULE_SETS[r].flying_kings


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_features_add_up_to_the_evaluation(rule_set: str) -> None:
    rules = RULE_SETS[rule_set]
    for w in (weights_for(rules), every_term(rules.flying_kings, len(rule_set))):
        vector = to_vector(w)
        for board in random_boards(rule_set, 80, seed=len(rule_set)):
            state = board.raw_state()
            values, offset, scale = features(*state, w)
            linear = scale * (offset + sum(a * x for a, x in zip(vector, values, strict=True)))
            # evaluate works in integers: the trading-down bonus and the draw damping
            # each round down once.
            assert abs(evaluate(*state, w) - linear) < 2, board.fen()


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_both_colours_are_scored_alike(rule_set: str) -> None:
    # Turning the board round and swapping the colours (and the side to move) must not
    # change the score for the side to move: every mask has its mirror.
    w = every_term(RULE_SETS[rule_set].flying_kings, 3)
    for board in random_boards(rule_set, 80, seed=7 + len(rule_set)):
        mirrored = board.mirror()
        assert evaluate(*board.raw_state(), w) == evaluate(*mirrored.raw_state(), w)


def term(board: Board, name: str) -> float:
    values, _, _ = features(*board.raw_state(), weights_for(board.rule_set))
    return values[PARAMETERS.index(name)]


def test_the_dog_hole_is_a_man_shut_in_by_the_corner_piece() -> None:
    # Drums man on 28 (a7): its only step is to 32 (b8). With a tires piece on 32 it
    # cannot move, which the rules engine confirms; without it, it can.
    shut = Board("english", fen="B:W32,21:B28,9")
    assert all(m.start != 28 for m in shut.legal_moves)
    assert term(shut, "dog_hole") == 1
    free = Board("english", fen="B:W30,21:B28,9")
    assert any(m.start == 28 for m in free.legal_moves)
    assert term(free, "dog_hole") == 0
    # The same for the tires: a man on 5 (h2) under a drums piece on 1, seen from the
    # side to move (the drums): a minus.
    assert term(Board("english", fen="B:W5,21:B1,9"), "dog_hole") == -1


def test_bridge_and_triangle_count_while_the_opponent_has_no_king() -> None:
    both = Board("english", fen="B:W21,22:B1,2,3,7")
    assert term(both, "bridge") == 1 and term(both, "triangle") == 1
    king = Board("english", fen="B:W21,K22:B1,2,3,7")
    assert term(king, "bridge") == 0 and term(king, "triangle") == 0


def test_opposition_follows_the_counting_rule() -> None:
    # The rule (e.g. Lees' Guide, "the move"): with equal numbers of pieces, count the
    # pieces on the drums' system, the rows 1-4, 9-12, 17-20, 25-28; an odd count gives
    # the side to move the opposition.
    odd = Board("english", fen="B:WK22,K30:BK3,K14")  # 3 is in the system, 14, 22, 30 not
    assert term(odd, "opposition") == 1
    even = Board("english", fen="B:WK20,K30:BK3,K14")  # 3 and 20: two
    assert term(even, "opposition") == -1
    # The same pieces with the other side to move: it is the tires who have it now.
    assert term(Board("english", fen="W:WK22,K30:BK3,K14"), "opposition") == 1
    # Unequal numbers of pieces, or men only: no opposition term.
    assert term(Board("english", fen="B:WK22:BK3,K14"), "opposition") == 0
    assert term(Board("english", fen="B:W22,30:B3,14"), "opposition") == 0


def test_an_opposition_weight_moves_the_score_its_way() -> None:
    w = replace(weights_for(RULE_SETS["english"]), opposition=20)
    odd = Board("english", fen="B:WK22,K30:BK3,K14")
    even = Board("english", fen="B:WK20,K30:BK3,K14")
    base = replace(w, opposition=0)
    assert evaluate(*odd.raw_state(), w) > evaluate(*odd.raw_state(), base)
    assert evaluate(*even.raw_state(), w) < evaluate(*even.raw_state(), base)


@pytest.mark.parametrize("rule_set", ["english", "russian"])
def test_king_mobility_counts_the_squares_the_kings_can_move_to(rule_set: str) -> None:
    # Short kings: the kings' steps, as the move generator lists them. Flying kings: the
    # squares it sends them to along their diagonals, each counted once.
    rules = RULE_SETS[rule_set]
    w = weights_for(rules)
    index = PARAMETERS.index("king_mobility")

    def reach(own: int, opp: int, kings: int, turn: int) -> int:
        moves = [m for m in quiet_moves(own, opp, kings, turn, rules) if kings >> m[0][0] & 1]
        return len({m[0][-1] for m in moves}) if rules.flying_kings else len(moves)

    with_kings = 0
    for board in random_boards(rule_set, 300, seed=11):
        own, opp, kings, turn = board.raw_state()
        values, _, _ = features(own, opp, kings, turn, w)
        expected = reach(own, opp, kings, turn) - reach(opp, own, kings, turn ^ 1)
        assert values[index] == expected, board.fen
        with_kings += bool(kings)
    assert with_kings >= 50


def test_a_mans_square_counts_from_its_own_side_in_the_middle_game() -> None:
    # Twelve pieces: the middle game. A tires man on square s stands where a drums man
    # would on 33 - s: the tires on 24-29 count as the drums' 9, 8, 7, 6, 5 and 4.
    board = Board("english", fen="B:W24,25,26,27,28,29:B1,2,3,4,5,13")
    counts = {s: term(board, f"square[{s}]") for s in MEN_SQUARES}
    expected = dict.fromkeys(MEN_SQUARES, 0)
    expected.update({1: 1, 2: 1, 3: 1, 13: 1, 6: -1, 7: -1, 8: -1, 9: -1})
    assert counts == expected
    # Ten pieces are an ending, where the men's squares do not count.
    ending = Board("english", fen="B:W24,25,26,27,28:B1,2,3,4,13")
    assert all(term(ending, f"square[{s}]") == 0 for s in MEN_SQUARES)
