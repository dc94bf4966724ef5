"""Won endings converted before the draw rule, by the Executive with and without the
endgame tables.

Two sets of positions, each played out once with the tables and once without, at the same
time a move:

- ``table``: positions the tables hold as wins with the most plies to conversion (the
  material given by ``--slice``, e.g. ``0301`` for three kings against one; a fixed seed
  picks them), the defender playing perfectly from the tables;
- ``english-3v2``: three kings against two in English, which "three kings will always win
  when handled right" (Lasker, *Chess and Checkers*, 1918), from Bob Newell's
  ``W:WK22,K23,K24:BK31,K32`` with either side to move, and the two kings in the double
  corner (Lasker's "most favorable spots for the weaker player"); five pieces, beyond
  the tables, so only the leaves reach them; the defender is the Executive without tables.

    python bench/egdb_convert.py --rule-set english --slice 0201 --positions 8 --time 0.5
    python bench/egdb_convert.py --three-against-two --time 1

The tables come from ``checkers egdb build`` (``CHECKERS_EGDB_DIR`` or ``--dir``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the engine's folder

from checkers_engine import RULE_SETS, Board  # noqa: E402
from checkers_engine.ai import egdb  # noqa: E402
from checkers_engine.ai.players import game_history, to_move  # noqa: E402
from checkers_engine.ai.search import Searcher  # noqa: E402
from checkers_engine.squares import BIT_SQUARE, SQUARE_BIT  # noqa: E402

THREE_AGAINST_TWO = [
    "W:WK22,K23,K24:BK31,K32",
    "B:WK22,K23,K24:BK31,K32",
    "W:WK1,K2,K3:BK28,K32",
    "B:WK1,K2,K3:BK28,K32",
]


def _squares(mask: int, king: bool) -> list[str]:
    squares = sorted(BIT_SQUARE[bit] for bit in range(36) if mask >> bit & 1)
    return [("K" if king else "") + str(s) for s in squares]


def table_positions(tables: egdb.Tables, key: egdb.Slice, count: int, seed: int) -> list[str]:
    """Won positions of one slice with the longest distances, drums to move."""
    a, b, c, d = key
    up = [SQUARE_BIT[s] for s in range(1, 29)]
    down = [SQUARE_BIT[s] for s in range(5, 33)]
    every = [SQUARE_BIT[s] for s in range(1, 33)]
    found: list[tuple[int, str]] = []
    for om in itertools.combinations(up, a):
        for pm in itertools.combinations(down, c):
            for ok in itertools.combinations(every, b):
                for pk in itertools.combinations(every, d):
                    if len({*om, *pm, *ok, *pk}) < a + b + c + d:
                        continue
                    masks = [sum(1 << x for x in g) for g in (om, ok, pm, pk)]
                    own, opp = masks[0] | masks[1], masks[2] | masks[3]
                    code = tables.code(own, opp, masks[1] | masks[3], 0)
                    if code is not None and 0 < code < egdb.LOSS:
                        drums = _squares(masks[0], False) + _squares(masks[1], True)
                        tires = _squares(masks[2], False) + _squares(masks[3], True)
                        found.append((code, f"B:W{','.join(tires)}:B{','.join(drums)}"))
    found.sort(reverse=True)
    longest = found[: count * 20]
    random.Random(seed).shuffle(longest)
    return [fen for _, fen in longest[:count]]


def play(
    board: Board,
    attacker: Searcher,
    defender: Searcher | egdb.Tables,
    seconds: float,
) -> str:
    side = board.turn
    while board.outcome() is None and board.ply < 200:
        if board.turn is side or isinstance(defender, Searcher):
            searcher = attacker if board.turn is side else defender
            assert isinstance(searcher, Searcher)
            result = searcher.run(
                board.raw_state(),
                time_limit=seconds,
                king_plies=board.king_plies,
                history=game_history(board),
            )
            assert result.best is not None
            raw = result.best
        else:
            values = defender.move_values(board.raw_state(), board.king_plies)
            assert values is not None
            raw = egdb.best_move(values)[0]
        board.push(to_move(board, raw))
    outcome = board.outcome()
    if outcome is None:
        return "unfinished"
    if outcome.winner is None:
        return f"draw ({outcome.termination.value})"
    return "win" if outcome.winner is side else "loss"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule-set", default="english", choices=list(RULE_SETS))
    parser.add_argument("--slice", default="0201", help="own men, own kings, their men, kings")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="the tables' directory")
    parser.add_argument(
        "--three-against-two", action="store_true", help="English 3 kings against 2 instead"
    )
    args = parser.parse_args(argv)
    if args.dir:
        os.environ["CHECKERS_EGDB_DIR"] = args.dir
    rule_set = "english" if args.three_against_two else args.rule_set
    tables = egdb.available(rule_set)
    if tables is None:
        print(f"no tables for {rule_set}: run `checkers egdb build {rule_set}`", file=sys.stderr)
        return 2
    rules = tables.rules
    load = os.getloadavg()[0]
    print(f"{rule_set}, {tables.pieces}-piece tables, {args.time} s a move, load {load:.1f}")
    if args.three_against_two:
        fens = THREE_AGAINST_TWO
    else:
        key = tuple(int(ch) for ch in args.slice)
        assert len(key) == 4
        fens = table_positions(tables, key, args.positions, args.seed)  # type: ignore[arg-type]
    totals = {"with": 0, "without": 0}
    print(f"{'position':<28} {'table':<10} {'with tables':<24} {'without':<24}")
    for fen in fens:
        board = Board(rules, fen=fen)
        found = tables.probe(board) if len(board.pieces()) <= tables.pieces else None
        shown = "-" if found is None else f"{found.wdl:+d} in {found.distance}"
        row = []
        for name, attacker in (
            ("with", Searcher(rules, egdb=tables)),
            ("without", Searcher(rules)),
        ):
            defender: Searcher | egdb.Tables = Searcher(rules) if args.three_against_two else tables
            started = time.perf_counter()
            result = play(Board(rules, fen=fen), attacker, defender, args.time)
            totals[name] += result == "win"
            row.append(f"{result} {time.perf_counter() - started:.0f} s")
        print(f"{fen:<28} {shown:<10} {row[0]:<24} {row[1]:<24}", flush=True)
    n = len(fens)
    print(f"converted: with tables {totals['with']}/{n}, without {totals['without']}/{n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
