"""PDN export of a stored game, in its rule set's own tradition (the engine's writer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from checkers_engine import RULE_SETS, Side, tradition
from checkers_engine.pdn import GameRecord, write_game

from .models import Ending, Game, GameStatus, Move, Room
from .names import FORMER_PLAYER, shown_name
from .reasons import ReasonCode, span

# The PDN standard's Termination values (those of PGN, which PDN follows).
TERMINATION_TAG = {
    Ending.NO_PIECES: "normal",
    Ending.NO_MOVES: "normal",
    Ending.KING_MOVES: "normal",
    Ending.REPETITION: "normal",
    Ending.RESIGNATION: "normal",
    Ending.AGREEMENT: "normal",
    Ending.FORFEIT: "time forfeit",
    Ending.MOVE_LIMIT: "adjudication",
    Ending.EXPIRED: "abandoned",
}


def result_comment(rule_set: str, game: Game) -> str | None:
    """Why a finished game ended, as its PDN comment: a side is named by the tradition's
    colour, as the tags name the players (`Black resigned` in English checkers, where the
    first mover is Black); an ending that names no side says what the record says
    (`threefold repetition`)."""
    reason, winner = game.reason, game.winner
    if game.status != GameStatus.FINISHED or reason is None:
        return None
    if winner is None:
        return reason.english()
    loser = tradition(RULE_SETS[rule_set]).colour(winner.opponent).value
    if reason.code == ReasonCode.RESIGNED:
        return f"{loser} resigned"
    if reason.code == ReasonCode.NO_PIECES:
        return f"{loser} has no pieces left"
    if reason.code == ReasonCode.NO_MOVES:
        return f"{loser} has no legal move"
    if reason.code == ReasonCode.FORFEIT:
        length = reason.length
        return f"{loser} forfeited: no move for {span(length)}" if length else f"{loser} forfeited"
    return reason.english()


def export_game(
    room: Room,
    game: Game,
    moves: list[Move],
    *,
    site: str,
    move_comments: Sequence[str | None] = (),
    first_comment: str | None = None,
    variations: Mapping[int, Sequence[Sequence[str]]] | None = None,
    last_comment: str | None = None,
) -> str:
    """The game as PDN: the roster tags with the tradition's colours and the players' names
    (White and Black), GameType, the start position when it is not the standard one,
    every move (each with its comment, if given), and the result (an expired game has
    none: `*`). A player's own copy adds a comment before the first move, variations
    (by the number of moves before them) and a comment before the result's."""
    rule_set = RULE_SETS[room.rule_set]
    finished = game.status == GameStatus.FINISHED
    seats = {seat.role: seat for seat in room.seats}

    def player(side: Side) -> str:
        seat = seats.get(game.seat_of(side))
        if seat is None:
            return "?"  # nobody took the seat
        return shown_name(
            seat.name, seat.computer_level, side, FORMER_PLAYER if seat.former else None
        )

    return write_game(
        GameRecord(
            rule_set=room.rule_set,
            moves=[move.notation for move in moves],
            finished=finished and game.termination != Ending.EXPIRED,
            winner=game.winner,
            drums_player=player(Side.DRUMS),
            tires_player=player(Side.TIRES),
            event=f"{rule_set.name} correspondence game",
            site=site,
            date=(game.started_at or game.created_at).strftime("%Y.%m.%d"),
            round=str(game.number),
            start_fen=game.start_fen,
            start_half_move_clock=game.start_half_move_clock,
            start_move_number=game.start_move_number,
            termination=(
                TERMINATION_TAG[game.termination]
                if finished and game.termination
                else "unterminated"
            ),
            utc=game.ended_at,
            comment=" ".join(
                text for text in (last_comment, result_comment(room.rule_set, game)) if text
            )
            or None,
            move_comments=move_comments,
            first_comment=first_comment,
            variations=variations or {},
        )
    )
