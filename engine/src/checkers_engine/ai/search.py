"""Alpha-beta search over the engine's low-level positions.

Iterative deepening principal-variation search with a transposition table, hash-move,
capture, killer and history move ordering, late-move reductions for quiet moves, and
extensions: a position whose side to move must capture is never a leaf (captures are
forced, so the search plays them out), a position with a single legal move costs no
depth, and neither does a man's move that threatens to crown (onto the row before the
far row) or that makes a runaway (an advanced man no enemy piece can stop). With
``pruning`` (the Executive), a quiet position within three plies of the horizon whose
static score clears beta by a margin a ply is cut unless a capture threatens, and late
quiet moves are reduced harder (depth 12 of an English middle game on a third of the
nodes); with ``threats`` (the Executive too), a horizon position in which the opponent
threatens a capture is searched one ply more.

The draw rules live inside the search: a position that repeats one on the current line
or in the game since its last man move or capture scores as a draw, and so does the
twentieth plain king ply in a row; near that limit the static score fades towards a draw,
so the side that is ahead makes progress (a man move or a capture) instead of shuffling.

Positions are the engine's ``(own, opp, kings, turn)`` tuples (``checkers_engine.movegen``).
The tuple is the position itself (pieces and side to move), so the transposition table
and the repetition check key on it directly: exact, and cheaper in Python than updating
a Zobrist key move by move.

The transposition table has a fixed size and outlives one search: the players keep one
per game, so what a search learned serves the next moves (``TranspositionTable``). With
``managed_time`` the time limit is a budget (the clock is read every 1,024 nodes, a few
milliseconds): the root normally stops at ``NORMAL_SHARE`` of it, from three quarters of
it on when one move is clearly best, and uses the whole budget when the score drops.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from checkers_engine.ai.egdb import KNOWN_WIN, Tables, best_move
from checkers_engine.ai.evaluation import WIN, Weights, evaluate
from checkers_engine.ai.geometry import CONE, RANK
from checkers_engine.ai.patterns import table_for
from checkers_engine.ai.tuned import ROWS
from checkers_engine.ai.weights import FAMILIES
from checkers_engine.board import KING_PLIES_DRAW
from checkers_engine.movegen import RawMove, apply, generate, has_capture
from checkers_engine.rulesets import RuleSet
from checkers_engine.squares import FULL, NUM_BITS, popcount

State = tuple[int, int, int, int]

INF: Final = WIN + 1
MATE_BOUND: Final = WIN - 1000
"""Scores beyond this are wins or losses found by the search, not evaluations."""

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
_ASPIRATION: Final = 30
#: Static pruning (``Searcher(pruning=True)``): at most this depth left, by this margin a ply.
_PRUNE_DEPTH: Final = 3
_PRUNE_MARGIN: Final = 40
_MAX_PLY: Final = 120
_BITS: Final = NUM_BITS
_DRAW_PLIES: Final = KING_PLIES_DRAW  # a Final copy: compiled code reads it natively
_FADE_FROM: Final = KING_PLIES_DRAW // 2
"""From this many plain king plies on, the static score fades linearly to a draw."""

#: Rows a man stands on, by side to move, one step before crowning; and relative ranks
#: 4-6, where a man with no enemy piece in its cone is a runaway (as in the evaluation).
_BEFORE_CROWNING: Final = (RANK[6], RANK[1])
_ADVANCED: Final = (RANK[4] | RANK[5] | RANK[6], RANK[3] | RANK[2] | RANK[1])

#: Time management (``managed_time``): a move is clearly best when no other move reaches
#: within this margin of its score in a verification search this many plies shallower,
#: tried once an iteration of at least this depth ends past this share of the budget (three
#: quarters: the budget is not banked, and a shallow verification can be wrong).
EASY_MARGIN: Final = 80
_EASY_REDUCTION: Final = 2
_EASY_DEPTH: Final = 6
EASY_FROM: Final = 0.75
#: The share of the budget a managed search normally takes; a drop of ``SCORE_DROP``
#: between iterations lets it run to the whole budget. A move's budget is not banked (the
#: next move has its own), so time left unused is strength given away: the share is high.
NORMAL_SHARE: Final = 0.95
SCORE_DROP: Final = 30

Entry = tuple[int, int, int, RawMove | None]
"""A table entry: depth, bound flag, score (mates counted from the entry), best move."""

WAYS: Final = 4
"""Entries per bucket of the transposition table."""
DEFAULT_BUCKETS: Final = 32_749
"""A prime: 131k entries in all, some 30 MB when full."""
AGE_WEIGHT: Final = 2
"""Plies of depth an entry loses, for replacement, per search since it was stored."""

#: Move ordering keys a move by one integer: its priority above ``_INDEX_BITS`` bits of
#: its reversed index in the generated list (no position has 1,024 legal moves).
_INDEX_BITS: Final = 10
_LAST_INDEX: Final = (1 << _INDEX_BITS) - 1


class TranspositionTable:
    """Search results by position, in a fixed number of buckets of ``WAYS`` entries.

    A position goes into the bucket its pieces hash to. The replacement prefers depth: a
    position already in the bucket is overwritten by a result at least as deep, exact, or
    from a newer search; a new position takes an empty entry, else the entry of least
    depth, each counted ``AGE_WEIGHT`` plies less per search since it was stored, so
    earlier moves' deep results stay until newer work outweighs them. Nothing is ever
    cleared wholesale. ``new_search()`` starts the next search (the next move).

    An entry's depth, bound, score and search are packed into one integer (``_pack``)
    beside its key and move: a store makes no tuple, and the table holds nothing the
    cycle collector has to walk but the keys and moves.
    """

    def __init__(self, buckets: int = DEFAULT_BUCKETS) -> None:
        if buckets < 1:
            raise ValueError("a transposition table needs at least one bucket")
        self.buckets = buckets
        size = buckets * WAYS
        self.keys: list[State | None] = [None] * size
        self.data: list[int] = [0] * size
        self.moves: list[RawMove | None] = [None] * size
        self.generation = 0
        self.filled = 0

    def __len__(self) -> int:
        return self.filled

    def new_search(self) -> None:
        """Age every entry by one search."""
        self.generation += 1

    def bucket(self, state: State) -> int:
        """The index of the state's bucket."""
        own, opp, kings, turn = state
        # ``turn`` carries the plain king plies too (see ``tt_key``): below 40 << 53,
        # so the hash stays a machine integer in the compiled build.
        return (own ^ (opp << 17) ^ (kings << 7) ^ (turn << 53)) % self.buckets

    def probe(self, state: State) -> Entry | None:
        """The entry stored for ``state``, or None."""
        first = self.bucket(state) * WAYS
        keys = self.keys
        for i in range(first, first + WAYS):
            key = keys[i]
            if key is None:
                return None
            if key == state:
                packed = self.data[i]
                return (
                    _depth_of(packed),
                    packed & _FLAG_MASK,
                    (packed >> _SCORE_SHIFT) - _SCORE_OFFSET,
                    self.moves[i],
                )
        return None

    def store(self, state: State, depth: int, flag: int, score: int, move: RawMove | None) -> None:
        """Record a result, replacing by depth (see the class)."""
        first = self.bucket(state) * WAYS
        keys = self.keys
        data = self.data
        generation = self.generation
        packed = _pack(depth, flag, score, generation)
        victim = first
        least = 1 << 30
        for i in range(first, first + WAYS):
            key = keys[i]
            if key is None:
                # Entries fill a bucket from its start and are never removed.
                keys[i] = state
                data[i] = packed
                self.moves[i] = move
                self.filled += 1
                return
            old = data[i]
            old_depth = _depth_of(old)
            age = (generation - (old >> _GENERATION_SHIFT & _GENERATIONS)) & _GENERATIONS
            if key == state:
                if depth >= old_depth or flag == _EXACT or age:
                    data[i] = packed
                    if move is not None:
                        self.moves[i] = move
                return
            worth = old_depth - AGE_WEIGHT * age
            if worth < least:
                least = worth
                victim = i
        keys[victim] = state
        data[victim] = packed
        self.moves[victim] = move


# A packed entry, low bits first: the bound (2 bits), the depth (8, from -128), the search
# (16) and the score (22, within ``INF``): 48 bits, a machine integer in the compiled build.
_FLAG_MASK: Final = 3
_DEPTH_SHIFT: Final = 2
_DEPTH_MASK: Final = 255
_DEPTH_OFFSET: Final = 128
_GENERATION_SHIFT: Final = 10
_GENERATIONS: Final = 0xFFFF
"""Searches are told apart modulo 65,536: far more than one game or review holds."""
_SCORE_SHIFT: Final = 26
_SCORE_OFFSET: Final = 1 << 21


def _pack(depth: int, flag: int, score: int, generation: int) -> int:
    """One table entry as an integer (the layout above)."""
    return (
        (score + _SCORE_OFFSET) << _SCORE_SHIFT
        | (generation & _GENERATIONS) << _GENERATION_SHIFT
        | (depth + _DEPTH_OFFSET) << _DEPTH_SHIFT
        | flag
    )


def _depth_of(packed: int) -> int:
    """The depth of a packed entry."""
    return (packed >> _DEPTH_SHIFT & _DEPTH_MASK) - _DEPTH_OFFSET


def tt_key(state: State, kp: int) -> State:
    """The table's key of a position after ``kp`` plain king plies: the count goes into
    the turn's field, as a score may depend on it (the 20-ply draw, the fading
    evaluation, the endgame tables' distance) and must not be reused at another count."""
    if not kp:
        return state
    return (state[0], state[1], state[2], state[3] | kp << 1)


class SearchTimeout(Exception):
    """Raised inside the search when the deadline or node budget is reached."""


def weights_for(rules: RuleSet) -> Weights:
    """The evaluation weights of a rule set: its family's row, with the rule set's own
    pattern table when it has one."""
    for family, members in FAMILIES.items():
        if rules.key in members:
            table = table_for(rules.key)
            return replace(ROWS[family], patterns=table) if table else ROWS[family]
    raise ValueError(f"no row of weights serves {rules.key}")


def is_plain_king_move(state: State, move: RawMove) -> bool:
    """A move by a king that takes nothing: the kind the 20-ply draw rule counts."""
    return not move[1] and bool(state[2] >> move[0][0] & 1)


@dataclass
class SearchResult:
    """What a search found at the root."""

    best: RawMove | None
    score: int
    depth: int
    nodes: int
    elapsed: float
    scores: dict[RawMove, int] = field(default_factory=dict)
    """Root move scores of the last completed iteration (exact within the margin)."""
    pv: list[RawMove] = field(default_factory=list)
    stop: str = ""
    """Why the search stopped: depth, time, nodes, mate, clearly best, forced, no move, or
    tables (played from the endgame tables)."""
    extended: bool = False
    """A managed search whose score dropped, allowed the whole budget."""


class Searcher:
    """One search context: rules, evaluation, transposition table and ordering tables.

    ``blind`` > 0 makes the search overlook the opponent's captures of at least that many
    pieces (the weakness of the easy levels); the side to move at the root always sees
    its own.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        weights: Weights | None = None,
        blind: int = 0,
        tt: TranspositionTable | None = None,
        extensions: bool = True,
        egdb: Tables | None = None,
        pruning: bool = False,
        threats: bool = False,
    ) -> None:
        self.rules = rules
        self.pruning = pruning  # static cuts near the leaves (the Executive)
        self.threats = threats  # a capture threat at the horizon is searched (the Executive)
        # Late quiet moves are reduced two plies from move index ``late`` on (the sixth
        # move; the fourth with pruning), three from ``latest`` on (the seventh, pruning).
        self.late, self.latest = (3, 6) if pruning else (5, _MAX_PLY)
        self.extensions = extensions  # crowning threats and runaways (off: for comparison)
        # Endgame tables, probed at every node of at most their pieces, and at the root.
        self.egdb = egdb
        self.egdb_pieces = egdb.pieces if egdb is not None else 0
        self.weights = weights or weights_for(rules)
        self.blind = blind
        self.tt = TranspositionTable() if tt is None else tt
        # History scores of quiet moves by start and end bit: history[start * 36 + end].
        self.history: list[int] = [0] * (_BITS * _BITS)
        self.killers: list[list[RawMove | None]] = [[None, None] for _ in range(_MAX_PLY + 2)]
        self.nodes = 0
        self.deadline = float("inf")
        self.node_limit = 1 << 62
        self.seen: dict[State, int] = {}
        self.root_turn = 0
        self.extend_below = 0  # extensions only on plies below this (twice the depth)

    # -- the tree --------------------------------------------------------------------------

    def _check_limits(self) -> None:
        if time.perf_counter() >= self.deadline:
            raise SearchTimeout

    def _leaf(self, state: State, kp: int) -> int:
        score = evaluate(state[0], state[1], state[2], state[3], self.weights)
        if kp > _FADE_FROM:
            score = score * (_DRAW_PLIES - kp) // (_DRAW_PLIES - _FADE_FROM)
        return score

    def search(self, state: State, depth: int, alpha: int, beta: int, ply: int, kp: int) -> int:
        """Negamax score of ``state`` for its side to move, within (alpha, beta)."""
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise SearchTimeout
        if not self.nodes & 1023:
            self._check_limits()
        # A position that repeats, or the twentieth plain king ply, is a draw. (A side
        # that cannot move there would lose instead; a repeated position always has a
        # move, and that ending at the twentieth ply is left to the game itself.) Only a
        # plain king move can lead back to an earlier position: with kp 0, none can repeat.
        if kp >= _DRAW_PLIES or (kp and state in self.seen):
            return 0
        if self.egdb_pieces and popcount(state[0] | state[1]) <= self.egdb_pieces:
            known = self.egdb.score(state, kp) if self.egdb is not None else None
            if known is not None:
                return known
        own, opp, kings, turn = state
        threatened = False
        if depth <= 0 and not has_capture(own, opp, kings, turn, self.rules):
            # A quiet leaf: score it, unless the side to move is blocked (it loses).
            empty = FULL & ~(own | opp)
            men = own & ~kings
            steps = (men << 4 | men << 5) if turn == 0 else (men >> 4 | men >> 5)
            k = own & kings
            if not (steps | k << 4 | k << 5 | k >> 4 | k >> 5) & empty:
                return ply - WIN
            # With ``threats``, a horizon position in which the opponent threatens a
            # capture gets one more ply: a piece that cannot be saved is not scored as safe.
            if not (
                self.threats
                and depth == 0
                and ply < self.extend_below
                and has_capture(opp, own, kings, turn ^ 1, self.rules)
            ):
                return self._leaf(state, kp)
            threatened = True
        key = state if not kp else (own, opp, kings, turn | kp << 1)  # tt_key, inlined
        entry = self.tt.probe(key)
        hash_move = None
        if entry is not None:
            e_depth, e_flag, e_score, hash_move = entry
            if e_depth >= depth and ply:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER:
                    if e_score >= beta:
                        return e_score
                elif e_score <= alpha:
                    return e_score
        moves = generate(own, opp, kings, turn, self.rules)
        if not moves:
            return ply - WIN
        capture = bool(moves[0][1])
        if self.blind and capture and turn != self.root_turn:
            moves = [m for m in moves if popcount(m[1]) < self.blind]
            if not moves:
                # The shot is not seen: the position looks quiet.
                return self._leaf(state, kp)
        if ply >= _MAX_PLY:
            return self._leaf(state, kp)

        n = len(moves)
        if (
            self.pruning
            and depth <= _PRUNE_DEPTH
            and beta - alpha == 1
            and not capture
            and not threatened  # its threat is already known
            and n > 1
            and beta < MATE_BOUND
            and not has_capture(opp, own, kings, turn ^ 1, self.rules)
        ):
            # Near the leaves, a quiet position whose score clears beta by a margin that
            # grows with the depth left is taken as a cut, unless a capture threatens.
            static = self._leaf(state, kp)
            if static - _PRUNE_MARGIN * depth >= beta:
                return static
        if n == 1:
            new_depth = depth  # a forced move costs no depth
        else:
            new_depth = depth - 1
            if n > 2:
                moves = self._order(moves, capture, hash_move, ply)
            elif hash_move is not None and moves[1] == hash_move:
                moves = [moves[1], moves[0]]

        alpha_orig = alpha
        best_score = -INF
        best_move = moves[0]
        seen = self.seen
        # Without kings no later position of this line can repeat this one.
        track = kings != 0
        if track:
            seen[state] = 1
        search = self.search
        child_ply = ply + 1
        # A man's quiet move onto the row before crowning, or one that leaves it a
        # runaway, is searched a ply deeper (within twice the root depth).
        extend = self.extensions and not capture and new_depth < depth and ply < self.extend_below
        late, latest = self.late, self.latest
        threats = _BEFORE_CROWNING[turn]
        advanced = _ADVANCED[turn]
        cones = CONE[turn]
        try:
            for i, move in enumerate(moves):
                child = apply(own, opp, kings, turn, move)
                child_kp = kp + 1 if not move[1] and kings >> move[0][0] & 1 else 0
                child_depth = new_depth
                if extend and not move[2] and not kings >> move[0][0] & 1:
                    to = move[0][-1]
                    if threats >> to & 1 or (advanced >> to & 1 and not cones[to] & opp):
                        child_depth = depth
                if i == 0:
                    score = -search(child, child_depth, -beta, -alpha, child_ply, child_kp)
                elif child_depth == depth:
                    score = -search(child, child_depth, -alpha - 1, -alpha, child_ply, child_kp)
                    if alpha < score < beta:
                        score = -search(child, child_depth, -beta, -alpha, child_ply, child_kp)
                else:
                    # Late quiet moves are searched shallower first (one ply, more from
                    # ``late`` on in deep searches); a move that then looks good is
                    # searched again at full depth.
                    reduce = 0
                    if (
                        not capture
                        and new_depth >= 2
                        and i >= 2
                        and not move[2]
                        and move is not hash_move
                    ):
                        reduce = 2 if i >= late and new_depth >= 4 else 1
                        if i >= latest and new_depth >= 6:
                            reduce = 3
                    score = -search(
                        child, new_depth - reduce, -alpha - 1, -alpha, child_ply, child_kp
                    )
                    if score > alpha and (reduce or score < beta):
                        score = -search(child, new_depth, -beta, -alpha, child_ply, child_kp)
                if score > best_score:
                    best_score = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not capture:
                                self._reward(move, depth, ply)
                            break
        finally:
            if track:
                del seen[state]

        if depth > 0 or entry is None:
            stored = best_score
            if stored > MATE_BOUND:
                stored += ply
            elif stored < -MATE_BOUND:
                stored -= ply
            if best_score <= alpha_orig:
                flag = _UPPER
            elif best_score >= beta:
                flag = _LOWER
            else:
                flag = _EXACT
            self.tt.store(key, depth, flag, stored, best_move)
        return best_score

    def _order(
        self, moves: list[RawMove], capture: bool, hash_move: RawMove | None, ply: int
    ) -> list[RawMove]:
        # Sorted by priority, ties in generation order: one integer a move, the priority
        # above the bits of the reversed index (a sort of plain integers, no key function
        # and no tuple a move, which compiled code would make and compare through Python).
        if capture:
            keyed = [
                (popcount(m[1]) * 4 + m[2]) << _INDEX_BITS | _LAST_INDEX - i
                for i, m in enumerate(moves)
            ]
        else:
            history = self.history
            k1, k2 = self.killers[ply]
            keyed = [
                (
                    (1 << 30 if m == k1 else 1 << 29 if m == k2 else 0)
                    + (1 << 28 if m[2] else 0)
                    + history[m[0][0] * _BITS + m[0][-1]]
                )
                << _INDEX_BITS
                | _LAST_INDEX - i
                for i, m in enumerate(moves)
            ]
        keyed.sort(reverse=True)
        ordered = [moves[_LAST_INDEX - (k & _LAST_INDEX)] for k in keyed]
        if hash_move is not None and ordered[0] != hash_move and hash_move in ordered:
            ordered.remove(hash_move)
            ordered.insert(0, hash_move)
        return ordered

    def _reward(self, move: RawMove, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        self.history[move[0][0] * _BITS + move[0][-1]] += depth * depth

    # -- the root --------------------------------------------------------------------------

    def run(
        self,
        state: State,
        *,
        max_depth: int = 64,
        time_limit: float | None = None,
        node_limit: int | None = None,
        margin: int = 0,
        king_plies: int = 0,
        history: Sequence[State] = (),
        on_iteration: Callable[[SearchResult], None] | None = None,
        shortcut_forced: bool = True,
        managed_time: bool = False,
    ) -> SearchResult:
        """Iterative deepening from ``state`` until ``max_depth``, the time limit or the
        node budget; the result of the deepest completed iteration is returned (or a better
        move found by an unfinished one).

        ``margin`` > 0 asks for exact scores of every root move within that margin of the
        best (for the levels' softmax); a single legal move is returned unsearched unless
        ``shortcut_forced`` is false; ``history`` holds the game's earlier positions since
        its last irreversible move, so repeating them counts as a draw.

        With ``managed_time`` the time limit is a budget: the search normally stops at
        ``NORMAL_SHARE`` of it, from ``EASY_FROM`` of it on once a move is clearly best (no
        other within ``EASY_MARGIN`` in a shallower verification), and when an
        iteration's score drops by ``SCORE_DROP`` or more it may use the whole budget.
        """
        # The search makes no reference cycles, but its many short-lived tuples would set
        # off the cycle collector over and over, and every pass walks the whole table.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._run(
                state,
                max_depth,
                time_limit,
                node_limit,
                margin,
                king_plies,
                history,
                on_iteration,
                shortcut_forced,
                managed_time,
            )
        finally:
            if collecting:
                gc.enable()

    def _run(
        self,
        state: State,
        max_depth: int,
        time_limit: float | None,
        node_limit: int | None,
        margin: int,
        king_plies: int,
        history: Sequence[State],
        on_iteration: Callable[[SearchResult], None] | None,
        shortcut_forced: bool,
        managed_time: bool,
    ) -> SearchResult:
        started = time.perf_counter()
        self.deadline = started + time_limit if time_limit is not None else float("inf")
        if managed_time and time_limit is not None:
            self.deadline = started + time_limit * NORMAL_SHARE
        self.node_limit = self.nodes + node_limit if node_limit is not None else 1 << 62
        self.root_turn = state[3]
        self.seen = dict.fromkeys(history, 1)
        self.seen.pop(state, None)
        self.tt.new_search()
        own, opp, kings, turn = state
        moves = generate(own, opp, kings, turn, self.rules)
        start_nodes = self.nodes
        if not moves:
            return SearchResult(None, -WIN, 0, 0, 0.0, stop="no move")
        if len(moves) == 1 and shortcut_forced:
            return SearchResult(moves[0], 0, 0, 0, 0.0, {moves[0]: 0}, [moves[0]], stop="forced")
        if self.egdb is not None:
            known = self._egdb_root(state, king_plies)
            if known is not None:
                return known

        result = SearchResult(moves[0], -INF, 0, 0, 0.0)
        entry = self.tt.probe(tt_key(state, king_plies))
        order = list(moves)
        if entry is not None and entry[3] in order:
            order.remove(entry[3])
            order.insert(0, entry[3])
        scores: dict[RawMove, int] = {}
        stop = "depth"
        extended = False
        for depth in range(1, max_depth + 1):
            self.extend_below = 2 * depth
            previous_score = result.score
            try:
                scores = self._root(state, order, depth, margin, king_plies, result)
            except SearchTimeout:
                stop = "nodes" if self.nodes >= self.node_limit else "time"
                break
            best = max(order, key=lambda m: scores[m])
            result = SearchResult(
                best,
                scores[best],
                depth,
                self.nodes - start_nodes,
                time.perf_counter() - started,
                dict(scores),
                self._pv(state, best, king_plies),
            )
            if on_iteration is not None:
                on_iteration(result)
            order.sort(key=lambda m: scores[m], reverse=True)
            if abs(result.score) > MATE_BOUND:
                stop = "mate"
                break
            if not managed_time or time_limit is None:
                continue
            if (
                not extended
                and depth > 1
                and abs(previous_score) < MATE_BOUND
                and result.score <= previous_score - SCORE_DROP
            ):
                # The score fell: the position needs more thought than the budget.
                extended = True
                self.deadline = started + time_limit
            elapsed = time.perf_counter() - started
            if depth >= _EASY_DEPTH and elapsed >= EASY_FROM * time_limit and len(order) > 1:
                try:
                    clear = self._clearly_best(state, order, depth, result.score, king_plies)
                except SearchTimeout:
                    stop = "time"
                    break
                if clear:
                    stop = "clearly best"
                    break
        result.nodes = self.nodes - start_nodes
        result.elapsed = time.perf_counter() - started
        result.stop = stop
        result.extended = extended
        return result

    def _egdb_root(self, state: State, king_plies: int) -> SearchResult | None:
        """A root the endgame tables hold as won or lost is played from them: the win by
        the fewest plies to conversion, the loss held off longest. A drawn one is searched
        (every child is then a table position, scored exactly)."""
        assert self.egdb is not None
        values = self.egdb.move_values(state, king_plies)
        if values is None:
            return None
        move, value = best_move(values)
        if not value.wdl:
            return None
        scores = {}
        for m, v in values:
            scores[m] = v.wdl * (KNOWN_WIN - v.distance) if v.wdl else 0
        return SearchResult(move, scores[move], 1, 0, 0.0, scores, [move], stop="tables")

    def _clearly_best(
        self, state: State, order: list[RawMove], depth: int, score: int, kp: int
    ) -> bool:
        """Whether every move but the first (the best) stays more than ``EASY_MARGIN``
        below ``score`` in a search ``_EASY_REDUCTION`` plies shallower."""
        own, opp, kings, turn = state
        floor = score - EASY_MARGIN
        self.seen[state] = 1
        try:
            for move in order[1:]:
                child = apply(own, opp, kings, turn, move)
                child_kp = kp + 1 if not move[1] and kings >> move[0][0] & 1 else 0
                reached = -self.search(
                    child, depth - 1 - _EASY_REDUCTION, -floor - 1, -floor, 1, child_kp
                )
                if reached > floor:
                    return False
        finally:
            del self.seen[state]
        return True

    def _root(
        self,
        state: State,
        order: list[RawMove],
        depth: int,
        margin: int,
        kp: int,
        previous: SearchResult,
    ) -> dict[RawMove, int]:
        own, opp, kings, turn = state
        scores: dict[RawMove, int] = {}
        best = -INF
        self.seen[state] = 1
        try:
            for i, move in enumerate(order):
                child = apply(own, opp, kings, turn, move)
                child_kp = kp + 1 if not move[1] and kings >> move[0][0] & 1 else 0
                if i == 0:
                    score = self._first(child, depth, child_kp, previous.score)
                else:
                    floor = best - margin if margin else best
                    score = -self.search(child, depth - 1, -floor - 1, -floor, 1, child_kp)
                    if score > floor:
                        score = -self.search(child, depth - 1, -INF, -floor, 1, child_kp)
                scores[move] = score
                if score > best:
                    best = score
                    # A better move found before time runs out is worth keeping.
                    if depth > 1 and i > 0:
                        previous.best = move
                        previous.score = score
        finally:
            del self.seen[state]
        return scores

    def _first(self, child: State, depth: int, kp: int, guess: int) -> int:
        """The first root move's score: first within a narrow window around the last
        iteration's score (aspiration), again with a full window if it falls outside."""
        if depth >= 5 and abs(guess) < MATE_BOUND:
            low, high = guess - _ASPIRATION, guess + _ASPIRATION
            score = -self.search(child, depth - 1, -high, -low, 1, kp)
            if low < score < high:
                return score
        return -self.search(child, depth - 1, -INF, INF, 1, kp)

    def _pv(self, state: State, first: RawMove, kp: int) -> list[RawMove]:
        pv = [first]
        seen = {state}
        kp = kp + 1 if not first[1] and state[2] >> first[0][0] & 1 else 0
        state = apply(*state, first)
        while len(pv) < 32 and state not in seen:
            seen.add(state)
            entry = self.tt.probe(tt_key(state, kp))
            if entry is None or entry[3] is None:
                break
            move = entry[3]
            if move not in generate(*state, self.rules):
                break
            pv.append(move)
            kp = kp + 1 if not move[1] and state[2] >> move[0][0] & 1 else 0
            state = apply(*state, move)
        return pv
