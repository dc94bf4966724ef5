"""The Executive's opening book: one small JSON file per rule set in ``checkers_engine/ai/books``.

A book maps a position (the engine's FEN: pieces and side to move, so transpositions
meet) to the moves worth playing there, each with its score for the side to move in
hundredths of a man. Books are built by drop-out expansion (``build``; the command is
``python tools/book.py``): starting from the start position (and, for English, from the
3-move ballot positions), the position whose path has cost least so far is searched next,
the cost of a path being its length plus how much worse than the best its moves were
for the side that played them. So the book is deep along the best lines and wide where
several moves are nearly as good. Scores are then backed up through the tree by negamax.

At play time ``choose`` picks at random among the moves within ``MARGIN`` of the best:
near-equal moves vary from game to game, a clearly worse one is never played.
"""

from __future__ import annotations

import heapq
import itertools
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from checkers_engine import RULE_SETS, Board, Move
from checkers_engine.ai.search import MATE_BOUND, Searcher

MARGIN = 10
"""Moves within this many hundredths of a man of the book's best are played at random."""

KEEP = 30
"""Moves within this of the best are searched on and stored."""

PLY_COST = 10
"""The cost of one ply of depth, in hundredths of a man of deficit (drop-out expansion)."""

FORMAT = 1


@dataclass
class Book:
    """Positions (FEN) to ``[(move text, score)]``, best first."""

    rule_set: str
    positions: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    info: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> str:
        """The file's text: one line per position, so a rebuilt book diffs line by line."""
        head = {"format": FORMAT, "rule_set": self.rule_set, "info": self.info}
        lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"positions":{']
        items = sorted(self.positions.items())
        for i, (fen, moves) in enumerate(items):
            entry = json.dumps([[m, s] for m, s in moves], separators=(",", ":"))
            lines.append(f"{json.dumps(fen)}:{entry}{',' if i < len(items) - 1 else ''}")
        lines.append("}}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Book:
        body = json.loads(text)
        if body.get("format") != FORMAT:
            raise ValueError(f"unknown book format {body.get('format')!r}")
        positions = {str(k): [(str(m), int(s)) for m, s in v] for k, v in body["positions"].items()}
        return cls(str(body["rule_set"]), positions, dict(body.get("info", {})))


@cache
def load(rule_set: str) -> Book:
    """The packaged book of a rule set (an empty book when none is shipped)."""
    path = resources.files("checkers_engine.ai").joinpath("books", f"{rule_set}.json")
    if not path.is_file():
        return Book(rule_set)
    return Book.from_json(path.read_text(encoding="utf-8"))


def book_moves(board: Board, book: Book | None = None) -> list[tuple[Move, int]]:
    """The book's moves in this position that are legal here, best first (empty: out of
    book)."""
    book = book if book is not None else load(board.rule_set.key)
    entry = book.positions.get(board.fen())
    if not entry:
        return []
    legal = {str(m): m for m in board.legal_moves}
    return [(legal[text], score) for text, score in entry if text in legal]


def choose(board: Board, rng: random.Random, book: Book | None = None) -> Move | None:
    """A book move within ``MARGIN`` of the best, at random; None out of book."""
    moves = book_moves(board, book)
    if not moves:
        return None
    best = max(score for _, score in moves)
    near = [move for move, score in moves if score >= best - MARGIN]
    return rng.choice(near)


# -- building -----------------------------------------------------------------------------


# A position's kept moves with their scores, and the position each leads to.
Searched = tuple[dict[str, int], dict[str, str]]


def search_position(rule_set: str, fen: str, nodes: int) -> Searched:
    """One book position searched as the Executive searches (its static cuts and threat
    extension), ``nodes`` nodes with a fresh table, so a position's result is the same
    whatever was searched before it or beside it: its moves within ``KEEP`` of the best
    with their scores, and the position each leads to (both empty for a decided game)."""
    from checkers_engine.ai.players import to_move  # players uses this module: import at call time

    rules = RULE_SETS[rule_set]
    board = Board(rules, fen=fen)
    if board.is_game_over():
        return {}, {}
    result = Searcher(rules, pruning=True, threats=True).run(
        board.raw_state(), node_limit=nodes, margin=KEEP
    )
    if not result.scores or abs(result.score) > MATE_BOUND:
        return {}, {}
    best = max(result.scores.values())
    kept: dict[str, int] = {}
    kids: dict[str, str] = {}
    for raw, score in result.scores.items():
        if score < best - KEEP:
            continue
        move = to_move(board, raw)
        text = str(move)
        kept[text] = score
        board.push(move)
        kids[text] = board.fen()
        board.pop()
    return kept, kids


Mapper = Callable[..., Iterable[Searched]]


def build(
    rule_set: str,
    *,
    positions: int,
    nodes: int,
    roots: Iterable[tuple[str, int]] = (),
    progress: Callable[[int, int], None] | None = None,
    mapper: Mapper = map,
) -> Book:
    """A book of ``positions`` searched positions (``search_position``, ``nodes`` each, so
    a build repeats), grown from the start position and from ``roots``: ``(FEN, plies from
    the start)``, each searched first, its line's cost counted from its plies. The roots
    are searched through ``mapper`` (``map``, or a process pool's ``map``: they are
    independent of each other); the tree then grows one cheapest line at a time."""
    start = Board(RULE_SETS[rule_set]).fen()
    # (cost, counter, fen): the cheapest line first, the earliest queued among equals.
    heap: list[tuple[float, int, str]] = []
    queued: set[str] = set()
    counter = itertools.count()

    def push(cost: float, fen: str) -> None:
        if fen not in queued:
            queued.add(fen)
            heapq.heappush(heap, (cost, next(counter), fen))

    push(0.0, start)
    first: dict[str, float] = {}
    for fen, plies in roots:
        if fen not in queued and fen not in first:
            first[fen] = float(PLY_COST * plies)
    queued.update(first)
    budget = max(positions, len(first) + 1)
    scores: dict[str, dict[str, int]] = {}
    children: dict[str, dict[str, str]] = {}

    def add(cost: float, fen: str, kept: dict[str, int], kids: dict[str, str]) -> None:
        if not kept:
            return  # a decided position is no book position
        best = max(kept.values())
        for text, score in kept.items():
            push(cost + PLY_COST + (best - score), kids[text])
        scores[fen] = kept
        children[fen] = kids
        if progress is not None:
            progress(len(scores), budget)

    # The roots, cheapest first, before the tree grows.
    fens = sorted(first, key=first.__getitem__)
    found = mapper(search_position, [rule_set] * len(fens), fens, [nodes] * len(fens))
    for fen, searched in zip(fens, found, strict=True):
        add(first[fen], fen, *searched)
    while heap and len(scores) < budget:
        cost, _, fen = heapq.heappop(heap)
        add(cost, fen, *search_position(rule_set, fen, nodes))

    backed: dict[str, int] = {}

    def value(fen: str, trail: frozenset[str]) -> int:
        """Negamax over the searched tree; a leaf keeps its search score."""
        if fen in backed:
            return backed[fen]
        best = -(1 << 30)
        for text, score in scores[fen].items():
            child = children[fen][text]
            if child in scores and child not in trail:
                score = -value(child, trail | {fen})
            best = max(best, score)
        backed[fen] = best
        return best

    book = Book(rule_set, info={"positions": positions, "nodes": nodes, "search": "executive"})
    for fen in scores:
        line = []
        for text, score in scores[fen].items():
            child = children[fen][text]
            if child in scores:
                score = -value(child, frozenset({fen}))
            line.append((text, score))
        top = max(s for _, s in line)
        line = sorted((m for m in line if m[1] >= top - KEEP), key=lambda m: (-m[1], m[0]))
        book.positions[fen] = line
    return book
