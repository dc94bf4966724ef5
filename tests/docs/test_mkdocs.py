"""Both documentation sites build: the service's (mkdocs.yml, docs/) and the engine's
(engine/mkdocs.yml, engine/docs/), each with `mkdocs build --strict` as `make docs` runs it,
so a link to a missing page or anchor, a page left out of the navigation or any other
warning fails here. The sites go to a temporary directory, never to site/."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.environment import missing_mkdocs, unavailable

ROOT = Path(__file__).resolve().parents[2]

SITES = {
    "mkdocs.yml": ("index.html", "rules.html", "configuration.html", "api.html"),
    "engine/mkdocs.yml": ("index.html", "strength.html", "tables.html"),
}


def _mkdocs() -> None:
    if reason := missing_mkdocs():
        unavailable(reason)


@pytest.mark.parametrize("config", sorted(SITES))
def test_the_site_builds_strictly(config: str, tmp_path: Path) -> None:
    _mkdocs()
    site = tmp_path / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            config,
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # the theme's end-of-life banner
    )
    assert done.returncode == 0, f"mkdocs build --strict -f {config} failed:\n{done.stderr}"
    for page in SITES[config]:
        assert (site / page).is_file(), f"{config}: {page} was not built"
    # `font: false`: the pages load no font from Google Fonts.
    index = (site / "index.html").read_text()
    assert "fonts.googleapis.com" not in index, config
    assert "fonts.gstatic.com" not in index, config
