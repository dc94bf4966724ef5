"""Issue 58, point 7: a NUL byte (or anything else that cannot be an id) where a room's or
an imported game's id goes is refused with 422 or 404 before any query, on SQLite and on
PostgreSQL, whose driver cannot even send such a string; and a value the database still
refuses to take is answered 422, never 500."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.computer.router import router as computer_router
from app.core.db import Database
from app.core.errors import install_error_handlers
from app.imports.router import router as imports_router
from app.notify.router import router as notify_router
from app.rooms.router import router as rooms_router
from app.web.router import router as web_router

ROUTERS = (rooms_router, computer_router, imports_router, notify_router, web_router)
SAME_ORIGIN = {"Origin": "http://testserver"}
# What stands where an id goes: a NUL byte alone, inside an id, and other text no id has.
NOT_IDS = ("%00", "x%00y", "%00" * 40, "a%20b", "%C3%A9t%C3%A9", "x" * 33)


def _id_routes() -> list[tuple[str, str]]:
    """Every route, of the API or the pages, that names a room or an imported game."""
    found = {
        (method, route.path)
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute)
        and re.search(r"\{(room_id|game_id|imported_id)\}", route.path)
        for method in route.methods - {"HEAD"}
    }
    return sorted(found)


def _url(path: str, not_id: str) -> str:
    path = path.replace("{number}", "1")
    return re.sub(r"\{(room_id|game_id|imported_id)\}", not_id, path)


def test_every_route_refuses_what_cannot_be_an_id(
    client: TestClient,
    database: Database,
    snapshot: Callable[[], dict[str, list[tuple[Any, ...]]]],
) -> None:
    room = client.post("/api/rooms", json={"rule_set": "english"}).json()
    headers = {"Authorization": f"Bearer {room['token']}", **SAME_ORIGIN}
    routes = _id_routes()
    assert len(routes) > 40  # the API's and the pages' alike
    before = snapshot()
    for method, path in routes:
        for not_id in NOT_IDS:
            answer = client.request(method, _url(path, not_id), headers=headers, json={})
            assert answer.status_code in (404, 422), (method, path, not_id, answer.text[:200])
            if path.startswith("/api/"):
                assert answer.json()["code"] in ("validation_error", "http_error"), answer.text
    assert snapshot() == before


@pytest.mark.parametrize("path", ["/r/{}", "/imported/{}"])
def test_a_page_whose_link_cannot_be_an_id_says_there_is_no_such_page(
    client: TestClient, path: str
) -> None:
    for not_id in NOT_IDS:
        answer = client.get(path.format(not_id))
        assert answer.status_code == 404, (path, not_id)
        assert answer.headers["content-type"].startswith("text/html")
        assert "No such" in answer.text


def test_the_issues_requests_answer_422(client: TestClient) -> None:
    """The requests of the report: `/api/rooms/%00` and its kin answered 500 on PostgreSQL."""
    for method, url in (
        ("GET", "/api/rooms/%00"),
        ("POST", "/api/rooms/%00/join"),
        ("POST", "/api/rooms/%00/resign"),
        ("GET", "/api/rooms/%00/events"),
        ("GET", "/api/imported-games/%00"),
        ("GET", "/api/imported-games/%00.pdn"),
        ("POST", "/api/imported-games/%00/review"),
    ):
        answer = client.request(method, url)
        assert answer.status_code == 422, (method, url, answer.text)
        assert answer.json()["code"] == "validation_error"
        assert answer.json()["errors"][0]["loc"][0] == "path"


def test_a_nul_byte_in_a_push_endpoint_is_refused(client: TestClient, database: Database) -> None:
    room = client.post("/api/rooms", json={"rule_set": "english"}).json()
    auth = {"Authorization": f"Bearer {room['token']}"}
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    endpoint = "https://fcm.googleapis.com/fcm/send/a\x00b"
    on = client.post(
        f"/api/rooms/{room['room_id']}/push",
        json={"endpoint": endpoint, "keys": keys},
        headers=auth,
    )
    off = client.post(
        f"/api/rooms/{room['room_id']}/push/off", json={"endpoint": endpoint}, headers=auth
    )
    for answer in (on, off):
        assert answer.status_code == 422, answer.text
        assert answer.json()["errors"][0]["loc"] == ["body", "endpoint"]
    with database.engine.connect() as conn:
        assert conn.scalar(text("SELECT count(*) FROM push_subscriptions")) == 0


def test_a_value_the_database_refuses_is_answered_422(database: Database) -> None:
    """The net under the validation: whatever still reaches the database with a value it
    will not take (PostgreSQL: a NUL byte) is the client's, answered 422, not 500."""
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/echo/{value}")
    def echo(value: str) -> dict[str, Any]:
        with database.session() as session, session.begin():
            return {"value": session.scalar(text("SELECT :value"), {"value": value})}

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/echo/a%00b")
    if database.engine.dialect.name == "postgresql":
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "unstorable_value"
    else:  # SQLite stores any string
        assert answer.status_code == 200 and answer.json() == {"value": "a\x00b"}
