"""The self-play generator behind the evaluation's fit: games from a ballot played by the
Executive's search at a node budget, each quiet position written with the search's score,
the result the game's own, and a run that stops resumes without playing a game twice."""

from __future__ import annotations

import random
from pathlib import Path

from checkers_engine import Board, Side
from checkers_engine.ai import selfplay
from checkers_engine.ai.search import MATE_BOUND
from checkers_engine.movegen import has_capture


def test_a_game_is_its_moves_its_quiet_positions_and_its_result() -> None:
    game = selfplay.play(("english", 7, 300, 6))
    assert game["seed"] == 7
    moves = game["moves"]
    positions = game["positions"]
    assert isinstance(moves, list) and isinstance(positions, list) and len(positions) > 10
    # The game starts from the seed's 3-move ballot.
    ballot = selfplay.opening("english", random.Random(7))
    assert ballot.ply == 3
    assert [str(m) for m in ballot.move_stack] == moves[:3]
    # Replayed move by move, it passes through every position written, in order, each
    # quiet (no capture for the side to move), and ends as recorded.
    board = Board("english")
    written = [tuple(p[:4]) for p in positions]
    found = 0
    for text in moves:
        state = board.raw_state()
        if found < len(written) and state == written[found]:
            assert not has_capture(*state, board.rule_set)
            found += 1
        board.push_text(text)
    assert found == len(written)
    assert all(abs(p[4]) < MATE_BOUND for p in positions)
    outcome = board.outcome()
    if outcome is not None:
        drums = 0.5 if outcome.winner is None else float(outcome.winner is Side.DRUMS)
        assert game["result"] == drums
    else:
        assert game["result"] == 0.5 and "draw after" in str(game["reason"])
    # The same seed plays the same game: the searches are bounded by nodes, not time.
    assert selfplay.play(("english", 7, 300, 6)) == game


def test_a_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    args = ["--games", "2", "--nodes", "200", "--processes", "1", "--out", str(out)]
    assert selfplay.main(args) == 0
    assert [g["seed"] for g in selfplay.read(out)] == [1_000_000, 1_000_001]
    with out.open("a") as f:
        f.write('{"seed": 1000002, "res')  # a line cut short by a stopped run
    assert selfplay.main(["--games", "3", *args[2:]]) == 0
    assert [g["seed"] for g in selfplay.read(out)] == [1_000_000, 1_000_001, 1_000_002]
    assert selfplay.main(["--games", "3", *args[2:]]) == 0
    assert len(list(selfplay.read(out))) == 3, "a finished run plays nothing again"
