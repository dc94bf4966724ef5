"""Endgame tables: every stored value agrees with the engine's own moves, spot values agree
with published endgame theory, and the Executive converts won endings with them.

Sources of the spot values (read as stored public pages):

- Edward Lasker, *Chess and Checkers: The Way to Mastership* (1918), "Elementary tactics",
  Diagrams 88 and 89 (English checkers, squares in the standard 1-32 numbering). Diagram 88:
  White king 32, Black king 26; White to move wins by 32-27 ("White takes the opposition"),
  Black to move draws by 26-31, gaining the opposition. Diagram 89: White kings 19 and 23,
  Black king 32 in the double corner: "it takes two Kings to force the win", White to move
  wins, 19-24 32-28 23-19 28-32 24-28 ...
- Russian draughts, three kings against one: "if the opponent's king is not on the main
  road, three kings always catch it; from the most awkward position it takes no more than
  13 moves" (jak.bono.odessa.ua, "Три дамки проти однієї"); Petrov's position is white
  kings a1, c1, e1 against a black king on f8, and Timoneda's (1635) the same kings
  against c7, the method catching the king "no later than the thirteenth move"
  (perceptionl.com, "Треугольник Петрова"); in Russian (and Brazilian, Spanish, Pool)
  three kings win only holding the main line, "or your opponent will take it and thereby
  making the game ends in a draw" (boardgamegeek, "Mini Course 1 - Winning with Three
  Kings against One").

The tables of the service hold values under its own draw rule (20 plain king plies); the
theory above knows no such rule, so those spot checks are solved with a horizon long enough
not to matter (``horizon=MAX_HORIZON``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from checkers_engine import Board, Side, get_rule_set
from checkers_engine.ai import egdb, players
from checkers_engine.ai.egdb import LOSS, MAX_HORIZON, Tables, best_move
from checkers_engine.ai.players import game_history, to_move
from checkers_engine.ai.search import Searcher
from checkers_engine.squares import PROMOTION_MASK, SQUARE_BIT

# -- building --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("egdb")


@pytest.fixture(scope="session")
def english3(tables_dir: Path) -> Tables:
    return egdb.build("english", 3, tables_dir)[0]


@pytest.fixture(scope="session")
def russian3(tables_dir: Path) -> Tables:
    return egdb.build("russian", 3, tables_dir)[0]


def _theory(rules: str, chain: dict[int, list[egdb.Slice]]) -> Tables:
    """Only the slices named (each with what it leads to), with no practical draw rule."""
    rule_set = get_rule_set(rules)
    data: dict[egdb.Slice, bytearray] = {}
    for pieces, keys in sorted(chain.items()):
        data.update(egdb.solve(rule_set, pieces, data, horizon=MAX_HORIZON, only=keys))
    return Tables(rule_set, max(chain), data, horizon=MAX_HORIZON)


# -- consistency ----------------------------------------------------------------------


def _positions(tables: Tables) -> Iterator[tuple[int, int, int]]:
    """Every position a table numbers, its side to move moving up (as the drums)."""
    up = [SQUARE_BIT[s] for s in range(1, 33) if not PROMOTION_MASK[0] >> SQUARE_BIT[s] & 1]
    down = [SQUARE_BIT[s] for s in range(1, 33) if not PROMOTION_MASK[1] >> SQUARE_BIT[s] & 1]
    every = [SQUARE_BIT[s] for s in range(1, 33)]
    from itertools import combinations

    for a, b, c, d in tables.data:
        for om in combinations(up, a):
            for pm in combinations(down, c):
                for ok in combinations(every, b):
                    for pk in combinations(every, d):
                        squares = {*om, *pm, *ok, *pk}
                        if len(squares) < a + b + c + d:
                            continue
                        mask = [sum(1 << x for x in g) for g in (om, ok, pm, pk)]
                        yield mask[0] | mask[1], mask[2] | mask[3], mask[1] | mask[3]


def check_consistency(tables: Tables, every: int = 1) -> int:
    """Each stored value against the values after every legal move (the engine's moves),
    by the rule of ``egdb.disagreement``; ``every`` > 1 checks only every so many
    positions. Returns how many positions were checked."""
    checked = 0
    for i, (own, opp, kings) in enumerate(_positions(tables)):
        if i % every:
            continue
        wrong = egdb.disagreement(tables, own, opp, kings)
        assert wrong is None, f"{egdb.position_fen(own, opp, kings)}: {wrong}"
        checked += 1
    return checked


def test_a_wrong_code_is_found(english3: Tables) -> None:
    # King against king stored as a draw everywhere: a king that can take the other
    # wins at once, which the check reads from the moves.
    data = {key: bytearray(table) for key, table in english3.data.items()}
    data[(0, 1, 0, 1)] = bytearray(len(data[(0, 1, 0, 1)]))
    tables = Tables(english3.rules, 3, data)
    kings = Tables(english3.rules, 2, {(0, 1, 0, 1): data[(0, 1, 0, 1)]})
    wrong = {egdb.disagreement(tables, *p) for p in _positions(kings)}
    assert "stored a draw, the moves give a win in 1" in wrong


def test_random_positions_have_the_pieces_asked_for(english3: Tables) -> None:
    positions = list(egdb.sample(english3, 3, 500, seed=7))
    assert len(positions) == 500 and len(set(positions)) > 400
    for own, opp, kings in positions:
        assert (own | opp).bit_count() == 3 and not own & opp and kings & ~(own | opp) == 0
        assert egdb.disagreement(english3, own, opp, kings) is None
    with pytest.raises(egdb.EgdbError):
        next(egdb.sample(english3, 4, 1))


@pytest.mark.parametrize("rules", ["english", "brazilian", "russian", "spanish", "italian", "thai"])
def test_two_piece_tables_agree_with_the_moves(rules: str, tmp_path: Path) -> None:
    tables, _ = egdb.build(rules, 2, tmp_path)
    assert check_consistency(tables) > 3000


def test_english_three_piece_tables_agree_with_the_moves(english3: Tables) -> None:
    # Every third position here; the Russian tables below are checked whole (slow).
    assert check_consistency(english3, every=3) > 190_000 // 3


@pytest.mark.slow
def test_russian_three_piece_tables_agree_with_the_moves(russian3: Tables) -> None:
    assert check_consistency(russian3) > 190_000


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["brazilian", "spanish", "italian", "thai"])
def test_other_three_piece_tables_agree_with_the_moves(rules: str, tables_dir: Path) -> None:
    # Every seventh position, to keep the time down; the two-piece tables are checked whole.
    tables, _ = egdb.build(rules, 3, tables_dir)
    assert check_consistency(tables, every=7) > 190_000 // 7


def test_a_longer_horizon_is_consistent_too() -> None:
    tables = _theory("english", {2: [(0, 1, 0, 1)], 3: [(0, 2, 0, 1)]})
    assert check_consistency(tables) > 30_000


def _played_by_the_tables(tables: Tables, board: Board) -> Board:
    """Both sides play the tables' move until the game ends."""
    while board.outcome() is None and board.ply < 200:
        values = tables.move_values(board.raw_state(), board.king_plies)
        assert values is not None
        board.push(to_move(board, best_move(values)[0]))
    return board


def test_a_won_ending_played_by_the_tables_is_won_not_repeated(english3: Tables) -> None:
    # King and man against king, a win in 1 (the man's move). Ranked by the reply's
    # distance alone, the king's moves (into a loss in 2) came before the man's move
    # (into a loss in 17) every time, and the game went round to a threefold repetition.
    board = Board("english", fen="B:WK14:B1,K2")
    assert english3.probe(board) == egdb.Probe(1, 1)
    values = english3.move_values(board.raw_state())
    assert values is not None
    move, value = best_move(values)
    assert value == egdb.Probe(1, 1) and board.is_irreversible(to_move(board, move))
    outcome = _played_by_the_tables(english3, board).outcome()
    assert outcome is not None and outcome.winner is Side.DRUMS, outcome
    # And every won position of a random sample, each side playing the tables.
    for own, opp, kings in egdb.sample(english3, 3, 150, seed=11):
        code = english3.code(own, opp, kings, 0)
        assert code is not None
        if not code or code >= LOSS:
            continue
        board = Board("english", fen=egdb.position_fen(own, opp, kings))
        outcome = _played_by_the_tables(english3, board).outcome()
        assert outcome is not None and outcome.winner is Side.DRUMS, board.fen()


def test_every_win_distance_fits_the_draw_rule(english3: Tables) -> None:
    for table in english3.data.values():
        assert all(code <= 20 or LOSS <= code <= LOSS + 20 for code in table)


# -- spot values ----------------------------------------------------------------------


def test_lasker_king_against_king_the_move_wins(english3: Tables) -> None:
    # Diagram 88: White (here the tires, "W") king 32, Black king 26.
    assert english3.probe(Board("english", fen="W:WK32:BK26")) == egdb.Probe(1, 9)
    assert english3.probe(Board("english", fen="B:WK32:BK26")) == egdb.Probe(0, 0)


def test_lasker_two_kings_beat_one_in_the_double_corner(english3: Tables) -> None:
    found = english3.probe(Board("english", fen="W:WK19,K23:BK32"))
    assert found is not None and found.wdl == 1
    # Lasker's first moves keep the win: 19-24 32-28 23-19 28-32 24-28.
    board = Board("english", fen="W:WK19,K23:BK32")
    for text in ["19-24", "32-28", "23-19", "28-32", "24-28"]:
        board.push_text(text)
        after = english3.probe(board)
        assert after is not None and after.wdl == (1 if board.turn is Side.TIRES else -1)


def test_two_kings_beat_one_in_english_nearly_everywhere() -> None:
    # "It takes two Kings to force the win": with no draw rule, two kings to move win
    # nearly everywhere (the exceptions: the lone king forks them, or pens them in a
    # corner).
    theory = _theory("english", {2: [(0, 1, 0, 1)], 3: [(0, 2, 0, 1)]})
    wins = draws = 0
    for own, opp, kings in _positions(theory):
        if own.bit_count() != 2:
            continue
        found = theory.probe_state((own, opp, kings, 0))
        assert found is not None and found.wdl >= 0
        if found.wdl:
            wins += 1
            continue
        draws += 1
    assert wins > 100 * draws


@pytest.fixture(scope="module")
def russian_3k1k() -> Tables:
    return _theory("russian", {2: [(0, 1, 0, 1)], 3: [(0, 2, 0, 1)], 4: [(0, 3, 0, 1)]})


def _algebraic(fen_squares: str) -> str:
    from checkers_engine import parse_square

    return ",".join(f"K{parse_square(s)}" for s in fen_squares.split(","))


@pytest.mark.slow
def test_petrov_and_timoneda_three_kings_catch_the_king_off_the_main_road(
    russian_3k1k: Tables,
) -> None:
    for lone in ("f8", "c7"):
        fen = f"W:W{_algebraic('a1,c1,e1')}:B{_algebraic(lone)}"
        found = russian_3k1k.probe(Board("russian", fen=fen))
        # At most 13 moves of the three kings: 25 plies, the capture included.
        assert found is not None and found.wdl == 1 and found.distance <= 25, (lone, found)


@pytest.mark.slow
def test_a_lone_king_on_the_main_road_draws(russian_3k1k: Tables) -> None:
    for lone in ("a1", "h8", "d4"):
        kings = _algebraic("c1,e1,g1")
        fen = f"B:W{kings}:B{_algebraic(lone)}"
        found = russian_3k1k.probe(Board("russian", fen=fen))
        assert found == egdb.Probe(0, 0), (lone, found)


@pytest.mark.slow
def test_under_the_service_rule_some_of_petrov_is_out_of_reach(russian_3k1k: Tables) -> None:
    # The same positions read with 20 plain king plies allowed: a win needing more than
    # 20 plies becomes a draw, which is what the service's tables store.
    long_wins = [c for c in russian_3k1k.data[(0, 3, 0, 1)] if 20 < c < LOSS]
    assert long_wins
    assert egdb.decode(max(long_wins), 0) == egdb.Probe(0, 0)


# -- files, probe, command ------------------------------------------------------------


def test_tables_load_as_built(english3: Tables, tables_dir: Path) -> None:
    loaded = egdb.load("english", 3, tables_dir)
    assert loaded.data == english3.data
    with pytest.raises(egdb.EgdbError):
        egdb.load("english", 4, tables_dir / "nowhere")


def test_a_mapped_table_reads_as_the_compressed_one(english3: Tables, tmp_path: Path) -> None:
    # The five-piece table is stored raw and mapped: the same codes through a view of
    # the file, probed by the same code.
    rules = get_rule_set("english")
    for n in (2, 3):
        part = {k: v for k, v in english3.data.items() if sum(k) == n}
        egdb.save(tmp_path, rules, n, part, mapped=n == 3)
    raw = (tmp_path / "english-3.egdb").read_bytes()
    assert len(raw) > sum(len(v) for k, v in english3.data.items() if sum(k) == 3)
    mapped = egdb.load("english", 3, tmp_path)
    assert all(isinstance(mapped.data[k], memoryview) for k in mapped.data if sum(k) == 3)
    assert mapped.data == english3.data
    board = Board("english", fen="W:WK32:BK26")
    assert mapped.probe(board) == english3.probe(board) == egdb.Probe(1, 9)
    (tmp_path / "english-3.egdb").write_bytes(raw[:-1])
    with pytest.raises(egdb.EgdbError, match="incomplete"):
        egdb.load("english", 3, tmp_path)


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    egdb.build("thai", 2, tmp_path)
    path = tmp_path / "thai-2.egdb"
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(egdb.EgdbError):
        egdb.load("thai", 2, tmp_path)


def test_probe_reads_the_default_directory(
    english3: Tables, tables_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHECKERS_EGDB_DIR", str(tables_dir))
    egdb.forget()
    try:
        board = Board("english", fen="W:WK32:BK26")
        assert egdb.probe(board) == (1, 9)
        # Plain king plies already played count against the win.
        board.king_plies = 12
        assert egdb.probe(board) == (0, 0)
        assert egdb.probe(Board("english")) is None
    finally:
        egdb.forget()


# -- the Executive ----------------------------------------------------------------------


def _play_out(board: Board, attacker: Searcher, defender: Tables, *, nodes: int) -> Board:
    """Play until the game ends: the attacker by its search (a fixed node budget, so the
    game repeats exactly), the defender perfectly (the table's longest resistance)."""
    side = board.turn
    while board.outcome() is None and board.ply < 80:
        if board.turn is side:
            result = attacker.run(
                board.raw_state(),
                node_limit=nodes,
                king_plies=board.king_plies,
                history=game_history(board),
            )
            assert result.best is not None
            raw = result.best
        else:
            values = defender.move_values(board.raw_state(), board.king_plies)
            assert values is not None
            raw = best_move(values)[0]
        board.push(to_move(board, raw))
    return board


def test_the_executive_converts_won_endings_it_draws_without_tables(english3: Tables) -> None:
    rules = english3.rules
    # Wins of 15 to 19 plies to conversion, near the most the draw rule allows: two
    # kings against one far from each other, and a king and a man against a king.
    fens = ["B:WK9:BK2,K22", "B:WK9:BK10,K23", "B:WK27:BK12,K20", "B:WK5:BK3,K15", "B:WK1:B3,K29"]
    drawn_without = 0
    for fen in fens:
        found = english3.probe(Board(rules, fen=fen))
        assert found is not None and found.wdl == 1 and found.distance >= 15, fen
        board = _play_out(
            Board(rules, fen=fen), Searcher(rules, egdb=english3), english3, nodes=2500
        )
        outcome = board.outcome()
        assert outcome is not None and outcome.winner is Side.DRUMS, fen
        board = _play_out(Board(rules, fen=fen), Searcher(rules), english3, nodes=2500)
        outcome = board.outcome()
        assert outcome is not None
        drawn_without += outcome.winner is None
    # The same search without the tables lets most of them run into the draw rule.
    assert drawn_without >= 3


def test_the_search_scores_a_capture_into_the_tables_exactly(english3: Tables) -> None:
    # Four pieces, beyond these tables; the only move takes a king and leaves three.
    board = Board("english", fen="B:WK6,K9:BK1,K2")
    (only,) = board.legal_moves
    assert only.is_capture
    board.push(only)
    after = english3.probe(board)
    board.pop()
    assert after is not None and after.wdl == -1
    state = board.raw_state()
    found = Searcher(board.rule_set, egdb=english3).run(state, max_depth=3, shortcut_forced=False)
    assert found.score == egdb.KNOWN_WIN - after.distance
    plain = Searcher(board.rule_set).run(state, max_depth=3, shortcut_forced=False)
    assert plain.score < egdb.KNOWN_WIN // 2


def test_the_executive_level_uses_built_tables(
    english3: Tables, tables_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHECKERS_EGDB_DIR", str(tables_dir))
    egdb.forget()
    try:
        board = Board("english", fen="W:WK32:BK26")
        # Lasker: "White wins by playing 32-27"; the tables say how: a win in 9, a loss in
        # 8 for Black after it.
        assert players.choose_move(board, "executive", time_limit=0.05).path == (32, 27)
        result = players.analyse(board, "executive", time_limit=0.05)
        assert result.score == egdb.KNOWN_WIN - 9
    finally:
        egdb.forget()
