"""The PDN reader's notes and failures by code (issue 19): the engine's codes and their
English, the API carrying code and params beside the English, the stored notes keeping
them, and the pages' tables of messages in the reader's language.

The Russian expected below is the translators' text in the committed catalog."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from app.core.db import Database
from app.i18n import translator
from app.imports.models import ImportedGame
from app.imports.texts import PDN_TEXTS, WORDS, texts_for
from checkers_engine import messages, pdn
from checkers_engine.board import Board
from checkers_engine.errors import IllegalMoveError
from checkers_engine.notation import parse_move

# Game 1: a Result tag that is not a PDN result (read as *); game 2 fails on "hello"
# (line 6, column 10).
TWO = """[Result "?"]

1. 11-15 23-19 *

[Result "*"]
1. 11-15 hello *
"""


def post(client: TestClient, text: str) -> Any:
    return client.post(
        "/api/imports", content=text.encode(), headers={"content-type": "text/plain"}
    )


def test_every_engine_code_has_its_english_as_message_id() -> None:
    assert PDN_TEXTS == messages.TEXTS


def test_the_engine_gives_codes_and_params_and_english_text() -> None:
    first, second = pdn.read_pdn(TWO)
    (note,) = first.notes
    assert (note.line, note.column, note.code, note.params) == (
        1,
        1,
        "result_not_pdn",
        {"tag": "?"},
    )
    assert note.text == "Result '?' is not a PDN result; read as *"
    assert second.failure is not None
    assert (second.failure.code, second.failure.params) == ("unreadable_text", {"text": "hello"})
    assert second.failure.reason == "cannot read 'hello': not a move, a move number or a result"
    assert (second.failure.line, second.failure.column) == (6, 10)


def test_a_move_error_carries_its_code() -> None:
    board = Board("english")
    try:
        parse_move(board, "11-33")
    except IllegalMoveError as exc:
        assert exc.message is not None
        assert (exc.message.code, exc.message.params) == (
            "move_square_range",
            {"move": "11-33", "square": "33"},
        )
        assert str(exc) == "cannot read move '11-33': no square 33: squares are numbered 1-32"
    else:
        raise AssertionError("11-33 was read")


def test_the_api_keeps_english_and_carries_code_and_params(client: TestClient) -> None:
    answer = post(client, TWO)
    assert answer.status_code == 201, answer.text
    one, two = answer.json()["games"]
    assert one["notes"] == [
        {
            "line": 1,
            "column": 1,
            "text": "Result '?' is not a PDN result; read as *",
            "code": "result_not_pdn",
            "params": {"tag": "?"},
        }
    ]
    assert two["failure"]["reason"].startswith("cannot read 'hello'")
    assert (two["failure"]["code"], two["failure"]["params"]) == (
        "unreadable_text",
        {"text": "hello"},
    )
    # Stored with the game: its API answer and its page's data keep them.
    stored = client.get(f"/api/imported-games/{one['id']}").json()
    assert stored["notes"] == one["notes"]


def _pdn_texts(html: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="pdn-texts">(.*?)</script>', html, re.S)
    assert found, "the page carries no table of PDN messages"
    table: dict[str, str] = json.loads(found.group(1))
    return table


def test_the_pages_carry_the_messages_in_the_readers_language(client: TestClient) -> None:
    one = post(client, TWO).json()["games"][0]
    ru = {"Accept-Language": "ru"}
    for url in ("/import", one["url"]):
        page = client.get(url, headers=ru)
        assert page.status_code == 200
        table = _pdn_texts(page.text)
        assert set(table) == set(PDN_TEXTS) | {f"word:{w}" for w in WORDS}
        assert table["result_not_pdn"] == "Result '{tag}' — не результат PDN; прочитан как *"
        assert table["unreadable_text"].startswith("не удаётся прочитать '{text}'")
    english = _pdn_texts(client.get("/import", headers={"Accept-Language": "en"}).text)
    assert english == PDN_TEXTS | {f"word:{w}": w for w in WORDS}


def test_each_language_has_its_own_message_for_each_code() -> None:
    english = texts_for(translator("en"))
    for tag in ("pt-BR", "ru", "es", "it", "th"):
        table = texts_for(translator(tag))
        assert set(table) == set(PDN_TEXTS) | {f"word:{w}" for w in WORDS}
        # Every message differs from the English: none was left untranslated.
        same = {code for code in table if table[code] == english[code]}
        assert same == set(), f"{tag}: {sorted(same)}"
    assert texts_for(translator("ru"))["no_result"] == "результат не указан; прочитан как *"


def test_a_note_stored_before_notes_had_codes_is_still_served(
    client: TestClient, database: Database
) -> None:
    """Rows imported before keep [{line, column, text}] in the same JSON column: no
    migration; the API answers code null and the pages show the stored English."""
    one = post(client, TWO).json()["games"][0]
    old = [{"line": 1, "column": 1, "text": "Result '?' is not a PDN result; read as *"}]
    with database.session() as session, session.begin():
        session.execute(update(ImportedGame).where(ImportedGame.id == one["id"]).values(notes=old))
    stored = client.get(f"/api/imported-games/{one['id']}").json()
    assert stored["notes"] == [{**old[0], "code": None, "params": {}}]
    page = client.get(one["url"], headers={"Accept-Language": "ru"})
    assert page.status_code == 200


def test_a_bad_fen_tag_is_explained_in_the_readers_language(client: TestClient) -> None:
    """The FEN tag's own reason rides in the failure's params (`reason` and its params),
    and the Russian page's table has the words for it."""
    pdn = '[GameType "25"]\n[FEN "W:Wc3,c3:Bf6"]\n1. c3-d4 *\n'
    failure = post(client, pdn).json()["games"][0]["failure"]
    assert failure["code"] == "bad_fen"
    assert failure["params"]["reason"] == "fen_square_twice"
    assert failure["params"]["square"] == "c3"
    table = _pdn_texts(client.get("/import", headers={"Accept-Language": "ru"}).text)
    assert table["fen_square_twice"] == "поле {square} указано дважды"
    assert table["bad_fen"] == "тег FEN: {detail}"
