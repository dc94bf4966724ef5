"""Perft: the number of leaf nodes of the move tree, the standard move-generator check."""

from __future__ import annotations

from .board import Board
from .movegen import apply, count_moves, generate
from .rulesets import RuleSet
from .squares import BIT_SQUARE


def _perft(
    own: int, opp: int, kings: int, turn: int, depth: int, rules: RuleSet, paths: bool
) -> int:
    if depth == 1:
        return count_moves(own, opp, kings, turn, rules, paths)
    total = 0
    nxt_turn = turn ^ 1
    for path, captured, crowns in generate(own, opp, kings, turn, rules, paths):
        # movegen.apply, inlined: this loop runs once per interior node.
        start = 1 << path[0]
        end = 1 << path[-1]
        nxt_kings = kings & ~captured
        if crowns or nxt_kings & start:
            nxt_kings = (nxt_kings & ~start) | end
        if depth == 2:
            total += count_moves(
                opp & ~captured, own ^ start ^ end, nxt_kings, nxt_turn, rules, paths
            )
        else:
            total += _perft(
                opp & ~captured, own ^ start ^ end, nxt_kings, nxt_turn, depth - 1, rules, paths
            )
    return total


def perft(board: Board, depth: int, *, paths: bool = False) -> int:
    """Leaf count at ``depth`` plies (bulk-counted at the last ply; draws are ignored).

    With ``paths`` every distinct capture route counts as its own move, as published
    tables do; otherwise routes that reach the same position are one move (rule 8).
    """
    if depth < 0:
        raise ValueError("depth must be at least 0")
    if depth == 0:
        return 1
    own, opp, kings, turn = board.raw_state()
    return _perft(own, opp, kings, turn, depth, board.rule_set, paths)


def perft_divide(board: Board, depth: int, *, paths: bool = False) -> dict[str, int]:
    """Leaf counts below each legal move (each route separately with ``paths``)."""
    if depth < 1:
        raise ValueError("depth must be at least 1")
    own, opp, kings, turn = board.raw_state()
    out: dict[str, int] = {}
    for raw in generate(own, opp, kings, turn, board.rule_set, paths):
        nxt = apply(own, opp, kings, turn, raw)
        count = _perft(*nxt, depth - 1, board.rule_set, paths) if depth > 1 else 1
        separator = "x" if raw[1] else "-"
        out[separator.join(str(BIT_SQUARE[b]) for b in raw[0])] = count
    return out
