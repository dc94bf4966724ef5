"""A tiny exhaustive prover over the rules engine, independent of the computer players.

It answers "can the side to move force a win within n plies?" by trying every legal move
(AND-OR search, no evaluation, no pruning heuristics), so tactical test positions are
checked by the rules alone rather than by the search under test.
"""

from __future__ import annotations

from checkers_engine import Board


def forced_win(board: Board, plies: int) -> bool:
    """Whether the side to move wins by force within ``plies`` of its own and the
    opponent's moves (a win: the opponent is left without pieces or moves)."""
    if plies <= 0 or board.is_game_over():
        return False
    for move in board.legal_moves:
        board.push(move)
        try:
            if _all_lose(board, plies - 1):
                return True
        finally:
            board.pop()
    return False


def _all_lose(board: Board, plies: int) -> bool:
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner is not None and outcome.winner is not board.turn
    if plies <= 0:
        return False
    for move in board.legal_moves:
        board.push(move)
        try:
            if not forced_win(board, plies - 1):
                return False
        finally:
            board.pop()
    return True


def winning_first_moves(board: Board, plies: int) -> list[str]:
    """The moves after which the side to move wins by force within ``plies`` in all."""
    out = []
    for move in board.legal_moves:
        board.push(move)
        try:
            if _all_lose(board, plies - 1):
                out.append(str(move))
        finally:
            board.pop()
    return out


def material_outcome(board: Board, plies: int) -> int:
    """Exhaustive negamax of the material balance (men 2, kings 3) for the side to move,
    ``plies`` deep, with captures always played out: what best play wins or loses in
    material within that horizon. A side left without a move scores -100."""
    moves = board.legal_moves
    if not moves:
        return -100
    if plies <= 0 and not moves[0].is_capture:
        return _material(board)
    best = -1000
    for move in moves:
        board.push(move)
        try:
            best = max(best, -material_outcome(board, plies - 1))
        finally:
            board.pop()
    return best


def _material(board: Board) -> int:
    score = 0
    for piece in board.pieces().values():
        value = 3 if piece.king else 2
        score += value if piece.side is board.turn else -value
    return score


def material_by_move(board: Board, plies: int) -> dict[str, int]:
    """material_outcome after each legal move, for the side to move."""
    out = {}
    for move in board.legal_moves:
        board.push(move)
        try:
            out[str(move)] = -material_outcome(board, plies - 1)
        finally:
            board.pop()
    return out
