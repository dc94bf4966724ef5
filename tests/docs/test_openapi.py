"""The OpenAPI document as a client generator needs it: readable stable operation ids,
a description and examples everywhere (each fitting its schema), one error schema that
declares every field a refusal carries and every code, enums where the values are
fixed, only the statuses an operation can answer, and the media types of the PDN and
the event stream."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from app.core.errors import ServiceError, error_codes
from app.core.settings import Settings
from app.main import create_app
from app.rooms.models import EventKind
from checkers_engine import RULE_SETS
from checkers_engine.ai import Level

APP_DIR = Path(__file__).resolve().parents[2] / "app"
CAMEL = re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]*)*$")


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    app = create_app(Settings(database_url="sqlite://", scheduler_enabled=False))
    return dict(app.openapi())


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, operations in doc["paths"].items()
        for method, operation in operations.items()
    ]


def _by_id(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {operation["operationId"]: operation for _m, _p, operation in _operations(doc)}


def _validator(doc: dict[str, Any], schema: dict[str, Any]) -> Any:
    root = {"components": doc["components"], **schema}
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


def test_operation_ids_are_readable_unique_and_stable(doc: dict[str, Any]) -> None:
    ids = [operation["operationId"] for _m, _p, operation in _operations(doc)]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if not CAMEL.match(i)] == []
    named = {(m.upper(), p): o["operationId"] for m, p, o in _operations(doc)}
    assert named[("POST", "/api/rooms")] == "createRoom"
    assert named[("POST", "/api/rooms/{room_id}/moves")] == "playMove"
    assert named[("POST", "/api/rooms/{room_id}/join")] == "joinRoom"
    assert named[("GET", "/api/rooms/{room_id}")] == "getRoom"
    assert named[("GET", "/api/rooms/{room_id}/events")] == "getRoomEvents"


def test_every_operation_is_described_with_examples_that_fit(doc: dict[str, Any]) -> None:
    missing: list[str] = []
    unfit: list[str] = []
    for method, path, operation in _operations(doc):
        where = f"{method.upper()} {path}"
        if not operation.get("summary") or not operation.get("description"):
            missing.append(f"{where}: description")
        medias = [
            (f"request {kind}", media)
            for kind, media in operation.get("requestBody", {}).get("content", {}).items()
        ]
        medias += [
            (f"{status} {kind}", media)
            for status, answer in operation["responses"].items()
            for kind, media in answer.get("content", {}).items()
        ]
        if not any(status.startswith("2") for status in operation["responses"]):
            missing.append(f"{where}: a success answer")
        for label, media in medias:
            if "example" not in media:
                missing.append(f"{where} {label}: example")
            elif not _validator(doc, media["schema"]).is_valid(media["example"]):
                unfit.append(f"{where} {label}")
    assert missing == []
    assert unfit == []


def test_one_error_schema_answers_every_refusal(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    assert not {"ErrorOut", "Problem", "HTTPValidationError"} & set(schemas)
    for method, path, operation in _operations(doc):
        for status, answer in operation["responses"].items():
            if status[0] in "45":
                content = answer["content"]
                assert list(content) == ["application/json"], (method, path, status)
                media = content["application/json"]
                assert media["schema"] == {"$ref": "#/components/schemas/Error"}
                # The example of each refusal has a code of that status.
                assert error_codes()[media["example"]["code"]][0] == int(status), (
                    method,
                    path,
                    status,
                )


def test_error_codes_are_an_enum_with_every_code_documented(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    assert schemas["Error"]["properties"]["code"]["$ref"] == "#/components/schemas/ErrorCode"
    listed = schemas["ErrorCode"]["enum"]
    # Every refusal class of the app, found by walking the class tree.
    pending, classes = [ServiceError], []
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        classes.append(cls)
    assert {cls.code for cls in classes if cls is not ServiceError} <= set(listed)
    # Every code the handlers and middleware write as a literal.
    literal: set[str] = set()
    for source in APP_DIR.rglob("*.py"):
        literal |= set(re.findall(r'"code":\s*"([a-z_]+)"', source.read_text()))
    assert "request_timeout" in literal and "rate_limited" in literal
    assert literal <= set(listed)
    descriptions = schemas["ErrorCode"]["x-enum-descriptions"]
    assert len(descriptions) == len(listed)
    assert [code for code, text in zip(listed, descriptions, strict=True) if not text] == []
    for code in listed:
        assert f"- `{code}` (" in schemas["ErrorCode"]["description"]


def _refusal_keywords() -> dict[str, set[str]]:
    """The keyword arguments given where the app raises a refusal: `raise X(msg, k=v)`
    with X a ServiceError class (by name), read from the source."""
    names = set()
    pending = [ServiceError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        names.add(cls.__name__)
    found: dict[str, set[str]] = {}
    for source in APP_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in names:
                    for keyword in node.exc.keywords:
                        if keyword.arg:
                            found.setdefault(keyword.arg, set()).add(f"{source.name}:{name}")
    return found


def test_error_schema_declares_every_extra_field(doc: dict[str, Any]) -> None:
    properties = doc["components"]["schemas"]["Error"]["properties"]
    extras = _refusal_keywords()
    # The fields the issue names are among those the code really sends.
    assert {"legal_moves", "candidates", "current_ply", "opens_at"} <= set(extras)
    assert set(extras) - set(properties) == set(), extras
    for name in extras:
        assert properties[name].get("description"), name


def test_event_kinds_rule_sets_and_levels_are_enums(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    kind = schemas["EventOut"]["properties"]["kind"]
    assert schemas[kind["$ref"].rsplit("/", 1)[-1]]["enum"] == [k.value for k in EventKind]
    for k in EventKind:
        assert f"- `{k.value}`: " in kind["description"]
    keys = list(RULE_SETS)
    assert schemas["CreateRoomIn"]["properties"]["rule_set"]["enum"] == keys
    assert schemas["ComputerGameIn"]["properties"]["rule_set"]["enum"] == keys
    assert schemas["RuleSetOut"]["properties"]["key"]["enum"] == keys
    moves = _by_id(doc)["getPositionMoves"]
    assert next(p for p in moves["parameters"] if p["name"] == "key")["schema"]["enum"] == keys
    level = schemas["ComputerGameIn"]["properties"]["level"]
    assert schemas[level["$ref"].rsplit("/", 1)[-1]]["enum"] == [lv.value for lv in Level]


def test_only_the_statuses_an_operation_can_answer(doc: dict[str, Any]) -> None:
    ops = _by_id(doc)
    for name in ("createRoom", "joinRoom", "getGame", "getGamePdn", "listRuleSets", "getHealth"):
        assert not {"401", "403"} & set(ops[name]["responses"]), name
    assert "401" not in ops["getRoom"]["responses"] and "403" in ops["getRoom"]["responses"]
    assert {"401", "403", "404", "409", "422"} <= set(ops["playMove"]["responses"])
    assert "413" not in ops["getRoom"]["responses"]  # no body, so no body too large
    assert "409" not in ops["createRoom"]["responses"]


def test_the_statuses_listed_are_answered(doc: dict[str, Any], tmp_path: Path) -> None:
    """What the document promises about tokens holds: a seat action without a token is
    401, with another room's token 403; a read with a wrong token 403."""
    url = f"sqlite:///{tmp_path}/doc.sqlite3"
    app = create_app(Settings(database_url=url, scheduler_enabled=False))
    with TestClient(app) as client:
        first = client.post("/api/rooms", json={"rule_set": "english"}).json()
        other = client.post("/api/rooms", json={"rule_set": "english"}).json()
        moves = f"/api/rooms/{first['room_id']}/moves"
        body = {"move": "11-15", "expected_ply": 0}
        assert client.post(moves, json=body).status_code == 401
        foreign = {"Authorization": f"Bearer {other['token']}"}
        assert client.post(moves, json=body, headers=foreign).status_code == 403
        assert client.get(f"/api/rooms/{first['room_id']}", headers=foreign).status_code == 403


def test_pdn_and_event_stream_media_types(doc: dict[str, Any]) -> None:
    ops = _by_id(doc)
    for name in ("getGamePdn", "getImportedGamePdn", "getGameReviewPdn"):
        content = ops[name]["responses"]["200"]["content"]
        assert list(content) == ["application/x-pdn"], name
        assert content["application/x-pdn"]["schema"] == {"type": "string"}
    events = ops["getRoomEvents"]["responses"]["200"]["content"]
    assert set(events) == {"application/json", "text/event-stream"}
    assert events["application/json"]["schema"] == {"$ref": "#/components/schemas/EventsOut"}
    stream = events["text/event-stream"]
    assert stream["schema"]["properties"]["data"]["contentSchema"] == {
        "$ref": "#/components/schemas/EventOut"
    }
    assert set(stream["example"]) == {"id", "data"}


def test_the_computers_queue_refusal_is_listed_without_rate_limits() -> None:
    """The computer's queue refuses with 429 whether or not rate limits are on."""
    app = create_app(
        Settings(database_url="sqlite://", scheduler_enabled=False, rate_limit_enabled=False)
    )
    ops = _by_id(dict(app.openapi()))
    for name in ("playMove", "answerDraw", "answerRematch", "requestGameReview"):
        assert "429" in ops[name]["responses"], name
    assert "429" not in ops["renameSeat"]["responses"]
