"""Handing a room to a friend across the table: its link as a QR code, an SVG drawn here
(segno), so the page needs no script and no outside service to show it."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Response, status

from app.core.deps import BaseUrlDep, SessionDep
from app.core.ids import is_id
from app.rooms.models import Room
from app.rooms.view import share_url

router = APIRouter(include_in_schema=False)


def qr_svg(text: str, title: str) -> bytes:
    """`text` as a QR code in SVG: medium error correction (a phone's camera reads it off
    a screen at an angle), dark modules on white with the standard quiet zone, scaled by
    the page (no fixed size)."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        border=4,
        dark="#1c1b19",
        light="#ffffff",
        xmldecl=False,
        svgns=True,
        title=title,
        omitsize=True,
    )
    return out.getvalue()


@router.get("/r/{room_id}/qr.svg")
def room_qr(session: SessionDep, base: BaseUrlDep, room_id: str) -> Response:
    """The room's link as a QR code; 404 for a room that does not exist."""
    if not is_id(room_id) or session.get(Room, room_id) is None:
        return Response(status_code=status.HTTP_404_NOT_FOUND)
    link = share_url(base, room_id)
    return Response(
        qr_svg(link, title=link),
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )
