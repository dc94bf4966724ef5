"""Acceptance: no seat token or device-link secret appears in any log line, whatever the
request did (played, refused, failed validation, moved a seat to another device)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.logging import JsonFormatter

SAME_ORIGIN = {"Origin": "http://testserver"}


class Capture(logging.Handler):
    """Every record of every logger, rendered as the service renders it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def captured() -> Iterator[Capture]:
    handler = Capture()
    loggers = [logging.getLogger(), logging.getLogger("checkers"), logging.getLogger("uvicorn")]
    engine_log = logging.getLogger("sqlalchemy.engine")  # SQL and its parameters too
    levels = [logger.level for logger in loggers], engine_log.level
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    engine_log.setLevel(logging.INFO)
    yield handler
    for logger, level in zip(loggers, levels[0], strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)
    engine_log.setLevel(levels[1])


def test_no_secret_reaches_a_log_line(client: TestClient, captured: Capture) -> None:
    secrets: list[str] = []
    created = client.post("/api/rooms", json={"rule_set": "english"}).json()
    room_id, drums = created["room_id"], created["token"]
    tires = client.post(f"/api/rooms/{room_id}/join").json()["token"]
    secrets += [drums, tires]
    api = f"/api/rooms/{room_id}"
    auth = {"Authorization": f"Bearer {drums}"}
    client.get(api, headers=auth)
    client.post(f"{api}/moves", json={"move": "11-15", "expected_ply": 0}, headers=auth)
    client.post(f"{api}/moves", json={"move": "11-15", "expected_ply": 0}, headers=auth)  # resend
    client.post(f"{api}/moves", json={"move": "9-14", "expected_ply": 1}, headers=auth)  # refused
    client.post(f"{api}/moves", json={"move": 5}, headers=auth)  # invalid body
    client.post(
        f"{api}/draw", json={"action": "offer"}, headers={"Authorization": f"Bearer {tires}"}
    )
    client.post(f"{api}/resign", headers={"Authorization": f"Bearer {tires}x"})  # wrong token
    client.get(f"{api}/events", headers=auth)

    page = client.post("/r", json={"rule_set": "russian"}, headers=SAME_ORIGIN)
    page_token = (
        page.cookies.get("seat") or re.search(r"seat=([^;]+)", page.headers["set-cookie"])[1]
    )
    secrets.append(page_token)
    page_room = page.json()["room_id"]
    cookie = {**SAME_ORIGIN, "Cookie": f"seat={page_token}"}
    link = client.post(f"/r/{page_room}/device-link", headers=cookie)
    assert link.status_code == 200, link.text
    secret = link.json()["url"].split("#continue=", 1)[1]
    secrets.append(secret)
    moved = client.post(f"/r/{page_room}/continue", json={"secret": secret}, headers=SAME_ORIGIN)
    assert moved.status_code == 200, moved.text
    secrets.append(re.search(r"seat=([^;]+)", moved.headers["set-cookie"])[1])
    client.post(f"/r/{page_room}/continue", json={"secret": secret}, headers=SAME_ORIGIN)  # reused

    text = "\n".join(captured.lines)
    assert len(captured.lines) > 20 and "checkers.access" in text and "SELECT" in text
    for value in secrets:
        assert len(value) >= 20
        assert value not in text
