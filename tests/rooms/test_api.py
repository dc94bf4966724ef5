"""The rooms API end to end, on SQLite and on PostgreSQL (the `database` fixture).

Expected moves come from the rules (rules.md numbering), never from the engine's output:
from the English start the drums have exactly 9-13, 9-14, 10-14, 10-15, 11-15, 11-16,
12-16; after 11-15 22-18 the drums must take, 15x22.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.core.db import Database
from app.rooms.models import Seat
from checkers_engine import build

from .conftest import Api, Room

# The release the service reports is the one pyproject.toml declares.
PYPROJECT_VERSION = tomllib.loads(
    (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
)["project"]["version"]

# A seat that chose no name, asked for no notifications and stored no conditional moves,
# with the chat on, and no time to give (not waiting for the opponent's move).
NO_NAME_NO_ALERTS = {
    "name": None,
    "notifications": {"push": False, "email": False},
    "conditional": None,
    "chat": {"off": False, "opponent_off": False},
    "can_give_time": False,
}

ENGLISH_OPENINGS = {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
ENGLISH_REPLIES = {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}


def snapshot(api: Api, room: Room) -> dict[str, Any]:
    view = api.view(room)
    events = api.client.get(f"/api/rooms/{room.id}/events").json()
    return {"view": view, "events": events}


# --- rule sets, health, docs ------------------------------------------------------------


def test_rule_sets_lists_the_six_with_pdn_game_types(api: Api) -> None:
    r = api.client.get("/api/rule-sets")
    assert r.status_code == 200
    types = {rs["key"]: rs["pdn_gametype"] for rs in r.json()}
    assert types == {
        "english": 21,
        "italian": 22,
        "spanish": 24,
        "russian": 25,
        "brazilian": 26,
        "thai": 31,
    }


def test_healthz_checks_the_database(api: Api, database: Database) -> None:
    r = api.client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {
        "status": "ok",
        "database": database.engine.dialect.name,
        "version": PYPROJECT_VERSION,
        "build": build.build_info(),
    }
    assert r.json()["build"] in (build.COMPILED, build.PURE)


def test_healthz_reports_503_when_the_database_is_gone(app_client: TestClient) -> None:
    app_client.app.state.database = Database(  # type: ignore[attr-defined]
        "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1"
    )
    r = app_client.get("/healthz")
    assert r.status_code == 503
    assert r.json()["detail"] == "database unavailable"


def test_openapi_and_docs_describe_the_api(api: Api) -> None:
    schema = api.client.get("/openapi.json").json()
    for path in (
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/join",
        "/api/rooms/{room_id}/moves",
        "/api/rooms/{room_id}/draw",
        "/api/rooms/{room_id}/resign",
        "/api/rooms/{room_id}/rematch",
        "/api/rooms/{room_id}/claim-forfeit",
        "/api/rooms/{room_id}/games/{number}.pdn",
        "/api/rule-sets",
        "/healthz",
    ):
        assert path in schema["paths"], path
    assert "RoomView" in schema["components"]["schemas"]
    assert api.client.get("/docs").status_code == 200


# --- create, view, join -----------------------------------------------------------------


def test_create_gives_the_drums_seat_a_token_shown_once(api: Api, database: Database) -> None:
    r = api.client.post("/api/rooms", json={"rule_set": "russian"})
    assert r.status_code == 201
    body = r.json()
    assert body["seat"] == "creator" and body["side"] == "drums"
    assert body["share_url"] == f"http://checkers.test/r/{body['room_id']}"
    assert body["token"] not in body["share_url"]
    assert len(body["room_id"]) >= 16 and len(body["token"]) >= 43  # 128 / 256 random bits
    room = body["room"]
    assert room["status"] == "waiting"
    assert room["rule_set"]["key"] == "russian"
    assert room["you"] == {
        "seat": "creator",
        "side": "drums",
        "to_move": False,
        **NO_NAME_NO_ALERTS,
    }
    assert [(s["seat"], s["side"], s["taken"]) for s in room["seats"]] == [
        ("creator", "drums", True),
        ("joiner", "tires", False),
    ]
    # Stored only as a SHA-256 hash.
    with database.session() as session:
        stored = session.scalars(select(Seat.token_hash)).all()
    assert stored == [hashlib.sha256(body["token"].encode()).hexdigest()]
    # A spectator sees the room without the token and without a seat.
    spectator = api.client.get(f"/api/rooms/{body['room_id']}").json()
    assert spectator["you"] is None
    assert body["token"] not in str(spectator)


def test_room_defaults_to_english_and_rejects_unknown_rule_sets(api: Api) -> None:
    r = api.client.post("/api/rooms", json={})
    assert r.status_code == 201 and r.json()["room"]["rule_set"]["key"] == "english"
    bad = api.client.post("/api/rooms", json={"rule_set": "chess"})
    assert bad.status_code == 422
    assert bad.json()["code"] == "unknown_rule_set"
    assert "english" in bad.json()["rule_sets"]


def test_view_of_a_new_game_shows_position_turn_and_legal_moves(api: Api) -> None:
    room = api.create()
    view = api.view(room, room.creator)
    game = view["game"]
    assert view["status"] == "playing"
    assert game["fen"] == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert game["turn"] == "drums" and game["ply"] == 0 and game["moves"] == []
    assert {m["engine_notation"] for m in game["legal_moves"]} == ENGLISH_OPENINGS
    assert view["you"] == {"seat": "creator", "side": "drums", "to_move": True, **NO_NAME_NO_ALERTS}
    assert api.view(room, room.joiner)["you"] == {
        **NO_NAME_NO_ALERTS,
        "seat": "joiner",
        "side": "tires",
        "to_move": False,
        "can_give_time": True,  # the tires wait for the drums' move
    }


def test_join_takes_the_tires_and_a_full_room_refuses(api: Api) -> None:
    room = api.create(join=False)
    r = api.client.post(f"/api/rooms/{room.id}/join")
    assert r.status_code == 200
    assert (r.json()["seat"], r.json()["side"]) == ("joiner", "tires")
    assert r.json()["token"] != room.creator
    before = snapshot(api, room)
    again = api.client.post(f"/api/rooms/{room.id}/join")
    assert again.status_code == 409 and again.json()["code"] == "room_full"
    assert snapshot(api, room) == before


def test_unknown_room_is_404_everywhere(api: Api) -> None:
    for method, path in (
        ("get", "/api/rooms/nope"),
        ("post", "/api/rooms/nope/join"),
        ("post", "/api/rooms/nope/resign"),
        ("get", "/api/rooms/nope/games/1.pdn"),
        ("get", "/api/rooms/nope/events"),
        ("post", "/api/rooms/nope/claim-forfeit"),
    ):
        r = api.client.request(method, path, headers=api.auth("whatever"))
        assert r.status_code == 404, path
        assert r.json()["code"] == "room_not_found"
    r = api.move(Room("nope", "t"), "t", "11-15", 0)
    assert r.status_code == 404


# --- moves -----------------------------------------------------------------------------


def test_a_move_is_validated_recorded_and_turns_the_turn(api: Api) -> None:
    room = api.create()
    r = api.move(room, room.creator, "11-15", 0)
    assert r.status_code == 200
    game = r.json()["game"]
    assert game["ply"] == 1 and game["turn"] == "tires"
    assert game["fen"] == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    [move] = game["moves"]
    assert (
        move["engine_notation"],
        move["algebraic"],
        move["path"],
        move["captured"],
        move["side"],
    ) == (
        "11-15",
        "c3-d4",
        [11, 15],
        [],
        "drums",
    )
    assert {m["engine_notation"] for m in game["legal_moves"]} == ENGLISH_REPLIES


def test_algebraic_notation_is_accepted(api: Api) -> None:
    room = api.create()
    view = api.play(room, "c3-d4", "f6-e5")
    assert [m["engine_notation"] for m in view["game"]["moves"]] == ["11-15", "22-18"]


def test_capture_is_mandatory_and_recorded_with_its_path(api: Api) -> None:
    room = api.create()
    view = api.play(room, "11-15", "22-18")
    assert [m["engine_notation"] for m in view["game"]["legal_moves"]] == ["15x22"]
    assert view["game"]["legal_moves"][0]["captured"] == [18]
    before = snapshot(api, room)
    refused = api.move(room, room.creator, "9-13", 2)
    assert refused.status_code == 422
    assert refused.json()["code"] == "illegal_move"
    assert refused.json()["legal_moves"] == ["15x22"]
    assert snapshot(api, room) == before
    view = api.play(room, "15x22")
    last = view["game"]["moves"][-1]
    assert (last["path"], last["captured"]) == ([15, 22], [18])
    assert {m["engine_notation"] for m in view["game"]["legal_moves"]} == {"25x18", "26x17"}


@pytest.mark.parametrize("text", ["banana", "11-", "99-100", "x", "15-11", "11-14", "11-15-19"])
def test_malformed_or_illegal_moves_are_422_and_change_nothing(api: Api, text: str) -> None:
    room = api.create()
    before = snapshot(api, room)
    r = api.move(room, room.creator, text, 0)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "illegal_move"
    assert set(r.json()["legal_moves"]) == ENGLISH_OPENINGS
    assert r.json()["detail"]
    assert snapshot(api, room) == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"move": "11-15"},
        {"move": "", "expected_ply": 0},
        {"move": "11-15", "expected_ply": -1},
        {"move": 11, "expected_ply": 0},
        {"move": "11-15", "expected_ply": 0, "extra": 1},
        {"move": "1" * 201, "expected_ply": 0},
    ],
)
def test_invalid_bodies_are_422(api: Api, body: dict[str, Any]) -> None:
    room = api.create()
    r = api.client.post(f"/api/rooms/{room.id}/moves", json=body, headers=api.auth(room.creator))
    assert r.status_code == 422
    assert r.json()["code"] == "validation_error" and r.json()["detail"]


def test_malformed_json_is_422_and_oversized_bodies_413(api: Api) -> None:
    room = api.create()
    r = api.client.post(
        f"/api/rooms/{room.id}/moves",
        content=b"{not json",
        headers={**api.auth(room.creator), "Content-Type": "application/json"},
    )
    assert r.status_code == 422
    big = api.client.post(
        f"/api/rooms/{room.id}/moves",
        content=b"{" + b" " * 10_000 + b"}",
        headers={**api.auth(room.creator), "Content-Type": "application/json"},
    )
    assert big.status_code == 413 and big.json()["code"] == "too_large"
    assert api.view(room)["game"]["ply"] == 0


def test_only_the_seat_to_move_moves(api: Api) -> None:
    room = api.create()
    before = snapshot(api, room)
    r = api.move(room, room.joiner, "22-18", 0)
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    assert snapshot(api, room) == before


def test_moves_need_a_seat_token(api: Api) -> None:
    room = api.create()
    other = api.create()
    before = snapshot(api, room)
    none = api.move(room, None, "11-15", 0)
    assert none.status_code == 401 and none.json()["code"] == "token_required"
    assert none.headers["www-authenticate"] == "Bearer"
    wrong = api.move(room, "not-a-token", "11-15", 0)
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_token"
    foreign = api.move(room, other.creator, "11-15", 0)
    assert foreign.status_code == 403
    basic = api.client.post(
        f"/api/rooms/{room.id}/moves",
        json={"move": "11-15", "expected_ply": 0},
        headers={"Authorization": "Basic abc"},
    )
    assert basic.status_code == 401
    assert snapshot(api, room) == before
    assert api.client.get(f"/api/rooms/{room.id}", headers=api.auth("nope")).status_code == 403


def test_stale_ply_is_409_with_the_current_ply(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15", "22-18")
    before = snapshot(api, room)
    r = api.move(room, room.creator, "15x22", 1)
    assert r.status_code == 409
    assert r.json()["code"] == "stale_ply" and r.json()["current_ply"] == 2
    ahead = api.move(room, room.creator, "15x22", 7)
    assert ahead.status_code == 409 and ahead.json()["current_ply"] == 2
    assert snapshot(api, room) == before


def test_resending_the_move_just_played_does_not_play_it_twice(api: Api) -> None:
    room = api.create()
    first = api.move(room, room.creator, "11-15", 0)
    version = first.json()["version"]
    for text in ("11-15", "c3-d4"):
        again = api.move(room, room.creator, text, 0)
        assert again.status_code == 200
        assert again.json()["game"]["ply"] == 1
        assert again.json()["version"] == version
    # A different move at the old ply is stale, not a retry.
    other = api.move(room, room.creator, "11-16", 0)
    assert other.status_code == 409 and other.json()["code"] == "stale_ply"


def test_no_move_before_the_opponent_joins(api: Api) -> None:
    room = api.create(join=False)
    r = api.move(room, room.creator, "11-15", 0)
    assert r.status_code == 409 and r.json()["code"] == "waiting_for_opponent"


def test_ambiguous_short_form_names_the_candidates(
    api: Api, database: Database, settings: Any, clock: Any
) -> None:
    """A drums man on d2 (7) can take c3,c5 or e3,e5 and land on d6 (23) either way."""
    from app.core.context import Context
    from app.rooms import service

    with database.session() as session:
        granted = service.create_room(
            session,
            rule_set="english",
            ctx=Context(clock.now(), settings),
            first_fen="B:W10,11,18,19:B7",
        )
    room = Room(granted.room_id, granted.token)
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    view = api.view(room)
    assert {m["engine_notation"] for m in view["game"]["legal_moves"]} == {"7x14x23", "7x16x23"}
    r = api.move(room, room.creator, "7x23", 0)
    assert r.status_code == 422 and r.json()["code"] == "ambiguous_move"
    assert set(r.json()["candidates"]) == {"7x14x23", "7x16x23"}
    ok = api.move(room, room.creator, "7x16x23", 0)
    assert ok.status_code == 200
    assert ok.json()["game"]["moves"][0]["captured"] == [11, 19]


# --- draws, resignation, rematch ---------------------------------------------------------


def test_draw_offer_and_accept_ends_the_game(api: Api) -> None:
    room = api.create()
    r = api.action(room, room.joiner, "draw", "offer")
    assert r.status_code == 200
    assert [(o["kind"], o["by_seat"], o["by_side"]) for o in r.json()["offers"]] == [
        ("draw", "joiner", "tires")
    ]
    assert r.json()["game"]["draw_offers_left"] == {"drums": 3, "tires": 2}
    # The offer persists while the other player is away.
    assert api.view(room)["offers"]
    own = api.action(room, room.joiner, "draw", "accept")
    assert own.status_code == 409 and own.json()["code"] == "no_offer"
    done = api.action(room, room.creator, "draw", "accept")
    assert done.status_code == 200
    result = done.json()["game"]["result"]
    assert result["winner"] is None and result["pdn"] == "1/2-1/2"
    assert result["text"].startswith("Draw: ")
    assert done.json()["status"] == "finished" and done.json()["offers"] == []
    assert done.json()["score"] == {"creator": 0.5, "joiner": 0.5}
    later = api.move(room, room.creator, "11-15", 0)
    assert later.status_code == 409 and later.json()["code"] == "game_over"


def test_draw_decline_one_pending_and_three_per_player(api: Api) -> None:
    room = api.create()
    assert api.action(room, room.creator, "draw", "offer").status_code == 200
    twice = api.action(room, room.creator, "draw", "offer")
    assert twice.status_code == 409 and twice.json()["code"] == "offer_pending"
    crossed = api.action(room, room.joiner, "draw", "offer")
    assert crossed.status_code == 409 and crossed.json()["code"] == "offer_pending"
    assert api.action(room, room.joiner, "draw", "decline").status_code == 200
    for _ in range(2):
        assert api.action(room, room.creator, "draw", "offer").status_code == 200
        assert api.action(room, room.joiner, "draw", "decline").status_code == 200
    before = snapshot(api, room)
    fourth = api.action(room, room.creator, "draw", "offer")
    assert fourth.status_code == 409 and fourth.json()["code"] == "offer_limit"
    assert snapshot(api, room) == before
    assert api.view(room)["game"]["draw_offers_left"] == {"drums": 0, "tires": 3}
    nothing = api.action(room, room.creator, "draw", "decline")
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_offer"
    spectator = api.action(room, None, "draw", "offer")
    assert spectator.status_code == 401
    bad = api.action(room, room.creator, "draw", "maybe")
    assert bad.status_code == 422


def test_draw_offer_lapses_when_the_other_player_moves(api: Api) -> None:
    room = api.create()
    # Drums offer then move: the offer stands (the offerer moved).
    api.action(room, room.creator, "draw", "offer")
    view = api.play(room, "11-15")
    assert len(view["offers"]) == 1
    # Tires move instead of answering: the offer lapses.
    view = api.play(room, "22-18")
    assert view["offers"] == []
    late = api.action(room, room.joiner, "draw", "accept")
    assert late.status_code == 409 and late.json()["code"] == "no_offer"


def test_resign_and_rematch_swap_sides_keep_history_and_score(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15")
    r = api.action(room, room.creator, "resign")
    assert r.status_code == 200
    result = r.json()["game"]["result"]
    assert result["text"] == "Tires win: drums resigned"
    # PDN results as CheckerBoard writes them: "1-0" when the first mover (drums) won.
    assert (result["winner"], result["winner_seat"], result["pdn"]) == ("tires", "joiner", "0-1")
    assert r.json()["score"] == {"creator": 0.0, "joiner": 1.0}
    again = api.action(room, room.joiner, "resign")
    assert again.status_code == 409 and again.json()["code"] == "game_over"
    early = api.action(room, room.creator, "rematch", "accept")
    assert early.status_code == 409 and early.json()["code"] == "no_offer"
    assert api.action(room, room.creator, "rematch", "offer").status_code == 200
    dup = api.action(room, room.joiner, "rematch", "offer")
    assert dup.status_code == 409 and dup.json()["code"] == "offer_pending"
    assert api.action(room, room.joiner, "rematch", "decline").status_code == 200
    assert api.action(room, room.joiner, "rematch", "offer").status_code == 200
    view = api.action(room, room.creator, "rematch", "accept").json()
    assert view["status"] == "playing"
    assert view["game"]["number"] == 2 and view["game"]["ply"] == 0
    assert (view["game"]["drums_seat"], view["game"]["tires_seat"]) == ("joiner", "creator")
    assert view["you"] == {
        "seat": "creator",
        "side": "tires",
        "to_move": False,
        **NO_NAME_NO_ALERTS,
        "can_give_time": True,  # the tires wait for the drums' move
    }
    assert [(g["number"], g["drums_seat"]) for g in view["games"]] == [
        (1, "creator"),
        (2, "joiner"),
    ]
    assert view["games"][0]["result"]["text"] == "Tires win: drums resigned"
    assert view["score"] == {"creator": 0.0, "joiner": 1.0}
    # The joiner now plays the drums and moves first.
    assert api.move(room, room.creator, "11-15", 0).status_code == 409
    assert api.move(room, room.joiner, "11-15", 0).status_code == 200
    not_over = api.action(room, room.joiner, "rematch", "offer")
    assert not_over.status_code == 409 and not_over.json()["code"] == "game_not_over"


def test_pdn_export(api: Api) -> None:
    room = api.create("russian")
    api.play(room, "c3-d4", "f6-e5", "d4:f6")
    api.action(room, room.joiner, "resign")
    r = api.client.get(f"/api/rooms/{room.id}/games/1.pdn")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-pdn")
    text = r.text
    # Russian tradition: the first mover (drums) is White, moves are algebraic, and
    # "1-0" says the first mover won.
    for tag in (
        '[GameType "25"]',
        '[Result "1-0"]',
        '[White "Drums player"]',  # no names chosen: the defaults by colour
        '[Black "Tires player"]',
        '[Round "1"]',
        '[Date "2024.03.01"]',
        '[Termination "normal"]',
        '[UTCDate "2024.03.01"]',
    ):
        assert tag in text, tag
    assert "FEN" not in text
    assert "1. c3-d4 f6-e5 2. d4xf6 {Black resigned} 1-0" in text  # the tires: Black
    assert api.client.get(f"/api/rooms/{room.id}/games/2.pdn").status_code == 404
    assert api.client.get(f"/api/rooms/{room.id}/games/x.pdn").status_code == 422


def test_pdn_of_a_set_up_position_carries_its_fen(
    api: Api, database: Database, settings: Any, clock: Any
) -> None:
    from app.core.context import Context
    from app.rooms import service

    with database.session() as session:
        granted = service.create_room(
            session, rule_set="english", ctx=Context(clock.now(), settings), first_fen="W:W18:B14"
        )
    room = Room(granted.room_id, granted.token)
    room.joiner = api.client.post(f"/api/rooms/{room.id}/join").json()["token"]
    view = api.play(room, "18x9")  # the tires' man on e5 takes f4 and ends the game
    assert view["game"]["result"]["text"] == "Tires win: drums have no pieces left"
    text = api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text
    assert '[SetUp "1"]' in text and '[FEN "W:W18:B14"]' in text
    assert "1... 18x9 {Black has no pieces left} 0-1" in text


def test_events_record_every_change_in_order(api: Api) -> None:
    room = api.create()
    api.play(room, "11-15")
    api.action(room, room.joiner, "draw", "offer")
    api.action(room, room.creator, "draw", "decline")
    api.action(room, room.joiner, "resign")
    body = api.client.get(f"/api/rooms/{room.id}/events").json()
    kinds = [e["kind"] for e in body["events"]]
    assert kinds == [
        "created",
        "joined",
        "move",
        "draw_offered",
        "draw_declined",
        "resigned",
        "game_over",
    ]
    assert [e["version"] for e in body["events"]] == list(range(1, 8))
    assert body["version"] == 7 == api.view(room)["version"]
    after = api.client.get(f"/api/rooms/{room.id}/events", params={"after": 5}).json()
    assert [e["kind"] for e in after["events"]] == ["resigned", "game_over"]
    for event in body["events"]:
        assert room.creator not in str(event) and str(room.joiner) not in str(event)


def test_a_game_is_capped_in_plies(database: Database, clock: Any) -> None:
    from app.core.settings import Settings
    from app.main import create_app

    settings = Settings(
        database_url=database.url, scheduler_enabled=False, migrate_on_start=False, max_plies=4
    )
    with TestClient(create_app(settings, clock=clock, database=database)) as client:
        api = Api(client)
        room = api.create()
        view = api.play(room, "11-15", "24-20", "8-11", "28-24")
        result = view["game"]["result"]
        assert view["game"]["ply"] == 4 and view["status"] == "finished"
        assert (result["winner"], result["termination"]) == (None, "move_limit")
        assert result["text"] == "Draw: the 4-ply limit was reached"
        assert api.move(room, room.creator, "11-16", 4).status_code == 409


GARBAGE: list[Any] = [
    None,
    [],
    "",
    "null",
    0,
    {"move": None},
    {"action": 1},
    {"rule_set": []},
    {"move": "\x00", "expected_ply": 0},
    {"move": "11-15", "expected_ply": 1e30},
    {"action": "offer" * 100},
    {"rule_set": "x" * 5000},
]


def test_nothing_a_client_sends_yields_a_5xx(api: Api) -> None:
    room = api.create()
    paths = [
        f"/api/rooms/{room.id}/{p}"
        for p in ("moves", "draw", "resign", "rematch", "claim-forfeit", "join")
    ]
    paths += ["/api/rooms", f"/api/rooms/{'x' * 300}/moves", "/api/rooms/%00/draw"]
    for path in paths:
        for body in GARBAGE:
            for token in (None, room.creator):
                r = api.client.post(path, json=body, headers=api.auth(token))
                assert r.status_code < 500, (path, body, r.text)
                assert r.status_code in (200, 201) or r.json()["detail"]
    for token in (b"a" * 3000, b"Bearer", b"x y z", "\u00e9".encode()):
        r = api.client.post(
            paths[0],
            json={"move": "11-15", "expected_ply": 0},
            headers={"Authorization": b"Bearer " + token},
        )
        assert r.status_code in (401, 403), token
    assert api.view(room)["game"]["ply"] == 0


def test_names_are_checked_kept_shown_and_renamed(api: Api) -> None:
    def create(name: str) -> Any:
        return api.client.post("/api/rooms", json={"rule_set": "english", "name": name})

    for bad in ("A\u202eB", "zero\u200bwidth", "tab\there", "\u3164", "x" * 25):
        r = create(bad)
        assert r.status_code == 422 and r.json()["code"] == "validation_error", bad
    made = create("  Jose\u0301  ")  # trimmed, and in NFC: é is one character
    assert made.status_code == 201
    room = Room(made.json()["room_id"], made.json()["token"])
    assert made.json()["room"]["you"]["name"] == "Jos\u00e9"
    joined = api.client.post(f"/api/rooms/{room.id}/join", json={"name": "   "})
    room.joiner = joined.json()["token"]
    assert [s["name"] for s in joined.json()["room"]["seats"]] == ["Jos\u00e9", "Tires player"]
    renamed = api.client.post(
        f"/api/rooms/{room.id}/name", json={"name": "Bob"}, headers=api.auth(room.joiner)
    )
    assert renamed.status_code == 200 and renamed.json()["you"]["name"] == "Bob"
    spectator = api.client.post(f"/api/rooms/{room.id}/name", json={"name": "Eve"})
    assert spectator.status_code == 401
    kinds = [e["kind"] for e in api.client.get(f"/api/rooms/{room.id}/events").json()["events"]]
    assert kinds[-1] == "renamed"
    api.action(room, room.joiner, "resign")
    pdn = api.client.get(f"/api/rooms/{room.id}/games/1.pdn").text
    assert '[Black "Jos\u00e9"]' in pdn and '[White "Bob"]' in pdn  # English: drums are Black


def test_the_computer_seat_shows_its_level(api: Api) -> None:
    r = api.client.post("/api/computer-games", json={"level": "warden", "name": "Ana"})
    assert r.status_code == 201
    seats = r.json()["room"]["seats"]
    assert [(s["name"], s["computer_level"]) for s in seats] == [
        ("Ana", None),
        ("Warden", "warden"),
    ]
