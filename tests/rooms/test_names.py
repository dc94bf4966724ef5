"""Issue 58, point 7: a display name refuses every character a reader does not see, keeps
the emoji that are drawn from several code points, and cannot be a computer level's."""

from __future__ import annotations

import unicodedata

import httpx
import pytest

from app.rooms.names import InvalidName, clean_name
from checkers_engine.ai import Level
from tests.rooms.conftest import Api, Room

FLAG_OF_SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"

SEEN = {
    "family": "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",
    "name and family": "Ana \U0001f468\u200d\U0001f469\u200d\U0001f467",
    "rainbow flag": "\U0001f3f3\ufe0f\u200d\U0001f308",
    "heart on fire": "\u2764\ufe0f\u200d\U0001f525",
    "technologist with a skin tone": "\U0001f469\U0001f3fd\u200d\U0001f4bb",
    "thumbs up with a skin tone": "\U0001f44d\U0001f3fd",
    "polar bear": "\U0001f43b\u200d\u2744\ufe0f",
    "flag of France": "\U0001f1eb\U0001f1f7",
    "flag of Scotland": FLAG_OF_SCOTLAND,
    "keycap": "1\ufe0f\u20e3",
    "red heart": "Ana \u2764\ufe0f",
    "CJK ideograph variant": "\u845b\U000e0100",
    "Devanagari half form (ZWJ after a virama)": "\u0915\u094d\u200d\u0937",
    "Tamil": "\u0ba8\u0ba9\u0bcd\u0bb1\u0bbf",
    "accent on a letter": "Zo\u00eb",
    "a level's name within a longer one": "Executive Ana",
}

NOT_SEEN = {
    "combining grapheme joiner": "a\u034fb",
    "combining grapheme joiner alone": "\u034f",
    "emoji selector alone": "\ufe0f",
    "emoji selector first": "\ufe0fAna",
    "emoji selector after a letter": "Ana\ufe0f",
    "emoji selector after a space": "Ana \ufe0f",
    "Khmer inherent aq": "\u17b4",
    "Khmer inherent aa after a letter": "Ana\u17b5",
    "bare combining mark": "\u0301",
    "combining mark first": "\u0301Ana",
    "combining mark after a space": "Ana \u0301",
    "bare enclosing mark": "\u20dd",
    "Hangul filler": "\u3164",
    "halfwidth Hangul filler": "A\uffa0B",
    "Hangul choseong filler": "\u115f",
    "braille blank": "\u2800",
    "zero-width space": "zero\u200bwidth",
    "right-to-left override": "A\u202eB",
    "soft hyphen": "An\u00ada",
    "word joiner": "An\u2060a",
    "byte order mark": "\ufeffAna",
    "zero-width joiner between letters": "An\u200da",
    "zero-width joiner at the end": "\U0001f44d\u200d",
    "zero-width joiner first": "\u200d\U0001f44d",
    "zero-width non-joiner between letters": "An\u200ca",
    "tag letter alone": "Ana\U000e0067",
    "tag letters without their cancel tag": "\U0001f3f4\U000e0067\U000e0062",
    "ideographic variation selector after a Latin letter": "a\U000e0100",
    "Mongolian selector after a Latin letter": "a\u180b",
    "Arabic letter mark": "A\u061cB",
    "line separator": "A\u2028B",
    "private use": "A\ue000B",
    "unassigned": "A\U000e0080B",
    "control": "tab\there",
}


@pytest.mark.parametrize("name", SEEN.values(), ids=SEEN.keys())
def test_names_drawn_as_written_are_kept(name: str) -> None:
    assert clean_name(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize("name", NOT_SEEN.values(), ids=NOT_SEEN.keys())
def test_a_character_not_seen_where_it_stands_is_refused(name: str) -> None:
    with pytest.raises(InvalidName) as refused:
        clean_name(name)
    assert refused.value.code == "name_invisible"
    assert "U+" in str(refused.value)


@pytest.mark.parametrize(
    "name",
    [
        "Executive",
        "executive",
        "  EXECUTIVE  ",
        "\uff25\uff58\uff45\uff43\uff55\uff54\uff49\uff56\uff45",  # fullwidth
        "Exec utive",
        "Executive.",
        "Tamer",
        "driver",
        "W-A-R-D-E-N",
    ],
)
def test_a_computer_levels_name_cannot_be_taken(name: str) -> None:
    with pytest.raises(InvalidName) as refused:
        clean_name(name)
    assert refused.value.code == "name_reserved"


def test_every_level_is_reserved() -> None:
    for level in Level:
        with pytest.raises(InvalidName):
            clean_name(level.title)


def test_the_api_refuses_and_keeps_names_by_these_rules(api: Api) -> None:
    def create(name: str) -> httpx.Response:
        return api.client.post("/api/rooms", json={"rule_set": "english", "name": name})

    for name, kind in (("\ufe0f", "name_invisible"), ("Executive", "name_reserved")):
        refused = create(name)
        assert refused.status_code == 422 and refused.json()["code"] == "validation_error"
        [problem] = refused.json()["errors"]
        assert (problem["loc"], problem["type"]) == (["body", "name"], kind)
    computer = api.client.post("/api/computer-games", json={"level": "tamer", "name": "Warden"})
    assert computer.status_code == 422
    family = SEEN["name and family"]
    made = create(family)
    assert made.status_code == 201 and made.json()["room"]["you"]["name"] == family
    room = Room(made.json()["room_id"], made.json()["token"])
    rename = f"/api/rooms/{room.id}/name"
    renamed = api.client.post(
        rename, json={"name": FLAG_OF_SCOTLAND}, headers=api.auth(room.creator)
    )
    assert renamed.status_code == 200 and renamed.json()["you"]["name"] == FLAG_OF_SCOTLAND
    taken = api.client.post(rename, json={"name": "executive"}, headers=api.auth(room.creator))
    assert taken.status_code == 422
    assert api.view(room)["seats"][0]["name"] == FLAG_OF_SCOTLAND
