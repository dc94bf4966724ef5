"""Every language's catalog is complete and keeps the source's placeholders; plural
forms, negotiation and the page scripts' JSON follow the catalogs."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from babel.messages.pofile import read_po

from app.i18n import LANGUAGES, LOCALE_DIR, match, negotiate, page_catalog, po_path, translator

PLACEHOLDER = re.compile(r"\{(\w*)\}")


def template_ids() -> set[str | tuple[str, ...]]:
    with (LOCALE_DIR / "messages.pot").open("rb") as source:
        return {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(source) if m.id}


@pytest.mark.parametrize("tag", list(LANGUAGES))
def test_each_catalog_has_every_message_with_the_same_placeholders(tag: str) -> None:
    with po_path(tag).open("rb") as source:
        catalog = read_po(source, locale=tag.replace("-", "_"))
    found = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog if m.id}
    missing = template_ids() - set(found)
    assert not missing, f"{tag} lacks {sorted(map(str, missing))[:5]}"
    for key, message in found.items():
        assert not message.fuzzy, f"{tag}: fuzzy {key!r}"
        source = key if isinstance(key, str) else key[1]
        wanted = set(PLACEHOLDER.findall(source))
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        assert forms and all(forms), f"{tag}: no translation of {key!r}"
        assert len(forms) == (1 if isinstance(key, str) else catalog.num_plurals)
        for form in forms:
            got = set(PLACEHOLDER.findall(form))
            # A plural form may leave out {n} (Russian "одна" style) but nothing else.
            assert got == wanted or (not isinstance(key, str) and got == wanted - {"n"}), (
                f"{tag}: {key!r} -> {form!r}"
            )


def test_russian_has_three_plural_forms_chosen_by_the_last_digits() -> None:
    ru = translator("ru")
    assert [ru.ngettext("{n} day", "{n} days", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 день", "2 дня", "5 дней", "11 дней", "21 день", "22 дня", "25 дней",
    ]  # fmt: skip
    assert ru.length(timedelta(days=7)) == "7 дней"
    assert translator("th").length(timedelta(hours=36)) == "36 ชั่วโมง"


def test_page_catalog_maps_intl_plural_categories_to_the_catalog_forms() -> None:
    ru = page_catalog("ru")
    assert ru["plural"]["one"] == 0 and ru["plural"]["few"] == 1 and ru["plural"]["many"] == 2
    assert ru["messages"]["{n} day"] == ["{n} день", "{n} дня", "{n} дней"]
    assert "Resign" in ru["messages"]  # a page script's message
    assert "Confirm your address" not in ru["messages"]  # the server's only


@pytest.mark.parametrize(
    ("cookie", "header", "expected"),
    [
        (None, "ru-RU,ru;q=0.9,en;q=0.8", "ru"),
        (None, "pt-PT;q=0.9, de", "pt-BR"),
        (None, "de-DE, es-MX;q=0.5", "es"),
        (None, "fr, it;q=0", "en"),
        (None, None, "en"),
        ("th", "ru", "th"),
        ("xx", "it", "it"),
    ],
)
def test_negotiation(cookie: str | None, header: str | None, expected: str) -> None:
    assert negotiate(cookie, header) == expected


def test_match_prefers_the_exact_tag() -> None:
    assert match(["pt-BR"]) == "pt-BR" and match(["EN-us"]) == "en"
