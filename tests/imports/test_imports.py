"""PDN import through the API (issue 15, point 4): what is imported, what is normalised
and noted, where a failing game fails, games from a FEN tag, the size and rate limits.

Lines and columns are counted by hand in the texts below (both from 1)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from checkers_engine import pdn

THREE = """[Event "one"]
[White "W1"]
[Black "B1"]
[Result "2-0"]

1. 11x15 {opening} 23-19 $1 2. 8-11 22-17?! 2-0

[Event "two"]
[Result "*"]

1. 11-15 23-19 2. 9-13 22-11 *

[Event "three"]
[GameType "25"]
[SetUp "1"]
[FEN "W:WK29:BK1:H18:F30"]
[White "Ivanov"]
[Black "Petrov"]
[Result "1/2-1/2"]

30. a1-c3 b8-a7 31. c3-d4 1/2-1/2
"""


def post(client: TestClient, text: str, **params: str) -> Any:
    return client.post(
        "/api/imports", content=text.encode(), headers={"content-type": "text/plain"}, params=params
    )


def test_each_game_is_imported_or_reported_and_the_next_still_imports(client: TestClient) -> None:
    answer = post(client, THREE)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["imported"], body["failed"], body["encoding"]) == (2, 1, "utf-8")
    one, two, three = body["games"]
    assert [g["imported"] for g in (one, two, three)] == [True, False, True]
    assert (two["number"], two["line"], two["column"]) == (2, 8, 1)
    failure = two["failure"]
    assert (failure["game"], failure["line"], failure["column"]) == (2, 11, 24)
    assert (failure["ply"], failure["move"]) == (3, "22-11")
    assert failure["reason"].startswith("22-11 is not legal here")
    assert set(failure["legal_moves"]) == {
        "19-16",
        "21-17",
        "22-17",
        "22-18",
        "24-20",
        "26-23",
        "27-23",
    }
    assert two["id"] is None and two["plies"] == 3
    for game in (one, three):
        stored = client.get(f"/api/imported-games/{game['id']}")
        assert stored.status_code == 200


def test_what_was_normalised_is_said(client: TestClient) -> None:
    one = post(client, THREE).json()["games"][0]
    assert one["result"] == "1-0"  # the international 2-0
    notes = {(n["line"], n["column"]): n["text"] for n in one["notes"]}
    assert notes[(4, 1)] == "result 2-0 read as 1-0"
    assert notes[(6, 4)].startswith("11x15 is a plain move written with a capture mark")
    stored = client.get(f"/api/imported-games/{one['id']}").json()
    assert [m["text"] for m in stored["moves"]] == ["11-15", "23-19", "8-11", "22-17"]
    assert stored["result_text"] == "Black won (1-0)"  # English: Black moves first
    assert stored["winner"] == "drums"


def test_a_game_from_its_fen_tag_with_the_services_draw_point(client: TestClient) -> None:
    three = post(client, THREE).json()["games"][2]
    assert (three["rule_set"], three["from_position"], three["plies"]) == ("russian", True, 3)
    # The FEN's clock (18) reaches the 20-king-ply draw after two moves; all three replay.
    assert three["service_end"] == {"ply": 2, "termination": "20 king moves"}
    stored = client.get(f"/api/imported-games/{three['id']}").json()
    assert stored["start_position"] == "W:WKa1:BKb8:H18:F30"
    moves = stored["moves"]
    assert [(m["number"], m["side"], m["text"]) for m in moves] == [
        (30, "drums", "a1-c3"),
        (30, "tires", "b8-a7"),
        (31, "drums", "c3-d4"),
    ]
    assert stored["result_text"] == "Drawn (1/2-1/2)"
    text = client.get(three["pdn_url"]).text
    assert '[White "Ivanov"]' in text and '[GameType "25"]' in text
    assert '[SetUp "1"]' in text and '[FEN "W:WKa1:BKb8:H18:F30"]' in text
    assert "30. a1-c3 b8-a7 31. c3-d4 1/2-1/2" in text
    (again,) = pdn.read_pdn(text)
    assert again.ok and [m.notation() for m in again.moves] == [m["engine_notation"] for m in moves]


def test_json_or_text_the_default_rule_set_and_windows_1252(client: TestClient) -> None:
    russian = '[Event "Café"]\n[Result "*"]\n1. c3-d4 f6-g5 2. d4-e5 *\n'
    as_json = client.post("/api/imports", json={"pdn": russian, "rule_set": "russian"})
    assert as_json.status_code == 201, as_json.text
    game = as_json.json()["games"][0]
    assert (game["rule_set"], game["plies"], game["event"]) == ("russian", 3, "Café")
    as_text = client.post(
        "/api/imports",
        content=russian.encode("cp1252"),
        headers={"content-type": "text/plain"},
        params={"rule_set": "russian"},
    )
    assert as_text.status_code == 201, as_text.text
    assert as_text.json()["encoding"] == "windows-1252"
    assert as_text.json()["games"][0]["event"] == "Café"
    english = post(client, russian).json()["games"][0]  # read as English: c3-d4 is 11-15
    assert english["imported"] and english["rule_set"] == "english"


def test_refusals(client: TestClient) -> None:
    cases = [
        (post(client, "  \n\n"), "no_games"),
        (post(client, "1. 11-15 *", rule_set="checkers"), "unknown_rule_set"),
        (client.post("/api/imports", json={"pdn": ""}), "validation_error"),
        (client.post("/api/imports", json={"text": "1. 11-15"}), "validation_error"),
        (
            client.post(
                "/api/imports", content=b"<pdn/>", headers={"content-type": "application/xml"}
            ),
            "invalid_input",
        ),
    ]
    for answer, code in cases:
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == code
    for url in ("/api/imported-games/nope", "/api/imported-games/nope.pdn"):
        missing = client.get(url)
        assert missing.status_code == 404 and missing.json()["code"] == "imported_game_not_found"
    assert client.get("/imported/nope").status_code == 404


def test_the_import_route_alone_takes_large_bodies_up_to_its_limit(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    limits = {
        "import_max_bytes": 8192,
        "rate_limit_enabled": True,
        "rate_limit_imports": "2/minute",
    }
    app = create_app(settings.model_copy(update=limits), clock=clock, database=database)
    game = '[Event "x"]\n{' + "a" * 5900 + "}\n1. 11-15 *\n"
    assert 4096 < len(game) < 8192
    with TestClient(app, raise_server_exceptions=False) as client:
        refused = client.post(
            "/api/rooms", content=game.encode(), headers={"content-type": "application/json"}
        )
        assert refused.status_code == 413  # MAX_BODY_BYTES everywhere else
        assert post(client, game).status_code == 201
        too_big = post(client, game + "{" + "b" * 3000 + "}")
        assert too_big.status_code == 413 and too_big.json()["code"] == "too_large"
        assert "8192" in too_big.json()["detail"]
        limited = post(client, game)  # the third import this minute
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
