"""Matches between the computer levels (and, optionally, py-draughts' SimpleEngine).

Each opening is played twice with the sides swapped. English uses the 3-move ballot deck
(``data/english-3move-ballots.txt``; the 156 openings
marked ``deck``, or the first ``--limit``); the other rule sets use random four-ply
openings kept only when a short search finds them balanced. A game between the levels is
scored from the endgame tables once their pieces are left. Prints a progress bar, then
wins/draws/losses, score and Elo difference with its 95% interval for the stronger side
of each pair.

    python bench/ai_ladder.py --rule-set english --limit 20 --time 0.5
    python bench/ai_ladder.py --rule-set russian --games 30 --levels warden,executive
    python bench/ai_ladder.py --versus py-draughts --limit 20 --time 1
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the engine's folder

from checkers_engine import RULE_SETS, Board, Move, Side  # noqa: E402
from checkers_engine.ai import Level, choose_move  # noqa: E402
from checkers_engine.ai.matches import (  # noqa: E402
    MAX_PLIES,
    adjudicate,
    push_ballot_move,
    random_openings,
    read_ballots,
    ruled,
)

BALLOTS = ROOT / "data" / "english-3move-ballots.txt"
PYDRAUGHTS = "py-draughts"


@dataclass(frozen=True)
class Game:
    rule_set: str
    opening: tuple[str, ...]
    drums: str
    tires: str
    time_limit: float
    seed: int


class PyDraughts:
    """py-draughts' SimpleEngine on its American board, kept in step with ours.

    py-draughts (1.10) offers quiet moves beside captures on its American board, so the
    board here restricts it to captures when one exists, as English rules require. It
    numbers the board from the other end (its first mover, White, holds 21-32) and counts
    from 0 in ``square_list``: its index is 32 minus our square. The two boards' legal
    moves are compared before every move, so any disagreement stops the game.
    """

    def __init__(self, time_limit: float) -> None:
        from draughts import AmericanBoard, SimpleEngine
        from draughts.boards._core import CORE_AMERICAN

        class EnglishBoard(AmericanBoard):  # type: ignore[misc, valid-type]
            @property
            def legal_moves(self):  # type: ignore[no-untyped-def]
                return self._legal_moves_from_core(
                    CORE_AMERICAN, max_capture=False, captures_optional=False
                )

        self.board = EnglishBoard()
        self.engine = SimpleEngine(depth_limit=64, time_limit=time_limit)

    def check(self, board: Board) -> None:
        ours = sorted((m.start, m.end) for m in board.legal_moves)
        theirs = sorted(
            (32 - m.square_list[0], 32 - m.square_list[-1]) for m in self.board.legal_moves
        )
        if ours != theirs:
            raise RuntimeError(f"boards disagree at {board.fen()}: {ours} v {theirs}")

    def push(self, path: tuple[int, ...]) -> None:
        theirs = [32 - s for s in path]
        for move in self.board.legal_moves:
            squares = list(move.square_list)
            if squares == theirs or (squares[0], squares[-1]) == (theirs[0], theirs[-1]):
                self.board.push(move)
                return
        raise RuntimeError(f"py-draughts has no move {path}: {self.board.legal_moves}")

    @staticmethod
    def find(board: Board, path: tuple[int, ...]) -> Move:
        """Our move for its path (one of its routes, or failing that its start and end)."""
        return next(
            m
            for m in board.legal_moves
            if path in m.routes or (m.start, m.end) == (path[0], path[-1])
        )

    def choose(self) -> tuple[int, ...]:
        move = self.engine.get_best_move(self.board)
        if isinstance(move, tuple):
            move = move[0]
        return tuple(32 - s for s in move.square_list)


def play(game: Game) -> tuple[float, int, str]:
    """Play one game; returns the drums' score (1, 0.5, 0), the plies and the reason.

    Between the levels a game is scored from the endgame tables once their pieces are
    left (when the tables are built): a won table position counts as won, as a match
    adjudicates it, though the lower levels do not probe the tables."""
    board = Board(game.rule_set)
    rival = PyDraughts(game.time_limit) if PYDRAUGHTS in (game.drums, game.tires) else None
    for text in game.opening:
        move = push_ballot_move(board, text)
        if rival is not None:
            rival.push(move.path)
    while board.ply < MAX_PLIES:
        over = ruled(board)
        if over is not None:
            return over[0], board.ply, over[1]
        if rival is not None:
            rival.check(board)
        else:
            judged = adjudicate(board)
            if judged is not None:
                return judged[0], board.ply, judged[1]
        player = game.drums if board.turn is Side.DRUMS else game.tires
        if player == PYDRAUGHTS:
            assert rival is not None
            move = rival.find(board, rival.choose())
        else:
            move = choose_move(  # the game and side, as the service names them
                board,
                player,
                seed=game.seed * 1000 + board.ply,
                time_limit=game.time_limit,
                game=(game.seed, board.turn),
            )
        board.push(move)
        if rival is not None:
            rival.push(move.path)
    return 0.5, board.ply, f"adjudicated draw after {MAX_PLIES} plies"


def elo(score: float) -> float:
    score = min(max(score, 0.001), 0.999)
    return -400 * math.log10(1 / score - 1)


def summarise(results: list[float]) -> tuple[int, int, int, float, float, float, float]:
    """wins, draws, losses, score, Elo, and the Elo interval's low and high ends."""
    n = len(results)
    wins = sum(1 for r in results if r == 1)
    draws = sum(1 for r in results if r == 0.5)
    losses = n - wins - draws
    mean = sum(results) / n
    var = sum((r - mean) ** 2 for r in results) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return wins, draws, losses, mean, elo(mean), elo(mean - half), elo(mean + half)


def progress(done: int, total: int, started: float, label: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label} "
        f"{elapsed:6.0f}s elapsed, ~{eta:5.0f}s left "
    )
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule-set", default="english", choices=list(RULE_SETS))
    parser.add_argument(
        "--levels",
        default=",".join(level.value for level in Level),
        help="comma-separated, weakest first; adjacent levels play each other",
    )
    parser.add_argument(
        "--versus",
        choices=[PYDRAUGHTS],
        help="instead: Executive against py-draughts' SimpleEngine (English only)",
    )
    parser.add_argument("--limit", type=int, default=None, help="English: first N deck openings")
    parser.add_argument("--games", type=int, default=40, help="other rule sets: openings")
    parser.add_argument("--time", type=float, default=2.0, help="seconds a move (Executive)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    if args.rule_set == "english":
        openings = read_ballots(BALLOTS)[: args.limit] if args.limit else read_ballots(BALLOTS)
    else:
        openings = random_openings(args.rule_set, args.games, args.seed)
    if args.versus:
        if args.rule_set != "english":
            parser.error("py-draughts plays English (its American board) only")
        pairs = [(PYDRAUGHTS, Level.EXECUTIVE.value)]
    else:
        levels = [level.strip() for level in args.levels.split(",") if level.strip()]
        pairs = list(itertools.pairwise(levels))
        if not pairs:
            parser.error("give at least two levels")

    games: list[tuple[int, bool, Game]] = []
    for p, (weak, strong) in enumerate(pairs):
        for i, opening in enumerate(openings):
            for strong_drums in (False, True):
                drums, tires = (strong, weak) if strong_drums else (weak, strong)
                seed = args.seed * 100_000 + p * 1000 + i * 2 + strong_drums
                games.append(
                    (p, strong_drums, Game(args.rule_set, opening, drums, tires, args.time, seed))
                )

    print(
        f"{args.rule_set}: {len(openings)} openings x 2 colours, {args.time:g} s a move, "
        f"{args.processes} processes",
        flush=True,
    )
    results: dict[int, list[float]] = {p: [] for p in range(len(pairs))}
    plies: dict[int, list[int]] = {p: [] for p in range(len(pairs))}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        futures: list[tuple[int, bool, Future[tuple[float, int, str]]]] = [
            (p, strong_drums, pool.submit(play, game)) for p, strong_drums, game in games
        ]
        for done, (p, strong_drums, future) in enumerate(futures, 1):
            drums_score, n, _ = future.result()
            results[p].append(drums_score if strong_drums else 1 - drums_score)
            plies[p].append(n)
            progress(done, len(futures), started, f"{pairs[p][1]}-{pairs[p][0]}")
    sys.stderr.write("\n")

    print(
        f"{'match (stronger first)':<26} {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
        f"{'score':>7} {'Elo':>6} {'95% interval':>16} {'plies':>6}"
    )
    for p, (weak, strong) in enumerate(pairs):
        w, d, lo, score, e, e_lo, e_hi = summarise(results[p])
        avg = sum(plies[p]) / len(plies[p])
        print(
            f"{strong + ' v ' + weak:<26} {len(results[p]):>5} {w:>4} {d:>4} {lo:>4} "
            f"{100 * score:>6.1f}% {e:>+6.0f} {f'[{e_lo:+.0f}, {e_hi:+.0f}]':>16} {avg:>6.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
