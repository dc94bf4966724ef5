"""Build the Executive's opening books (``checkers_engine/ai/books/RULESET.json``) by
drop-out expansion.

Every rule set grows from its start position; English also from the positions of the
156 openings of the 3-move ballot deck (``data/english-3move-ballots.txt``), each searched
before the tree grows on. Each searched position costs ``--nodes`` nodes (a node budget,
not a clock, so a build repeats); ``--positions`` is how many positions each tree grows by.

    python tools/book.py                                  # the shipped books
    python tools/book.py --rule-set russian --positions 400 --nodes 2000000
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the engine's folder

from checkers_engine import RULE_SETS, Board  # noqa: E402
from checkers_engine.ai.book import build  # noqa: E402

DATA = ROOT / "data"
BALLOTS = DATA / "english-3move-ballots.txt"
BOOKS = ROOT / "src" / "checkers_engine" / "ai" / "books"


def ballot_positions(path: Path = BALLOTS) -> list[str]:
    """The engine FENs of the deck's openings (``number | moves | deck | FEN`` lines)."""
    if not path.is_file():
        sys.exit(f"{path} is missing (data/README.md says where it comes from)")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = [f.strip() for f in line.split("|")]
        if line.startswith("#") or len(fields) < 4 or fields[2] != "deck":
            continue
        out.append(Board("english", fen=fields[3]).fen())
    return out


def build_one(
    rule_set: str, positions: int, nodes: int, ballots: bool, pool: ProcessPoolExecutor
) -> tuple[int, int, float]:
    started = time.perf_counter()
    # A ballot is three plies from the start.
    roots = [(fen, 3) for fen in ballot_positions()] if ballots and rule_set == "english" else []

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"{rule_set}: {done}/{total} positions searched\n")

    book = build(
        rule_set,
        positions=positions + len(roots),
        nodes=nodes,
        roots=roots,
        progress=progress,
        mapper=pool.map,
    )
    book.info["ballots"] = len(roots)
    text = book.to_json()
    BOOKS.mkdir(exist_ok=True)
    (BOOKS / f"{rule_set}.json").write_text(text, encoding="utf-8")
    return len(book.positions), len(text.encode()), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule-set", action="append", choices=list(RULE_SETS))
    parser.add_argument("--positions", type=int, default=60, help="tree positions to search")
    parser.add_argument("--nodes", type=int, default=300_000, help="nodes per position")
    parser.add_argument("--no-ballots", action="store_true")
    parser.add_argument("--processes", type=int, default=2, help="for the ballot roots")
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(args.processes) as pool:
        for rule_set in args.rule_set or RULE_SETS:
            count, size, seconds = build_one(
                rule_set, args.positions, args.nodes, not args.no_ballots, pool
            )
            print(f"{rule_set:<10} {count:>5} positions {size:>8,} bytes {seconds:>6.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
