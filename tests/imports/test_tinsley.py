"""The Tinsley archive (724 recorded English games) imported through the API in one
request (issue 15, point 4). The file is ``engine/data/tinsley.pdn``;
the figures are the archive's, as ``engine/data/README.md`` states them."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.db import Base, Database
from app.core.settings import Settings
from app.main import create_app
from checkers_engine import pdn

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "engine" / "data"
TINSLEY = DATA / "tinsley.pdn"


@pytest.fixture(scope="module")
def imported() -> Iterator[tuple[TestClient, str, dict[str, Any]]]:
    """One import of the whole file (it fits in IMPORT_MAX_BYTES), on SQLite."""
    if not TINSLEY.is_file():
        pytest.fail(f"{TINSLEY} is missing (engine/data/README.md says where it comes from)")
    text = TINSLEY.read_text(encoding="ascii")
    settings = Settings()
    assert len(text.encode()) < settings.import_max_bytes
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/tinsley.sqlite3"
        database = Database(url)
        Base.metadata.create_all(database.engine)
        app = create_app(
            Settings(
                database_url=url,
                scheduler_enabled=False,
                migrate_on_start=False,
                rate_limit_enabled=False,
                log_level="WARNING",
            ),
            database=database,
        )
        with TestClient(app) as client:
            answer = client.post("/api/imports", json={"pdn": text})
            assert answer.status_code == 201, answer.text[:500]
            yield client, text, answer.json()
        database.dispose()


def test_723_games_import_and_541_reports_its_illegal_move(imported: Any) -> None:
    _, _, body = imported
    games = body["games"]
    assert len(games) == 724 and [g["number"] for g in games] == list(range(1, 725))
    assert (body["imported"], body["failed"]) == (723, 1)
    assert [g["number"] for g in games if not g["imported"]] == [541]
    failing = games[540]
    assert failing["failure"] == {
        "game": 541,
        "line": 5588,
        "column": 5,
        "ply": 122,
        "move": "32-28",
        "reason": failing["failure"]["reason"],
        "code": "move_illegal",
        "params": {"move": "32-28", "legal": "16-19, 16-20, 28-24, 28-32, 29-25"},
        "legal_moves": ["16-19", "16-20", "28-24", "28-32", "29-25"],
    }
    assert failing["failure"]["reason"].startswith("32-28 is not legal here")
    assert failing["service_end"] == {"ply": 109, "termination": "20 king moves"}
    assert [n for n in failing["notes"] if "at ply 109" in n["text"]]
    assert failing["id"] is None and failing["url"] is None


def test_tinsleys_results_read_in_checkerboards_convention(imported: Any) -> None:
    _, _, body = imported
    wins = losses = draws = 0
    for game in body["games"]:
        black = "insley" in (game["black"] or "")
        assert black or "insley" in (game["white"] or "")
        if game["result"] == "1/2-1/2":
            draws += 1
        elif (game["result"] == "1-0") == black:  # English: "1-0" means Black (first) won
            wins += 1
        else:
            losses += 1
    assert (wins, losses, draws) == (175, 16, 533)


def test_glued_comments_are_noted_where_they_stand(imported: Any) -> None:
    client, _, body = imported
    for number, line, column, move in ((623, 6434, 74, "8-11"), (693, 7170, 22, "26-22")):
        game = body["games"][number - 1]
        assert game["imported"]
        glued = [n for n in game["notes"] if "glued" in n["text"]]
        assert [(n["line"], n["column"]) for n in glued] == [(line, column)]
        stored = client.get(f"/api/imported-games/{game['id']}").json()
        assert stored["moves"][-1]["text"] == move
        assert len(stored["moves"]) == game["plies"]
        assert stored["notes"] == game["notes"]


def test_no_move_is_dropped(imported: Any) -> None:
    """Every move-shaped token of each game's movetext, counted independently of the
    reader, is a stored ply (pydraughts drops the last move of 387 of these games)."""
    _, text, body = imported
    chunks = re.split(r"\n(?=\[Event )", text)
    assert len(chunks) == 724
    move = re.compile(r"(?<![\d./])\d{1,2}(?:[-x]\d{1,2})+(?![\d/])")
    for chunk, game in zip(chunks, body["games"], strict=True):
        if not game["imported"]:
            continue
        movetext = re.sub(r"\[[^\]]*\]", "", chunk)
        written = sum(
            all(1 <= int(sq) <= 32 for sq in re.split("[-x]", token))
            for token in move.findall(movetext)
        )
        assert game["plies"] == written, game["number"]


def test_an_imported_game_has_its_replay_and_its_own_pdn(imported: Any) -> None:
    client, _, body = imported
    game = body["games"][0]
    assert game["url"] == f"/imported/{game['id']}"
    stored = client.get(f"/api/imported-games/{game['id']}").json()
    assert stored["rule_set"]["key"] == "english" and stored["result"] == game["result"]
    assert stored["tags"]["Black"] == game["black"] and stored["tags"]["White"] == game["white"]
    text = client.get(game["pdn_url"]).text
    (report,) = pdn.read_pdn(text)
    assert report.ok and report.result == game["result"]
    assert [m.notation() for m in report.moves] == [m["engine_notation"] for m in stored["moves"]]
    assert f'[Black "{game["black"]}"]' in text and '[GameType "21"]' in text
    page = client.get(game["url"])
    assert page.status_code == 200 and 'id="game-data"' in page.text
