"""The compiled and the pure Python builds search the same tree: at a fixed depth they give
the same moves, scores, principal variations and node counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checkers_engine import build

ENGINE = Path(__file__).resolve().parents[2]
# Each build runs in a process of its own, whichever this one is.
pytestmark = pytest.mark.one_build

POSITIONS = [
    ("english", None, 8),
    ("english", "W:W17,20,27,29,30,31:B3,4,6,8,9,15,28", 8),
    ("russian", "W:W12,18,22,23,24,26,28,30,32:B1,4,6,7,9,11,14,15,21", 7),
    ("italian", "W:WK10,12,17,18,25,27,28,29,30,32:B3,4,7,8,9,19,21", 7),
    ("thai", "B:WK17,23,25,27,28,29,30,32:B3,4,7,11", 7),
    ("brazilian", "B:W22,24,25,27,28,29,30,32:B1,2,4,5,6,12,13,16", 7),
]

PROBE = """
import json, sys
from checkers_engine.ai import Searcher
from checkers_engine.build import build_info
from checkers_engine import Board
out = {"build": build_info(), "results": []}
for rule_set, fen, depth in json.loads(sys.argv[1]):
    board = Board(rule_set, fen=fen)
    r = Searcher(board.rule_set).run(board.raw_state(), max_depth=depth, margin=50)
    out["results"].append(
        [r.best, r.score, r.depth, r.nodes, sorted(r.scores.items()), r.pv, r.stop]
    )
print(json.dumps(out))
"""


def _search(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop(build.PURE_SWITCH, None)
    if pure:
        env[build.PURE_SWITCH] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(POSITIONS)],
        cwd=ENGINE,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return dict(json.loads(done.stdout))


def test_both_builds_give_the_same_search_results_at_fixed_depth() -> None:
    if not build.compiled_available() and os.environ.get("CI") != "true":
        pytest.skip("no compiled build here (installed without a C compiler, or stale)")
    pure = _search(pure=True)
    compiled = _search(pure=False)
    assert (pure["build"], compiled["build"]) == (build.PURE, build.COMPILED)
    results = pure["results"]
    assert isinstance(results, list) and len(results) == len(POSITIONS)
    assert all(r[3] > 1000 for r in results)  # real searches: nodes
    assert compiled["results"] == results
