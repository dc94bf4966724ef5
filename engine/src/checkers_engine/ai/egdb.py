"""Endgame databases: every position of a few pieces solved by retrograde analysis.

A table gives, for a position with the side to move and no plain king ply played yet, its
value under the rules of the game, the 20-plain-king-ply draw included, and a distance:

- a **win in n** (1 <= n <= 20): the side to move can force, within n plies that are plain
  king moves or the converting move itself, a capture or a man's move (the moves that
  restart the count) into a position lost for the other side, or leave it without a move;
- a **loss in n** (0 <= n <= 20): the other side has such a win, and n is how long the side
  to move can hold it off (0: it has no move);
- a **draw** otherwise.

With k plain king plies already played, a win in n still wins when n <= 20 - k (and a
loss in n still loses when n <= 20 - k); otherwise the draw rule comes first. So the
distance is exactly what the search needs to convert within the rule.

How it is solved. Material is a *slice* ``(own men, own kings, other men, other kings)``,
always seen from the side to move, with the board turned so that it moves up (the engine's
drums). Captures and crownings lead to slices solved before; a man's move raises the men's
advancement, so within a pair of slices (the side to move and its mirror) the positions of
one set of men's squares are solved from the most advanced down. Inside such a set only
plain king moves link positions, and a breadth-first retrograde pass, capped at 20, gives
the exact distances. Moves forward always come from the engine's own generator
(``checkers_engine.movegen``); only the king's step back is generated here, and a predecessor
counts only when its mover had no capture (captures are compulsory).

Indexing. A slice's positions are numbered by the combination rank of each group's squares
(men of the side to move on the 28 squares below its far row, the other side's men on the
28 above its own far row, each side's kings on all 32): a few dictionary look-ups per
position, at the cost of some unused numbers where groups overlap. One byte per number.

Storage. Tables of up to four pieces (7 MB a rule set in memory) are kept compressed and
read whole. The five-piece table (180 MB) is kept uncompressed and read in place: every
process maps the same file, so the operating system holds one copy for all of them and
reads only the pages probed.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import mmap
import os
import random
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from checkers_engine.board import KING_PLIES_DRAW, Board
from checkers_engine.fen import write_fen
from checkers_engine.movegen import (
    RawMove,
    apply,
    capture_sequences,
    capturers,
    generate,
    quiet_moves,
)
from checkers_engine.rulesets import RuleSet, get_rule_set
from checkers_engine.squares import (
    NUM_BITS,
    PROMOTION_MASK,
    RAY,
    SQUARE_BIT,
    bits_to_squares,
    popcount,
)

State = tuple[int, int, int, int]
Slice = tuple[int, int, int, int]
Table = bytearray | memoryview
"""One slice's codes: in memory, or a view of a mapped file."""
Progress = Callable[[int, int, str], None]

#: Codes stored per position: 0 a draw, 1-20 a win in n, LOSS + n a loss in n.
DRAW = 0
LOSS = 128
_UNSOLVED = 255
#: The most pieces a table may hold (5 pieces: 180 million index numbers).
MAX_PIECES = 5
#: Tables of this many pieces or more are stored uncompressed and mapped, not read whole.
MAPPED_FROM = 5
#: The longest distance a code can hold (wins 1-126, losses LOSS + 0-126).
MAX_HORIZON = 126
_UNSOLVED_TO_DRAW = bytes(range(255)) + bytes([DRAW])
#: The search's score of a won table position, less its distance (a found mate is more).
KNOWN_WIN = 500_000
_MAGIC = b"CHECKERS-EGDB 1\n"
_ENV_DIR = "CHECKERS_EGDB_DIR"


class EgdbError(Exception):
    """A table is missing, damaged or asked for what it cannot hold."""


# -- squares and ranks -------------------------------------------------------------------

_PLAYABLE = tuple(SQUARE_BIT[1:])
_UP_MEN = tuple(b for b in _PLAYABLE if not PROMOTION_MASK[0] >> b & 1)
_DOWN_MEN = tuple(b for b in _PLAYABLE if not PROMOTION_MASK[1] >> b & 1)


def _groups(bits: Sequence[int], most: int) -> tuple[list[list[int]], dict[int, int]]:
    """Every mask of up to ``most`` of ``bits``, by size, and each mask's rank in its size."""
    by_size: list[list[int]] = []
    rank: dict[int, int] = {}
    for size in range(most + 1):
        masks = [sum(1 << b for b in combo) for combo in itertools.combinations(bits, size)]
        by_size.append(masks)
        for i, mask in enumerate(masks):
            rank[mask] = i
    return by_size, rank


_UP_MASKS, _UP_RANK = _groups(_UP_MEN, MAX_PIECES - 1)
_DOWN_MASKS, _DOWN_RANK = _groups(_DOWN_MEN, MAX_PIECES - 1)
_KING_MASKS, _KING_RANK = _groups(_PLAYABLE, MAX_PIECES - 1)


def _reverse12() -> tuple[int, ...]:
    out = []
    for x in range(1 << 12):
        r = 0
        for i in range(12):
            if x >> i & 1:
                r |= 1 << (11 - i)
        out.append(r)
    return tuple(out)


_REV12 = _reverse12()
assert NUM_BITS == 36


def flip(mask: int) -> int:
    """The mask turned 180 degrees (bit b to bit 35 - b): the board seen by the other side."""
    rev = _REV12
    return rev[mask & 0xFFF] << 24 | rev[mask >> 12 & 0xFFF] << 12 | rev[mask >> 24]


def _advance(men_up: int, men_down: int) -> int:
    """How far the men have come: every man's move adds one, nothing takes any away."""
    total = 0
    for mask, up in ((men_up, True), (men_down, False)):
        while mask:
            low = mask & -mask
            mask ^= low
            rank = (low.bit_length() - 1) * 2 // 9
            total += rank if up else 7 - rank
    return total


def slices(pieces: int) -> list[Slice]:
    """The material slices of exactly ``pieces`` pieces, each side having at least one."""
    out = []
    for a, b, c in itertools.product(range(pieces + 1), repeat=3):
        d = pieces - a - b - c
        if d >= 0 and a + b and c + d:
            out.append((a, b, c, d))
    return out


def _slice_size(key: Slice) -> int:
    a, b, c, d = key
    return len(_UP_MASKS[a]) * len(_DOWN_MASKS[c]) * len(_KING_MASKS[b]) * len(_KING_MASKS[d])


# -- the tables -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Probe:
    """A table's answer for the side to move: ``wdl`` 1 win, 0 draw, -1 loss, and the
    plies to conversion (see the module docstring; 0 for a draw)."""

    wdl: int
    distance: int


class Tables:
    """The solved slices of one rule set, up to ``pieces`` pieces."""

    def __init__(
        self,
        rules: RuleSet,
        pieces: int,
        data: Mapping[Slice, Table],
        horizon: int = KING_PLIES_DRAW,
    ) -> None:
        self.rules = rules
        self.pieces = pieces
        self.data = data
        self.horizon = horizon
        self._dims = {
            key: (len(_DOWN_MASKS[key[2]]), len(_KING_MASKS[key[1]]), len(_KING_MASKS[key[3]]))
            for key in data
        }

    def code(self, own: int, opp: int, kings: int, turn: int) -> int | None:
        """The stored code of an engine position ``(own, opp, kings, turn)``, or None when
        the table does not hold its material."""
        if turn:
            own, opp, kings = flip(own), flip(opp), flip(kings)
        if not own:
            return LOSS
        om = own & ~kings
        ok = own & kings
        pm = opp & ~kings
        pk = opp & kings
        key = (popcount(om), popcount(ok), popcount(pm), popcount(pk))
        table = self.data.get(key)
        if table is None:
            return None
        n_pm, n_ok, n_pk = self._dims[key]
        return table[((_UP_RANK[om] * n_pm + _DOWN_RANK[pm]) * n_ok + _KING_RANK[ok]) * n_pk
                     + _KING_RANK[pk]]  # fmt: skip

    def probe_state(self, state: State, king_plies: int = 0) -> Probe | None:
        """The value of an engine position after ``king_plies`` plain king plies."""
        code = self.code(*state)
        if code is None:
            return None
        return decode(code, king_plies, self.horizon)

    def score(self, state: State, king_plies: int) -> int | None:
        """The search's score of an engine position for its side to move: a win scores
        ``KNOWN_WIN`` less its distance, so the search heads for the quickest conversion;
        None when the table does not hold it."""
        code = self.code(*state)
        if code is None:
            return None
        found = decode(code, king_plies, self.horizon)
        if found.wdl > 0:
            return KNOWN_WIN - found.distance
        if found.wdl < 0:
            return found.distance - KNOWN_WIN
        return 0

    def probe(self, board: Board) -> Probe | None:
        """The value of the board's position for its side to move, its count of plain
        king plies included; None when the table does not hold it."""
        return self.probe_state(board.raw_state(), board.king_plies)

    def move_values(self, state: State, king_plies: int = 0) -> list[tuple[RawMove, Probe]] | None:
        """Every legal move with its value for the side that moves: won, drawn or lost,
        and the plies from here to the next capture or man's move.

        A capture or man's move is that move itself (1): the count starts again behind it,
        so the reply's distance belongs to the next stretch. A plain king move is one more
        than the reply's. (Ranking a win by the reply's distance alone would prefer a king
        move into a loss in 2 to a conversion into a loss in 17, and again on the next
        move: the won ending would go round in a circle to a repetition.)"""
        own, opp, kings, turn = state
        if popcount(own | opp) > self.pieces:
            return None
        out = []
        for move in generate(own, opp, kings, turn, self.rules):
            child = apply(own, opp, kings, turn, move)
            plain_king = not move[1] and kings >> move[0][0] & 1
            after = self.probe_state(child, king_plies + 1 if plain_king else 0)
            if after is None:
                return None
            distance = after.distance + 1 if plain_king else 1
            out.append((move, Probe(-after.wdl, distance if after.wdl else 0)))
        return out


def decode(code: int, king_plies: int = 0, horizon: int = KING_PLIES_DRAW) -> Probe:
    """A stored code read after ``king_plies`` plain king plies: a win or loss whose
    distance no longer fits before the draw rule is a draw."""
    left = horizon - king_plies
    if code == DRAW:
        return Probe(0, 0)
    if code >= LOSS:
        n = code - LOSS
        return Probe(-1, n) if n <= left else Probe(0, 0)
    return Probe(1, code) if code <= left else Probe(0, 0)


def best_move(values: list[tuple[RawMove, Probe]]) -> tuple[RawMove, Probe]:
    """The move to play by the table: a win by the fewest plies to conversion, else a
    draw, else the loss held off longest."""

    def rank(item: tuple[RawMove, Probe]) -> tuple[int, int]:
        _, value = item
        if value.wdl > 0:
            return (2, -value.distance)
        if value.wdl == 0:
            return (1, 0)
        return (0, value.distance)

    return max(values, key=rank)


# -- solving --------------------------------------------------------------------------


class _Solver:
    def __init__(self, rules: RuleSet, data: dict[Slice, Table], horizon: int) -> None:
        self.rules = rules
        self.data = data  # every slice, for reading
        self.new: dict[Slice, bytearray] = {}  # the slices being solved
        self.horizon = horizon
        self.dims = {
            key: (len(_DOWN_MASKS[key[2]]), len(_KING_MASKS[key[1]]), len(_KING_MASKS[key[3]]))
            for key in data
        }
        self.flying = rules.flying_kings

    def add(self, key: Slice) -> None:
        self.data[key] = self.new[key] = bytearray([_UNSOLVED]) * _slice_size(key)
        self.dims[key] = (
            len(_DOWN_MASKS[key[2]]),
            len(_KING_MASKS[key[1]]),
            len(_KING_MASKS[key[3]]),
        )

    def locate(self, own: int, opp: int, kings: int) -> tuple[Slice, int]:
        """The slice and index of a position whose side to move moves up."""
        om = own & ~kings
        ok = own & kings
        pm = opp & ~kings
        pk = opp & kings
        key = (popcount(om), popcount(ok), popcount(pm), popcount(pk))
        n_pm, n_ok, n_pk = self.dims[key]
        index = ((_UP_RANK[om] * n_pm + _DOWN_RANK[pm]) * n_ok + _KING_RANK[ok]) * n_pk
        return key, index + _KING_RANK[pk]

    def child_code(self, own: int, opp: int, kings: int, move: RawMove) -> int:
        nxt_own, nxt_opp, nxt_kings, _ = apply(own, opp, kings, 0, move)
        if not nxt_own:
            return LOSS
        key, index = self.locate(flip(nxt_own), flip(nxt_opp), flip(nxt_kings))
        return self.data[key][index]

    def predecessors(self, own: int, opp: int, kings: int) -> Iterator[tuple[int, int, int]]:
        """Positions (their mover moving up) from which the other side's plain king move
        could have led here: the king steps back over empty squares. The move was legal
        only if its mover had no capture there; the caller checks that when it matters."""
        occupied = own | opp
        movers = opp & kings
        while movers:
            low = movers & -movers
            movers ^= low
            here = low.bit_length() - 1
            for ray in RAY[here]:
                for square in ray:
                    bit = 1 << square
                    if occupied & bit:
                        break
                    moved = low | bit
                    yield flip(opp ^ moved), flip(own), flip(kings ^ moved)
                    if not self.flying:
                        break

    def solve_pair(self, first: Slice, progress: Callable[[int], None]) -> None:
        second = (first[2], first[3], first[0], first[1])
        for key in {first, second}:
            self.add(key)
        counts = {key: bytearray(_slice_size(key)) for key in {first, second}}
        configs = [
            (om, pm) for om in _UP_MASKS[first[0]] for pm in _DOWN_MASKS[first[2]] if not om & pm
        ]
        configs.sort(key=lambda mp: _advance(mp[0], mp[1]), reverse=True)
        done: set[tuple[int, int]] = set()
        for om, pm in configs:
            if first == second and (om, pm) in done:
                continue
            blocks = [(first, om, pm)]
            partner = (flip(pm), flip(om))
            if first != second or partner != (om, pm):
                blocks.append((second, *partner))
                if first == second:
                    done.add(partner)
            progress(self._solve_block(blocks, counts))

    def _solve_block(
        self, blocks: list[tuple[Slice, int, int]], counts: dict[Slice, bytearray]
    ) -> int:
        """Solve the positions of one set of men's squares (and its mirror): all that plain
        king moves connect. Returns how many index numbers its blocks cover."""
        rules = self.rules
        locate = self.locate
        child_code = self.child_code
        horizon = self.horizon
        wins: list[list[tuple[int, int, int]]] = [[] for _ in range(horizon + 1)]
        losses: list[list[tuple[int, int, int]]] = [[] for _ in range(horizon + 1)]
        solved = 0
        for key, _, _ in blocks:
            solved += self.dims[key][1] * self.dims[key][2]
        for key, om, pm in blocks:
            table = self.new[key]
            count = counts[key]
            men = om | pm
            n_pm, n_ok, n_pk = self.dims[key]
            base = (_UP_RANK[om] * n_pm + _DOWN_RANK[pm]) * n_ok * n_pk
            for i_ok, ok in enumerate(_KING_MASKS[key[1]]):
                if ok & men:
                    continue
                own = om | ok
                row = base + i_ok * n_pk
                for i_pk, pk in enumerate(_KING_MASKS[key[3]]):
                    if pk & (men | ok):
                        continue
                    opp = pm | pk
                    kings = ok | pk
                    index = row + i_pk
                    pos = (own, opp, kings)
                    pieces = capturers(own, opp, kings, 0, rules)
                    if pieces:
                        conversions = capture_sequences(pieces, own, opp, kings, 0, rules, False)
                        king_moves = 0
                    else:
                        quiet = quiet_moves(own, opp, kings, 0, rules)
                        if not quiet:
                            table[index] = LOSS
                            losses[0].append(pos)
                            continue
                        conversions = [m for m in quiet if not kings >> m[0][0] & 1]
                        king_moves = len(quiet) - len(conversions)
                    escape = 0
                    won = False
                    for move in conversions:
                        value = child_code(own, opp, kings, move)
                        if value == _UNSOLVED:  # pragma: no cover - ordering broken
                            raise AssertionError("a conversion reached an unsolved position")
                        if value >= LOSS:
                            won = True
                            break
                        if value == DRAW:
                            escape = 1
                    if won:
                        table[index] = 1
                        wins[1].append(pos)
                        continue
                    left = king_moves + escape
                    if not left:  # every move converts, into a win for the other side
                        table[index] = LOSS + 1
                        losses[1].append(pos)
                        continue
                    count[index] = min(left, 255)
                    if left > 255:  # pragma: no cover - at most 4 kings x 13 squares
                        raise AssertionError("too many king moves to count in a byte")
        predecessors = self.predecessors
        data = self.new  # a plain king move stays within the blocks' slices
        for depth in range(horizon):
            for pos in losses[depth]:
                for pred in predecessors(*pos):
                    key, index = locate(*pred)
                    table = data[key]
                    if table[index] == _UNSOLVED and not capturers(*pred, 0, rules):
                        table[index] = depth + 1
                        wins[depth + 1].append(pred)
            for pos in wins[depth]:
                for pred in predecessors(*pos):
                    key, index = locate(*pred)
                    table = data[key]
                    if table[index] == _UNSOLVED and not capturers(*pred, 0, rules):
                        count = counts[key]
                        count[index] -= 1
                        if not count[index]:
                            table[index] = LOSS + depth + 1
                            losses[depth + 1].append(pred)
        # What the retrograde pass left is drawn; mark it so, as later blocks read it.
        for key, om, pm in blocks:
            n_pm, n_ok, n_pk = self.dims[key]
            start = (_UP_RANK[om] * n_pm + _DOWN_RANK[pm]) * n_ok * n_pk
            end = start + n_ok * n_pk
            table = data[key]
            table[start:end] = table[start:end].translate(_UNSOLVED_TO_DRAW)
        return solved


def _pair_order(pieces: int) -> list[Slice]:
    """One slice of each mirror pair, the fewest men first (a crowning leads to fewer)."""
    seen: set[Slice] = set()
    out = []
    for key in sorted(slices(pieces), key=lambda k: (k[0] + k[2], k)):
        if key in seen:
            continue
        seen.add(key)
        seen.add((key[2], key[3], key[0], key[1]))
        out.append(key)
    return out


def _material(kings: int, men: int) -> str:
    """``2K+1M``: one side's pieces, for the progress bar."""
    return "+".join(f"{n}{letter}" for n, letter in ((kings, "K"), (men, "M")) if n)


def _work(key: Slice) -> int:
    """The index numbers a slice's blocks cover (its men not overlapping): the progress
    bar's unit."""
    a, b, c, d = key
    configs = sum(1 for om in _UP_MASKS[a] for pm in _DOWN_MASKS[c] if not om & pm)
    return configs * len(_KING_MASKS[b]) * len(_KING_MASKS[d])


def positions_of(pieces: int) -> int:
    """How many positions the index numbers for exactly ``pieces`` pieces."""
    return sum(_slice_size(key) for key in slices(pieces))


def solve(
    rules: RuleSet,
    pieces: int,
    lower: Mapping[Slice, Table],
    progress: Progress | None = None,
    *,
    horizon: int = KING_PLIES_DRAW,
    only: Sequence[Slice] | None = None,
) -> dict[Slice, bytearray]:
    """Solve every slice of exactly ``pieces`` pieces; ``lower`` holds all smaller ones.
    Returns the new slices; unsolved positions come out as draws.

    ``horizon`` is the draw rule's count of plain king plies (a larger one, up to
    ``MAX_HORIZON``, solves the game as if the rule were longer); ``only`` solves just
    these slices and their mirrors, when ``lower`` holds every slice they lead to.
    """
    if not 2 <= pieces <= MAX_PIECES:
        raise EgdbError(f"tables hold 2 to {MAX_PIECES} pieces, not {pieces}")
    if not 1 <= horizon <= MAX_HORIZON:
        raise EgdbError(f"the horizon is 1 to {MAX_HORIZON} plies, not {horizon}")
    solver = _Solver(rules, dict(lower), horizon)
    order = _pair_order(pieces)
    if only is not None:
        wanted = set(only) | {(k[2], k[3], k[0], k[1]) for k in only}
        order = [key for key in order if key in wanted]
    solved_keys = [k for p in order for k in {p, (p[2], p[3], p[0], p[1])}]
    total = sum(_work(key) for key in solved_keys)
    done = 0
    for key in order:
        label = f"{_material(key[1], key[0])} v {_material(key[3], key[2])}"

        def advance(n: int, label: str = label) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress(done, total, label)

        solver.solve_pair(key, advance)
    out = {}
    for key in solved_keys:
        out[key] = solver.new[key].translate(_UNSOLVED_TO_DRAW)
    if progress is not None:
        progress(total, total, "done")
    return out


# -- checking -------------------------------------------------------------------------


def disagreement(tables: Tables, own: int, opp: int, kings: int) -> str | None:
    """What is wrong with the stored code of a position (its mover moving up, as the
    drums), judged from the codes after each of its legal moves; None when it agrees.

    A win in n has a move to a position lost for the other side: a capture or man's move
    into any loss, or a plain king move into a loss in n - 1; none does better. A loss in n
    has every move into a win for the other side, the plain king moves into wins in at most
    n - 1 (one exactly), and 0 means no move at all. A draw has no move into a loss for the
    other side and one move that does not lose."""
    horizon = tables.horizon
    code = tables.code(own, opp, kings, 0)
    if code is None:
        return "not held by the tables"
    moves = generate(own, opp, kings, 0, tables.rules)
    fastest = 0  # quickest win the moves give (0: none)
    all_lose = bool(moves)
    slowest = 0  # longest a loss can be held off through a plain king move
    for move in moves:
        after = tables.code(*apply(own, opp, kings, 0, move))
        if after is None:
            return "a move leads out of the tables"
        plain_king = not move[1] and kings >> move[0][0] & 1
        if after >= LOSS:
            n = after - LOSS + 1 if plain_king else 1
            if n <= horizon and (not fastest or n < fastest):
                fastest = n
            all_lose = False
        elif after == DRAW or (plain_king and after + 1 > horizon):
            all_lose = False
        elif plain_king:
            slowest = max(slowest, after)
    if not moves:
        expected = LOSS
    elif fastest:
        expected = fastest
    elif all_lose:
        expected = LOSS + slowest + 1
    else:
        expected = DRAW
    if code == expected:
        return None
    return f"stored {_describe(code)}, the moves give {_describe(expected)}"


def position_fen(own: int, opp: int, kings: int) -> str:
    """The FEN of a table's position (its mover moving up, as the drums)."""
    return write_fen(
        bits_to_squares(own & ~kings),
        bits_to_squares(own & kings),
        bits_to_squares(opp & ~kings),
        bits_to_squares(opp & kings),
        0,
    )


def _describe(code: int) -> str:
    if code == DRAW:
        return "a draw"
    if code >= LOSS:
        return f"a loss in {code - LOSS}"
    return f"a win in {code}"


def sample(
    tables: Tables, pieces: int, count: int, seed: int = 0
) -> Iterator[tuple[int, int, int]]:
    """``count`` random positions of exactly ``pieces`` pieces the tables hold, as
    ``(own, opp, kings)`` with the mover moving up: a material slice at random, then its
    pieces' squares."""
    rng = random.Random(seed)
    keys = sorted(k for k in tables.data if sum(k) == pieces)
    if not keys:
        raise EgdbError(f"the tables hold no {pieces}-piece positions")
    made = 0
    while made < count:
        a, b, c, d = rng.choice(keys)
        om, pm = rng.sample(_UP_MEN, a), rng.sample(_DOWN_MEN, c)
        ok, pk = rng.sample(_PLAYABLE, b), rng.sample(_PLAYABLE, d)
        if len({*om, *pm, *ok, *pk}) < pieces:
            continue
        own = sum(1 << x for x in om + ok)
        opp = sum(1 << x for x in pm + pk)
        yield own, opp, sum(1 << x for x in ok + pk)
        made += 1


# -- files ----------------------------------------------------------------------------


def default_dir() -> Path:
    """Where tables are kept: ``CHECKERS_EGDB_DIR``, else the user's cache directory."""
    configured = os.environ.get(_ENV_DIR)
    if configured:
        return Path(configured)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "checkers" / "egdb"


def file_name(rules: RuleSet, pieces: int) -> str:
    return f"{rules.key}-{pieces}.egdb"


def save(
    directory: Path,
    rules: RuleSet,
    pieces: int,
    data: Mapping[Slice, Table],
    *,
    mapped: bool | None = None,
) -> Path:
    """Write the slices of exactly ``pieces`` pieces, compressed or raw to be mapped (by
    default raw from ``MAPPED_FROM`` pieces on); returns the file."""
    directory.mkdir(parents=True, exist_ok=True)
    keys = sorted(data)
    if mapped is None:
        mapped = pieces >= MAPPED_FROM
    header = json.dumps(
        {
            "rules": rules.key,
            "pieces": pieces,
            "stored": "raw" if mapped else "zlib",
            "slices": [[*k, len(data[k])] for k in keys],
        }
    ).encode()
    path = directory / file_name(rules, pieces)
    partial = path.with_suffix(".partial")
    with partial.open("wb") as out:
        out.write(_MAGIC + header + b"\n")
        if mapped:
            for k in keys:
                out.write(data[k])
        else:
            out.write(zlib.compress(b"".join(bytes(data[k]) for k in keys), 9))
    partial.replace(path)
    return path


def _read(path: Path, rules: RuleSet, pieces: int) -> dict[Slice, Table]:
    with path.open("rb") as handle:
        start = handle.read(len(_MAGIC) + 64 * 1024)
        if not start.startswith(_MAGIC):
            raise EgdbError(f"{path.name} is not an endgame table")
        header_end = start.find(b"\n", len(_MAGIC))
        if header_end < 0:
            raise EgdbError(f"{path.name} is damaged: no header")
        try:
            header = json.loads(start[len(_MAGIC) : header_end])
        except ValueError:
            raise EgdbError(f"{path.name} is damaged: a bad header") from None
        if header.get("rules") != rules.key or header.get("pieces") != pieces:
            raise EgdbError(f"{path.name} holds another table")
        body: bytes | memoryview
        if header.get("stored", "zlib") == "raw":
            # Mapped read-only: the pages are shared by every process reading the file.
            body = memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
            body = body[header_end + 1 :]
        else:
            handle.seek(header_end + 1)
            try:
                body = zlib.decompress(handle.read())
            except zlib.error as exc:
                raise EgdbError(f"{path.name} is damaged: {exc}") from None
    out: dict[Slice, Table] = {}
    at = 0
    for a, b, c, d, size in header["slices"]:
        key = (a, b, c, d)
        if size != _slice_size(key):
            raise EgdbError(f"{path.name} has a slice of the wrong size")
        piece = body[at : at + size]
        out[key] = piece if isinstance(piece, memoryview) else bytearray(piece)
        at += size
    if at != len(body) or set(out) != set(slices(pieces)):
        raise EgdbError(f"{path.name} is incomplete")
    return out


def load(rules: RuleSet | str, pieces: int, directory: Path | None = None) -> Tables:
    """The tables of up to ``pieces`` pieces from ``directory``; EgdbError if missing."""
    rule_set = get_rule_set(rules)
    where = default_dir() if directory is None else directory
    data: dict[Slice, Table] = {}
    for n in range(2, pieces + 1):
        path = where / file_name(rule_set, n)
        if not path.exists():
            raise EgdbError(f"no {n}-piece table for {rule_set.key} in {where}")
        data.update(_read(path, rule_set, n))
    return Tables(rule_set, pieces, data)


def build(
    rules: RuleSet | str,
    pieces: int,
    directory: Path | None = None,
    *,
    progress: Progress | None = None,
    rebuild: bool = False,
) -> tuple[Tables, dict[int, float]]:
    """Build (or reuse) the tables of 2 up to ``pieces`` pieces and save each; returns
    the tables and the seconds each piece count took to solve (0 for one reused)."""
    rule_set = get_rule_set(rules)
    if not 2 <= pieces <= MAX_PIECES:
        raise EgdbError(f"tables hold 2 to {MAX_PIECES} pieces, not {pieces}")
    where = default_dir() if directory is None else directory
    data: dict[Slice, Table] = {}
    timings: dict[int, float] = {}
    for n in range(2, pieces + 1):
        path = where / file_name(rule_set, n)
        if path.exists() and not rebuild:
            try:
                data.update(_read(path, rule_set, n))
                timings[n] = 0.0
                continue
            except EgdbError:
                pass  # damaged or foreign: solve it again
        started = time.perf_counter()

        def step(done: int, total: int, label: str, n: int = n) -> None:
            if progress is not None:
                progress(done, total, f"{n} pieces {label}")

        solved = solve(rule_set, n, data, step)
        timings[n] = time.perf_counter() - started
        save(where, rule_set, n, solved)
        data.update(solved)
    return Tables(rule_set, pieces, data), timings


LOCK_NAME = "build.lock"
"""The file in the tables directory that a build holds locked (one build at a time)."""


@contextlib.contextmanager
def build_lock(directory: Path | None = None, *, wait: bool = False) -> Iterator[bool]:
    """Hold the directory's build lock for the block; yields whether it is held (False:
    another build holds it and ``wait`` is off). The lock is the operating system's
    (``flock``), so a build that dies leaves no stale lock behind."""
    import fcntl  # POSIX only, like the priority the background build lowers

    where = default_dir() if directory is None else directory
    where.mkdir(parents=True, exist_ok=True)
    with open(where / LOCK_NAME, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def built(rules: RuleSet | str, pieces: int, directory: Path | None = None) -> bool:
    """Whether the table of exactly ``pieces`` pieces of the rule set is on disk (its
    smaller ones are built before it)."""
    where = default_dir() if directory is None else directory
    return (where / file_name(get_rule_set(rules), pieces)).exists()


def build_unless_busy(rules: RuleSet | str, pieces: int, directory: Path | None = None) -> bool:
    """Build the tables of up to ``pieces`` pieces under the directory's build lock,
    unless another build holds it; returns whether this call built anything. Tables
    already on disk are reused, so a second caller after the first finds nothing to do."""
    with build_lock(directory) as held:
        if not held or built(rules, pieces, directory):
            return False
        build(rules, pieces, directory)
        return True


_LOADED: dict[str, tuple[Tables | None, float]] = {}
_LOOK_AGAIN = 60.0
"""Seconds after which tables found missing are looked for again (built meanwhile)."""


def available(rules: RuleSet | str) -> Tables | None:
    """The largest tables of the rule set found in the default directory (kept once
    loaded), or None when there are none: the Executive then plays without them."""
    rule_set = get_rule_set(rules)
    cached = _LOADED.get(rule_set.key)
    now = time.monotonic()
    if cached is not None and (cached[0] is not None or now - cached[1] < _LOOK_AGAIN):
        return cached[0]
    found: Tables | None = None
    for n in range(MAX_PIECES, 1, -1):
        try:
            found = load(rule_set, n)
            break
        except (EgdbError, OSError, ValueError):
            continue
    _LOADED[rule_set.key] = (found, now)
    return found


def forget() -> None:
    """Drop the cached tables (after a build, or when the directory changes)."""
    _LOADED.clear()


def probe(board: Board) -> tuple[int, int] | None:
    """``(wdl, distance)`` of the board for its side to move from the tables in the
    default directory (1 win, 0 draw, -1 loss; plies to conversion), or None."""
    tables = available(board.rule_set)
    if tables is None:
        return None
    found = tables.probe(board)
    return None if found is None else (found.wdl, found.distance)


__all__ = [
    "DRAW",
    "KNOWN_WIN",
    "LOCK_NAME",
    "LOSS",
    "MAPPED_FROM",
    "MAX_HORIZON",
    "MAX_PIECES",
    "EgdbError",
    "Probe",
    "Tables",
    "available",
    "best_move",
    "build",
    "build_lock",
    "build_unless_busy",
    "built",
    "decode",
    "default_dir",
    "disagreement",
    "flip",
    "forget",
    "load",
    "position_fen",
    "positions_of",
    "probe",
    "sample",
    "slices",
    "solve",
]
