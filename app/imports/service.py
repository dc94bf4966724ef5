"""Importing PDN: every game of a text replayed through the engine, the ones that replay
stored, the others reported with where and why; reading and exporting a stored game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import InvalidInput, NotFound
from app.core.ids import new_id
from app.engine import RULE_SETS, Side, pdn, tradition
from app.engine.pdn import AFTER_ROSTER, ROSTER, GameRecord, PdnError, ReplayReport
from app.rooms import errors as room_errors

from .models import ImportedGame


class NoGames(InvalidInput):
    """The PDN text holds no game."""

    code = "no_games"


class TooManyGames(InvalidInput):
    """The PDN text holds more games than one import takes (`max_games`)."""

    code = "too_many_games"


class ImportedGameNotFound(NotFound):
    """No imported game has this id."""

    code = "imported_game_not_found"


@dataclass(frozen=True, slots=True)
class Imported:
    """A game of the text, replayed, and its id when it was stored."""

    report: ReplayReport
    id: str | None


def decode(raw: bytes) -> tuple[str, str]:
    """The text of a PDN file and its encoding: UTF-8, else Windows-1252 (CheckerBoard's
    files and many old archives), which reads any bytes."""
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace"), "windows-1252"


def import_pdn(
    session: Session, *, text: str, default_rule_set: str, ctx: Context
) -> list[Imported]:
    """Replay every game of `text` (games without a GameType tag in `default_rule_set`)
    and store each that replays in full; a failing game is reported and does not stop
    the games after it. A game longer than `IMPORT_MAX_PLIES` fails (`too_many_plies`);
    a text of more than `IMPORT_MAX_GAMES` games is refused whole (TooManyGames), as is
    one without any game (NoGames)."""
    if default_rule_set not in RULE_SETS:
        raise room_errors.UnknownRuleSet(
            f"unknown rule set {default_rule_set!r}", rule_sets=sorted(RULE_SETS)
        )
    limit = ctx.settings.import_max_games
    try:
        reports = pdn.read_pdn(
            text,
            default_rule_set=default_rule_set,
            max_games=limit,
            max_plies=ctx.settings.import_max_plies,
        )
    except pdn.TooManyGames:
        raise TooManyGames(
            f"this text holds more than {limit} games, the most one import takes: "
            "import it in parts",
            max_games=limit,
        ) from None
    except PdnError as exc:  # not a text at all
        raise InvalidInput(f"cannot read this PDN: {exc}") from None
    if not reports:
        raise NoGames(
            'no game found: a PDN game is tags such as [Event "..."] and its moves, '
            "such as 1. 11-15 22-18 2. 15x22"
        )
    out: list[Imported] = []
    rows: list[dict[str, Any]] = []
    for report in reports:
        if not report.ok:
            out.append(Imported(report, None))
            continue
        game_id = new_id()
        start = report.start
        rows.append(
            {
                "id": game_id,
                "rule_set": report.rule_set,
                "number": report.game.number,
                "tags": report.game.tag_values,
                "start_fen": start.internal_fen() if start else None,
                "start_half_move_clock": start.half_move_clock if start else None,
                "start_move_number": start.move_number if start else None,
                "moves": [m.notation() for m in report.moves],
                "plies": len(report.moves),
                "result": report.result,
                # The code and params let the pages say a note in the reader's language.
                "notes": [
                    {
                        "line": n.line,
                        "column": n.column,
                        "text": n.text,
                        "code": n.code,
                        "params": n.params,
                    }
                    for n in report.notes
                ],
                "service_end_ply": report.service_end.ply if report.service_end else None,
                "service_end": (
                    report.service_end.termination.value if report.service_end else None
                ),
                "created_at": ctx.now,
            }
        )
        out.append(Imported(report, game_id))
    if rows:
        with session.begin():
            session.execute(insert(ImportedGame), rows)
    return out


def read_imported(session: Session, *, game_id: str) -> ImportedGame:
    with session.begin():
        game = session.get(ImportedGame, game_id)
        if game is None:
            raise ImportedGameNotFound("no imported game with this id")
        session.expunge(game)
        return game


def winner_of(result: str) -> Side | None:
    """The side a result in CheckerBoard's convention names as winner."""
    return {"1-0": Side.DRUMS, "0-1": Side.TIRES}.get(result)


# Tags the writer makes itself; the record's other tags follow them, as written.
_WRITTEN = frozenset((*ROSTER, *AFTER_ROSTER)) - {"UTCDate", "UTCTime"}


def export_imported(game: ImportedGame) -> str:
    """The imported game as PDN in its rule set's tradition, the record's players,
    event, place, date and further tags kept."""
    trad = tradition(game.rule_set)
    tags = game.tags

    def tag(name: str, default: str) -> str:
        value = tags.get(name, "").strip()
        return value or default

    extra: dict[str, str] = {}
    for name in ("UTCDate", "UTCTime", *tags):
        if name in tags and name not in _WRITTEN:
            extra.setdefault(name, tags[name])
    return pdn.write_game(
        GameRecord(
            rule_set=game.rule_set,
            moves=game.moves,
            finished=game.result != "*",
            winner=winner_of(game.result),
            drums_player=tag(trad.colour(Side.DRUMS).value, "?"),
            tires_player=tag(trad.colour(Side.TIRES).value, "?"),
            event=tag("Event", "?"),
            site=tag("Site", "?"),
            date=tag("Date", "????.??.??"),
            round=tag("Round", "-"),
            start_fen=game.start_fen,
            start_half_move_clock=game.start_half_move_clock,
            start_move_number=game.start_move_number,
            termination=tags.get("Termination") or None,
            extra_tags=extra,
        )
    )
