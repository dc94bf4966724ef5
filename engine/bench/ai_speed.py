"""Executive's search speed in both builds: nodes per second, compiled against pure Python.

Every position below is searched with a fixed node budget (``--nodes``) in each build,
each in a process of its own (the pure one with ``CHECKERS_PURE_PYTHON=1``), the builds
taking turns position by position, ``--repeat`` times each (the fastest counts). Both
builds search the same tree, so the best move, score, depth and node count must agree;
the bench says so and fails if not. ``--time`` searches for that many seconds instead
(depth and nodes then depend on the machine). Nodes per second are counted
per second of processor time of the searching process, so that other work on a shared
machine moves the figures less; the load average is printed too.

    python bench/ai_speed.py                 # 200,000 nodes a position
    python bench/ai_speed.py --rule-set russian --nodes 500000

Target: the compiled build at least 2.5x the pure build's nodes per second.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the engine's folder

#: Fixed mid-game positions (seeded random play, no capture pending), two per rule set,
#: and each rule set's start position.
POSITIONS: dict[str, list[tuple[str, str | None]]] = {
    "english": [
        ("start", None),
        ("mid 1", "B:WK3,18,21,24,25,26,29,31,32:B2,5,6,9,11,12"),
        ("mid 2", "W:W17,20,27,29,30,31:B3,4,6,8,9,15,28"),
    ],
    "brazilian": [
        ("start", None),
        ("mid 1", "B:W13,19,23,25,26,27,28,30,31,32:B1,2,4,8,10,11,20"),
        ("mid 2", "W:W11,17,21,23,25,27,28,29,31,32:B2,3,4,5,6,12,13"),
    ],
    "russian": [
        ("start", None),
        ("mid 1", "W:W12,18,22,23,24,26,28,30,32:B1,4,6,7,9,11,14,15,21"),
        ("mid 2", "B:W16,22,23,25,26,28,29,30,32:B1,2,4,5,7,8,13,14"),
    ],
    "spanish": [
        ("start", None),
        ("mid 1", "B:W19,20,21,22,25,29,30,32:B1,2,3,4,5,7,8,12,14"),
        ("mid 2", "B:W13,14,23,26,28,30,31,32:B1,4,5,6,7,8,12,19,20"),
    ],
    "italian": [
        ("start", None),
        ("mid 1", "W:WK10,12,17,18,25,27,28,29,30,32:B3,4,7,8,9,19,21"),
        ("mid 2", "W:W14,17,22,25,27,28,29,30,31,32:B1,2,3,5,6,7,11,16,20"),
    ],
    "thai": [
        ("start", None),
        ("mid 1", "B:W13,22,25,27,28,32:B2,5,6,7,8,9,19"),
        ("mid 2", "W:W21,22,23,28,29,32:B1,5,7,8,9,10,12"),
    ],
}


def serve(nodes: int | None, seconds: float | None) -> None:
    """In this process's build: search each position named on a line of standard input
    (``rule set<TAB>position``), answering with one JSON line each."""
    from checkers_engine import Board
    from checkers_engine.ai import Searcher
    from checkers_engine.build import build_info

    print(json.dumps({"build": build_info()}), flush=True)
    for line in sys.stdin:
        rule_set, name = line.rstrip("\n").split("\t")
        fen = dict(POSITIONS[rule_set])[name]
        board = Board(rule_set, fen=fen)
        searcher = Searcher(board.rule_set)
        cpu = time.process_time()
        result = searcher.run(board.raw_state(), node_limit=nodes, time_limit=seconds)
        cpu = time.process_time() - cpu
        best = result.best
        answer = {
            "depth": result.depth,
            "nodes": result.nodes,
            "cpu": cpu,
            "score": result.score,
            "best": None if best is None else [list(best[0]), best[1], best[2]],
        }
        print(json.dumps(answer), flush=True)


class Build:
    """A searching process of one build."""

    def __init__(self, pure: bool, argv: list[str]) -> None:
        env = dict(os.environ)
        env.pop("CHECKERS_PURE_PYTHON", None)
        if pure:
            env["CHECKERS_PURE_PYTHON"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", *argv],
            env=env,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.name = str(self._read()["build"])

    def _read(self) -> dict[str, object]:
        assert self.process.stdout is not None
        return dict(json.loads(self.process.stdout.readline()))

    def search(self, rule_set: str, name: str) -> dict[str, object]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{rule_set}\t{name}\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=200_000, help="node budget a position")
    parser.add_argument("--time", type=float, default=None, help="seconds a position instead")
    parser.add_argument("--rule-set", action="append", choices=list(POSITIONS))
    parser.add_argument(
        "--repeat", type=int, default=2, help="searches a position per build; the fastest counts"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    rule_sets = args.rule_set or list(POSITIONS)
    nodes = None if args.time else args.nodes
    if args.serve:
        serve(nodes, args.time)
        return 0

    passed = [f"--time={args.time}"] if args.time else [f"--nodes={args.nodes}"]
    pure_build, compiled_build = Build(True, passed), Build(False, passed)
    pure: list[dict[str, object]] = []
    compiled: list[dict[str, object]] = []
    for rule_set in rule_sets:
        for name, _ in POSITIONS[rule_set]:
            # The builds take turns, so a change in the machine's load touches both.
            runs: dict[bool, list[dict[str, object]]] = {True: [], False: []}
            for i in range(max(1, args.repeat)):
                for is_pure in (True, False) if i % 2 == 0 else (False, True):
                    runs[is_pure].append(
                        (pure_build if is_pure else compiled_build).search(rule_set, name)
                    )
            for is_pure, rows in ((True, pure), (False, compiled)):
                fastest = min(runs[is_pure], key=lambda r: float(r["cpu"]))  # type: ignore[arg-type]
                rows.append({"rule_set": rule_set, "position": name, **fastest})
    pure_build.close()
    compiled_build.close()
    pure_name, compiled_name = pure_build.name, compiled_build.name
    print(f"pure: {pure_name}; compiled: {compiled_name}; fastest of {args.repeat} each")
    if compiled_name == pure_name:
        print("no compiled build installed (make install on a machine with a C compiler)")
    print(
        f"{'rule set':<10} {'position':<8} {'depth':>5} {'nodes':>8} "
        f"{'pure n/s':>9} {'compiled n/s':>12} {'ratio':>6}  same search"
    )
    ratios = []
    disagree = 0
    for p, c in zip(pure, compiled, strict=True):
        pure_rate = float(p["nodes"]) / max(float(p["cpu"]), 1e-9)  # type: ignore[arg-type]
        rate = float(c["nodes"]) / max(float(c["cpu"]), 1e-9)  # type: ignore[arg-type]
        ratios.append(rate / pure_rate)
        same = all(p[k] == c[k] for k in ("depth", "nodes", "score", "best"))
        if nodes is not None and not same:
            disagree += 1
        print(
            f"{p['rule_set']:<10} {p['position']:<8} {c['depth']:>5} {c['nodes']:>8} "
            f"{pure_rate:>9,.0f} {rate:>12,.0f} {rate / pure_rate:>5.2f}x  "
            f"{'yes' if same else 'NO' if nodes is not None else '-'}"
        )
    geo = 1.0
    for r in ratios:
        geo *= r
    geo **= 1 / len(ratios)
    print(f"compiled over pure, geometric mean: {geo:.2f}x (target at least 2.5x)")
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if disagree else 0


if __name__ == "__main__":
    raise SystemExit(main())
