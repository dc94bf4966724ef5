"""Executive's search speed: nodes per second and depth reached in its time budget.

For every rule set, from the start position and from a mid-game position (reached by
20 plies of Warden against itself with a fixed seed), one search of ``--time`` seconds.

    python bench/ai_speed.py --time 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.ai import Searcher, choose_move  # noqa: E402
from app.engine import RULE_SETS, Board  # noqa: E402


def midgame(rule_set: str, plies: int = 20) -> Board:
    """Play ``plies`` (and on, past forced moves) of Warden against itself."""
    board = Board(rule_set)
    while board.ply < plies or len(board.legal_moves) == 1:
        if board.is_game_over():
            break
        board.push(choose_move(board, "warden", seed=board.ply, time_limit=0.3))
    return board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=2.0)
    parser.add_argument("--rule-set", action="append", choices=list(RULE_SETS))
    args = parser.parse_args(argv)
    print(f"{'rule set':<10} {'position':<9} {'depth':>5} {'nodes':>9} {'nodes/s':>9}  fen")
    for rule_set in args.rule_set or list(RULE_SETS):
        for name, board in (("start", Board(rule_set)), ("midgame", midgame(rule_set))):
            result = Searcher(board.rule_set).run(board.raw_state(), time_limit=args.time)
            nps = result.nodes / max(result.elapsed, 1e-9)
            print(
                f"{rule_set:<10} {name:<9} {result.depth:>5} {result.nodes:>9} {nps:>9,.0f}  "
                f"{board.fen()}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
