"""JSON answers: one serialised straight from its Pydantic model, and one sent by a
middleware before the request reaches the app."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel
from starlette.types import Send

# An answer that carries a secret (a seat token, a device link) is never kept by a cache.
NO_STORE = "no-store"


def no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = NO_STORE
    return response


class ModelResponse(Response):
    """The model's JSON, serialised by Pydantic's own encoder in the endpoint's thread.

    FastAPI would validate a returned model against the response model again, and do it
    in a second trip through its thread pool; a model the app built needs neither.
    """

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        assert isinstance(content, BaseModel)
        return content.model_dump_json().encode()


class PdnResponse(PlainTextResponse):
    """A game as Portable Draughts Notation text."""

    media_type = "application/x-pdn"


PDN_EXAMPLE = (
    '[Event "Checkers at your own pace"]\n[White "Ben"]\n[Black "Ana"]\n'
    '[Result "1-0"]\n[GameType "21"]\n\n1. 11-15 22-18 2. 15x22 1-0\n'
)
# How a route answering PDN describes its success in the OpenAPI document.
PDN_ANSWER: dict[str, Any] = {
    "description": "The game as PDN text (a download: `Content-Disposition: attachment`).",
    "content": {"application/x-pdn": {"schema": {"type": "string"}, "example": PDN_EXAMPLE}},
}


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Answer `body` as JSON with `status` at the ASGI level (a refusal by a middleware)."""
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
