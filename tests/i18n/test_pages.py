"""The languages through the app's routes: negotiation, the picker's cookie, the page
scripts' catalog, the texts of a view, and the API's English `detail`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.i18n import translator
from app.main import create_app

SAME = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}


@pytest.fixture
def client(settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    app = create_app(
        settings.model_copy(update={"public_url": None}), clock=clock, database=database
    )
    with TestClient(app) as c:
        yield c


def test_the_home_page_follows_accept_language_then_the_cookie(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert page.headers["content-language"] == "it"
    assert "Accept-Language" in page.headers["vary"]
    assert '<html lang="it">' in page.text
    assert translator("it")._("Play a friend") in page.text
    assert 'value="italian" checked' in page.text  # the rule set of the language
    chosen = client.post("/lang", data={"lang": "th", "back": "/"}, headers=SAME,
                         follow_redirects=False)  # fmt: skip
    assert chosen.status_code == 303 and chosen.headers["location"] == "/"
    assert "lang=th" in chosen.headers["set-cookie"]
    page = client.get("/", headers={"Accept-Language": "it"})  # the cookie wins
    assert '<html lang="th">' in page.text and 'value="thai" checked' in page.text


@pytest.mark.parametrize("back", ["https://elsewhere.example/", "//elsewhere.example/x"])
def test_the_picker_only_goes_back_to_this_site(client: TestClient, back: str) -> None:
    answer = client.post("/lang", data={"lang": "ru", "back": back}, headers=SAME,
                         follow_redirects=False)  # fmt: skip
    assert answer.status_code == 303 and answer.headers["location"] == "/"


def test_the_picker_refuses_a_cross_site_post(client: TestClient) -> None:
    answer = client.post("/lang", data={"lang": "ru"}, headers={"Sec-Fetch-Site": "cross-site"},
                         follow_redirects=False)  # fmt: skip
    assert answer.status_code == 403


def test_the_page_catalog_is_json_per_language(client: TestClient) -> None:
    data = client.get("/i18n/ru.json").json()
    assert data["lang"] == "ru" and data["messages"]["Resign"] == "Сдаться"
    assert client.get("/i18n/xx.json").status_code == 404


def test_views_speak_the_language_and_details_stay_english(client: TestClient) -> None:
    ru = {"Accept-Language": "ru"}
    created: dict[str, Any] = client.post("/api/rooms", json={"rule_set": "russian"}).json()
    room, token = created["room_id"], created["token"]
    view = client.get(f"/api/rooms/{room}", headers=ru).json()
    assert view["rule_set"]["name"] == "Русские"
    assert view["rule_set"]["description"] == translator("ru")._(
        "Men jump both ways; flying kings; a man crowned mid-capture goes on as king."
    )
    assert client.get(f"/api/rooms/{room}").json()["rule_set"]["name"] == "Russian"
    joined = client.post(f"/api/rooms/{room}/join").json()
    tires = {**ru, "Authorization": f"Bearer {joined['token']}"}
    move = {"move": "c3-d4", "expected_ply": 0, "notation": "tradition"}
    refused = client.post(f"/api/rooms/{room}/moves", headers=tires, json=move)
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_your_turn" and refused.json()["detail"].isascii()
    resigned = client.post(
        f"/api/rooms/{room}/resign", headers={**ru, "Authorization": f"Bearer {token}"}
    )
    assert resigned.json()["game"]["result"]["text"] == "Шины выиграли: бочки сдались"
    english = client.get(f"/api/rooms/{room}").json()["game"]["result"]
    assert english["text"] == "Tires win: drums resigned" and english["reason"] == "drums resigned"


def test_the_openapi_document_says_detail_is_english_and_code_is_the_key(
    client: TestClient,
) -> None:
    description = client.get("/openapi.json").json()["info"]["description"]
    assert "`detail` is always English" in description
    assert "`code` is the stable key" in description
