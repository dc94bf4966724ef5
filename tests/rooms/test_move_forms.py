"""A move's forms in the API: `engine_notation` is the engine's own numbering, kept apart
by its name from the tradition's `numeric` and `algebraic`; `notation`, its old name, is
still given, marked deprecated, for one release."""

from __future__ import annotations

from typing import Any

from .conftest import Api

# Every schema of a move in its forms.
MOVE_SCHEMAS = ("MoveForms", "MoveOut", "PlayedMoveOut", "LegalMoveOut", "NextMoveOut")


def test_the_schema_names_the_engine_s_notation_and_deprecates_the_old_name(api: Api) -> None:
    schemas = api.client.get("/openapi.json").json()["components"]["schemas"]
    for name in MOVE_SCHEMAS:
        properties = schemas[name]["properties"]
        new, old = properties["engine_notation"], properties["notation"]
        assert new["type"] == old["type"] == "string", name
        assert not new.get("deprecated"), name
        assert old.get("deprecated") is True, name
        assert "engine_notation" in old["description"], name
        assert {"engine_notation", "notation"} <= set(schemas[name]["required"]), name
    # The setting that says how a sent move is written points to the new name.
    setting = schemas["MoveIn"]["properties"]["notation"]["description"]
    assert "`engine_notation`" in setting


def _forms(move: dict[str, Any]) -> tuple[str, str, str, str]:
    return (move["engine_notation"], move["notation"], move["numeric"], move["algebraic"])


def test_every_move_carries_both_names_with_the_same_value(api: Api) -> None:
    room = api.create("russian")
    api.play(room, "c3-d4", "f6-e5")
    view = api.view(room)
    game = view["game"]
    # Russian numbers its squares its own way: the engine's 11-15 is its 22-18, c3-d4.
    assert [_forms(m) for m in game["moves"]] == [
        ("11-15", "11-15", "22-18", "c3-d4"),
        ("22-18", "22-18", "11-15", "f6-e5"),
    ]
    assert game["legal_moves"]
    for move in game["legal_moves"]:
        assert move["engine_notation"] == move["notation"]
    record = api.client.get(f"/api/rooms/{room.id}/games/1").json()
    assert [m["engine_notation"] for m in record["moves"]] == ["11-15", "22-18"]
    assert [m["notation"] for m in record["moves"]] == ["11-15", "22-18"]
    # A move sent in the engine's notation is the `engine_notation` of a listed move.
    reply = game["legal_moves"][0]["engine_notation"]
    played = api.move(room, api.token_to_move(room), reply, game["ply"])
    assert played.status_code == 200, played.text
    assert played.json()["game"]["moves"][-1]["engine_notation"] == reply
