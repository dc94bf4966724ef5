"""Generate self-play positions for fitting the evaluation: the Executive against itself.

Each game starts from an opening (English: a 3-move ballot; the other rule sets: random
plies) and is played by the Executive's search (its pruning, threat extension and endgame
tables) at a fixed node budget, so a run is repeatable. For the first ``--explore`` plies
after the opening the move is drawn by softmax among the moves within ``EXPLORE_MARGIN``
of the best (temperature ``EXPLORE_TEMPERATURE``), so games differ; after that the best
move is played. A game ends by the rules, by the endgame tables once their pieces are
left (exact), or as a draw after ``MAX_PLIES``.

Every quiet position searched (no capture for the side to move, more pieces than the
tables hold, not decided) is written with the search's score for its side to move, so a
fit can use the score of a deeper search as well as the game's result. One JSON line a
game, appended as games end: a run that stops resumes where it stopped.

    python tools/selfplay.py --rule-set english --games 4000 --out DATA.jsonl

(``tools/selfplay.py`` in the engine's folder is the command line over ``main``.)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from checkers_engine import KING_PLIES_DRAW, RULE_SETS, Board
from checkers_engine.ai import egdb
from checkers_engine.ai.matches import adjudicate, push_ballot_move, read_ballots, ruled
from checkers_engine.ai.players import game_history, to_move
from checkers_engine.ai.search import MATE_BOUND, Searcher, TranspositionTable
from checkers_engine.movegen import has_capture

# The English ballot deck, from the engine's folder (a checkout, or an editable install):
# the wheel ships no data/, so English self-play runs from the engine's folder.
BALLOTS = Path(__file__).resolve().parents[3] / "data" / "english-3move-ballots.txt"

MAX_PLIES = 240
EXPLORE_MARGIN = 40
EXPLORE_TEMPERATURE = 12.0
RANDOM_PLIES = 4
"""Random plies that open a game of a rule set without a ballot deck."""


def opening(rule_set: str, rng: random.Random) -> Board:
    """A game's start: a random English ballot, else a few random plies."""
    board = Board(rule_set)
    if rule_set == "english":
        for text in rng.choice(read_ballots(BALLOTS)):
            push_ballot_move(board, text)
        return board
    for _ in range(RANDOM_PLIES):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    return board


def play(job: tuple[str, int, int, int]) -> dict[str, object]:
    """One game: its seed, the drums' score (1, 0.5, 0), how it ended, its moves from the
    start (the opening's too) and its positions as ``[own, opp, kings, turn, score]``, the
    score for the side to move."""
    rule_set, seed, nodes, explore = job
    rng = random.Random(seed)
    board = opening(rule_set, rng)
    first = board.ply
    tables = egdb.available(rule_set)
    searcher = Searcher(
        board.rule_set, tt=TranspositionTable(), egdb=tables, pruning=True, threats=True
    )
    positions: list[list[int]] = []
    result, reason = 0.5, f"draw after {MAX_PLIES} plies"
    while board.ply < MAX_PLIES:
        # The rules, else the endgame tables (none when they are not built), end a game.
        over = ruled(board) or adjudicate(board)
        if over is not None:
            result, reason = over
            break
        legal = board.legal_moves
        if len(legal) == 1:
            board.push(legal[0])
            continue
        exploring = board.ply < first + explore
        state = board.raw_state()
        found = searcher.run(
            state,
            node_limit=nodes,
            margin=EXPLORE_MARGIN if exploring else 0,
            king_plies=board.king_plies,
            history=game_history(board),
        )
        if (
            abs(found.score) < MATE_BOUND
            and board.king_plies <= KING_PLIES_DRAW // 2
            and not has_capture(*state, board.rule_set)
        ):
            positions.append([*state, found.score])
        raw = found.best
        if exploring and len(found.scores) > 1:
            top = max(found.scores.values())
            near = [(m, s) for m, s in found.scores.items() if s >= top - EXPLORE_MARGIN]
            weights = [math.exp((s - top) / EXPLORE_TEMPERATURE) for _, s in near]
            raw = rng.choices([m for m, _ in near], weights=weights)[0]
        assert raw is not None
        board.push(to_move(board, raw))
    moves = [str(move) for move in board.move_stack]
    return {
        "seed": seed,
        "result": result,
        "reason": reason,
        "moves": moves,
        "positions": positions,
    }


def read(path: Path) -> Iterator[dict[str, object]]:
    """The games of a file ``main`` wrote (a last line cut short is skipped)."""
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule-set", default="english", choices=list(RULE_SETS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a move")
    parser.add_argument("--explore", type=int, default=12, help="plies played by softmax")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    done = {game["seed"] for game in read(args.out)}
    seeds = [args.seed * 1_000_000 + n for n in range(args.games)]
    jobs = [(args.rule_set, s, args.nodes, args.explore) for s in seeds if s not in done]
    print(f"{len(done)} games already in {args.out.name}, {len(jobs)} to play", flush=True)
    started = time.perf_counter()
    positions = 0
    written = args.out.read_bytes() if args.out.is_file() else b""
    if written and not written.endswith(b"\n"):
        with args.out.open("a") as out:
            out.write("\n")  # a line cut short by a stopped run stays apart, and is skipped
    with ProcessPoolExecutor(args.processes) as pool, args.out.open("a") as out:
        for n, game in enumerate(pool.map(play, jobs, chunksize=4), 1):
            out.write(json.dumps(game, separators=(",", ":")) + "\n")
            out.flush()
            positions += len(game["positions"])  # type: ignore[arg-type]
            if n % 50 == 0 or n == len(jobs):
                rate = n / (time.perf_counter() - started)
                print(f"{n}/{len(jobs)} games, {positions} positions, {rate:.2f} games/s",
                      flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
