"""The OpenAPI document as client generators read it.

- Operation ids are stable camelCase names (`createRoom`, `playMove`), from one table.
- Every refusal, on every route, is one schema, `Error`, whose `code` is the `ErrorCode`
  enum: each code with its status and meaning, from the `ServiceError` classes and the
  codes the handlers and middleware answer themselves.
- The answers any route may give are added here: 400 (a host not served, an unreadable
  body), 413 (body too large) on routes with a body, 429 on rate-limited routes, 503
  (the database unavailable, or the server full) everywhere.
- Every request body and every answer has an example: the one the route declares, or
  one built from its schema (field examples first), so that it fits the schema.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

from .errors import error_codes

# Route name -> operation id. A route missing here gets its name in camelCase.
OPERATION_IDS: dict[str, str] = {
    "list_rule_sets": "listRuleSets",
    "position_moves": "getPositionMoves",
    "create_room": "createRoom",
    "get_room": "getRoom",
    "join_room": "joinRoom",
    "play_move": "playMove",
    "draw": "answerDraw",
    "rematch": "answerRematch",
    "resign": "resign",
    "claim_forfeit": "claimForfeit",
    "rename": "renameSeat",
    "push_on": "subscribePush",
    "push_off": "unsubscribePush",
    "plan": "storeConditionalMoves",
    "unplan": "clearConditionalMoves",
    "email_on": "subscribeEmail",
    "email_off": "unsubscribeEmail",
    "game_pdn": "getGamePdn",
    "game_record": "getGame",
    "room_events": "getRoomEvents",
    "create_computer_game": "createComputerGame",
    "review_room_game": "requestGameReview",
    "room_game_review": "getGameReview",
    "reviewed_pdn": "getGameReviewPdn",
    "review_imported_game": "requestImportedGameReview",
    "imported_game_review": "getImportedGameReview",
    "create_import": "importPdn",
    "imported_game": "getImportedGame",
    "imported_game_pdn": "getImportedGamePdn",
    "push_key": "getPushKey",
    "healthz": "getHealth",
}


def operation_id(route: APIRoute) -> str:
    """FastAPI's `generate_unique_id_function`: the table's id, or the name in camelCase."""
    if route.name in OPERATION_IDS:
        return OPERATION_IDS[route.name]
    head, *rest = route.name.split("_")
    return head + "".join(word.capitalize() for word in rest)


ERROR = {"$ref": "#/components/schemas/Error"}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}
COMMON = {
    "400": "A host name not served here (`bad_host`), or an unreadable body",
    "413": "Request body too large (`too_large`)",
    "429": "Too many requests from this client; retry after `Retry-After`",
    "503": "The database is unavailable, or the server is full; retry after `Retry-After`",
}
# An error example per status, for answers that declare none of their own.
ERROR_EXAMPLES: dict[str, dict[str, Any]] = {
    "400": {"detail": "this host name is not served here (ALLOWED_HOSTS)", "code": "bad_host"},
    "401": {"detail": "this action needs a seat's token", "code": "token_required"},
    "403": {"detail": "this token does not open a seat of this room", "code": "wrong_token"},
    "404": {"detail": "no room 'Xy12'", "code": "room_not_found"},
    "409": {"detail": "the game's ply is 4, not 3", "code": "stale_ply", "current_ply": 4},
    "413": {"detail": "request body too large (at most 65536 bytes)", "code": "too_large"},
    "422": {
        "detail": "invalid request: body.expected_ply: Field required",
        "code": "validation_error",
        "errors": [{"loc": ["body", "expected_ply"], "msg": "Field required", "type": "missing"}],
    },
    "429": {
        "detail": "too many requests (moves): at most 120 per 1 minute; retry in 7 s",
        "code": "rate_limited",
        "retry_after": 7,
    },
    "503": {"detail": "database unavailable", "code": "database_unavailable"},
}


def install_openapi(app: FastAPI, limited: Callable[[str, str], bool]) -> None:
    """Make `app.openapi()` the refined document; `limited(method, path)` says which
    routes are rate-limited."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = build()
        refine(schema, limited)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def refine(schema: dict[str, Any], limited: Callable[[str, str], bool]) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    codes = error_codes()
    components["ErrorCode"] = {
        "title": "ErrorCode",
        "type": "string",
        "enum": list(codes),
        "description": "Why a request was refused (HTTP status, meaning):\n\n"
        + "\n".join(f"- `{code}` ({status}): {text}" for code, (status, text) in codes.items()),
        "x-enum-descriptions": [text for _status, text in codes.values()],
    }
    components["Error"]["properties"]["code"] = {
        "$ref": "#/components/schemas/ErrorCode",
        "description": "Machine-readable reason.",
    }
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            _refine_operation(operation, method, path, limited, components)
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)


def _refine_operation(
    operation: dict[str, Any],
    method: str,
    path: str,
    limited: Callable[[str, str], bool],
    components: dict[str, Any],
) -> None:
    answers = operation.setdefault("responses", {})
    extra = ["400", "503"]
    if "requestBody" in operation:
        extra.append("413")
    if limited(method.upper(), path):
        extra.append("429")
    for code in extra:
        answers.setdefault(code, {"description": COMMON[code]})
    for code, answer in answers.items():
        if code in ("429", "503"):
            answer.setdefault("headers", RETRY_AFTER)
        if code[0] in "45":
            # Every refusal is the one JSON shape, also on routes whose success is not.
            media: dict[str, Any] = next(iter(answer.get("content", {}).values()), {})
            example = media.get("example", ERROR_EXAMPLES.get(code, ERROR_EXAMPLES["400"]))
            answer["content"] = {"application/json": {"schema": ERROR, "example": example}}
            if answer.get("description") == "Validation Error":
                answer["description"] = "The request does not fit the schema, or is refused"
        else:
            for media in answer.get("content", {}).values():
                _give_example(media, components)
    for media in operation.get("requestBody", {}).get("content", {}).values():
        _give_example(media, components)


def _give_example(media: dict[str, Any], components: dict[str, Any]) -> None:
    if "example" in media or "examples" in media or "schema" not in media:
        return
    media["example"] = example_of(media["schema"], components)


_TIME = "2026-12-01T12:00:00Z"


def example_of(schema: dict[str, Any], components: dict[str, Any], depth: int = 0) -> Any:
    """A value that fits `schema`: its own example, else one made from its parts."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return example_of(components[name], components, depth)
    for key in ("example", "const"):
        if key in schema:
            return copy.deepcopy(schema[key])
    if schema.get("examples"):
        return copy.deepcopy(schema["examples"][0])
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = [b for b in schema[key] if b.get("type") != "null"] or schema[key]
            return example_of(branches[0], components, depth)
    if "allOf" in schema:
        return example_of(schema["allOf"][0], components, depth)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        required = set(schema.get("required", ()))
        return {
            name: example_of(part, components, depth + 1)
            for name, part in schema.get("properties", {}).items()
            if name in required or depth < 3
        }
    if kind == "array":
        least = schema.get("minItems", 0)
        if depth >= 3 and least == 0:
            return []
        return [example_of(schema.get("items", {}), components, depth + 1)] * max(least, 1)
    if kind == "integer":
        return max(schema.get("minimum", 1), min(1, schema.get("maximum", 1)))
    if kind == "number":
        return max(schema.get("minimum", 0.5), min(0.5, schema.get("maximum", 0.5)))
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "string":
        return _string_example(schema)
    return None


def _string_example(schema: dict[str, Any]) -> str:
    fmt = schema.get("format")
    if fmt == "date-time":
        return _TIME
    if fmt == "email":
        return "ana@example.com"
    if fmt in ("uri", "url"):
        return "https://checkers.example.com/"
    text = "text"
    least, most = schema.get("minLength", 0), schema.get("maxLength", 1 << 30)
    if "pattern" in schema and not re.search(schema["pattern"], text):
        text = "x"
    text = (text * (least // len(text) + 1))[: max(least, len(text))]
    return str(text[:most])


REFUSAL_TEXT = {
    401: "No seat token was sent (`token_required`)",
    403: "The token sent opens no seat of this room (`wrong_token`)",
    404: "No such room or game",
    409: "The room's state does not allow this now",
    422: "The request does not fit the schema, or its content is refused",
    429: "Too many requests from this client; retry after `Retry-After`",
    503: "The service cannot do it now; retry after `Retry-After`",
}


def refusals(*statuses: int, **texts: str) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route that refuses with these statuses (`texts`: a
    description per status, as `s409="..."`), each answered with the `Error` schema."""
    from .errors import Error

    return {
        status: {"model": Error, "description": texts.get(f"s{status}", REFUSAL_TEXT[status])}
        for status in statuses
    }
