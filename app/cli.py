"""The `checkers` command: the service and its maintenance tasks."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence


def _cmd_perft(args: argparse.Namespace) -> int:
    from app.engine import Board, EngineError, perft, perft_divide

    try:
        board = Board(args.rule_set, fen=args.fen)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    if args.divide:
        counts = perft_divide(board, args.depth, paths=args.paths)
        for notation, count in counts.items():
            print(f"{notation}: {count}")
        total = sum(counts.values())
    else:
        total = perft(board, args.depth, paths=args.paths)
    elapsed = time.perf_counter() - started
    print(f"perft {args.depth}: {total}")
    print(f"time: {elapsed:.3f} s ({total / max(elapsed, 1e-9):,.0f} leaves/s)", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="checkers", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="count leaf nodes of the move tree")
    p.add_argument("rule_set", help="english, brazilian, russian, spanish, italian or thai")
    p.add_argument("depth", type=int)
    p.add_argument("--fen", default=None, help="start from this PDN FEN")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument(
        "--paths",
        action="store_true",
        help="count every capture path as its own move, as published tables do",
    )
    p.set_defaults(func=_cmd_perft)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
