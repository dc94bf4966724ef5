"""Strength gained: this checkout's Executive against the Executive of an earlier commit.

The earlier Executive is installed from a git ref (a tag or a commit; by default
`executive-before-17`, main before the engine work of issue 17, commit bce1e08) into a side
virtualenv kept under `~/.cache/checkers/side/` and plays from its own process: each of
its moves is asked for over a pipe, given the rule set and the moves so far, and answered
with the move's start, end and captured squares. Both sides get the same time a move.

English plays the 3-move ballot deck (the first `--limit` openings), the other rule sets
random balanced four-ply openings (`--games`; `--balanced DEPTH` for stricter ones), each
opening twice with the colours swapped. A game ends by the rules, or is adjudicated from
the endgame tables once their pieces are left (both Executives play such endings from
there, and the earlier one cannot convert them within the draw rule: counting its won
tables as won favours it), or drawn at `ai_ladder.MAX_PLIES`. Prints wins, draws, losses,
score and Elo with its 95% interval, the time a move and the game count.

With `--record FILE` every finished game is appended to FILE as it ends, after a first
line that names the match: rule set, openings, time, rival, tables, build and a digest of
this checkout's engine and AI sources (not the processes: each game has a core of its own
while they are no more than the cores). Run again with the same FILE and arguments, the
match resumes: recorded games are kept and only the others are played, so a long match
(200 games at 2 s a move are hours) can be spread over several runs; a FILE of another
match, or of other sources, is refused.

    python bench/ai_gain.py --rule-set english --limit 100 --time 0.2
    python bench/ai_gain.py --rule-set russian --games 50 --time 0.2
    python bench/ai_gain.py --rule-set russian --games 100 --balanced 12 --time 0.2
    python bench/ai_gain.py --versus py-draughts --limit 50 --time 0.2
    python bench/ai_gain.py --rule-set english --limit 100 --time 2 --record english-2s.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai_ladder import (  # bench/ is the script's own directory
    BALLOTS,
    MAX_PLIES,
    PYDRAUGHTS,
    PyDraughts,
    balanced_openings,
    progress,
    random_openings,
    summarise,
)

ROOT = Path(__file__).resolve().parent.parent  # the engine's folder
REPO = Path(__file__).resolve().parents[2]  # the repository, whose history holds the baseline

from checkers_engine import RULE_SETS, Board, Move, Side  # noqa: E402
from checkers_engine.ai import Level, choose_move, egdb  # noqa: E402
from checkers_engine.ai.matches import (  # noqa: E402
    adjudicate,
    engine_digest,
    push_ballot_move,
    read_ballots,
    read_record,
    ruled,
)
from checkers_engine.build import build_info  # noqa: E402

BASELINE = "executive-before-17"
BASELINE_COMMIT = "bce1e08"  # the same commit, for a clone without the tag
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "checkers" / "side"

# Run by the side virtualenv's Python, away from this checkout: one JSON request a line
# ({"rule_set", "moves": [[start, end, [captured...]], ...], "time", "seed", "game"}), one JSON
# answer a line ([start, end, [captured...]]).
DRIVER = """
import inspect, json, sys
try:
    from checkers_engine.ai import choose_move
    from checkers_engine import Board
except ImportError:  # a commit from before the engine was a distribution of its own
    from checkers_engine.ai import choose_move
    from checkers_engine import Board

per_game = "game" in inspect.signature(choose_move).parameters  # a table kept per game

def key(move):
    return [move.path[0], move.path[-1], sorted(move.captured)]

for line in sys.stdin:
    ask = json.loads(line)
    board = Board(ask["rule_set"])
    for played in ask["moves"]:
        board.push(next(m for m in board.legal_moves if key(m) == played))
    extra = {"game": ask["game"]} if per_game else {}
    move = choose_move(board, "executive", seed=ask["seed"], time_limit=ask["time"], **extra)
    print(json.dumps(key(move)), flush=True)
"""


def move_key(move: Move) -> list[object]:
    return [move.path[0], move.path[-1], sorted(move.captured)]


def commit_of(ref: str | None) -> tuple[str, str]:
    """The ref named (the default tag, or its commit in a clone without the tag) and its
    commit."""
    named = ref or BASELINE
    try:
        return named, _git("rev-parse", "--verify", f"{named}^{{commit}}")
    except subprocess.CalledProcessError:
        if ref:
            raise
        return BASELINE_COMMIT, _git("rev-parse", "--verify", f"{BASELINE_COMMIT}^{{commit}}")


def side_python(ref: str, commit: str, compiled: bool = False) -> Path:
    """The side virtualenv's Python with `commit`'s package installed (made once), pure
    Python unless ``compiled`` (the earlier Executive as it ran; an A/B of two compiled
    builds wants both compiled)."""
    home = CACHE / (commit[:12] + ("-compiled" if compiled else ""))
    python = home / "venv" / "bin" / "python"
    stamp = home / "installed"
    if stamp.exists():
        return python
    source = home / "src"
    source.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", commit], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    sys.stderr.write(f"installing {ref} ({commit[:12]}) into {home / 'venv'}\n")
    # The engine alone where the commit has it as a distribution of its own (engine/);
    # before that, the whole service, which held it.
    package = source / "engine" if (source / "engine" / "pyproject.toml").exists() else source
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(package)],
        check=True,
        env={**os.environ, "CHECKERS_PURE_PYTHON": "0" if compiled else "1"},
    )
    stamp.write_text(commit + "\n")
    return python


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


class Baseline:
    """The earlier Executive's process, one per worker."""

    def __init__(self, python: Path) -> None:
        self.process = subprocess.Popen(
            [str(python), "-c", DRIVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(CACHE),  # not this checkout: its `app` would shadow the installed one
            env={**os.environ, "PYTHONPATH": ""},
        )

    def choose(
        self, board: Board, played: list[list[object]], time_limit: float, seed: int, game: int
    ) -> Move:
        assert self.process.stdin is not None and self.process.stdout is not None
        ask = {
            "rule_set": board.rule_set.key,
            "moves": played,
            "time": time_limit,
            "seed": seed,
            "game": game,
        }
        self.process.stdin.write(json.dumps(ask) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return next(m for m in board.legal_moves if move_key(m) == answer)


_BASELINE: Baseline | None = None


def _start_worker(python: str | None) -> None:
    global _BASELINE
    if python is not None:
        _BASELINE = Baseline(Path(python))


@dataclass(frozen=True)
class Game:
    rule_set: str
    opening: tuple[str, ...]
    new_drums: bool  # this checkout's Executive plays the side that moves first
    rival: str  # "baseline" or py-draughts
    time_limit: float
    seed: int


def play(game: Game) -> tuple[float, int, str, list[str]]:
    """One game; returns this checkout's score (1, 0.5, 0), the plies, the reason and the
    moves."""
    board = Board(game.rule_set)
    rival = PyDraughts(game.time_limit) if game.rival == PYDRAUGHTS else None
    played: list[list[object]] = []
    for text in game.opening:
        move = push_ballot_move(board, text)
        played.append(move_key(move))
        if rival is not None:
            rival.push(move.path)
    score, reason = 0.5, f"adjudicated draw after {MAX_PLIES} plies"
    while board.ply < MAX_PLIES:
        over = ruled(board)
        if over is not None:
            score, reason = over
            break
        if rival is not None:
            rival.check(board)
        judged = adjudicate(board) if rival is None else None
        if judged is not None:
            score, reason = judged
            break
        new_to_move = (board.turn is Side.DRUMS) == game.new_drums
        seed = game.seed * 1000 + board.ply
        if new_to_move:
            move = choose_move(
                board,
                Level.EXECUTIVE,
                seed=seed,
                time_limit=game.time_limit,
                game=(game.seed, game.new_drums),
            )
        elif rival is not None:
            move = rival.find(board, rival.choose())
        else:
            assert _BASELINE is not None
            move = _BASELINE.choose(board, played, game.time_limit, seed, game.seed)
        board.push(move)
        played.append(move_key(move))
        if rival is not None:
            rival.push(move.path)
    moves = [str(m) for m in board.move_stack]
    return (score if game.new_drums else 1 - score), board.ply, reason, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule-set", default="english", choices=list(RULE_SETS))
    parser.add_argument("--baseline", default=None, help=f"git ref ({BASELINE})")
    parser.add_argument(
        "--versus", choices=[PYDRAUGHTS], help="instead: py-draughts' SimpleEngine (English)"
    )
    parser.add_argument("--limit", type=int, default=100, help="English: first N deck openings")
    parser.add_argument("--games", type=int, default=50, help="other rule sets: openings")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move, both sides")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--balanced",
        type=int,
        metavar="DEPTH",
        help="other rule sets: openings of plausible moves kept when a DEPTH-ply search "
        "scores them within a quarter of a man (ai_ladder.balanced_openings)",
    )
    parser.add_argument(
        "--compiled-baseline",
        action="store_true",
        help="install the baseline compiled (an A/B of two compiled builds), not pure Python",
    )
    parser.add_argument(
        "--record", type=Path, help="write each game (opening, colour, moves, result) as JSON"
    )
    args = parser.parse_args(argv)

    if args.versus and args.rule_set != "english":
        parser.error("py-draughts plays English (its American board) only")
    if args.rule_set == "english":
        openings = read_ballots(BALLOTS)[: args.limit]
    elif args.balanced:
        openings = balanced_openings(args.rule_set, args.games, args.seed, args.balanced)
    else:
        openings = random_openings(args.rule_set, args.games, args.seed)
    python: str | None = None
    rival = rival_id = PYDRAUGHTS if args.versus else "baseline"
    if not args.versus:
        ref, commit = commit_of(args.baseline)
        python = str(side_python(ref, commit, compiled=args.compiled_baseline))
        rival = f"Executive of {ref}"
        rival_id = commit
    tables = egdb.available(args.rule_set)
    games = [
        Game(
            args.rule_set,
            opening,
            new_drums,
            rival,
            args.time,
            args.seed * 10_000 + 2 * i + new_drums,
        )
        for i, opening in enumerate(openings)
        for new_drums in (False, True)
    ]
    print(
        f"{args.rule_set}: Executive v {rival}, {len(openings)} openings x 2 colours = "
        f"{len(games)} games, {args.time:g} s a move, {args.processes} processes, "
        f"endgame tables: {f'{tables.pieces} pieces' if tables else 'none'}",
        flush=True,
    )
    done: dict[int, dict[str, Any]] = {}
    if args.record is not None:
        match = {
            "rule_set": args.rule_set,
            "rival": rival_id,
            "compiled_baseline": args.compiled_baseline,
            "time": args.time,
            "openings": hashlib.sha256(json.dumps(openings).encode()).hexdigest()[:16],
            "games": len(games),
            "seed": args.seed,
            "tables": tables.pieces if tables else 0,
            "engine": engine_digest(ROOT),
            "build": build_info(),
        }
        try:
            done = read_record(args.record, match)
        except ValueError as error:
            parser.error(str(error))
        if done:
            print(f"resumed from {args.record}: {len(done)} games recorded", flush=True)
        else:
            args.record.write_text(json.dumps({"match": match}) + "\n")
    results: list[float] = []
    plies: list[int] = []
    reasons: dict[str, int] = {}

    def count(score: float, n: int, reason: str) -> None:
        results.append(score)
        plies.append(n)
        kind = reason.split(":")[0] if reason.startswith("endgame") else reason
        reasons[kind] = reasons.get(kind, 0) + 1

    for entry in done.values():
        count(entry["score"], entry["plies"], entry["reason"])
    todo = [i for i in range(len(games)) if i not in done]
    started = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=args.processes, initializer=_start_worker, initargs=(python,)
    ) as pool:
        futures = {pool.submit(play, games[i]): i for i in todo}
        record = args.record.open("a") if args.record else None
        for finished, future in enumerate(as_completed(futures), 1):
            score, n, reason, moves = future.result()
            if record is not None:
                i = futures[future]
                entry = {
                    "game": i,
                    "new_drums": games[i].new_drums,
                    "score": score,
                    "plies": n,
                    "reason": reason,
                    "moves": moves,
                }
                record.write(json.dumps(entry) + "\n")
                record.flush()
            count(score, n, reason)
            progress(finished, len(futures), started, "games")
        if record is not None:
            record.close()
    sys.stderr.write("\n")
    w, d, lo, score, e, e_lo, e_hi = summarise(results)
    print(
        f"{'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>7} {'Elo':>6} "
        f"{'95% interval':>16} {'plies':>6} {'s/move':>7}"
    )
    print(
        f"{len(results):>5} {w:>4} {d:>4} {lo:>4} {100 * score:>6.1f}% {e:>+6.0f} "
        f"{f'[{e_lo:+.0f}, {e_hi:+.0f}]':>16} {sum(plies) / len(plies):>6.0f} {args.time:>7g}"
    )
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    resumed = f" ({len(todo)} games; {len(done)} from the record)" if done else ""
    print(f"wall time {time.perf_counter() - started:.0f} s{resumed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
