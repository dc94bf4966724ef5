"""The transposition table that outlives a search, and the search's use of its clock."""

from __future__ import annotations

import itertools
import time

import pytest

from checkers_engine import Board
from checkers_engine.ai import PROFILES, Level, Searcher, analyse, choose_move
from checkers_engine.ai import players as players_module
from checkers_engine.ai.players import GAME_TABLES, game_table
from checkers_engine.ai.search import (
    EASY_FROM,
    EASY_MARGIN,
    MATE_BOUND,
    NORMAL_SHARE,
    SCORE_DROP,
    WAYS,
    WIN,
    SearchResult,
    TranspositionTable,
)
from checkers_engine.movegen import generate

EXACT, LOWER, UPPER = 0, 1, 2


def states(n: int) -> list[tuple[int, int, int, int]]:
    """Distinct positions (any bit patterns do: the table only keys on them)."""
    return [(1 << (i % 30), 1 << 31 | i, 0, i % 2) for i in range(n)]


def test_a_full_bucket_gives_up_its_shallowest_entry() -> None:
    table = TranspositionTable(buckets=1)  # every position lands in the one bucket
    first, second, third, fourth, newcomer = states(5)
    for state, depth in ((first, 5), (second, 2), (third, 7), (fourth, 4)):
        table.store(state, depth, EXACT, 10, None)
    assert len(table) == WAYS
    table.store(newcomer, 1, EXACT, 20, None)
    assert table.probe(second) is None  # the shallowest went
    assert table.probe(newcomer) == (1, EXACT, 20, None)  # the newest always enters
    for state, depth in ((first, 5), (third, 7), (fourth, 4)):
        entry = table.probe(state)
        assert entry is not None and entry[0] == depth
    assert len(table) == WAYS


def test_the_same_position_keeps_its_deeper_result() -> None:
    table = TranspositionTable(buckets=1)
    (state,) = states(1)
    move = ((9, 14), 0, False)
    table.store(state, 6, LOWER, 50, move)
    table.store(state, 3, LOWER, -20, None)  # shallower bound: ignored
    assert table.probe(state) == (6, LOWER, 50, move)
    table.store(state, 2, EXACT, 30, None)  # an exact score replaces, keeping the move
    assert table.probe(state) == (2, EXACT, 30, move)
    table.new_search()
    table.store(state, 1, LOWER, 5, None)  # a newer search's result replaces
    assert table.probe(state) == (1, LOWER, 5, move)


def test_entries_of_earlier_searches_give_way_to_newer_ones() -> None:
    table = TranspositionTable(buckets=1)
    old = states(WAYS + 2)
    for state in old[:WAYS]:
        table.store(state, 6, EXACT, 0, None)
    for _ in range(4):  # four moves later, a depth-6 entry counts as 6 - 4 * AGE_WEIGHT
        table.new_search()
    table.store(old[WAYS], 1, EXACT, 0, None)
    table.store(old[WAYS + 1], 1, EXACT, 0, None)
    # The second newcomer displaced an old deep entry, not the first newcomer.
    assert table.probe(old[WAYS]) is not None
    assert table.probe(old[WAYS + 1]) is not None
    assert sum(table.probe(s) is not None for s in old[:WAYS]) == WAYS - 2


def test_an_entry_keeps_its_extreme_values() -> None:
    """Depths below zero (captures played out past the horizon), won and lost scores with
    their plies, every bound: an entry reads back as it was stored, however many searches
    the table has seen."""
    table = TranspositionTable(buckets=101)
    move = ((9, 14, 23), 0b1010, True)
    cases = [
        (-120, UPPER, -(WIN + 1) - 120),
        (-1, LOWER, WIN - 3),
        (0, EXACT, 0),
        (64, EXACT, -MATE_BOUND),
        (127, UPPER, WIN + 1 + 120),
    ]
    for _ in range(70_000):  # past the 16 bits of the search's number
        table.new_search()
    for state, (depth, flag, score) in zip(states(len(cases)), cases, strict=True):
        table.store(state, depth, flag, score, move)
        assert table.probe(state) == (depth, flag, score, move)


def test_the_table_never_outgrows_its_size() -> None:
    table = TranspositionTable(buckets=7)
    for i, state in enumerate(states(500)):
        table.store(state, i % 9, EXACT, i, None)
    assert len(table) == 7 * WAYS
    assert len(table.keys) == 7 * WAYS


def test_executive_keeps_its_table_from_one_move_of_a_game_to_the_next() -> None:
    game = ("room-table-test", 1, "drums")
    # The start less one man: out of the opening book, so Executive searches.
    board = Board("english", fen="B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11")
    board.push_text("11-15")
    board.push_text("23-19")
    choose_move(board, Level.EXECUTIVE, time_limit=0.3, game=game)
    table = game_table((game, "english"))
    learned = len(table)
    generation = table.generation
    assert learned > 1000
    board.push(choose_move(board, Level.EXECUTIVE, time_limit=0.3, game=game))
    for reply in board.legal_moves:  # a reply after which Executive has a choice
        board.push(reply)
        if len(board.legal_moves) > 1:
            break
        board.pop()
    # Two plies on, the new root is a position the last search already looked at.
    assert table.probe(board.raw_state()) is not None
    choose_move(board, Level.EXECUTIVE, time_limit=0.3, game=game)
    assert game_table((game, "english")) is table
    assert table.generation == generation + 2
    assert len(table) >= learned  # nothing was cleared


def test_a_process_keeps_the_tables_of_a_few_games_only() -> None:
    players_module._tables.clear()
    tables = [game_table(("room", n)) for n in range(GAME_TABLES + 1)]
    assert len(players_module._tables) == GAME_TABLES
    assert game_table(("room", GAME_TABLES)) is tables[-1]
    assert game_table(("room", 0)) is not tables[0]  # the oldest was dropped


def test_the_levels_below_executive_start_afresh_every_move() -> None:
    board = Board("russian")
    before = len(players_module._tables)
    analyse(board, Level.WARDEN, game=("room-fresh", 1, "tires"))
    assert len(players_module._tables) == before


def test_a_single_legal_move_is_returned_at_once() -> None:
    board = Board("english", fen="B:W15:B11")  # the capture 11x18 is forced
    started = time.perf_counter()
    result = Searcher(board.rule_set).run(board.raw_state(), time_limit=5.0, managed_time=True)
    assert time.perf_counter() - started < 0.05
    assert result.stop == "forced"
    assert result.nodes == 0
    assert result.best == generate(*board.raw_state(), board.rule_set)[0]


class VirtualClock:
    """A clock that moves by a fixed step each time it is read. The search reads it every
    1,024 nodes, so time becomes a count of nodes and a managed search stops at the same
    node on any machine and either build, however loaded (a real clock made these tests
    depend on where an iteration happened to end)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def search_clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    # Not the suite's ``clock`` (the service's wall time): this one is the search's timer.
    virtual = VirtualClock(0.005)  # about 200,000 nodes a second, as the pure build
    monkeypatch.setattr(time, "perf_counter", virtual)
    return virtual


def test_the_search_stops_early_when_one_move_is_clearly_best(search_clock: VirtualClock) -> None:
    # Drums men on 15 and 24 against a tires man on 19: one move wins the lone man.
    board = Board("english", fen="B:W19:B15,24")
    fixed = Searcher(board.rule_set).run(board.raw_state(), max_depth=8, margin=10_000)
    ranked = sorted(fixed.scores.values(), reverse=True)
    assert ranked[0] - ranked[1] > EASY_MARGIN  # the premise, from a fixed-depth search
    budget = 1.0
    result = Searcher(board.rule_set).run(board.raw_state(), time_limit=budget, managed_time=True)
    assert result.stop == "clearly best"
    # Not before three quarters of the budget (a shallow verification can be wrong), nor
    # after the normal stop.
    assert budget * EASY_FROM <= result.elapsed < budget * NORMAL_SHARE
    assert result.best == fixed.best


def test_warden_searches_the_same_node_budget_whatever_the_time() -> None:
    board = Board("russian", fen="W:W12,18,22,23,24,26,28,30,32:B1,4,6,7,9,11,14,15,21")
    budget = PROFILES[Level.WARDEN].node_limit
    assert budget is not None
    short = analyse(board, Level.WARDEN, time_limit=0.01)
    long = analyse(board, Level.WARDEN, time_limit=30.0)
    assert short.nodes == long.nodes <= budget
    assert short.stop in ("nodes", "depth")
    assert (short.best, short.score, short.depth, short.scores) == (
        long.best,
        long.score,
        long.depth,
        long.scores,
    )


def _managed(rule_set: str, fen: str | None, budget: float) -> tuple[SearchResult, list[int]]:
    board = Board(rule_set, fen=fen)
    scores: list[int] = []
    result = Searcher(board.rule_set).run(
        board.raw_state(),
        time_limit=budget,
        managed_time=True,
        on_iteration=lambda r: scores.append(r.score),
    )
    return result, scores


def _dropped(scores: list[int]) -> bool:
    return any(b <= a - SCORE_DROP for a, b in itertools.pairwise(scores))


def test_a_managed_search_stops_at_its_normal_share_of_the_budget(
    search_clock: VirtualClock,
) -> None:
    budget = 0.6
    result, scores = _managed("english", None, budget)
    assert not _dropped(scores)  # the start position: the score stays level
    assert result.stop == "time"
    assert not result.extended
    assert NORMAL_SHARE * budget <= result.elapsed < NORMAL_SHARE * budget + 2 * search_clock.step


def test_a_score_drop_lets_the_search_use_its_whole_budget(search_clock: VirtualClock) -> None:
    budget = 0.6
    # A Russian middle game whose score falls between iterations, with no move clearly best.
    result, scores = _managed("russian", "W:W24,27,29,30,31,32:B1,2,4,14,17,20", budget)
    assert _dropped(scores)
    assert result.stop == "time"
    assert result.extended
    # Past the normal share, to the end of the budget.
    assert budget <= result.elapsed < budget + 2 * search_clock.step


def test_a_score_is_not_reused_at_another_count_of_plain_king_plies() -> None:
    """After 19 plain king plies every king move reaches the twentieth: a draw (the rule
    in rules.md), whatever the same position scored with the count at 0."""
    board = Board("english", fen="B:WK32:BK5,K6,K7")  # three kings against one, no capture
    state = board.raw_state()
    assert all(not m[1] and state[2] >> m[0][0] & 1 for m in generate(*state, board.rule_set))
    inf = 1 << 30
    searcher = Searcher(board.rule_set)
    ahead = searcher.search(state, 4, -inf, inf, 1, 0)
    assert ahead > 0  # three kings against one: clearly ahead
    # The same searcher, its table holding that score, now at 19 plies.
    assert searcher.search(state, 4, -inf, inf, 1, 19) == 0
    assert Searcher(board.rule_set).search(state, 4, -inf, inf, 1, 19) == 0
    # And back at 0 the stored score still serves.
    assert searcher.search(state, 4, -inf, inf, 1, 0) == ahead
