"""Issue 58, point 4: an import costs the web process no seconds. The replay runs in a
worker process at a lower priority; a client has one import replayed at a time and the
service a bounded number; a text's moves in all are capped; the answer is streamed.

Tinsley's archive (724 games, 36,108 plies, from the engine's `engine/data/`) is the large
real import."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.core.db import Database
from app.core.ratelimit import is_limited
from app.core.settings import Settings
from app.imports.runner import ImportBusy, ImportQuota, ImportRunner
from checkers_engine import pdn

TINSLEY = Path(__file__).resolve().parents[2] / "engine" / "data" / "tinsley.pdn"
KINGS = '[FEN "B:WK32:BK1"]\n'
SHUFFLE = ("1-6", "32-27", "6-1", "27-32")


def shuffling(plies: int) -> str:
    return KINGS + " ".join(SHUFFLE[i % 4] for i in range(plies)) + " *\n"


def stored(database: Database) -> int:
    with database.engine.connect() as conn:
        return int(conn.scalar(text("SELECT count(*) FROM imported_games")) or 0)


def test_an_archive_is_replayed_outside_the_web_process(
    client: TestClient, database: Database
) -> None:
    """Replaying Tinsley here costs this process seconds of CPU; importing it through the
    API costs it a small part of that, since the replay runs in a worker."""
    raw = TINSLEY.read_bytes()
    source = raw.decode("utf-8", errors="replace")
    started = time.process_time()
    reports = pdn.read_pdn(source)
    replay_cpu = time.process_time() - started
    assert len(reports) == 724 and replay_cpu > 0.5

    client.post("/api/imports", content=b"1-0", headers={"content-type": "text/plain"})
    started = time.process_time()
    answer = client.post("/api/imports", content=raw, headers={"content-type": "text/plain"})
    web_cpu = time.process_time() - started
    assert answer.status_code == 201, answer.text[:300]
    body = answer.json()
    assert body["imported"] + body["failed"] == 724 and body["imported"] >= 700
    assert stored(database) == body["imported"] + 1
    assert web_cpu < replay_cpu / 2, (web_cpu, replay_cpu)


def test_the_answer_is_streamed_with_the_models_fields(client: TestClient) -> None:
    game = shuffling(12)
    answer = client.post(
        "/api/imports", content=(game + "\n") * 120, headers={"content-type": "text/plain"}
    )
    assert answer.status_code == 201
    assert "content-length" not in answer.headers  # sent as it is written
    body = json.loads(answer.content)
    assert set(body) == {"games", "imported", "failed", "encoding"}
    assert (body["imported"], body["failed"], body["encoding"]) == (120, 0, "utf-8")
    assert [g["number"] for g in body["games"]] == list(range(1, 121))
    first = body["games"][0]
    assert first["url"] == f"/imported/{first['id']}"
    assert first["pdn_url"] == f"/api/imported-games/{first['id']}.pdn"


def test_a_text_of_too_many_moves_in_all_is_refused_whole(
    settings: Settings, database: Database
) -> None:
    from app.main import create_app

    capped = settings.model_copy(update={"import_max_total_plies": 500})
    with TestClient(create_app(capped, database=database)) as client:
        fits = client.post(
            "/api/imports", content=shuffling(250) * 2, headers={"content-type": "text/plain"}
        )
        assert fits.status_code == 201, fits.text[:300]
        refused = client.post(
            "/api/imports", content=shuffling(250) * 3, headers={"content-type": "text/plain"}
        )
    assert refused.status_code == 422
    assert refused.json()["code"] == "too_many_plies_in_all"
    assert refused.json()["max_total_plies"] == 500
    assert refused.json()["plies"] == 750
    assert stored(database) == 2


def test_the_default_cap_takes_tinsleys_archive() -> None:
    assert Settings().import_max_total_plies >= 36_108


def test_one_import_at_a_time_per_client_and_a_bounded_number_in_all() -> None:
    settings = Settings(database_url="sqlite://", import_queue_per_client=1, import_queue_max=2)
    runner = ImportRunner(settings)
    big = shuffling(900) * 30  # 27,000 plies: about a second in the worker

    async def scenario() -> None:
        first = asyncio.create_task(runner.replay(big, default_rule_set="english", client="a"))
        await asyncio.sleep(0)
        assert runner.in_hand() == 1
        with pytest.raises(ImportQuota) as quota:
            await runner.replay("1-0", default_rule_set="english", client="a")
        assert quota.value.extra["retry_after"] >= 1
        second = asyncio.create_task(runner.replay(big, default_rule_set="english", client="b"))
        await asyncio.sleep(0)
        with pytest.raises(ImportBusy):
            await runner.replay("1-0", default_rule_set="english", client="c")
        done = await first
        assert len(done.reports) == 30 and all(row is not None for row in done.rows)
        second.cancel()
        with pytest.raises(asyncio.CancelledError):
            await second
        # Each client's share is given back when its import ends, however it ends.
        assert runner.in_hand() == 0
        again = await runner.replay("1-0", default_rule_set="english", client="a")
        assert len(again.reports) == 1

    try:
        asyncio.run(scenario())
    finally:
        runner.shutdown()


def test_the_rate_limit_rules_match_route_templates() -> None:
    """The OpenAPI document asks about templates such as `{number}`."""
    assert is_limited("POST", "/api/rooms/{room_id}/games/{number}/review")
    assert is_limited("POST", "/api/rooms/abc/games/3/review")
    assert not is_limited("POST", "/api/rooms/abc/games/three/review")
