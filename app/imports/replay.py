"""The CPU-heavy half of an import, run in a worker process: read a PDN text, replay
every game through the engine, and hand back plain values (the rows to store and each
game's report), so the web process only stores and answers.

Only the rules engine is imported here, so a worker starts in a fraction of a second;
what crosses back is plain dicts (a report has the fields of `ImportedReportOut`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from checkers_engine import pdn
from checkers_engine.pdn import PdnError, ReplayReport

PdnResult = Literal["1-0", "0-1", "1/2-1/2", "*"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one import may hold (the `IMPORT_MAX_*` settings)."""

    games: int
    plies: int  # of one game
    total_plies: int  # of all its games together


@dataclass(frozen=True, slots=True)
class Replayed:
    """A text replayed: per game, the row to store (None: not stored) and its report; or,
    when the text is refused whole, the refusal's code and the values it names."""

    rows: list[dict[str, Any] | None] = field(default_factory=list)
    reports: list[dict[str, Any]] = field(default_factory=list)
    refused: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


def as_result(value: str) -> PdnResult:
    for known in ("1-0", "0-1", "1/2-1/2"):
        if value == known:
            return known
    return "*"


def _row(report: ReplayReport) -> dict[str, Any]:
    """The imported game's columns but its id and time of import."""
    start = report.start
    end = report.service_end
    return {
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
        "notes": [_note(n) for n in report.notes],
        "comments": _comments(report.game.comments),
        "variations": [
            {
                "ply": v.ply,
                "moves": [m.notation() for m in v.moves],
                "comments": _comments(v.comments),
            }
            for v in report.variations
        ],
        "service_end_ply": end.ply if end else None,
        "service_end": end.termination.value if end else None,
    }


def _comments(comments: Sequence[pdn.Comment]) -> list[dict[str, Any]]:
    return [{"ply": c.ply, "text": c.text} for c in comments]


def _note(note: pdn.Note) -> dict[str, Any]:
    return {
        "line": note.line,
        "column": note.column,
        "text": note.text,
        "code": note.code,
        "params": note.params,
    }


def report_of(report: ReplayReport) -> dict[str, Any]:
    """What the answer says of one game, before it has an id (`imported` is False until
    the web process stores it)."""
    game = report.game
    failure = report.failure
    end = report.service_end
    return {
        "number": game.number,
        "line": game.line,
        "column": game.column,
        "imported": False,
        "id": None,
        "url": None,
        "pdn_url": None,
        "rule_set": report.rule_set,
        "white": game.tag("White"),
        "black": game.tag("Black"),
        "event": game.tag("Event"),
        "date": game.tag("Date"),
        "result": as_result(report.result),
        "plies": len(report.moves),
        "from_position": report.start is not None,
        "notes": [_note(n) for n in report.notes],
        "service_end": {"ply": end.ply, "termination": end.termination.value} if end else None,
        "failure": None
        if failure is None
        else {
            "game": failure.game,
            "line": failure.line,
            "column": failure.column,
            "ply": failure.ply,
            "move": failure.move,
            "reason": failure.reason,
            "code": failure.code,
            "params": failure.params,
            "legal_moves": list(failure.legal_moves),
        },
    }


def replay_text(text: str, *, default_rule_set: str, limits: Limits) -> Replayed:
    """Replay every game of `text`; a failing game is reported and does not stop the games
    after it. Refused whole: a text that is no PDN (`unreadable`), one of more games than
    `limits.games` (`too_many_games`), one whose games hold more moves in all than
    `limits.total_plies` (`too_many_plies_in_all`), one without a game (`no_games`)."""
    try:
        games = pdn.read_games(text, max_games=limits.games)
    except pdn.TooManyGames:
        return Replayed(refused="too_many_games", params={"max_games": limits.games})
    except PdnError as exc:
        return Replayed(refused="unreadable", params={"reason": str(exc)})
    if not games:
        return Replayed(refused="no_games")
    # Each game's replay stops at its own cap, so that is what it can cost at most.
    written = sum(min(len(g.moves), limits.plies + 1) for g in games)
    if written > limits.total_plies:
        return Replayed(
            refused="too_many_plies_in_all",
            params={"max_total_plies": limits.total_plies, "plies": written},
        )
    out = Replayed()
    for game in games:
        report = pdn.replay(game, default_rule_set=default_rule_set, max_plies=limits.plies)
        out.rows.append(_row(report) if report.ok else None)
        out.reports.append(report_of(report))
    return out
