"""The configuration page (docs/configuration.md) documents every setting: each field of
`Settings` has a row in its table, under its environment variable's name."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.settings import Settings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
TICKED = re.compile(r"`([^`]+)`")


def documented_variables() -> set[str]:
    """The variables the table's first column names; `_JOIN` after `RATE_LIMIT_CREATE` is
    the table's shorthand for `RATE_LIMIT_JOIN`."""
    names: set[str] = set()
    for line in PAGE.read_text().splitlines():
        if not line.startswith("| `"):
            continue
        first = None
        for name in TICKED.findall(line.split("|")[1]):
            if name.startswith("_") and first:
                names.add(first.rsplit("_", 1)[0] + name)
            else:
                names.add(name)
                first = name
    return names


def test_every_setting_has_a_row() -> None:
    documented = documented_variables()
    missing = sorted(
        name.upper() for name in Settings.model_fields if name.upper() not in documented
    )
    assert missing == [], f"settings missing from {PAGE.name}: {missing}"
