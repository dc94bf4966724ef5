"""Importing PDN: every game of a text replayed through the engine (in a worker,
`app.imports.runner`), the ones that replay stored, the others reported with where and
why; reading and exporting a stored game."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import InvalidInput, NotFound
from app.core.ids import new_id
from app.core.settings import Settings
from app.rooms import errors as room_errors
from checkers_engine import RULE_SETS, Side, pdn, tradition
from checkers_engine.pdn import AFTER_ROSTER, ROSTER, GameRecord

from .models import ImportedGame
from .replay import Limits, Replayed, replay_text
from .schemas import ImportedReportOut


class NoGames(InvalidInput):
    """The PDN text holds no game."""

    code = "no_games"


class TooManyGames(InvalidInput):
    """The PDN text holds more games than one import takes (`max_games`)."""

    code = "too_many_games"


class TooManyPliesInAll(InvalidInput):
    """The games of the PDN text hold more moves in all than one import replays
    (`max_total_plies`)."""

    code = "too_many_plies_in_all"


class ImportedGameNotFound(NotFound):
    """No imported game has this id."""

    code = "imported_game_not_found"


def decode(raw: bytes) -> tuple[str, str]:
    """The text of a PDN file and its encoding: UTF-8, else Windows-1252 (CheckerBoard's
    files and many old archives), which reads any bytes."""
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace"), "windows-1252"


def import_pdn(
    session: Session, *, text: str, default_rule_set: str, ctx: Context
) -> list[ImportedReportOut]:
    """Replay and store `text` in this process (the API replays in a worker instead,
    `app.imports.runner`); the limits are the `IMPORT_MAX_*` settings."""
    check_rule_set(default_rule_set)
    replayed = replay_text(text, default_rule_set=default_rule_set, limits=limits_of(ctx.settings))
    refuse(replayed)
    return store(session, replayed, ctx=ctx)


def limits_of(settings: Settings) -> Limits:
    return Limits(
        games=settings.import_max_games,
        plies=settings.import_max_plies,
        total_plies=settings.import_max_total_plies,
    )


def refuse(replayed: Replayed) -> None:
    """Raise what a text refused whole is refused with (nothing is stored)."""
    params = replayed.params
    match replayed.refused:
        case None:
            return
        case "too_many_games":
            raise TooManyGames(
                f"this text holds more than {params['max_games']} games, the most one "
                "import takes: import it in parts",
                **params,
            )
        case "too_many_plies_in_all":
            raise TooManyPliesInAll(
                f"this text's games hold {params['plies']} moves in all, more than the "
                f"{params['max_total_plies']} one import takes: import it in parts",
                **params,
            )
        case "no_games":
            raise NoGames(
                'no game found: a PDN game is tags such as [Event "..."] and its moves, '
                "such as 1. 11-15 22-18 2. 15x22"
            )
        case _:  # not a text at all
            raise InvalidInput(f"cannot read this PDN: {params.get('reason', '')}")


def check_rule_set(default_rule_set: str) -> None:
    if default_rule_set not in RULE_SETS:
        raise room_errors.UnknownRuleSet(
            f"unknown rule set {default_rule_set!r}", rule_sets=sorted(RULE_SETS)
        )


def store(session: Session, replayed: Replayed, *, ctx: Context) -> list[ImportedReportOut]:
    """Store every game of a replayed text that replayed in full; each game's report, with
    the stored game's id."""
    rows: list[dict[str, Any]] = []
    reports: list[ImportedReportOut] = []
    for row, report in zip(replayed.rows, replayed.reports, strict=True):
        if row is None:
            reports.append(ImportedReportOut.model_validate(report))
            continue
        game_id = new_id()
        rows.append({**row, "id": game_id, "created_at": ctx.now})
        reports.append(
            ImportedReportOut.model_validate({**report, "imported": True, "id": game_id})
        )
    if rows:
        with session.begin():
            session.execute(insert(ImportedGame), rows)
    return reports


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
