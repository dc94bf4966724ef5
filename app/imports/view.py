"""What an import answers, and what the replay of an imported game shows."""

from __future__ import annotations

from app.i18n.context import current
from app.rooms.positions import start_board, start_text
from app.rooms.schemas import MoveOut
from app.rooms.view import move_forms, move_number, rule_set_out
from checkers_engine import RULE_SETS, tradition

from .models import ImportedGame
from .replay import as_result
from .schemas import (
    CommentOut,
    ImportedGameOut,
    ImportedReportOut,
    ImportOut,
    NoteOut,
    ServiceEndOut,
    VariationOut,
)
from .service import winner_of


def page_url(game_id: str) -> str:
    return f"/imported/{game_id}"


def pdn_url(game_id: str) -> str:
    return f"/api/imported-games/{game_id}.pdn"


def linked(report: ImportedReportOut) -> ImportedReportOut:
    """A game's report with the links of its stored game, if it was stored."""
    if report.id is None:
        return report
    return report.model_copy(update={"url": page_url(report.id), "pdn_url": pdn_url(report.id)})


def import_summary(reports: list[ImportedReportOut], encoding: str) -> ImportOut:
    imported = sum(report.imported for report in reports)
    return ImportOut(
        games=[linked(report) for report in reports],
        imported=imported,
        failed=len(reports) - imported,
        encoding=encoding,
    )


def result_text(rule_set: str, result: str) -> str:
    """The recorded result in the tradition's colours: ``Black won (1-0)``."""
    tr = current()
    winner = winner_of(result)
    if winner is not None:
        if tradition(rule_set).colour(winner).value == "White":
            return tr._("White won ({result})", result=result)
        return tr._("Black won ({result})", result=result)
    if result == "1/2-1/2":
        return tr._("Drawn (1/2-1/2)")
    return tr._("No result recorded (*)")


def imported_game_out(game: ImportedGame) -> ImportedGameOut:
    """The stored game replayed for its page: every position after each move."""
    rule_set = game.rule_set
    board = start_board(
        rule_set, game.start_fen, game.start_half_move_clock, game.start_move_number
    )
    start_fen = board.fen()
    moves: list[MoveOut] = []
    first_side = board.turn
    for ply, text in enumerate(game.moves, start=1):
        move = board.parse_move(text)
        side = board.turn
        board.push(move)
        moves.append(
            MoveOut(
                **move_forms(rule_set, move.path, move.is_capture),
                ply=ply,
                number=move_number(game.start_move_number, first_side, ply),
                side=side,
                path=list(move.path),
                captured=list(move.captured),
                crowned=move.crowns,
                fen_after=board.fen(),
            )
        )
    end = (
        ServiceEndOut(ply=game.service_end_ply, termination=game.service_end)
        if game.service_end_ply is not None and game.service_end
        else None
    )
    return ImportedGameOut(
        id=game.id,
        number=game.number,
        rule_set=rule_set_out(RULE_SETS[rule_set], current().tag),
        tags=game.tags,
        start_fen=start_fen,
        start_position=start_text(
            rule_set, game.start_fen, game.start_half_move_clock, game.start_move_number
        ),
        moves=moves,
        result=as_result(game.result),
        winner=winner_of(game.result),
        result_text=result_text(rule_set, game.result),
        notes=[NoteOut(**note) for note in game.notes],
        comments=[CommentOut(**c) for c in game.comments or []],
        variations=[
            VariationOut(
                ply=v["ply"],
                moves=list(v["moves"]),
                comments=[CommentOut(**c) for c in v["comments"]],
            )
            for v in game.variations or []
        ],
        service_end=end,
        pdn_url=pdn_url(game.id),
        url=page_url(game.id),
        imported_at=game.created_at,
    )
