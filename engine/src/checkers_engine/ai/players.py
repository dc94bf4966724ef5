"""The four computer opponents and the public entry points.

Weakness is shaped like a person's, not like noise: the easy levels read only a few plies
and overlook the opponent's long multi-captures, every level below the top picks among
its root moves by a softmax over their scores (so a clearly better move is nearly always
found, and near-equal ones vary), and sometimes slips to its second-best move; slips
never happen when only one move is legal, grow rarer as the level rises, and at the
middle level never give away more than a little. The levels below the top search a fixed
node budget, whatever the time setting, so their strength does not depend on the clock or
the machine. Executive plays from its opening book while the game is in it (varying among
near-equal book moves), then manages its time (it stops early on a clearly best move and
thinks longer when its score drops), probes the endgame tables when they are built, plays
its best move, varies only its first move of a game, and keeps its transposition table
from one move of a game to the next when told which game it plays (``game=``).
"""

from __future__ import annotations

import math
import random
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum

from checkers_engine import Board, EngineError, Move, Side
from checkers_engine.ai import book, egdb
from checkers_engine.ai.search import MATE_BOUND, Searcher, SearchResult, State, TranspositionTable
from checkers_engine.movegen import RawMove
from checkers_engine.squares import BIT_SQUARE

DEFAULT_TIME_LIMIT = 2.0
"""Executive's thinking time per move, in seconds."""

CLEARLY_AHEAD = 60
"""Evaluation (hundredths of a man) above which the computer declines a draw offer."""


class Level(Enum):
    """The computer opponents, weakest first; the value is the stored identifier."""

    TAMER = "tamer"
    DRIVER = "driver"
    WARDEN = "warden"
    EXECUTIVE = "executive"

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @property
    def difficulty(self) -> str:
        """How hard it is to beat, in a word or two."""
        return _DIFFICULTY[self]


_DIFFICULTY = {
    Level.TAMER: "very easy",
    Level.DRIVER: "easy",
    Level.WARDEN: "medium",
    Level.EXECUTIVE: "hard",
}


@dataclass(frozen=True, slots=True)
class Profile:
    """How one level searches and chooses."""

    max_depth: int
    # A fixed node budget, whatever the time setting: the level's strength does not depend
    # on the clock or the machine (None: Executive, which searches until its time is spent).
    node_limit: int | None
    time_cap: float | None  # safety bound on the clock (Executive: its default budget)
    blind: int  # overlook the opponent's captures of at least this many pieces (0: none)
    temperature: float  # softmax temperature over root scores, hundredths of a man
    margin: int  # root moves scored exactly within this margin of the best
    slip: float  # chance of playing the second-best move instead
    slip_max_loss: int  # a slip never costs more than this (hundredths of a man)
    opening_plies: int = 0  # Executive: vary the first moves of a game among near-equals
    book: bool = False  # Executive: play from the opening book while in it
    managed_time: bool = False  # stop early on a clearly best move, extend on a drop
    keeps_table: bool = False  # one transposition table for all its moves of a game
    pruning: bool = False  # Executive: static cuts and deeper reductions (search.Searcher)
    threats: bool = False  # Executive: a capture threat at the horizon gets one more ply


PROFILES: dict[Level, Profile] = {
    Level.TAMER: Profile(
        max_depth=2,
        node_limit=20_000,
        time_cap=2.0,
        blind=2,
        temperature=70.0,
        margin=400,
        slip=0.22,
        slip_max_loss=1_000,
    ),
    Level.DRIVER: Profile(
        max_depth=4,
        node_limit=60_000,
        time_cap=2.0,
        blind=3,
        temperature=25.0,
        margin=200,
        slip=0.10,
        slip_max_loss=250,
    ),
    Level.WARDEN: Profile(
        max_depth=10,
        node_limit=60_000,
        time_cap=5.0,
        blind=0,
        temperature=6.0,
        margin=40,
        slip=0.03,
        slip_max_loss=40,
    ),
    Level.EXECUTIVE: Profile(
        max_depth=64,
        node_limit=None,
        time_cap=DEFAULT_TIME_LIMIT,
        blind=0,
        temperature=0.0,
        margin=0,
        slip=0.0,
        slip_max_loss=0,
        opening_plies=2,
        book=True,
        managed_time=True,
        keeps_table=True,
        pruning=True,
        threats=True,
    ),
}

GAME_TABLES = 4
"""Transposition tables kept per process, one per game, the least recently used dropped
first: some 30 MB each when full (``search.DEFAULT_BUCKETS``)."""

_tables: OrderedDict[Hashable, TranspositionTable] = OrderedDict()


def game_table(game: Hashable) -> TranspositionTable:
    """The transposition table of ``game`` (any hashable key naming one game and side,
    such as the room, game number and side), made on first use. One process runs one
    search at a time (the computer's worker pool), so the cache needs no lock."""
    table = _tables.get(game)
    if table is None:
        table = _tables[game] = TranspositionTable()
        while len(_tables) > GAME_TABLES:
            _tables.popitem(last=False)
    else:
        _tables.move_to_end(game)
    return table


_OPENING_MARGIN = 12

LEAST_SHARE = 0.1
"""The least share of its time limit a search is given, however much of the limit went
before it."""


class NoMoveError(EngineError):
    """The computer was asked to move in a finished game."""


def parse_level(value: str | Level) -> Level:
    """The Level for ``"tamer"`` .. ``"executive"`` (any case); ValueError otherwise."""
    if isinstance(value, Level):
        return value
    try:
        return Level(str(value).strip().lower())
    except ValueError:
        known = ", ".join(level.value for level in Level)
        raise ValueError(f"unknown level {value!r}; known: {known}") from None


def game_history(board: Board) -> list[State]:
    """Positions of the game since its last man move or capture, before the current one:
    the only ones that can repeat."""
    back = min(board.king_plies, board.ply)
    if not back:
        return []
    replay = board.copy()
    out = []
    for _ in range(back):
        replay.pop()
        out.append(replay.raw_state())
    return out


def to_move(board: Board, raw: RawMove) -> Move:
    """The engine Move of the board that a raw move stands for."""
    start, end = BIT_SQUARE[raw[0][0]], BIT_SQUARE[raw[0][-1]]
    captured = []
    mask = raw[1]
    while mask:
        low = mask & -mask
        mask ^= low
        captured.append(BIT_SQUARE[low.bit_length() - 1])
    taken = tuple(sorted(captured))
    for move in board.legal_moves:
        if move.start == start and move.end == end and move.captured == taken:
            return move
    raise AssertionError(f"search returned a move the board does not list: {raw}")


def analyse(
    board: Board,
    level: Level | str = Level.EXECUTIVE,
    *,
    time_limit: float | None = None,
    margin: int | None = None,
    game: Hashable | None = None,
    started: float | None = None,
) -> SearchResult:
    """Search the board as ``level`` would (no randomness): root scores and best line.

    ``game`` names the game for the levels that keep their table across its moves. The
    Executive probes the endgame tables once they are built (``checkers egdb build``, or
    the service's build on first use). ``started`` (a ``time.perf_counter()`` reading) is
    when the Executive's time began, if before this call: what went since, here too
    (making a game's table, or dropping the least recent one, takes a tenth of a second),
    comes off its search's time.
    """
    lvl = parse_level(level)
    profile = PROFILES[lvl]
    table = None
    if game is not None and profile.keeps_table:
        table = game_table((game, board.rule_set.key))
    tables = egdb.available(board.rule_set) if lvl is Level.EXECUTIVE else None
    searcher = Searcher(
        board.rule_set,
        blind=profile.blind,
        tt=table,
        egdb=tables,
        pruning=profile.pruning,
        threats=profile.threats,
    )
    limit = _time_limit(profile, time_limit)
    if limit is not None and started is not None and profile.node_limit is None:
        limit = max(limit - (time.perf_counter() - started), limit * LEAST_SHARE)
    return searcher.run(
        board.raw_state(),
        max_depth=profile.max_depth,
        time_limit=limit,
        node_limit=profile.node_limit,
        margin=profile.margin if margin is None else margin,
        king_plies=board.king_plies,
        history=game_history(board),
        managed_time=profile.managed_time,
    )


def _time_limit(profile: Profile, time_limit: float | None) -> float | None:
    if time_limit is not None and time_limit <= 0:
        raise ValueError("time_limit must be positive")
    if time_limit is None or profile.node_limit is not None:
        # A node budget is independent of the time setting; the cap only bounds a
        # pathological case on a very slow machine.
        return profile.time_cap
    return time_limit


def choose_move(
    board: Board,
    level: Level | str = Level.EXECUTIVE,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    game: Hashable | None = None,
    started: float | None = None,
) -> Move:
    """The move the computer at ``level`` plays on ``board`` (its side to move).

    ``time_limit`` (seconds) is Executive's budget, 2 s by default, for the whole call
    (from ``started``, a ``time.perf_counter()`` reading, when given): what goes before
    its search comes off the search's time. The other levels search their node budget
    whatever it is. In its opening book Executive answers at once. A seed makes the
    choice repeatable (Executive's depth still depends on the clock). ``game`` names the
    game and side, so Executive keeps what it learned for its next move. Raises
    NoMoveError when the game is over.
    """
    began = time.perf_counter() if started is None else started
    lvl = parse_level(level)
    profile = PROFILES[lvl]
    if board.is_game_over():
        raise NoMoveError("the game is over: there is no move to choose")
    legal = board.legal_moves
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    if profile.book:
        from_book = book.choose(board, rng)
        if from_book is not None:
            return from_book
    opening = profile.opening_plies > 0 and _in_opening(board, profile.opening_plies)
    margin = max(profile.margin, _OPENING_MARGIN if opening else 0)
    result = analyse(board, lvl, time_limit=time_limit, margin=margin, game=game, started=began)
    if result.best is None:  # pragma: no cover - the game is not over
        raise NoMoveError("no legal move")
    raw = _among_equals(result, rng) if opening else _pick(result, profile, rng)
    return to_move(board, raw)


def _in_opening(board: Board, plies: int) -> bool:
    """Whether the game is within its first ``plies`` moves from the start position."""
    pieces = board.pieces()
    full = 2 * board.rule_set.men_per_side
    if len(pieces) != full or any(p.king for p in pieces.values()):
        return False
    start = Board(board.rule_set)
    replay = board.copy()
    for _ in range(min(board.ply, plies)):
        replay.pop()
    return board.ply < plies and replay.key == start.key


def _among_equals(result: SearchResult, rng: random.Random) -> RawMove:
    """Any root move within the opening margin of the best (last completed iteration)."""
    assert result.best is not None
    if not result.scores:
        return result.best
    best = max(result.scores.values())
    near = sorted(m for m, s in result.scores.items() if s >= best - _OPENING_MARGIN)
    return rng.choice(near)


def _pick(result: SearchResult, profile: Profile, rng: random.Random) -> RawMove:
    """Softmax over root scores, or a slip to the second best."""
    assert result.best is not None
    if profile.temperature <= 0 or not result.scores or abs(result.score) > MATE_BOUND:
        return result.best
    ranked = sorted(result.scores.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))
    best_score = ranked[0][1]
    if (
        len(ranked) > 1
        and rng.random() < profile.slip
        and best_score - ranked[1][1] <= profile.slip_max_loss
        and ranked[1][1] > -MATE_BOUND
    ):
        return ranked[1][0]
    floor = best_score - profile.margin
    weights = []
    for _, score in ranked:
        if score < floor or score < -MATE_BOUND:
            weights.append(0.0)
        else:
            weights.append(math.exp((score - best_score) / profile.temperature))
    return rng.choices([m for m, _ in ranked], weights=weights)[0]


def evaluate_for_draw_offer(board: Board, side: Side, *, time_limit: float = 0.5) -> bool:
    """Whether ``side`` (the computer) accepts a draw: yes unless a short search finds it
    clearly ahead (more than ``CLEARLY_AHEAD``)."""
    if board.is_game_over():
        return False
    searcher = Searcher(board.rule_set)
    result = searcher.run(
        board.raw_state(),
        max_depth=12,
        time_limit=time_limit,
        king_plies=board.king_plies,
        history=game_history(board),
        shortcut_forced=False,
    )
    score = result.score
    if board.turn is not side:
        score = -score
    return score <= CLEARLY_AHEAD


def review_position(
    board: Board,
    *,
    time_limit: float,
    game: Hashable | None = None,
    started: float | None = None,
) -> tuple[int, Move | None]:
    """The Executive's judgement of a position for reviewing a game: its score for the
    side to move (hundredths of a man) and the move it would play (None: none is legal).
    ``game`` names the review, so its positions share one transposition table; the time
    limit counts from ``started`` (as ``choose_move``'s), else from the call."""
    began = time.perf_counter() if started is None else started
    legal = board.legal_moves
    if not legal:  # no move: the side to move has lost
        return -MATE_BOUND, None
    if len(legal) == 1:
        # A forced move needs no choosing, and a search may stop at once on one; the
        # position is worth what the position after it is worth.
        board.push(legal[0])
        try:
            after, _ = review_position(board, time_limit=time_limit, game=game, started=began)
        finally:
            board.pop()
        return -after, legal[0]
    result = analyse(board, Level.EXECUTIVE, time_limit=time_limit, game=game, started=began)
    return result.score, to_move(board, result.best) if result.best is not None else None
