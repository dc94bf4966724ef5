"""What the engine's matches share: the benchmarks' (``bench/ai_ladder.py``,
``bench/ai_gain.py``) and the self-play generator's (``tools/selfplay.py``). Ballot
openings, a game's end by the rules or by the endgame tables, and a match's record file,
so that the scripts stay command lines and their tests import the package.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from checkers_engine import Board, EngineError, Move, Side
from checkers_engine.ai import Searcher, egdb
from checkers_engine.ai.players import to_move
from checkers_engine.ai.search import State
from checkers_engine.movegen import RawMove

# A match's game still going after this many plies is adjudicated a draw.
MAX_PLIES = 400


def read_ballots(path: Path) -> list[tuple[str, ...]]:
    """The deck openings of a ballot file (the engine's ``data/english-3move-ballots.txt``):
    ``number | moves | deck/defunct | FEN`` lines, ``#`` comments."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) >= 3 and fields[2] == "deck":
            out.append(tuple(fields[1].split()))
    return out


def push_ballot_move(board: Board, text: str) -> Move:
    """Play a ballot move. Ballot lists write captures with a dash too (``13-22``), so a
    move is found by its start and end squares when the text is not a legal move as is."""
    try:
        return board.push_text(text)
    except EngineError:
        parts = re.split(r"[-x:]", text.strip())
        start, end = int(parts[0]), int(parts[-1])
        matches = [m for m in board.legal_moves if (m.start, m.end) == (start, end)]
        if len(matches) != 1:
            raise
        board.push(matches[0])
        return matches[0]


def ruled(board: Board) -> tuple[float, str] | None:
    """The drums' score and the reason when the rules have ended the game, else None."""
    outcome = board.outcome()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else float(outcome.winner is Side.DRUMS), outcome.reason


def adjudicate(board: Board) -> tuple[float, str] | None:
    """The drums' score when the endgame tables hold the position, else None."""
    found = egdb.probe(board)
    if found is None:
        return None
    wdl = found[0]
    if wdl == 0:
        return 0.5, "endgame tables: draw"
    mover_wins = wdl > 0
    drums_win = mover_wins == (board.turn is Side.DRUMS)
    return (1.0 if drums_win else 0.0), "endgame tables: won"


def engine_digest(root: Path) -> str:
    """A digest of the sources that decide how this checkout's Executive plays: the engine's
    package (``root`` is the engine's folder), the rules and the AI with its books and
    fitted weights."""
    digest = hashlib.sha256()
    for folder in ("src/checkers_engine",):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".json"):
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def read_record(path: Path, match: dict[str, object]) -> dict[int, dict[str, Any]]:
    """The games already in a record of this match, by index (none for a new file).

    Raises ValueError for a record of another match, naming what differs."""
    if not path.exists() or not path.stat().st_size:
        return {}
    lines = path.read_text().splitlines()
    header = json.loads(lines[0]).get("match", {})
    differ = sorted(k for k in match.keys() | header.keys() if header.get(k) != match.get(k))
    if differ:
        raise ValueError(
            f"{path} records another match (it differs in {', '.join(differ)}); "
            "give a new file to start this one"
        )
    done: dict[int, dict[str, Any]] = {}
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when a run was stopped: that game is played again
        done[int(entry["game"])] = entry
    return done


def random_openings(rule_set: str, count: int, seed: int) -> list[tuple[str, ...]]:
    """Distinct random four-ply openings that a depth-6 search scores within 0.3 men."""
    rng = random.Random(seed)
    return _openings(rule_set, count, lambda board: rng.choice(board.legal_moves), 6, 30)


BALANCED_PICK = 40
"""``balanced_openings``: each ply is one of the moves within this many hundredths of a
man of the best at depth ``_PICK_DEPTH``."""
_PICK_DEPTH = 8


def balanced_openings(
    rule_set: str, count: int, seed: int, depth: int, within: int = 25
) -> list[tuple[str, ...]]:
    """Distinct four-ply openings of plausible moves (each within ``BALANCED_PICK`` of the
    best at depth 8) that a depth-``depth`` search scores within ``within`` hundredths
    of a man: stricter than ``random_openings``, whose depth-6 check lets through openings
    one colour wins whoever plays it, which pulls every score towards 50%."""
    rng = random.Random(seed)
    near_by_position: dict[State, list[RawMove]] = {}  # the early plies meet the same ones

    def pick(board: Board) -> Move:
        position = board.raw_state()
        near = near_by_position.get(position)
        if near is None:
            result = Searcher(board.rule_set).run(
                position, max_depth=_PICK_DEPTH, margin=BALANCED_PICK
            )
            floor = result.score - BALANCED_PICK
            near = sorted(m for m, score in result.scores.items() if score >= floor)
            near_by_position[position] = near
        return to_move(board, rng.choice(near))

    return _openings(rule_set, count, pick, depth, within)


def _openings(
    rule_set: str, count: int, pick: Callable[[Board], Move], depth: int, within: int
) -> list[tuple[str, ...]]:
    """Up to ``count`` distinct four-ply openings of ``pick``'s moves that a depth-``depth``
    search scores within ``within`` hundredths of a man (``count`` * 50 tries at most)."""
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    tries = 0
    while len(out) < count and tries < count * 50:
        tries += 1
        board = Board(rule_set)
        moves = []
        for _ in range(4):
            move = pick(board)
            moves.append(str(move))
            board.push(move)
        key = tuple(moves)
        if key in seen or board.is_game_over():
            continue
        seen.add(key)
        result = Searcher(board.rule_set).run(board.raw_state(), max_depth=depth)
        if abs(result.score) <= within:
            out.append(key)
    return out
