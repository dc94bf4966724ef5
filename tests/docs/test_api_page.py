"""The documentation's description of the API against the API itself: the room view's keys
that docs/api.md lists (the README's table until the documentation moved there) are the keys
the room view's schema has, no more and no fewer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.core.settings import Settings
from app.main import create_app

API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
TICKED = re.compile(r"`([^`]+)`")


@pytest.fixture(scope="module")
def schemas() -> dict[str, Any]:
    app = create_app(Settings(database_url="sqlite://", scheduler_enabled=False))
    return dict(app.openapi()["components"]["schemas"])


def _room_view_table() -> dict[str, str]:
    """Each key of the API page's room-view table with the text of its row."""
    text = API_PAGE.read_text()
    start = text.index("The room view (`GET /api/rooms/{id}`")
    rows: dict[str, str] = {}
    for line in text[start:].splitlines()[1:]:
        if not line.strip():
            if rows:
                break
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("key", "---"):
            continue
        for key in TICKED.findall(cells[0]):
            rows[key] = cells[1]
    return rows


def test_api_page_lists_every_key_of_the_room_view(schemas: dict[str, Any]) -> None:
    documented = _room_view_table()
    assert set(documented) == set(schemas["RoomView"]["properties"])


def test_api_page_game_keys_and_statuses_are_real(schemas: dict[str, Any]) -> None:
    documented = _room_view_table()
    game_keys = set(TICKED.findall(documented["game"]))
    assert game_keys, "the game row names its keys"
    assert game_keys <= set(schemas["GameOut"]["properties"])
    statuses = set(TICKED.findall(documented["status"]))
    status_schema = schemas["RoomView"]["properties"]["status"]
    assert statuses == set(status_schema["enum"])
