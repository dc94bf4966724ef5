"""How long the computer's replies take over whole games, as the service plays them.

Plays ``--games`` games of ``--rule-set`` (English: the first openings of the 3-move
ballot deck; the others: random balanced four-ply openings) with the Executive on both
sides. Each of its moves is a task of the computer worker, built by ``task_for`` as the
service builds it and run by ``run_task`` in the service's own worker pool
(``search_pool``: one process at the replies' priority, which keeps both sides'
transposition tables from move to move, as a worker serving two games does). A reply is
timed from its submission to its answer, as the web process waits for it.

Prints the percentiles of the replies that searched (not those from the opening book, a
single legal move or the endgame tables, which answer at once), how many overran the
budget and by how much, the build and the machine's load average. Other jobs on the
machine take the worker's processor (it runs at a lower priority), and a search that has
no processor cannot see its deadline pass: so it prints too how long the worker waited
for a processor during the replies (Linux's ``/proc/PID/schedstat``), and the replies'
percentiles less that wait. Run it twice.

    python bench/reply_time.py --time 0.2 --games 6
    python bench/reply_time.py --time 2 --games 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from app.computer.runner import search_pool
from app.computer.worker import REPLY_NICENESS, TaskKind, run_task, task_for
from checkers_engine import Board
from checkers_engine.ai import Level, book, egdb
from checkers_engine.ai.matches import (
    MAX_PLIES,
    adjudicate,
    balanced_openings,
    push_ballot_move,
    read_ballots,
    ruled,
)
from checkers_engine.build import build_info

ROOT = Path(__file__).resolve().parent.parent
BALLOTS = ROOT / "engine" / "data" / "english-3move-ballots.txt"


def instant(board: Board) -> str | None:
    """Why the Executive answers this position without searching, if it does."""
    if len(board.legal_moves) == 1:
        return "forced"
    if book.book_moves(board):
        return "book"
    found = egdb.probe(board)
    if found is not None and found[0] != 0:
        return "tables"
    return None


def waited(pid: int) -> float:
    """Seconds the process has spent ready to run but waiting for a processor (0 where
    the system does not say)."""
    try:
        with open(f"/proc/{pid}/schedstat") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return (
        f"p50 {percentile(ordered, 0.5):.3f} s, p95 {percentile(ordered, 0.95):.3f} s, "
        f"p99 {percentile(ordered, 0.99):.3f} s, max {ordered[-1]:.3f} s"
    )


def percentile(ordered: list[float], share: float) -> float:
    """The nearest-rank percentile of an ascending list."""
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule-set", default="english")
    parser.add_argument("--time", type=float, default=0.2, help="the Executive's budget")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1, help="of the other rule sets' openings")
    args = parser.parse_args(argv)

    if args.rule_set == "english":
        openings = read_ballots(BALLOTS)[: args.games]
    else:
        openings = balanced_openings(args.rule_set, args.games, args.seed, depth=8)
    budget = args.time
    print(
        f"{args.rule_set}, Executive against itself at {budget:g} s a move, "
        f"{len(openings)} games; {build_info()}; {os.cpu_count()} processors, "
        f"load average {os.getloadavg()[0]:.2f} at the start"
    )
    searched: list[float] = []
    queued: list[float] = []  # of the searched replies: the worker's wait for a processor
    answered_at_once: list[float] = []
    pool = search_pool(1, REPLY_NICENESS)
    worker = pool.submit(os.getpid).result()  # started (imports done) before any timing
    try:
        for number, opening in enumerate(openings, start=1):
            board = Board(args.rule_set)
            for text in opening:
                push_ballot_move(board, text)
            room = f"bench-{number}"
            while board.ply < MAX_PLIES and ruled(board) is None and adjudicate(board) is None:
                task = task_for(
                    board,
                    room_id=room,
                    game_number=1,
                    ply=board.ply,
                    kind=TaskKind.MOVE,
                    level=Level.EXECUTIVE,
                    side=board.turn.value,
                )
                why = instant(board)
                before = waited(worker)
                started = time.perf_counter()
                answer = pool.submit(run_task, task, budget).result()
                took = time.perf_counter() - started
                if why:
                    answered_at_once.append(took)
                else:
                    searched.append(took)
                    queued.append(waited(worker) - before)
                assert isinstance(answer, str)
                board.push_text(answer)
            sys.stderr.write(f"\rgame {number}/{len(openings)}: {board.ply} plies ")
            sys.stderr.flush()
    finally:
        pool.shutdown()
    sys.stderr.write("\n")
    if not searched:
        print("no reply searched")
        return 1
    ordered = sorted(searched)
    over = [t for t in ordered if t > budget]
    far_over = [t for t in ordered if t > 1.1 * budget]
    print(
        f"{len(ordered)} replies searched ({len(answered_at_once)} more answered at once): "
        + summary(searched)
    )
    print(
        f"p99 {percentile(ordered, 0.99) / budget:.2f}x the budget (target 1.10x); "
        f"over the budget: {len(over)} ({100 * len(over) / len(ordered):.1f}%); "
        f"over 1.1x: {len(far_over)} ({100 * len(far_over) / len(ordered):.1f}%); "
        f"load average {os.getloadavg()[0]:.2f} at the end"
    )
    print(
        f"the worker waited for a processor {sum(queued):.1f} s of the replies' "
        f"{sum(searched):.1f} s; the replies less that wait: "
        + summary([t - q for t, q in zip(searched, queued, strict=True)])
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
