"""What the engine's matches share: the benchmarks' (``bench/ai_ladder.py``,
``bench/ai_gain.py``) and the self-play generator's (``tools/selfplay.py``). Ballot
openings, a game's end by the rules or by the endgame tables, and a match's record file,
so that the scripts stay command lines and their tests import the package.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from checkers_engine import Board, EngineError, Move, Side
from checkers_engine.ai import egdb


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
