"""The move generator: one function set that every rule set reads through its RuleSet row.

This is the engine's low-level layer, also meant for search code that needs speed. A
position is a side-relative tuple ``(own, opp, kings, turn)``: bit masks (see ``squares``)
of the pieces of the side to move, of the other side, and of all kings, and ``turn`` 0 when
the drums are to move, 1 for the tires. A raw move is ``(path, captured, crowns)``: the bit
indexes of the start and every landing square, the mask of captured pieces, and whether the
moving man is crowned. ``apply`` returns the position after a raw move, from the other
side's point of view.
"""

from __future__ import annotations

from typing import Final

from .rulesets import Promotion, RuleSet, TieBreak
from .squares import (
    ALL_JUMPS,
    DRUMS_JUMPS,
    FULL,
    PROMOTION_MASK,
    RAY,
    TIRES_JUMPS,
    JumpTable,
    popcount,
)

RawMove = tuple[tuple[int, ...], int, bool]

#: Jumps a man may make, by "men capture backward" and by side to move.
_MAN_JUMPS: Final = ((DRUMS_JUMPS, TIRES_JUMPS), (ALL_JUMPS, ALL_JUMPS))
State = tuple[int, int, int, int]


def apply(own: int, opp: int, kings: int, turn: int, move: RawMove) -> State:
    """The position after ``move``, seen from the side that moves next."""
    path, captured, crowns = move
    start = 1 << path[0]
    end = 1 << path[-1]
    kings &= ~captured
    if crowns or kings & start:
        kings = (kings & ~start) | end
    return opp & ~captured, own ^ start ^ end, kings, turn ^ 1


def _shift_fill_hits(kings: int, empty: int, targets: int, step: int) -> bool:
    """Whether a flying king can slide along ``step`` to a target with an empty square behind."""
    if step > 0:
        reach = kings
        x = (kings << step) & empty
        while x:
            reach |= x
            x = (x << step) & empty
        return bool((((reach << step) & targets) << step) & empty)
    step = -step
    reach = kings
    x = (kings >> step) & empty
    while x:
        reach |= x
        x = (x >> step) & empty
    return bool((((reach >> step) & targets) >> step) & empty)


def capturers(own: int, opp: int, kings: int, turn: int, rules: RuleSet) -> int:
    """Cheap whole-board test: the mask of pieces of the side to move that can start a
    capture (every king, with flying kings, when any of them can), 0 when none can."""
    empty = FULL & ~(own | opp)
    men = own & ~kings
    found = 0
    if men:
        targets = opp if rules.men_capture_kings else opp & ~kings
        if turn == 0 or rules.men_capture_backward:
            found |= (((((men << 4) & targets) << 4) & empty) >> 8) | (
                ((((men << 5) & targets) << 5) & empty) >> 10
            )
        if turn == 1 or rules.men_capture_backward:
            found |= (((((men >> 4) & targets) >> 4) & empty) << 8) | (
                ((((men >> 5) & targets) >> 5) & empty) << 10
            )
    own_kings = own & kings
    if own_kings:
        if rules.flying_kings:
            if (
                _shift_fill_hits(own_kings, empty, opp, 5)
                or _shift_fill_hits(own_kings, empty, opp, 4)
                or _shift_fill_hits(own_kings, empty, opp, -4)
                or _shift_fill_hits(own_kings, empty, opp, -5)
            ):
                found |= own_kings
        else:
            found |= (
                (((((own_kings << 4) & opp) << 4) & empty) >> 8)
                | (((((own_kings << 5) & opp) << 5) & empty) >> 10)
                | (((((own_kings >> 4) & opp) >> 4) & empty) << 8)
                | (((((own_kings >> 5) & opp) >> 5) & empty) << 10)
            )
    return found


def has_capture(own: int, opp: int, kings: int, turn: int, rules: RuleSet) -> bool:
    """Whether the side to move must capture."""
    return bool(capturers(own, opp, kings, turn, rules))


def _short_jumps(
    square: int,
    occupied: int,
    targets: int,
    jumps: JumpTable,
    captured: int,
    path: list[int],
    out: list[RawMove],
    promotion_mask: int,
    opp: int,
    promotion: Promotion,
) -> bool:
    """Extend a capture by one-square jumps (men, and short kings when ``promotion_mask`` is 0).

    Appends every complete sequence through this point to ``out``; returns whether any jump
    was possible from ``square``.
    """
    found = False
    for mid_bit, land, land_bit in jumps[square]:
        if not targets & mid_bit or captured & mid_bit or occupied & land_bit:
            continue
        found = True
        now = captured | mid_bit
        path.append(land)
        if promotion_mask >> land & 1:
            if promotion is Promotion.CROWN_AND_CONTINUE:
                if not _flying_jumps(land, occupied, opp, now, path, out, True):
                    out.append((tuple(path), now, True))
            elif promotion is Promotion.PASS_AS_MAN:
                if not _short_jumps(
                    land,
                    occupied,
                    targets,
                    jumps,
                    now,
                    path,
                    out,
                    promotion_mask,
                    opp,
                    promotion,
                ):
                    out.append((tuple(path), now, True))
            else:
                out.append((tuple(path), now, True))
        elif not _short_jumps(
            land, occupied, targets, jumps, now, path, out, promotion_mask, opp, promotion
        ):
            out.append((tuple(path), now, False))
        path.pop()
    return found


def _flying_jumps(
    square: int,
    occupied: int,
    opp: int,
    captured: int,
    path: list[int],
    out: list[RawMove],
    crowned: bool,
) -> bool:
    """Extend a flying king's capture; returns whether any capture was possible.

    Beyond a captured piece, a landing square from which the capture goes on must be chosen
    over one from which it does not (rules.md, common rule 3).
    """
    found = False
    for ray in RAY[square]:
        n = len(ray)
        i = 0
        while i < n and not (occupied >> ray[i]) & 1:
            i += 1
        if i >= n:
            continue
        mid_bit = 1 << ray[i]
        if not opp & mid_bit or captured & mid_bit:
            continue
        i += 1
        now = captured | mid_bit
        landings = 0
        stops: list[int] = []
        while i < n and not (occupied >> ray[i]) & 1:
            land = ray[i]
            landings += 1
            path.append(land)
            if not _flying_jumps(land, occupied, opp, now, path, out, crowned):
                stops.append(land)
            path.pop()
            i += 1
        if not landings:
            continue
        found = True
        if len(stops) == landings:
            prefix = tuple(path)
            for land in stops:
                out.append(((*prefix, land), now, crowned))
    return found


def captures(
    own: int, opp: int, kings: int, turn: int, rules: RuleSet, paths: bool = False
) -> list[RawMove]:
    """Every legal capture of the side to move (empty if none).

    With ``paths`` every distinct route is its own move, as published perft tables count;
    otherwise routes with the same start, end and captured set are one move (rule 8).
    """
    pieces = capturers(own, opp, kings, turn, rules)
    if not pieces:
        return []
    return capture_sequences(pieces, own, opp, kings, turn, rules, paths)


def capture_sequences(
    pieces: int, own: int, opp: int, kings: int, turn: int, rules: RuleSet, paths: bool
) -> list[RawMove]:
    """The legal captures starting from ``pieces`` (the mask ``capturers`` returned)."""
    occupied_all = own | opp
    promotion = rules.promotion
    man_jumps = _MAN_JUMPS[rules.men_capture_backward][turn]
    man_targets = opp if rules.men_capture_kings else opp & ~kings
    promotion_mask = PROMOTION_MASK[turn]
    out: list[RawMove] = []
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        square = low.bit_length() - 1
        occupied = occupied_all ^ low
        if not kings & low:
            _short_jumps(
                square,
                occupied,
                man_targets,
                man_jumps,
                0,
                [square],
                out,
                promotion_mask,
                opp,
                promotion,
            )
        elif rules.flying_kings:
            _flying_jumps(square, occupied, opp, 0, [square], out, False)
        else:
            _short_jumps(square, occupied, opp, ALL_JUMPS, 0, [square], out, 0, opp, promotion)
    if rules.majority_capture:
        out = _most_pieces(out, kings, rules.tie_breaks)
    if paths or len(out) < 2:
        return out
    seen: set[tuple[int, int, int]] = set()
    merged: list[RawMove] = []
    for move in out:
        key = (move[0][0], move[0][-1], move[1])
        if key not in seen:
            seen.add(key)
            merged.append(move)
    return merged


def _most_pieces(
    moves: list[RawMove], kings: int, tie_breaks: tuple[TieBreak, ...]
) -> list[RawMove]:
    """Keep the captures that take the most pieces, then apply the tie-breaks in order."""
    best = max(popcount(m[1]) for m in moves)
    moves = [m for m in moves if popcount(m[1]) == best]
    for rule in tie_breaks:
        if rule is TieBreak.MORE_KINGS_CAPTURED:
            most = max(popcount(m[1] & kings) for m in moves)
            moves = [m for m in moves if popcount(m[1] & kings) == most]
        elif rule is TieBreak.CAPTURED_BY_KING:
            by_king = [m for m in moves if kings >> m[0][0] & 1]
            if by_king:
                moves = by_king
    return moves


def _add_steps(targets: int, back: int, promotion_mask: int, out: list[RawMove]) -> None:
    """One-square moves onto each target bit, from the bit ``back`` away from it."""
    while targets:
        low = targets & -targets
        targets ^= low
        to = low.bit_length() - 1
        out.append(((to + back, to), 0, bool(low & promotion_mask)))


def _slide(ray: tuple[int, ...], occupied: int) -> int:
    """How many empty squares a flying king crosses along ``ray`` before a piece."""
    for i, to in enumerate(ray):
        if (occupied >> to) & 1:
            return i
    return len(ray)


def quiet_moves(own: int, opp: int, kings: int, turn: int, rules: RuleSet) -> list[RawMove]:
    """Every non-capturing move of the side to move (legal only when no capture exists)."""
    empty = FULL & ~(own | opp)
    men = own & ~kings
    promotion_mask = PROMOTION_MASK[turn]
    out: list[RawMove] = []
    for step in (5, 4):
        if turn == 0:
            _add_steps((men << step) & empty, -step, promotion_mask, out)
        else:
            _add_steps((men >> step) & empty, step, promotion_mask, out)
    own_kings = own & kings
    if own_kings and rules.flying_kings:
        occupied = own | opp
        while own_kings:
            low = own_kings & -own_kings
            own_kings ^= low
            square = low.bit_length() - 1
            for ray in RAY[square]:
                out.extend(((square, to), 0, False) for to in ray[: _slide(ray, occupied)])
    elif own_kings:
        for step in (5, 4):
            _add_steps((own_kings << step) & empty, -step, 0, out)
            _add_steps((own_kings >> step) & empty, step, 0, out)
    return out


def generate(
    own: int, opp: int, kings: int, turn: int, rules: RuleSet, paths: bool = False
) -> list[RawMove]:
    """Every legal move of the side to move: the captures if any exist, else the quiet moves."""
    pieces = capturers(own, opp, kings, turn, rules)
    if pieces:
        return capture_sequences(pieces, own, opp, kings, turn, rules, paths)
    return quiet_moves(own, opp, kings, turn, rules)


def count_moves(own: int, opp: int, kings: int, turn: int, rules: RuleSet, paths: bool) -> int:
    """The number of legal moves, counting quiet men's moves without listing them."""
    pieces = capturers(own, opp, kings, turn, rules)
    if pieces:
        return len(capture_sequences(pieces, own, opp, kings, turn, rules, paths))
    empty = FULL & ~(own | opp)
    men = own & ~kings
    if turn == 0:
        n = popcount((men << 5) & empty) + popcount((men << 4) & empty)
    else:
        n = popcount((men >> 5) & empty) + popcount((men >> 4) & empty)
    own_kings = own & kings
    if own_kings:
        if rules.flying_kings:
            occupied = own | opp
            while own_kings:
                low = own_kings & -own_kings
                own_kings ^= low
                for ray in RAY[low.bit_length() - 1]:
                    n += _slide(ray, occupied)
        else:
            n += (
                popcount((own_kings << 5) & empty)
                + popcount((own_kings << 4) & empty)
                + popcount((own_kings >> 5) & empty)
                + popcount((own_kings >> 4) & empty)
            )
    return n
