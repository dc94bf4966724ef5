"""The static files and their version: a digest of all of them, which every page's asset
addresses carry (`?v=`), so a browser keeps a file until the next change and no longer."""

from __future__ import annotations

import hashlib
from pathlib import Path

STATIC = Path(__file__).parent / "static"


def _asset_version() -> str:
    """A digest of the static files: changes whenever one does (cache busting)."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


ASSET_VERSION = _asset_version()


def asset(name: str) -> str:
    """A static file's address, versioned."""
    return f"/static/{name}?v={ASSET_VERSION}"
