"""Every message the pages ask for is translated in every language.

The templates' `_("...")` calls and the page scripts' `t("...")` and `nt("...", "...", n)`
calls are found here by a scanner of this test's own, which reads code inside template
literals (`${t("...")}`) too: a message that `make i18n` failed to extract would reach
the players in English whatever their language, and the catalog test, which compares the
catalogs with the extracted template, could not see it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, catalog, page_catalog

WEB = Path(__file__).resolve().parents[2] / "app" / "web"

# The translating functions -> how many of their first arguments are message texts.
SCRIPT_CALLS = {"t": 1, "nt": 2}
TEMPLATE_CALLS = {"_": 1, "gettext": 1, "ngettext": 2}

Key = str | tuple[str, str]


@dataclass(frozen=True)
class Token:
    kind: str  # "name", "string" (a literal's value) or "punct" (one character, or a template)
    value: str
    line: int


NAME = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*")
# After these a `/` starts a regular expression, not a division.
BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void"}
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class Lexer:
    """The tokens of JavaScript (or, with `script=False`, of a Jinja expression: no
    comments, regular expressions or template literals). A template literal's `${...}`
    parts are read as code; a template literal without them is a string."""

    def __init__(self, source: str, *, script: bool = True) -> None:
        self.text, self.script, self.pos, self.line = source, script, 0, 1
        self.last: Token | None = None

    def error(self, what: str) -> AssertionError:
        return AssertionError(f"line {self.line}: {what}")

    def advance(self, count: int = 1) -> str:
        taken = self.text[self.pos : self.pos + count]
        self.line += taken.count("\n")
        self.pos += count
        return taken

    def emit(self, kind: str, value: str, line: int) -> Token:
        self.last = Token(kind, value, line)
        return self.last

    def tokens(self, *, until_brace: bool = False) -> Iterator[Token]:
        """Tokens up to the end, or up to the `}` closing a `${` when `until_brace`."""
        depth = 0
        text = self.text
        while self.pos < len(text):
            c, line = text[self.pos], self.line
            ahead = text[self.pos : self.pos + 2]
            if c.isspace():
                self.advance()
            elif self.script and ahead == "//":
                end = text.find("\n", self.pos)
                self.advance((len(text) if end < 0 else end) - self.pos)
            elif self.script and ahead == "/*":
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.error("unclosed comment")
                self.advance(end + 2 - self.pos)
            elif c in "'\"":
                yield self.emit("string", self.quoted(c), line)
            elif self.script and c == "`":
                yield from self.template()
            elif self.script and c == "/" and self.regex_may_start():
                self.regex()
                yield self.emit("punct", "/regex/", line)
            elif match := NAME.match(text, self.pos):
                yield self.emit("name", self.advance(match.end() - self.pos), line)
            else:
                if c == "{":
                    depth += 1
                elif c == "}":
                    if until_brace and depth == 0:
                        self.advance()
                        return
                    depth -= 1
                yield self.emit("punct", self.advance(), line)
        if until_brace:
            raise self.error("unclosed ${ in a template literal")

    def regex_may_start(self) -> bool:
        last = self.last
        if last is None:
            return True
        if last.kind == "name":
            return last.value in BEFORE_REGEX
        return last.kind == "punct" and last.value not in ")]}`"

    def escape(self) -> str:
        self.advance()  # the backslash
        c = self.advance()
        if c == "u":
            if self.text.startswith("{", self.pos):
                end = self.text.index("}", self.pos)
                return chr(int(self.advance(end + 1 - self.pos)[1:-1], 16))
            return chr(int(self.advance(4), 16))
        if c == "x":
            return chr(int(self.advance(2), 16))
        if c == "\n":
            return ""  # a line continuation
        return ESCAPES.get(c, c)

    def quoted(self, quote: str) -> str:
        self.advance()
        value: list[str] = []
        while True:
            if self.pos >= len(self.text) or (self.text[self.pos] == "\n" and self.script):
                raise self.error("unclosed string")
            c = self.text[self.pos]
            if c == quote:
                self.advance()
                return "".join(value)
            value.append(self.escape() if c == "\\" else self.advance())

    def template(self) -> Iterator[Token]:
        """A template literal: a string when it has no `${`, else the tokens of each
        `${...}` (a bare `punct` token stands for the literal itself)."""
        line = self.line
        self.advance()
        value: list[str] = []
        parts: list[Token] = []
        while True:
            if self.pos >= len(self.text):
                raise self.error("unclosed template literal")
            c = self.text[self.pos]
            if c == "`":
                self.advance()
                break
            if c == "\\":
                value.append(self.escape())
            elif self.text.startswith("${", self.pos):
                self.advance(2)
                self.last = Token("punct", "${", self.line)
                parts.append(self.last)
                parts.extend(self.tokens(until_brace=True))
                parts.append(Token("punct", "}", self.line))
            else:
                value.append(self.advance())
        if not parts:
            yield self.emit("string", "".join(value), line)
            return
        yield Token("punct", "`", line)
        yield from parts
        yield self.emit("punct", "`", self.line)

    def regex(self) -> None:
        self.advance()
        in_class = False
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c == "\\":
                self.advance(2)
                continue
            if c == "\n":
                break
            self.advance()
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                while self.pos < len(self.text) and self.text[self.pos].isalpha():
                    self.advance()  # the flags
                return
        raise self.error("unclosed regular expression")


def literal(tokens: list[Token], start: int) -> tuple[str | None, int]:
    """The string an argument starting at `start` is (literals joined by `+`), if it is
    one, and the index of the token that ends it (`,` or `)`)."""
    parts: list[str] = []
    i = start
    while i < len(tokens) and tokens[i].kind == "string":
        parts.append(tokens[i].value)
        if i + 1 < len(tokens) and tokens[i + 1].value == "+":
            i += 2
        else:
            i += 1
            break
    if parts and i < len(tokens) and tokens[i].value in ",)":
        return "".join(parts), i
    return None, i


def calls(tokens: list[Token], functions: dict[str, int]) -> Iterator[tuple[Key, int]]:
    """The messages of the calls of `functions` whose message arguments are literals."""
    for i, token in enumerate(tokens[:-1]):
        count = functions.get(token.value) if token.kind == "name" else None
        if count is None or tokens[i + 1].value != "(":
            continue
        before = tokens[i - 1] if i else None
        if before is not None and before.value in (".", "function"):
            continue  # a method of another object, or the function's definition
        texts: list[str] = []
        at = i + 2
        for _ in range(count):
            text, at = literal(tokens, at)
            if text is None:
                break
            texts.append(text)
            at += 1
        if len(texts) == count:
            yield (texts[0] if count == 1 else (texts[0], texts[1])), token.line


JINJA_CODE = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.S)
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)


def script_messages(source: str) -> Iterator[tuple[Key, int]]:
    yield from calls(list(Lexer(source).tokens()), SCRIPT_CALLS)


def template_messages(source: str) -> Iterator[tuple[Key, int]]:
    source = JINJA_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    for block in JINJA_CODE.finditer(source):
        code = block.group(1) if block.group(1) is not None else block.group(2)
        offset = source.count("\n", 0, block.start())
        for key, line in calls(list(Lexer(code, script=False).tokens()), TEMPLATE_CALLS):
            yield key, line + offset


@dataclass(frozen=True)
class Found:
    where: str
    script: bool


def messages() -> dict[Key, list[Found]]:
    found: dict[Key, list[Found]] = {}
    for path in sorted((WEB / "static" / "js").rglob("*.js")):
        for key, line in script_messages(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(Found(f"{path.name}:{line}", True))
    for path in sorted((WEB / "templates").rglob("*.html")):
        for key, line in template_messages(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(Found(f"{path.name}:{line}", False))
    return found


def test_the_scanner_reads_calls_inside_template_literals_and_nothing_else() -> None:
    source = """
    const a = `${who} ${t("One")}.`;
    const b = `${bySide(side,
      t("Two"),
      t(`Three`))} and ${`${nt("{n} piece", "{n} pieces", n)}`}`;
    // t("Not in a line comment")
    /* t("Nor in a block comment") */
    const found = /t\\("not in a regular expression"\\)/g.test(`t("nor a template's text")`);
    const half = total / 2; t('Fo' + "ur\\u00e9", { n: 1 }); obj.t("Not a method");
    t(variable); nt("{n} day", plural, n);
    export function t(message) { return message; }
    """
    assert [key for key, _ in script_messages(source)] == [
        "One", "Two", "Three", ("{n} piece", "{n} pieces"), "Fouré",
    ]  # fmt: skip
    lines = dict(script_messages(source))
    assert lines["Two"] == 4 and lines["Fouré"] == 9
    page = """<p>{{ _("Five") }}</p>{# {{ _("Not in a comment") }} #}
    {% set x = _("Six", n=2) ~ "_('no')" %}<p>_("Not outside the code")</p>"""
    assert dict(template_messages(page)) == {"Five": 1, "Six": 2}


def test_the_scanner_finds_the_pages_messages() -> None:
    found = messages()
    assert "Resign" in found and "Play a friend" in found  # a script's, a template's
    assert ("{n} day", "{n} days") in found
    assert len(found) > 150


def forms_of(key: Key) -> tuple[str, ...]:
    return (key,) if isinstance(key, str) else key


@pytest.mark.parametrize("tag", list(LANGUAGES))
def test_every_message_of_the_pages_is_translated(tag: str) -> None:
    language = catalog(tag)
    entries = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in language if m.id}
    shipped = page_catalog(tag)["messages"]
    problems: list[str] = []
    for key, places in sorted(messages().items(), key=lambda item: str(item[0])):
        where = ", ".join(place.where for place in places)
        entry = entries.get(key)
        if entry is None:
            problems.append(f"missing {key!r} ({where})")
            continue
        raw = entry.string
        strings = [raw] if isinstance(raw, str) else list(raw or ())
        if len(strings) != (1 if isinstance(key, str) else language.num_plurals):
            problems.append(f"{len(strings)} forms of {key!r} ({where})")
        if tag == DEFAULT:
            sources = forms_of(key)
            if any(s and s != sources[min(i, len(sources) - 1)] for i, s in enumerate(strings)):
                problems.append(f"English differs from the source: {key!r} ({where})")
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy {key!r} ({where})")
        elif not all(strings):
            problems.append(f"untranslated {key!r} ({where})")
        elif any(place.script for place in places):
            # The scripts read their messages from the page catalog, which carries only
            # the messages the catalog places in a script.
            sent = shipped.get(forms_of(key)[0])
            if sent != (strings[0] if isinstance(key, str) else strings):
                problems.append(f"not sent to the page scripts: {key!r} ({where})")
    assert not problems, f"{tag}:\n" + "\n".join(problems)


def test_the_template_catalog_has_every_message_of_the_pages() -> None:
    with (LOCALE_DIR / "messages.pot").open("rb") as source:
        template = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(source)}
    missing = sorted(str(key) for key in messages() if key not in template)
    assert not missing, missing
