"""What an import answers, and what the replay of an imported game shows."""

from __future__ import annotations

from app.engine import RULE_SETS, tradition
from app.engine.pdn import ReplayFailure, ReplayReport, ServiceEnd
from app.i18n.context import current
from app.rooms.positions import start_board, start_text
from app.rooms.schemas import MoveOut
from app.rooms.view import move_forms, move_number, rule_set_out

from .models import ImportedGame
from .schemas import (
    FailureOut,
    ImportedGameOut,
    ImportedReportOut,
    ImportOut,
    NoteOut,
    PdnResult,
    ServiceEndOut,
)
from .service import Imported, winner_of


def page_url(game_id: str) -> str:
    return f"/imported/{game_id}"


def pdn_url(game_id: str) -> str:
    return f"/api/imported-games/{game_id}.pdn"


def _service_end(end: ServiceEnd | None) -> ServiceEndOut | None:
    return ServiceEndOut(ply=end.ply, termination=end.termination.value) if end else None


def _failure(failure: ReplayFailure | None) -> FailureOut | None:
    if failure is None:
        return None
    return FailureOut(
        game=failure.game,
        line=failure.line,
        column=failure.column,
        ply=failure.ply,
        move=failure.move,
        reason=failure.reason,
        code=failure.code,
        params=failure.params,
        legal_moves=list(failure.legal_moves),
    )


def _result(value: str) -> PdnResult:
    for known in ("1-0", "0-1", "1/2-1/2"):
        if value == known:
            return known
    return "*"


def report_out(item: Imported) -> ImportedReportOut:
    report: ReplayReport = item.report
    game = report.game
    return ImportedReportOut(
        number=game.number,
        line=game.line,
        column=game.column,
        imported=item.id is not None,
        id=item.id,
        url=page_url(item.id) if item.id else None,
        pdn_url=pdn_url(item.id) if item.id else None,
        rule_set=report.rule_set,
        white=game.tag("White"),
        black=game.tag("Black"),
        event=game.tag("Event"),
        date=game.tag("Date"),
        result=_result(report.result),
        plies=len(report.moves),
        from_position=report.start is not None,
        notes=[
            NoteOut(line=n.line, column=n.column, text=n.text, code=n.code, params=n.params)
            for n in report.notes
        ],
        service_end=_service_end(report.service_end),
        failure=_failure(report.failure),
    )


def import_out(items: list[Imported], encoding: str) -> ImportOut:
    imported = sum(item.id is not None for item in items)
    return ImportOut(
        games=[report_out(item) for item in items],
        imported=imported,
        failed=len(items) - imported,
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
        rule_set=rule_set_out(RULE_SETS[rule_set]),
        tags=game.tags,
        start_fen=start_fen,
        start_position=start_text(
            rule_set, game.start_fen, game.start_half_move_clock, game.start_move_number
        ),
        moves=moves,
        result=_result(game.result),
        winner=winner_of(game.result),
        result_text=result_text(rule_set, game.result),
        notes=[NoteOut(**note) for note in game.notes],
        service_end=end,
        pdn_url=pdn_url(game.id),
        url=page_url(game.id),
        imported_at=game.created_at,
    )
