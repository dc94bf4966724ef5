"""Move-generator speed: perft leaves per second, and the same count by py-draughts.

Run: ``make bench`` (or ``python bench/perft.py``). Prints figures; asserts only that the
counts are the published ones, so a fast wrong generator cannot look good.
Targets on the 2-core reference machine: English perft 9 (3,963,680) in at most 4 s, at
least 4x py-draughts' speed, and every rule set within 3x of English's leaves per second.

It first compares the two builds side by side (``--builds``, on by default): the same
counts, each build in a process of its own (the pure one with ``CHECKERS_PURE_PYTHON=1``),
timed in processor seconds. Target: the compiled build at least 2.5x the pure one, with
every count equal. The rest of the report runs in this process's build.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from checkers_engine import RULE_SETS, Board, perft

#: Published start-position counts used as a correctness guard (Aart Bik's tables).
ENGLISH_PERFT = {7: 179_740, 8: 845_931, 9: 3_963_680}

#: Mid-game positions with no capture pending, reached by seeded random play.
MIDGAME = {
    "english": [
        "B:WK3,18,21,24,25,26,29,31,32:B2,5,6,9,11,12",
        "W:W17,20,27,29,30,31:B3,4,6,8,9,15,28",
        "W:WK3,17,18,20,26,28,29,31:B4,5,7,9,10,11",
    ],
    "brazilian": [
        "B:W13,19,23,25,26,27,28,30,31,32:B1,2,4,8,10,11,20",
        "W:W11,17,21,23,25,27,28,29,31,32:B2,3,4,5,6,12,13",
        "B:W22,24,25,27,28,29,30,32:B1,2,4,5,6,12,13,16",
    ],
    "russian": [
        "W:W12,18,22,23,24,26,28,30,32:B1,4,6,7,9,11,14,15,21",
        "B:W16,22,23,25,26,28,29,30,32:B1,2,4,5,7,8,13,14",
        "W:W16,19,23,27,29,30,31,32:B1,3,4,6,7,12",
    ],
    "spanish": [
        "B:W19,20,21,22,25,29,30,32:B1,2,3,4,5,7,8,12,14",
        "W:W13,21,22,25,29,32:B1,2,4,6,7,9,10,11,K20,26",
        "B:W13,14,23,26,28,30,31,32:B1,4,5,6,7,8,12,19,20",
    ],
    "italian": [
        "W:WK10,12,17,18,25,27,28,29,30,32:B3,4,7,8,9,19,21",
        "W:WK1,7,10,20,21,27,28,30,32:B3,4,9,11",
        "W:W14,17,22,25,27,28,29,30,31,32:B1,2,3,5,6,7,11,16,20",
    ],
    "thai": [
        "B:W13,22,25,27,28,32:B2,5,6,7,8,9,19",
        "B:WK17,23,25,27,28,29,30,32:B3,4,7,11",
        "W:W21,22,23,28,29,32:B1,5,7,8,9,10,12",
    ],
}


def timed(fn: object, *args: object) -> tuple[int, float]:
    started = time.perf_counter()
    result = fn(*args)  # type: ignore[operator]
    return int(result), time.perf_counter() - started


def adaptive(board: Board, budget: float) -> tuple[int, int, float]:
    """Deepen until one count takes at least ``budget`` seconds; (depth, leaves, seconds)."""
    depth = 1
    while True:
        leaves, seconds = timed(perft, board, depth)
        if seconds >= budget or depth >= 14:
            return depth, leaves, seconds
        depth += 1


def py_draughts_perft(depth: int) -> tuple[int, float] | None:
    """Perft of py-draughts' American board, with captures made mandatory."""
    try:
        from draughts.boards._core import CORE_AMERICAN
        from draughts.boards.american import Board as AmericanBoard
    except ImportError:
        return None

    class MandatoryBoard(AmericanBoard):  # type: ignore[misc]
        @property
        def legal_moves(self):  # type: ignore[no-untyped-def]
            return self._legal_moves_from_core(
                CORE_AMERICAN, max_capture=False, captures_optional=False
            )

    board = MandatoryBoard()

    def count(d: int) -> int:
        moves = board.legal_moves
        if d == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += count(d - 1)
            board.pop()
        return total

    return timed(count, depth)


#: Fixed counts for the side-by-side comparison of the builds: (rule set, FEN, depth).
BUILD_COUNTS: list[tuple[str, str | None, int]] = [
    ("english", None, 8),
    *((key, MIDGAME[key][0], 7) for key in MIDGAME),
    ("russian", None, 7),
]


def measure_counts() -> None:
    """In this process's build: each of BUILD_COUNTS as a JSON line (leaves, CPU seconds)."""
    from checkers_engine.build import build_info

    print(json.dumps({"build": build_info()}), flush=True)
    for key, fen, depth in BUILD_COUNTS:
        board = Board(key, fen=fen)
        cpu = time.process_time()
        leaves = perft(board, depth)
        cpu = time.process_time() - cpu
        print(json.dumps({"leaves": leaves, "cpu": cpu}), flush=True)


def compare_builds() -> bool:
    """Run BUILD_COUNTS in both builds and print them side by side; False if they differ."""
    runs = {}
    for pure in (True, False):
        env = dict(os.environ)
        env.pop("CHECKERS_PURE_PYTHON", None)
        if pure:
            env["CHECKERS_PURE_PYTHON"] = "1"
        done = subprocess.run(
            [sys.executable, __file__, "--measure"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        runs[pure] = (lines[0]["build"], lines[1:])
    (pure_name, pure_rows), (compiled_name, compiled_rows) = runs[True], runs[False]
    print(f"Both builds (processor time): pure = {pure_name}, compiled = {compiled_name}")
    if pure_name == compiled_name:
        print("  no compiled build installed (make install on a machine with a C compiler)")
    print(
        f"  {'rule set':<10} {'position':<8} {'depth':>5} {'leaves':>11} "
        f"{'pure leaves/s':>14} {'compiled':>12} {'ratio':>6}"
    )
    same = True
    product = 1.0
    for (key, fen, depth), p, c in zip(BUILD_COUNTS, pure_rows, compiled_rows, strict=True):
        pure_rate = p["leaves"] / max(p["cpu"], 1e-9)
        rate = c["leaves"] / max(c["cpu"], 1e-9)
        product *= rate / pure_rate
        mark = "" if p["leaves"] == c["leaves"] else "  COUNTS DIFFER"
        same = same and not mark
        print(
            f"  {key:<10} {'start' if fen is None else 'mid-game':<8} {depth:>5} "
            f"{c['leaves']:>11,} {pure_rate:>14,.0f} {rate:>12,.0f} "
            f"{rate / pure_rate:>5.2f}x{mark}"
        )
    mean = product ** (1 / len(BUILD_COUNTS))
    print(f"  compiled over pure, geometric mean: {mean:.2f}x (target at least 2.5x)")
    print(f"  load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=9, help="English start depth (9)")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds per adaptive count")
    parser.add_argument("--py-draughts-depth", type=int, default=8)
    parser.add_argument(
        "--builds",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="compare the compiled and pure builds first (default: yes)",
    )
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure_counts()
        return 0
    if args.builds and not compare_builds():
        return 1

    from checkers_engine.build import build_info

    print(f"This process runs the {build_info()} build.")

    print(f"English perft {args.depth} from the start")
    leaves, seconds = timed(perft, Board("english"), args.depth)
    expected = ENGLISH_PERFT.get(args.depth)
    status = "" if expected is None else ("  (published)" if leaves == expected else "  WRONG")
    print(f"  {leaves:,} leaves in {seconds:.2f} s = {leaves / seconds:,.0f} leaves/s{status}")
    if expected is not None and leaves != expected:
        return 1

    d = args.py_draughts_depth
    theirs = py_draughts_perft(d)
    if theirs is None:
        print("py-draughts not installed: pip install py-draughts")
    else:
        their_leaves, their_seconds = theirs
        ours, our_seconds = timed(perft, Board("english"), d)
        ratio = (ours / our_seconds) / (their_leaves / their_seconds)
        print(f"English perft {d}: ours {ours:,} in {our_seconds:.2f} s; py-draughts (captures")
        print(f"  mandatory) {their_leaves:,} in {their_seconds:.2f} s; speed ratio {ratio:.1f}x")

    print("\nLeaves per second by rule set (start position; mean over mid-game positions);")
    print("slowdown = English's rate over this rule set's (target: at most 3x)")
    print(f"  {'rule set':<10} {'start':>16} {'mid-game':>16} {'slowdown':>9}")
    english_rate = None
    for key in RULE_SETS:
        depth, leaves, seconds = adaptive(Board(key), args.budget)
        start_rate = leaves / seconds
        mid_rates = []
        for fen in MIDGAME[key]:
            _, mid_leaves, mid_seconds = adaptive(Board(key, fen=fen), args.budget)
            mid_rates.append(mid_leaves / mid_seconds)
        mid_rate = sum(mid_rates) / len(mid_rates)
        rate = (start_rate + mid_rate) / 2
        english_rate = english_rate or rate
        print(
            f"  {key:<10} {start_rate:>12,.0f} d{depth:<2} {mid_rate:>16,.0f}"
            f" {english_rate / rate:>8.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
