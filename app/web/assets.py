"""The static files and their version: a digest of all of them, which every page's asset
addresses carry (`?v=`), so a browser keeps a file until the next change and no longer."""

from __future__ import annotations

import functools
import hashlib
import re
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


_IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w-]+\.js)";', re.MULTILINE | re.DOTALL)


@functools.cache
def module_imports(script: str) -> tuple[str, ...]:
    """The addresses of every module `script` (`room.js`) imports, directly or through
    another, as its import statements ask for them (unversioned). A page names them in
    `<link rel="modulepreload">`, so that the browser fetches them all at once instead
    of finding each only when the module that imports it has arrived: on a slow phone
    network each level of the chain costs a round trip."""
    found: list[str] = []
    pending = [script]
    while pending:
        source = (STATIC / "js" / pending.pop()).read_text()
        for name in _IMPORT.findall(source):
            if name not in found:
                found.append(name)
                pending.append(name)
    return tuple(f"/static/js/{name}" for name in sorted(found))
