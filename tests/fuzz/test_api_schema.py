"""Acceptance: schemathesis over the app's own /openapi.json, every operation, finds no
5xx and no response that breaks the schema; a stateful run follows the links from a new
room to its operations, with the seat tokens the room handed out.

The app runs in process (ASGI) on a fresh SQLite database; the number of examples is
bounded (FUZZ_EXAMPLES, default 25 per operation) so the run stays short.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.core.db import Base, Database
from app.core.settings import Settings
from app.main import create_app

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
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


def _app(tmp: Path) -> Any:
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
        ),
        database=database,
    )


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


@schema.parametrize()
@FUZZ
def test_every_operation_answers_within_its_schema(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


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
            max_examples=EXAMPLES,
            stateful_step_count=8,
            derandomize=os.environ.get("FUZZ_RANDOM") is None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
    )
    assert handed_out, "the stateful run should have created rooms and taken seats"
