"""The installable app: its manifest, in the visitor's language, and its service worker,
which keeps the app shell (the styles, scripts, icons and catalogs of this version) so the
pages open without the network.

The worker is served from the root so that it may control every page, with this
version's digest and the shell's addresses written at its head: a new version of the
static files is a new worker, which replaces the old one's cache when it takes over.
"""

from __future__ import annotations

import functools

import orjson
from fastapi import APIRouter, Response

from app.i18n import LANGUAGES
from app.i18n.context import current

from .assets import ASSET_VERSION, STATIC

# The pages' scripts: every module but the worker itself and the API viewers' loaders.
SCRIPTS = tuple(
    sorted(
        path.stem
        for path in (STATIC / "js").glob("*.js")
        if path.name != "sw.js" and not path.name.startswith("docs-")
    )
)
THEME_COLOUR = "#1f2a22"  # the top bar's
BACKGROUND = "#f4f1ea"  # the page's, shown while the app starts

router = APIRouter(include_in_schema=False)


def shell(version: str) -> list[str]:
    """What the worker keeps when it is installed: the home page, and every file a page
    loads, at the addresses the pages ask for (with `?v=`, or bare from a module's
    import), and each language's catalog."""
    assets = ["css/app.css", "favicon.svg", "icons/icon-192.png"] + [
        f"js/{name}.js" for name in SCRIPTS
    ]
    return [
        "/",
        *(f"/static/{name}?v={version}" for name in assets),
        *(f"/static/js/{name}.js" for name in SCRIPTS),
        *(f"/i18n/{tag}.json?v={version}" for tag in LANGUAGES),
    ]


def manifest() -> dict[str, object]:
    tr = current()
    return {
        "id": "/",
        "name": tr._("Checkers at your own pace"),
        "short_name": tr._("Checkers"),
        "description": tr._(
            "Play checkers with a friend at your own pace, in six rule sets: English, "
            "Brazilian, Russian, Spanish, Italian and Thai; or play the computer."
        ),
        "lang": tr.tag,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": "/static/icons/icon-maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }


@router.get("/manifest.webmanifest")
def web_app_manifest() -> Response:
    """The web app manifest, named in the visitor's language (its `lang` cookie)."""
    return Response(
        orjson.dumps(manifest()),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"},
    )


@functools.cache
def service_worker_source(version: str) -> bytes:
    """The worker's script for `version`: made once per process, since browsers ask for it
    on every visit."""
    head = f"const VERSION = {orjson.dumps(version).decode()};\n"
    head += f"const SHELL = {orjson.dumps(shell(version)).decode()};\n"
    return head.encode() + (STATIC / "js" / "sw.js").read_bytes()


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so that it may control every page; browsers
    look for a new one on each visit (no-cache)."""
    return Response(
        service_worker_source(ASSET_VERSION),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )
