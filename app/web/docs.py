"""The interactive API documentation, served whole from this service: Swagger UI at
`/docs` and ReDoc at `/redoc`, their bundles from the `fastapi-offline` package (no CDN,
so they work on an offline or self-hosted install), started by scripts of our own so that
no inline script is needed."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

BUNDLES = Path(fastapi_offline.__file__).parent / "static"
ASSETS = "/docs-assets"
HERE = Path(__file__).parent / "static"
# ReDoc's sidebar credit shows its maker's logo from their CDN, which the pages' CSP
# refuses (a console error on every visit). Served without it, the credit stays as text.
REDOC = "redoc.standalone.js"
REDOC_LOGO = b'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"'
ICON = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'

router = APIRouter(include_in_schema=False)

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="The API of Checkers at your own pace: {what}.">
<title>{title}</title>{icon}{head}</head>
<body><h1 class="docs-title">{title}</h1><div id="{root}" data-openapi="/openapi.json"></div>
{scripts}</body></html>"""


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui() -> HTMLResponse:
    return HTMLResponse(
        _PAGE.format(
            what="every operation, tried in the browser",
            title="Checkers API · Swagger UI",
            icon=ICON,
            head=f'<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">'
            f'<link rel="stylesheet" href="/static/css/docs.css">',
            root="swagger-ui",
            scripts=f'<script src="{ASSETS}/swagger-ui-bundle.js"></script>'
            '<script src="/static/js/docs-swagger.js"></script>',
        )
    )


@router.get("/redoc", response_class=HTMLResponse)
def redoc() -> HTMLResponse:
    return HTMLResponse(
        _PAGE.format(
            what="the reference of every operation and schema",
            title="Checkers API · ReDoc",
            icon=ICON,
            head='<link rel="stylesheet" href="/static/css/docs.css">',
            root="redoc",
            scripts=f'<script src="{ASSETS}/redoc.standalone.js"></script>'
            '<script src="/static/js/docs-redoc.js"></script>',
        )
    )


@cache
def _redoc_bundle() -> tuple[bytes, str]:
    """ReDoc's bundle with an empty logo source (the image then removes itself), and its
    ETag."""
    body = (BUNDLES / REDOC).read_bytes().replace(REDOC_LOGO, b'src:""')
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


@router.get(f"{ASSETS}/{REDOC}")
def redoc_bundle(request: Request) -> Response:
    body, etag = _redoc_bundle()
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)


def mount_docs(app: FastAPI) -> None:
    app.include_router(router)  # first: its ReDoc bundle stands in for the package's
    app.mount(ASSETS, StaticFiles(directory=str(BUNDLES)), name="docs-assets")
