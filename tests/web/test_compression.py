"""Text answers go out gzip-compressed; the live event stream does not (a proxy or a
browser would hold compressed events back until a block fills)."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.web.servers import serve


def test_text_is_compressed_and_the_stream_is_not(tmp_path: Path) -> None:
    with serve(f"sqlite:///{tmp_path}/gz.sqlite3", log=tmp_path / "s.log") as base:
        room = httpx.post(f"{base}/api/rooms", json={}).json()
        gzip = {"Accept-Encoding": "gzip"}
        for path in (
            "/",
            f"/r/{room['room_id']}",
            f"/api/rooms/{room['room_id']}",
            "/openapi.json",
        ):
            r = httpx.get(base + path, headers=gzip)
            assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", path
        identity = {"Accept-Encoding": "identity"}
        plain = httpx.get(f"{base}/api/rooms/{room['room_id']}", headers=identity)
        assert "content-encoding" not in plain.headers  # only for clients that take it
        stream_headers = {**gzip, "Accept": "text/event-stream"}
        with httpx.stream(
            "GET", f"{base}/api/rooms/{room['room_id']}/events", headers=stream_headers, timeout=5
        ) as s:
            assert s.headers["content-type"].startswith("text/event-stream")
            assert "content-encoding" not in s.headers
            first = next(s.iter_raw())
            assert first.startswith(b"retry:") or first.startswith(b":") or b"id:" in first
