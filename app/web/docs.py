"""The interactive API documentation, served whole from this service: Swagger UI at
`/docs` and ReDoc at `/redoc`, their bundles from the `fastapi-offline` package (no CDN,
so they work on an offline or self-hosted install), started by scripts of our own so that
no inline script is needed."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

BUNDLES = Path(fastapi_offline.__file__).parent / "static"
ASSETS = "/docs-assets"
HERE = Path(__file__).parent / "static"

router = APIRouter(include_in_schema=False)

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="The API of Checkers at your own pace: {what}.">
<title>{title}</title>{head}</head>
<body><h1 class="docs-title">{title}</h1><div id="{root}" data-openapi="/openapi.json"></div>
{scripts}</body></html>"""


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui() -> HTMLResponse:
    return HTMLResponse(
        _PAGE.format(
            what="every operation, tried in the browser",
            title="Checkers API · Swagger UI",
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
            head='<link rel="stylesheet" href="/static/css/docs.css">',
            root="redoc",
            scripts=f'<script src="{ASSETS}/redoc.standalone.js"></script>'
            '<script src="/static/js/docs-redoc.js"></script>',
        )
    )


def mount_docs(app: FastAPI) -> None:
    app.mount(ASSETS, StaticFiles(directory=str(BUNDLES)), name="docs-assets")
    app.include_router(router)
