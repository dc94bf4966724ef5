"""Issue 58, point 4: no request costs seconds. An imported game has at most
`IMPORT_MAX_PLIES` plies and an import at most `IMPORT_MAX_GAMES` games; a report quotes
at most a short excerpt of the text it read; reads of imported games are rate-limited.

The texts are the report's: a 62,466-ply game (two kings shuffling), 130,000 games of a
bare `1-0`, 520 KB of NUL bytes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from checkers_engine.messages import EXCERPT, QUOTED

KINGS = '[FEN "B:WK32:BK1"]\n'  # English: drums (Black) king on 1, tires' king on 32
SHUFFLE = ("1-6", "32-27", "6-1", "27-32")


def shuffling(plies: int, result: str = "*") -> str:
    """A legal game of `plies` king moves back and forth, without move numbers."""
    return KINGS + " ".join(SHUFFLE[i % 4] for i in range(plies)) + f" {result}\n"


def post(client: TestClient, body: str | bytes) -> Any:
    content = body.encode() if isinstance(body, str) else body
    return client.post("/api/imports", content=content, headers={"content-type": "text/plain"})


def stored(database: Database) -> int:
    with database.engine.connect() as conn:
        return int(conn.scalar(text("SELECT count(*) FROM imported_games")) or 0)


def test_the_defaults_are_sound() -> None:
    """Tinsley's archive (724 games, 158 plies at most) still goes in one request."""
    settings = Settings()
    assert (settings.import_max_games, settings.import_max_plies) == (1000, 1000)


def test_a_game_past_the_ply_cap_is_reported_not_stored(
    client: TestClient, database: Database
) -> None:
    cap = Settings().import_max_plies
    answer = post(client, shuffling(62_466) + "\n" + shuffling(cap))
    assert answer.status_code == 201, answer.text[:300]
    long, longest = answer.json()["games"]
    assert (long["imported"], long["plies"]) == (False, cap)
    failure = long["failure"]
    assert (failure["code"], failure["ply"], failure["params"]) == (
        "too_many_plies",
        cap,
        {"max": cap},
    )
    assert failure["reason"] == f"the game goes on past ply {cap}, the most this service imports"
    assert failure["move"] == SHUFFLE[cap % 4] and failure["legal_moves"]
    assert longest["imported"] and longest["plies"] == cap
    assert stored(database) == 1
    # The longest game there can be costs a fraction of a second to read, not seconds.
    started = time.process_time()
    read = client.get(f"/api/imported-games/{longest['id']}")
    assert read.status_code == 200 and len(read.json()["moves"]) == cap
    assert client.get(f"/api/imported-games/{longest['id']}.pdn").status_code == 200
    assert time.process_time() - started < 2.0


def test_a_text_of_more_games_than_the_cap_is_refused_whole(
    client: TestClient, database: Database
) -> None:
    """The report's file: 520 KB of `1-0 `, 130,000 games, had all been stored."""
    body = "1-0 " * 130_000
    assert len(body) < Settings().import_max_bytes
    started = time.process_time()
    answer = post(client, body)
    assert time.process_time() - started < 2.0
    assert answer.status_code == 422, answer.text[:300]
    assert answer.json()["code"] == "too_many_games"
    assert answer.json()["max_games"] == 1000
    assert len(answer.content) < 1000
    assert stored(database) == 0
    assert post(client, "1-0 " * 1000).status_code == 201
    assert stored(database) == 1000


def test_an_unreadable_token_is_quoted_by_an_excerpt(client: TestClient) -> None:
    """520 KB of NUL bytes was one unreadable word, echoed three times (9.4 MB)."""
    answer = post(client, b"\x00" * 520_000)
    assert answer.status_code == 201
    assert len(answer.content) < 2000
    failure = answer.json()["games"][0]["failure"]
    assert failure["code"] == "unreadable_text"
    assert failure["move"] == "\x00" * (EXCERPT - 1) + "\u2026"
    assert failure["params"] == {"text": failure["move"]}
    assert len(failure["reason"]) < EXCERPT + 80


@pytest.mark.parametrize(
    "pdn",
    [
        "1. 11-15 22-18x" + "y" * 10_000 + " *",  # a comment glued to a move
        '[GameType "' + "9" * 10_000 + '"]\n1. 11-15 *',
        '[FEN "' + "W" * 10_000 + '"]\n1. 11-15 *',
        '[Result "' + "?" * 10_000 + '"]\n1. 11-15 *',
        "1. " + "-".join(["11"] * 5_000) + " *",  # a move of 5,000 squares
        # Numbers past Python's 4,300 digits for int() answered 500.
        "9" * 5_000 + ". 11-15 *",
        '[FEN "B:W' + "1" * 5_000 + ':B1"]\n1. 11-15 *',
        '[FEN "B:W21:B1-' + "2" * 5_000 + '"]\n1. 11-15 *',
        '[FEN "B:W21:B1:H' + "3" * 5_000 + '"]\n1. 11-15 *',
        '[GameType "\u00b2"]\n1. 11-15 *',  # a digit to str.isdigit, not to int()
    ],
    ids=[
        "glued comment",
        "GameType",
        "FEN",
        "Result",
        "move",
        "move number",
        "FEN square",
        "FEN range",
        "FEN counter",
        "superscript GameType",
    ],
)
def test_every_report_quotes_an_excerpt(client: TestClient, pdn: str) -> None:
    answer = post(client, pdn)
    assert answer.status_code == 201
    assert len(answer.content) < 3000, answer.text[:500]
    (game,) = answer.json()["games"]
    quoted = [game["failure"]] if game["failure"] else []
    for item in [*game["notes"], *quoted]:
        for name, value in item["params"].items():
            assert name not in QUOTED or len(str(value)) <= EXCERPT, item
    if game["failure"]:
        assert len(game["failure"]["move"]) <= EXCERPT


@pytest.fixture
def limited(settings: Settings, clock: ManualClock, database: Database) -> Iterator[Any]:
    """The app with its rate limits on, reads of imported games at 4 a minute."""
    limits = {"rate_limit_enabled": True, "rate_limit_imported_reads": "4/minute"}
    app = create_app(settings.model_copy(update=limits), clock=clock, database=database)
    clients: list[TestClient] = []

    def open_client(address: str) -> TestClient:
        opened = TestClient(app, raise_server_exceptions=False, client=(address, 40000))
        clients.append(opened.__enter__())
        return opened

    yield open_client
    for opened in clients:
        opened.__exit__(None, None, None)


def test_reads_of_imported_games_are_limited_per_client(limited: Any) -> None:
    alice, bob = limited("10.0.58.1"), limited("10.0.58.2")
    game = post(alice, shuffling(40))
    game_id = game.json()["games"][0]["id"]
    reads = [
        f"/api/imported-games/{game_id}",
        f"/api/imported-games/{game_id}.pdn",
        f"/imported/{game_id}",
        f"/api/imported-games/{game_id}",
    ]
    assert [alice.get(url).status_code for url in reads] == [200] * 4
    for url in reads[:3]:
        refused = alice.get(url)
        assert refused.status_code == 429, url
        assert refused.json()["code"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert alice.head(reads[0]).status_code == 429
    # Another client reads on; the review's progress, which a page polls, is not limited.
    assert bob.get(reads[0]).status_code == 200
    assert alice.get(f"/api/imported-games/{game_id}/review").status_code == 404
    assert alice.get("/api/rule-sets").status_code == 200


def test_the_openapi_document_says_reads_are_limited(limited: Any) -> None:
    paths = limited("10.0.58.3").get("/openapi.json").json()["paths"]
    for path in ("/api/imported-games/{game_id}", "/api/imported-games/{game_id}.pdn"):
        assert "429" in paths[path]["get"]["responses"], path
    assert "429" not in paths["/api/imported-games/{imported_id}/review"]["get"]["responses"]
    assert json.dumps(paths).count("too_many_games") >= 1
