"""Acceptance: schemathesis over the app's own /openapi.json, every operation, finds no
5xx and no response that breaks the schema; a stateful run follows the links from a new
room to its operations, with the seat tokens the room handed out.

Every operation is fuzzed over the wire (a real Uvicorn socket, so header bytes arrive as
sent: a Latin-1 "\u00b2" in `Last-Event-ID` is byte 0xB2), with data that fits the schema
and data that does not, in the path, the query, the headers and the body, and with the
ids and tokens of real rooms in most cases, so that the code past the room lookup is
reached (an unknown room is answered 404 before anything else is read). A fuzzing
dictionary mixes values that break number parsing into every string and integer (one
draw in ten). The stateful run is in process (ASGI). Examples per operation:
FUZZ_EXAMPLES (default 150 over the wire, three times that for the event record, a fifth
of it for the stateful run), so `make test` stays short; raise it for a longer hunt
(FUZZ_EXAMPLES=2000).
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.core.db import Base, Database
from app.core.settings import Settings
from app.main import create_app
from tests.web.servers import serve_app

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    content_type_conformance,
    status_code_conformance,
]
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure is reproducible
    suppress_health_check=list(HealthCheck),
    database=None,
)


def _app(tmp: Path, **changes: Any) -> Any:
    url = f"sqlite:///{tmp}/fuzz.sqlite3"
    database = Database(url)
    Base.metadata.create_all(database.engine)
    return create_app(
        Settings(
            database_url=url,
            scheduler_enabled=False,
            migrate_on_start=False,
            rate_limit_enabled=False,
            public_url="http://checkers.test",
            log_level="WARNING",
            **changes,
        ),
        database=database,
    )


@dataclass
class Wire:
    """The served app's base URL and real rooms to aim at: (room id, its seat tokens)."""

    base: str
    rooms: list[tuple[str, list[str]]]


WIRE_SCRATCH = Path(tempfile.mkdtemp(prefix="checkers-fuzz-wire-"))
# Streams end quickly, so a fuzzed `Accept: text/event-stream` is answered too.
WIRE_APP = _app(WIRE_SCRATCH, live_stream_seconds=0.05, live_keepalive_seconds=0.02)
# A fuzzing dictionary of values that break number parsing: the edges of 32- and 64-bit
# integers and far past them, and text that looks numeric to one parser and not to
# another (`str.isdigit` accepts superscripts and other scripts' digits, `int` does not).
HOSTILE_INTEGERS = [0, -1, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 10**40]
HOSTILE_STRINGS = [
    *("\u00b2", "\u00b3", "\u00b9", "1\u00b2", "\u0661\u0662", "\uff11", "\u2167"),
    *("9" * 12, "9" * 40, "-1", "+1", " 1", "1 ", "1e3", "0x1f", "1_000", "1.0", "NaN"),
]
WIRE_CONFIG = SchemathesisConfig.from_dict(
    {
        "dictionaries": {
            "hostile-integers": {"values": HOSTILE_INTEGERS},
            "hostile-strings": {"values": HOSTILE_STRINGS},
        },
        "generation": {
            "mode": "all",  # data that fits the schema and data that does not
            "codec": "latin-1",  # header values beyond ASCII, as hostile clients send them
            "allow-x00": False,  # HTTP clients refuse NUL in headers before sending
            "dictionaries": {
                "integer": {"dictionary": "hostile-integers", "probability": 0.1},
                "string": {"dictionary": "hostile-strings", "probability": 0.1},
            },
        },
    }
)
# The schema as a document (no app attached): its cases are sent over a real socket.
wire_schema = schemathesis.openapi.from_dict(WIRE_APP.openapi(), config=WIRE_CONFIG)


@pytest.fixture(scope="module")
def wire() -> Iterator[Wire]:
    with serve_app(WIRE_APP) as base, httpx.Client(base_url=base, timeout=10) as client:
        rooms: list[tuple[str, list[str]]] = []
        for join, moves in ((False, 0), (True, 0), (True, 3)):
            created = client.post("/api/rooms", json={"rule_set": "english"}).json()
            tokens = [created["token"]]
            if join:
                tokens.append(client.post(f"/api/rooms/{created['room_id']}/join").json()["token"])
            for ply, move in enumerate(("11-15", "22-18", "15x22")[:moves]):
                client.post(
                    f"/api/rooms/{created['room_id']}/moves",
                    json={"move": move, "expected_ply": ply},
                    headers={"Authorization": f"Bearer {tokens[ply % 2]}"},
                )
            rooms.append((created["room_id"], tokens))
        yield Wire(base, rooms)
    WIRE_APP.state.database.dispose()
    shutil.rmtree(WIRE_SCRATCH, ignore_errors=True)


SCRATCH = Path(tempfile.mkdtemp(prefix="checkers-fuzz-"))
APP = _app(SCRATCH)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def lifespan() -> Iterator[None]:
    """The app's lifespan (the computer player's pool) runs around the module."""
    with TestClient(APP):
        yield
    APP.state.database.dispose()
    shutil.rmtree(SCRATCH, ignore_errors=True)


@wire_schema.parametrize()
@FUZZ
def test_every_operation_answers_within_its_schema(case: Any, wire: Wire) -> None:
    _call_on_the_wire(case, wire)


def _call_on_the_wire(case: Any, wire: Wire) -> None:
    """Over the wire; four cases in five aim at a real room, half of those with one of
    its seats' tokens."""
    rng = random.Random(repr((case.operation.label, case.path_parameters, case.query)))
    if case.path_parameters and "room_id" in case.path_parameters and rng.random() < 0.8:
        room, tokens = rng.choice(wire.rooms)
        case.path_parameters = {**case.path_parameters, "room_id": room}
        if rng.random() < 0.5:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {rng.choice(tokens)}"}
    if case.path.endswith("/events") and rng.random() < 0.3:
        case.headers = {**(case.headers or {}), "Accept": "text/event-stream"}
    case.call_and_validate(base_url=wire.base, checks=CHECKS, timeout=10)


EVENTS_EXAMPLES = EXAMPLES * 3


@wire_schema.include(path="/api/rooms/{room_id}/events").parametrize()
@settings(FUZZ, max_examples=EVENTS_EXAMPLES)
def test_the_event_record_over_the_wire(case: Any, wire: Wire) -> None:
    """The route with the most client-chosen values (a version in the query, another in a
    header, a page size, a stream or a page) gets three times the examples."""
    _call_on_the_wire(case, wire)


def test_stateful_links_from_a_new_room() -> None:
    """Sequences of calls following the links inferred from the schema (room id from the
    creation's answer into every room operation), acting with the seat tokens that the
    creation and the join returned, or with none."""
    # The computer answers in the background, on its own time: a scenario with it could
    # not be replayed identically, which Hypothesis requires. Its route is fuzzed above.
    machine = schema.exclude(path="/api/computer-games").as_state_machine()
    handed_out: list[str] = []

    class Seats(machine):  # type: ignore[misc, valid-type]
        def setup(self) -> None:
            self.rng = random.Random(7)
            self.tokens: list[str] = []  # per scenario, so a replay sees the same state

        def before_call(self, case: Any) -> None:
            if case.path.endswith("/events"):
                # The JSON page: a live stream would hold the call open for minutes.
                case.headers = {**(case.headers or {}), "Accept": "application/json"}
            if self.tokens and self.rng.random() < 0.8:
                case.headers = {
                    **(case.headers or {}),
                    "Authorization": f"Bearer {self.rng.choice(self.tokens)}",
                }

        def after_call(self, response: Any, case: Any) -> None:
            json_answer = "application/json" in str(response.headers.get("content-type"))
            if response.status_code in (200, 201) and json_answer:
                body = response.json()
                if isinstance(body, dict) and isinstance(body.get("token"), str):
                    self.tokens.append(body["token"])
                    handed_out.append(body["token"])

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Seats.run(
        settings=settings(
            max_examples=max(EXAMPLES // 5, 10),
            stateful_step_count=8,
            derandomize=os.environ.get("FUZZ_RANDOM") is None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
    )
    assert handed_out, "the stateful run should have created rooms and taken seats"
