"""Every level answers legally in every rule set; forced moves are instant; seeds repeat."""

from __future__ import annotations

import ast
import random
import time
from pathlib import Path

import pytest

import checkers_engine.ai
from checkers_engine import RULE_SETS, Board, Side
from checkers_engine.ai import (
    CLEARLY_AHEAD,
    Level,
    NoMoveError,
    Searcher,
    choose_move,
    evaluate_for_draw_offer,
    parse_level,
)
from checkers_engine.ai.search import MATE_BOUND

LEVELS = [level.value for level in Level]


def random_positions(rule_set: str, count: int, seed: int, choices: int = 1) -> list[Board]:
    """Positions reached by random legal play, 4 to 60 plies from the start, with at
    least ``choices`` legal moves."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board(rule_set)
        for _ in range(rng.randint(4, 60)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over() and len(board.legal_moves) >= choices:
            out.append(board)
    return out


@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_every_level_returns_a_legal_move(rule_set: str) -> None:
    for board in random_positions(rule_set, 4, seed=len(rule_set)):
        fen = board.fen()
        for level in LEVELS:
            move = choose_move(board, level, seed=7, time_limit=0.15)
            assert move in board.legal_moves
            assert board.fen() == fen  # the board is left as it was


def test_a_forced_move_is_answered_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    # Drums man c3, tires man d4: the capture 11x18 is the only legal move.
    board = Board("english", fen="B:W15:B11")
    assert len(board.legal_moves) == 1

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched a forced position")

    monkeypatch.setattr(Searcher, "run", no_search)
    for level in LEVELS:
        started = time.perf_counter()
        move = choose_move(board, level, time_limit=5.0)
        assert time.perf_counter() - started < 0.05
        assert str(move) == "11x18"


def test_a_seed_makes_the_fixed_depth_levels_repeatable() -> None:
    for board in random_positions("russian", 3, seed=11, choices=2):
        for level in ("tamer", "driver", "warden"):
            first = choose_move(board, level, seed=42)
            assert all(choose_move(board, level, seed=42) == first for _ in range(2))


def test_the_easy_level_varies_its_play() -> None:
    board = Board("english")
    board.push_text("11-15")
    board.push_text("23-19")
    replies = {str(choose_move(board, "tamer", seed=seed)) for seed in range(30)}
    assert len(replies) >= 3


def test_executive_varies_its_first_moves_with_the_seed() -> None:
    # The book may hold one clearly best first move; the games still part within the
    # first two plies, where it offers near-equal replies.
    lines = set()
    for seed in range(12):
        board = Board("english")
        for _ in range(2):
            board.push(choose_move(board, "executive", seed=seed, time_limit=0.2))
        lines.add(tuple(str(m) for m in board.move_stack))
    assert len(lines) >= 2


def test_the_easy_levels_overlook_long_shots() -> None:
    # After 15-18 in the two-for-one position the tires must capture, and either capture
    # lets the drums take two and leave the tires with nothing. A sighted search sees the
    # loss; a search blind to captures of two or more does not.
    board = Board("english", fen="B:W22,23:B6,7,10,15")
    board.push_text("15-18")
    state = board.raw_state()
    sighted = Searcher(board.rule_set).run(state, max_depth=2, shortcut_forced=False)
    blind = Searcher(board.rule_set, blind=2).run(state, max_depth=2, shortcut_forced=False)
    assert sighted.score < -MATE_BOUND
    assert blind.score > -MATE_BOUND


def test_unknown_level_and_finished_game_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        parse_level("grandmaster")
    assert parse_level("Warden") is Level.WARDEN
    finished = Board("english", fen="B:W15:B11")
    finished.push_text("11x18")
    assert finished.is_game_over()
    with pytest.raises(NoMoveError):
        choose_move(finished, "tamer")
    with pytest.raises(ValueError):
        choose_move(Board(), "tamer", time_limit=0)


def test_draw_offers() -> None:
    # Level material at the start: the computer is not clearly ahead either way.
    start = Board("english")
    assert evaluate_for_draw_offer(start, Side.TIRES, time_limit=0.2)
    assert evaluate_for_draw_offer(start, Side.DRUMS, time_limit=0.2)
    # Three kings against one man: the kings' side declines, the other side accepts.
    ahead = Board("english", fen="W:W5:BK15,K18,K19")
    assert not evaluate_for_draw_offer(ahead, Side.DRUMS, time_limit=0.2)
    assert evaluate_for_draw_offer(ahead, Side.TIRES, time_limit=0.2)
    assert CLEARLY_AHEAD > 0


# Modules that need an optional extra of the engine (engine/pyproject.toml), and its
# packages: nothing that plays imports them.
EXTRAS = {"fitting.py": {"numpy"}}


def test_the_package_imports_only_the_engine() -> None:
    package = Path(checkers_engine.ai.__file__).parent
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                # No module of the package needs an extra through another.
                assert name.rsplit(".", 1)[-1] + ".py" not in EXTRAS, (path.name, name)
                if name.startswith(("app", "checkers_engine")):
                    assert name.startswith(("checkers_engine", "checkers_engine.ai")), (
                        path.name,
                        name,
                    )
                else:
                    allowed = STDLIB | EXTRAS.get(path.name, set())
                    assert name.split(".")[0] in allowed, (path.name, name)


STDLIB = {
    "textwrap",
    "sys",
    "concurrent",
    "argparse",
    "__future__",
    "collections",
    "contextlib",
    "dataclasses",
    "enum",
    "fcntl",
    "itertools",
    "mmap",
    "functools",
    "gc",
    "hashlib",
    "heapq",
    "importlib",
    "json",
    "math",
    "os",
    "pathlib",
    "random",
    "re",
    "time",
    "typing",
    "zlib",
}
