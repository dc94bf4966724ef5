"""A JSON answer serialised straight from its Pydantic model."""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel


class ModelResponse(Response):
    """The model's JSON, serialised by Pydantic's own encoder in the endpoint's thread.

    FastAPI would validate a returned model against the response model again, and do it
    in a second trip through its thread pool; a model the app built needs neither.
    """

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        assert isinstance(content, BaseModel)
        return content.model_dump_json().encode()
