"""A Web Push service on loopback, as a browser vendor's would be: it checks the VAPID
signature of every message (RFC 8292) and decrypts its payload (RFC 8291, aes128gcm) with
the keys of a subscription it made itself, the way a browser makes them."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's subscription: its private key and auth secret stay here."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    # The answers the service gives this device's messages, in turn (then 201 for ever).
    answers: list[int] = field(default_factory=list)

    def subscription(self) -> dict[str, Any]:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }


@dataclass
class Received:
    device: str
    status: int
    payload: dict[str, Any]
    vapid_key: str
    claims: dict[str, Any]
    headers: dict[str, str]


class PushService:
    def __init__(self, base: str) -> None:
        self.base = base
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self.refused: list[str] = []  # why a message was not accepted
        self.lock = threading.Lock()

    def device(self, name: str, answers: list[int] | None = None) -> Device:
        device = Device(
            name,
            f"{self.base}/push/{name}",
            ec.generate_private_key(ec.SECP256R1()),
            os.urandom(16),
            list(answers or []),
        )
        self.devices[name] = device
        return device

    def delivered(self, name: str) -> list[dict[str, Any]]:
        """The payloads accepted for a device, oldest first."""
        with self.lock:
            return [r.payload for r in self.received if r.device == name and r.status == 201]

    def wait(self, name: str, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(self.delivered(name)) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.delivered(name)

    def handle(self, path: str, headers: dict[str, str], body: bytes) -> int:
        name = path.rsplit("/", 1)[-1]
        device = self.devices.get(name)
        if device is None:
            return 404
        scheme, _, params = headers.get("authorization", "").partition(" ")
        fields = dict(part.split("=", 1) for part in params.split(",") if "=" in part)
        if scheme != "vapid" or "t" not in fields or "k" not in fields:
            self.refused.append("no VAPID authorization")
            return 401
        token, key = fields["t"].strip(), fields["k"].strip()
        signed, _, signature = token.rpartition(".")
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        try:
            der = encode_dss_signature(
                int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
            )
            public.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))
        except Exception:
            self.refused.append("bad VAPID signature")
            return 401
        header_part, claims_part = signed.split(".")
        assert json.loads(unb64url(header_part)) == {"typ": "JWT", "alg": "ES256"}
        claims = json.loads(unb64url(claims_part))
        if claims.get("aud") != self.base or claims.get("exp", 0) < time.time():
            self.refused.append(f"bad claims {claims}")
            return 403
        if headers.get("content-encoding") != "aes128gcm":
            self.refused.append("not aes128gcm")
            return 415
        plain = http_ece.decrypt(
            body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
        )
        with self.lock:
            status = device.answers.pop(0) if device.answers else 201
            self.received.append(
                Received(name, status, json.loads(plain), key, claims, dict(headers))
            )
        return status


@contextmanager
def push_service() -> Iterator[PushService]:
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            status = service.handle(self.path, headers, body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service = PushService(f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
