"""Web Push: the service's VAPID key and sending one encrypted message.

The key pair is made once and kept in the database (or given by `VAPID_PRIVATE_KEY`), so
every instance signs alike and browsers' subscriptions outlive restarts.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.keys import service_key


def new_private_key() -> str:
    """A new VAPID signing key (P-256), as base64url DER."""
    vapid = Vapid()
    vapid.generate_keys()
    der = vapid.private_key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return base64.urlsafe_b64encode(der).decode().rstrip("=")


@dataclass(frozen=True)
class Keys:
    """The VAPID signing key and the public key browsers subscribe with."""

    vapid: Vapid
    public_key: str  # base64url of the uncompressed P-256 point (the applicationServerKey)


_cache: dict[str, Keys] = {}


def vapid_keys(session: Session, ctx: Context) -> Keys:
    private = ctx.settings.vapid_private_key or service_key(
        session, "vapid-private", new_private_key, ctx.now
    )
    keys = _cache.get(private)
    if keys is None:
        vapid = Vapid.from_string(private_key=private)
        point = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = _cache[private] = Keys(vapid, base64.urlsafe_b64encode(point).decode().rstrip("="))
    return keys


class Outcome(enum.Enum):
    SENT = "sent"
    GONE = "gone"  # 404/410: the subscription has expired or was revoked
    REFUSED = "refused"  # another 4xx: sending it again would not help
    RETRY = "retry"  # network trouble, 429 or 5xx


def send(
    keys: Keys,
    subscription: dict[str, Any],
    payload: dict[str, Any],
    *,
    subject: str,
    timeout: float,
) -> tuple[Outcome, str | None]:
    """Encrypt `payload` for the subscription and post it to its push service."""
    # The Topic lets a push service replace a message it still holds for the device by
    # a newer one of the same room and game (at most 32 base64url characters).
    topic = base64.urlsafe_b64encode(hashlib.sha256(payload["tag"].encode()).digest()[:24])
    try:
        webpush(
            subscription,
            json.dumps(payload),
            vapid_private_key=keys.vapid,
            vapid_claims={"sub": subject},
            timeout=timeout,
            ttl=7 * 24 * 3600,
            headers={"Topic": topic.decode().rstrip("="), "Urgency": "normal"},
        )
    except WebPushException as exc:
        status = exc.status_code
        if status in (404, 410):
            return Outcome.GONE, f"push service answered {status}"
        if status is not None and 400 <= status < 500 and status != 429:
            return Outcome.REFUSED, f"push service answered {status}"
        return Outcome.RETRY, f"push service answered {status}" if status else "push failed"
    except Exception as exc:  # a connection error, a timeout: try again later
        return Outcome.RETRY, type(exc).__name__
    return Outcome.SENT, None
