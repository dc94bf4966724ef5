"""The service's languages: gettext catalogs read through Babel, one per language.

The `.po` files under `locale/` are the sources (`make i18n` extracts the messages from
the Python code, the Jinja templates and the page scripts and updates them). Their `.mo`
files are compiled by `make install` / `make i18n` (`pybabel compile`); a catalog whose
`.mo` is missing or older than its `.po` (a fresh checkout installed without make, an
edited translation) is compiled in memory when first used, so the `.po` always wins.

Messages use `{name}` placeholders, filled by `str.format` here and by the same rule in
the page scripts (`static/js/i18n.js`), which read their messages from `page_catalog`:
one catalog per language serves the server and the pages.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_datetime
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
DEFAULT = "en"
COOKIE = "lang"

# Tag (as in `<html lang>`, the cookie and Accept-Language) -> the name a speaker reads.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "pt-BR": "Português (Brasil)",
    "ru": "Русский",
    "es": "Español",
    "it": "Italiano",
    "th": "ไทย",
}

# The rule set a room made from the home page starts with in each language.
DEFAULT_RULE_SET: dict[str, str] = {
    "en": "english",
    "pt-BR": "brazilian",
    "ru": "russian",
    "es": "spanish",
    "it": "italian",
    "th": "thai",
}


def babel_code(tag: str) -> str:
    """`pt-BR` -> `pt_BR`: the name of the catalog's directory and Babel's locale."""
    return tag.replace("-", "_")


def N_(message: str) -> str:
    """Mark a module-level text for extraction; it is translated where it is shown."""
    return message


def _fill(text: str, params: dict[str, Any]) -> str:
    return text.format(**params) if params else text


@dataclass(frozen=True)
class Translator:
    """One language: its messages, and Babel's formats for its numbers and dates."""

    tag: str
    locale: Locale
    translations: gettext.NullTranslations

    def _(self, message: str, **params: Any) -> str:
        return _fill(self.translations.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form for `n` (Russian has three); `{n}` is `n` in the language's digits."""
        text = self.translations.ngettext(singular, plural, n)
        return _fill(text, {"n": self.number(n), **params})

    def number(self, value: float) -> str:
        return str(format_decimal(value, locale=self.locale))

    def datetime(self, moment: datetime, zone: str | None = None) -> str:
        """An instant in the reader's time zone (UTC when unknown), as the language
        writes it: `3 déc. 2026, 07:31`."""
        text = str(format_datetime(moment, "medium", tzinfo=time_zone(zone), locale=self.locale))
        return text if zone else f"{text} UTC"

    def length(self, length: timedelta) -> str:
        """A duration in the largest whole unit: `7 дней`, `36 hours`, `90 minutes`."""
        seconds = int(length.total_seconds())
        if seconds >= 86400 and seconds % 86400 == 0:
            return self.ngettext("{n} day", "{n} days", seconds // 86400)
        if seconds >= 3600 and seconds % 3600 == 0:
            return self.ngettext("{n} hour", "{n} hours", seconds // 3600)
        if seconds >= 60 and seconds % 60 == 0:
            return self.ngettext("{n} minute", "{n} minutes", seconds // 60)
        return self.ngettext("{n} second", "{n} seconds", seconds)


def time_zone(name: str | None) -> tzinfo:
    """The IANA zone `name` (as a browser's `Intl` gives it), UTC when unknown."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo("UTC")


def valid_zone(name: str | None) -> str | None:
    """`name` if it is a time zone this machine knows, else None."""
    if not name or len(name) > 64:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def po_path(tag: str) -> Path:
    return LOCALE_DIR / babel_code(tag) / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(tag: str) -> Catalog:
    """The `.po` source of a language (English has one too, with empty translations)."""
    with po_path(tag).open("rb") as source:
        return read_po(source, locale=babel_code(tag), domain=DOMAIN)


@cache
def translator(tag: str) -> Translator:
    """The language `tag` (one of LANGUAGES), from its `.mo` if that is up to date."""
    if tag not in LANGUAGES:
        tag = DEFAULT
    po = po_path(tag)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as compiled:
            translations: gettext.NullTranslations = gettext.GNUTranslations(compiled)
    else:
        buffer = io.BytesIO()
        write_mo(buffer, catalog(tag))
        buffer.seek(0)
        translations = gettext.GNUTranslations(buffer)
    return Translator(tag, Locale.parse(babel_code(tag)), translations)


def plural_index(tag: str) -> dict[str, int]:
    """CLDR plural category (what `Intl.PluralRules` answers) -> the index of the
    catalog's form, found by evaluating both rules over the whole numbers."""
    cat = catalog(tag)
    rule = gettext.c2py(cat.plural_expr)
    locale = Locale.parse(babel_code(tag))
    found: dict[str, int] = {}
    for n in range(0, 1200):
        found.setdefault(locale.plural_form(n), rule(n))
    found.setdefault("other", cat.num_plurals - 1)
    return found


@cache
def page_catalog(tag: str) -> dict[str, Any]:
    """The page scripts' messages in `tag`, as the JSON `static/js/i18n.js` reads: each
    message found in a script, its translation (a list of forms for a plural message)
    and the table from `Intl.PluralRules` categories to those forms."""
    if tag not in LANGUAGES:
        tag = DEFAULT
    messages: dict[str, str | list[str]] = {}
    for message in catalog(tag):
        if not message.id or not any(path.endswith(".js") for path, _ in message.locations):
            continue
        if message.fuzzy:
            continue
        if message.pluralizable:
            forms = list(message.string) if isinstance(message.string, tuple | list) else []
            if all(forms):
                messages[message.id[0]] = forms
        elif message.string:
            messages[str(message.id)] = str(message.string)
    return {"lang": tag, "plural": plural_index(tag), "messages": messages}


_RANGE = re.compile(r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q=([0-9.]+))?\s*$")


def _wanted(header: str) -> list[str]:
    """The tags of an Accept-Language header, most wanted first (q=0 left out)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:32]):
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            q = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        if q > 0:
            ranked.append((-q, index, match.group(1)))
    return [tag for _, _, tag in sorted(ranked)]


def match(tags: Iterable[str]) -> str | None:
    """The first of `tags` this service speaks: the exact tag, else the same language
    (any Portuguese is read as Brazilian Portuguese, `es-MX` as Spanish)."""
    by_lower = {tag.lower(): tag for tag in LANGUAGES}
    by_language = {tag.split("-")[0].lower(): tag for tag in LANGUAGES}
    for tag in tags:
        lower = tag.lower()
        if lower in by_lower:
            return by_lower[lower]
        if lower.split("-")[0] in by_language:
            return by_language[lower.split("-")[0]]
    return None


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The reader's language: the one chosen with the picker (the cookie), else the
    first of the browser's Accept-Language this service speaks, else English."""
    if cookie and cookie in LANGUAGES:
        return cookie
    return match(_wanted(accept_language or "")) or DEFAULT
