"""One structured log line per request and per game action; never a token."""

from __future__ import annotations

import json
import logging

import pytest

from app.core.logging import JsonFormatter

from .conftest import Api


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def lines() -> Lines:
    handler = Lines()
    logger = logging.getLogger("checkers")
    logger.addHandler(handler)
    yield handler  # type: ignore[misc]
    logger.removeHandler(handler)


def test_requests_and_actions_are_logged_without_tokens(api: Api, lines: Lines) -> None:
    room = api.create()
    api.play(room, "11-15")
    api.move(room, room.creator, "9-13", 0)  # refused: stale
    api.action(room, room.creator, "resign")
    records = [json.loads(line) for line in lines.lines]
    requests = [r for r in records if r["logger"] == "checkers.access"]
    actions = [r for r in records if r["logger"] == "checkers.game"]
    assert {"method", "path", "status", "ms"} <= set(requests[0])
    assert any(r["status"] == 409 for r in requests)
    move = next(r for r in actions if r["msg"] == "move")
    assert (move["room"], move["game"], move["ply"], move["outcome"]) == (room.id, 1, 1, "played")
    over = next(r for r in actions if r["msg"] == "game_over")
    assert over["outcome"] == "resignation" and over["winner"] == "tires"
    text = "\n".join(lines.lines)
    assert room.creator not in text and str(room.joiner) not in text


def test_every_game_action_names_its_room(api: Api, lines: Lines) -> None:
    room = api.create()
    api.play(room, "11-15")
    api.action(room, room.joiner, "draw", "offer")
    api.action(room, room.creator, "draw", "decline")
    api.action(room, room.creator, "resign")
    api.action(room, room.creator, "rematch", "offer")
    api.action(room, room.joiner, "rematch", "decline")
    api.action(room, room.creator, "rematch", "offer")
    api.action(room, room.joiner, "rematch", "accept")
    api.play(room, "11-15")
    actions = [json.loads(line) for line in lines.lines]
    actions = [r for r in actions if r["logger"] == "checkers.game"]
    names = [r["msg"] for r in actions]
    for name in ("created", "joined", "move", "draw_offered", "draw_declined", "game_over"):
        assert name in names, name
    assert "rematch_declined" in names and "rematch_accepted" in names
    assert [r["room"] for r in actions] == [room.id] * len(actions), names
    accepted = next(r for r in actions if r["msg"] == "rematch_accepted")
    assert (accepted["game"], accepted["ply"], accepted["outcome"]) == (2, 0, "playing")
