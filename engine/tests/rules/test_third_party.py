"""Exported games replayed by other tools: pydraughts (English, Russian, Brazilian,
Italian) and py-draughts (Russian, Brazilian).

Both tools install a package named ``draughts``, so they cannot share an environment:
py-draughts is a test extra of the project's own virtualenv, and pydraughts (the
``test-pydraughts`` extra) gets a virtualenv of its own, built here on first use under
``.venv/pydraughts`` (or ``PYDRAUGHTS_VENV``) and run in a subprocess.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from checkers_engine import Board, Colour, Move, Side, Termination, fen, notation
from checkers_engine.pdn import GameRecord, read_games, write_game

ENGINE = Path(__file__).resolve().parents[2]
# The repository's root: its pyproject.toml holds the test-pydraughts extra, its .venv the
# side virtualenv.
ROOT = Path(__file__).resolve().parents[3]
HARNESS = Path(__file__).with_name("tools") / "pydraughts_replay.py"
VENV = Path(os.environ.get("PYDRAUGHTS_VENV", ROOT / ".venv" / "pydraughts"))
DATA = ENGINE / "data"

PYDRAUGHTS_RULE_SETS = ("english", "russian", "brazilian", "italian")
PY_DRAUGHTS_RULE_SETS = ("russian", "brazilian")
KINDS = ("natural end", "drums resign", "tires resign", "agreed draw", "from a position")


@pytest.fixture(scope="session")
def pydraughts_python() -> Iterator[Path]:
    """The Python of a virtualenv holding the ``test-pydraughts`` extra."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    requirements = extras["test-pydraughts"]
    python = VENV / "bin" / "python"
    stamp = VENV / "requirements.txt"
    VENV.parent.mkdir(parents=True, exist_ok=True)
    with open(VENV.parent / f"{VENV.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # xdist workers build it once
        if not (python.exists() and stamp.exists() and stamp.read_text() == str(requirements)):
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
            subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", *requirements],
                check=True,
                timeout=600,
            )
            stamp.write_text(str(requirements))
    yield python


def _pydraughts(python: Path, request: object) -> object:
    done = subprocess.run(
        [str(python), "-I", str(HARNESS)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=VENV,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@dataclass(frozen=True)
class Exported:
    rule_set: str
    kind: str
    moves: tuple[Move, ...]
    winner: Side | None
    #: The engine's own FEN after the last move.
    final_fen: str
    pdn: str


def _play(board: Board, rng: random.Random, plies: int) -> list[Move]:
    out = []
    while len(out) < plies and not board.is_game_over():
        move = rng.choice(board.legal_moves)
        board.push(move)
        out.append(move)
    return out


def _natural_end(rule_set: str) -> tuple[Board, list[Move]]:
    """A random game that the rules end with a win (no pieces or no move left)."""
    for seed in range(500):
        board = Board(rule_set)
        moves = _play(board, random.Random(seed), 400)
        outcome = board.outcome()
        if outcome is not None and outcome.termination in (
            Termination.NO_PIECES,
            Termination.NO_MOVES,
        ):
            return board, moves
    pytest.fail(f"no random {rule_set} game ended with a win")


def _export(rule_set: str, kind: str) -> Exported:
    start_fen = None
    if kind == "natural end":
        board, moves = _natural_end(rule_set)
        outcome = board.outcome()
        assert outcome is not None
        winner, termination, comment = outcome.winner, "normal", outcome.detail
    else:
        for seed in range(100):  # a game still in progress after 30 more plies
            rng = random.Random(seed)
            board = Board(rule_set)
            if kind == "from a position":
                # The first mover to move: pydraughts 0.6.7 repeats the first move of a
                # game whose FEN starts with B (its PDNReader).
                _play(board, rng, 10)
                start_fen = board.fen()
                board = Board(rule_set, fen=start_fen)
            moves = _play(board, rng, 30)
            if not board.is_game_over():
                break
        assert not board.is_game_over()
        winner, termination, comment = {
            "drums resign": (Side.TIRES, "resignation", "drums resigned"),
            "tires resign": (Side.DRUMS, "resignation", "tires resigned"),
            "agreed draw": (None, "agreement", "agreed by both players"),
            "from a position": (Side.DRUMS, "resignation", "tires resigned"),
        }[kind]
    record = GameRecord(
        rule_set,
        moves,
        finished=True,
        winner=winner,
        drums_player="first",
        tires_player="second",
        start_fen=start_fen,
        termination=termination,
        comment=comment,
    )
    return Exported(rule_set, kind, tuple(moves), winner, board.fen(), write_game(record))


def _named_by_result(result: str) -> Side | None:
    """The winner a Result names in CheckerBoard's convention (the first mover's score
    first, in every GameType)."""
    return {"1-0": Side.DRUMS, "0-1": Side.TIRES, "1/2-1/2": None}[result]


def _exports(rule_sets: tuple[str, ...], kinds: tuple[str, ...]) -> list[Exported]:
    return [_export(r, k) for r in rule_sets for k in kinds]


@pytest.mark.one_build  # the time goes to pydraughts, in its own process
def test_pydraughts_replays_every_exported_game(pydraughts_python: Path) -> None:
    kinds = {r: KINDS if r in ("russian", "brazilian") else KINDS[:4] for r in PYDRAUGHTS_RULE_SETS}
    games = [_export(r, k) for r in PYDRAUGHTS_RULE_SETS for k in kinds[r]]
    answers = _pydraughts(
        pydraughts_python, {"games": [{"variant": g.rule_set, "pdn": g.pdn} for g in games]}
    )
    assert isinstance(answers, list) and len(answers) == len(games)
    for game, answer in zip(games, answers, strict=True):
        label = f"{game.rule_set}, {game.kind}"
        assert answer["error"] is None, (label, answer["error"], game.pdn)
        assert answer["read"] == answer["played"] == len(game.moves), label
        # The same final position, read back from pydraughts' own FEN of it.
        theirs = Board.from_position(fen.read(game.rule_set, answer["fen"]))
        assert theirs.fen() == game.final_fen, label
        # The winner the Result tag names, read in CheckerBoard's convention, is ours.
        assert _named_by_result(answer["result"]) == game.winner, label
        trad = notation.tradition(game.rule_set)
        if trad.first_mover is Colour.WHITE:
            # pydraughts counts the first score as White's: the same reading here.
            white_won = {"1-0": True, "0-1": False}.get(answer["result"])
            if white_won is not None:
                assert trad.side(Colour.WHITE if white_won else Colour.BLACK) == game.winner
        if game.kind == "natural end":
            # pydraughts' own verdict on the final position: 2 White won, 1 Black won.
            colour = {2: Colour.WHITE, 1: Colour.BLACK}[answer["winner"]]
            assert trad.side(colour) == game.winner, label


@pytest.mark.parametrize("rule_set", PY_DRAUGHTS_RULE_SETS)
def test_py_draughts_replays_every_exported_game(rule_set: str) -> None:
    from loguru import logger

    logger.disable("draughts")
    if rule_set == "russian":
        from draughts.boards.russian import Board as ToolBoard
    else:
        from draughts.boards.brazilian import Board as ToolBoard
    for game in _exports((rule_set,), KINDS):
        label = f"{rule_set}, {game.kind}"
        tool = ToolBoard.from_pdn(game.pdn)  # raises ValueError on a move it cannot play
        theirs = Board.from_position(fen.read(rule_set, tool.fen))
        assert theirs.fen() == game.final_fen, label
        (parsed,) = read_games(game.pdn)
        # py-draughts' results: "1-0" White wins; White moves first in these traditions.
        result = parsed.tag("Result")
        assert result is not None
        assert _named_by_result(result) == game.winner, label
        if game.kind == "natural end":
            assert tool.game_over, label
            expected = "1-0" if game.winner is Side.DRUMS else "0-1"
            assert tool.result == expected, label


def test_py_draughts_names_the_squares_as_the_notation_does() -> None:
    from draughts.boards.russian import Board as ToolBoard

    # py-draughts' square i + 1 (its numeric notation) is named SQUARE_NAMES[i].
    for index, name in enumerate(ToolBoard.SQUARE_NAMES):
        square = notation.parse_square("russian", name)
        assert notation.square_number("russian", square) == index + 1


@pytest.mark.one_build  # the time goes to pydraughts, in its own process
def test_pydraughts_drops_moves_that_the_reader_keeps(pydraughts_python: Path) -> None:
    path = DATA / "tinsley.pdn"
    if not path.is_file():
        pytest.fail(f"{path} is missing (data/README.md says where it comes from)")
    text = path.read_text(encoding="ascii")
    ours = [len(g.moves) for g in read_games(text)]
    theirs = _pydraughts(pydraughts_python, {"count": text})
    assert isinstance(theirs, list) and len(theirs) == len(ours) == 724
    dropped = [n for n, (o, t) in enumerate(zip(ours, theirs, strict=True), 1) if o != t]
    # pydraughts loses the last move of each game whose last move has no number.
    assert all(ours[n - 1] == theirs[n - 1] + 1 for n in dropped)
    assert len(dropped) == 386


def _with_variations(rule_set: str, seed: int) -> tuple[tuple[Move, ...], str]:
    """A game of 24 plies with a variation at every fourth ply and comments between the
    moves (a player's own copy of a game), as the writer writes it."""
    rng = random.Random(seed)
    board = Board(rule_set)
    moves = _play(board, rng, 24)
    replay = Board(rule_set)
    variations: dict[int, list[list[Move]]] = {}
    for ply, move in enumerate(moves):
        if ply % 4 == 1:
            variations[ply] = [_play(replay.copy(), rng, 5)]
        replay.push(move)
    record = GameRecord(
        rule_set,
        moves,
        finished=True,
        winner=Side.DRUMS,
        termination="resignation",
        comment="tires resigned",
        first_comment="a friendly game",
        move_comments=[f"thought {i}" if i % 3 == 0 else None for i in range(len(moves))],
        variations=variations,
    )
    return tuple(moves), write_game(record)


@pytest.mark.one_build  # the time goes to pydraughts, in its own process
def test_pydraughts_replays_the_main_line_of_a_game_with_variations_and_comments(
    pydraughts_python: Path,
) -> None:
    games = [(r, *_with_variations(r, seed)) for r in PYDRAUGHTS_RULE_SETS for seed in (1, 2)]
    answers = _pydraughts(
        pydraughts_python, {"games": [{"variant": r, "pdn": text} for r, _, text in games]}
    )
    assert isinstance(answers, list)
    for (rule_set, moves, text), answer in zip(games, answers, strict=True):
        assert "(" in text and "{thought 0}" in text
        assert answer["error"] is None, (rule_set, answer["error"], text)
        assert answer["read"] == answer["played"] == len(moves), (rule_set, answer, text)
