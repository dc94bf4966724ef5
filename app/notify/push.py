"""Web Push: the service's VAPID key and sending one encrypted message.

The key pair is made once and kept in the database (or given by `VAPID_PRIVATE_KEY`), so
every instance signs alike and browsers' subscriptions outlive restarts.

A subscription's endpoint is a URL a client gave, so sending to it is guarded: the URL
was read once by `subscriptions.check_endpoint` (a listed push service), its name is
resolved here and every address checked, and the connection goes to the checked address
itself, never through a second lookup that a rebinding name could answer differently.
Only the answer's status is read: a redirect is refused, not followed.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import enum
import hashlib
import ipaddress
import json
import socket
import ssl
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPusher
from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.keys import service_key
from app.core.settings import Settings

from .subscriptions import PushEndpoint, address_allowed

T = TypeVar("T")


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
    """What became of one delivery (a push, or a mail: sent or to be retried)."""

    SENT = "sent"
    GONE = "gone"  # 404/410: the subscription has expired or was revoked
    REFUSED = "refused"  # another 4xx, a redirect, a forbidden address: no retry helps
    RETRY = "retry"  # network trouble, 429 or 5xx


Resolver = Callable[[str, int], Awaitable[Sequence[str]]]


async def in_thread(work: Callable[[], T]) -> T:
    """`work()` on a daemon thread of its own, awaited: a blocking call (a name lookup, a
    mail) that cannot be interrupted is abandoned when its delivery is cancelled or runs out
    of time, and never holds the process when it stops."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as exc:  # handed to the waiting coroutine
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="checkers-notify", daemon=True).start()
    return await done


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses of `host` by the system's resolver."""
    found = await in_thread(lambda: socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
    return [str(info[4][0]) for info in found]


@dataclass(frozen=True)
class Network:
    """How the sender reaches push services: a resolver and the TLS trust (tests give a
    resolver of their own, never asking the system about a real push service's name)."""

    resolve: Resolver = system_resolver
    tls: ssl.SSLContext = field(default_factory=ssl.create_default_context)


def _status(line: bytes) -> int:
    version, _, rest = line.partition(b" ")
    code = rest[:3]
    if not version.startswith(b"HTTP/1.") or not code.isdigit():
        raise ConnectionError("not an HTTP answer")
    return int(code)


async def _post(
    endpoint: PushEndpoint, address: str, headers: dict[str, str], body: bytes, tls: ssl.SSLContext
) -> int:
    """POST `body` to the endpoint over a connection to `address` itself (the one that
    was checked, so a second lookup cannot move it), and read the answer's status only:
    a redirect is an answer, never followed."""
    secure = endpoint.scheme == "https"
    reader, writer = await asyncio.open_connection(
        address,
        endpoint.port,
        ssl=tls if secure else None,
        server_hostname=endpoint.host if secure else None,
        limit=8192,
    )
    try:
        lines = [f"POST {endpoint.target} HTTP/1.1", f"Host: {endpoint.netloc}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
        writer.write("\r\n".join(lines).encode("ascii") + body)
        await writer.drain()
        status = _status(await reader.readline())
        while status < 200:  # an interim answer (100 Continue): skip its headers
            while (await reader.readline()).strip():
                pass
            status = _status(await reader.readline())
        return status
    finally:
        writer.transport.abort()


def message(
    keys: Keys, subscription: dict[str, Any], payload: dict[str, Any], *, origin: str, subject: str
) -> tuple[dict[str, str], bytes]:
    """The headers and the encrypted body of one push message."""
    body = WebPusher(subscription).encode(json.dumps(payload).encode(), "aes128gcm")["body"]
    claims = {"sub": subject, "aud": origin, "exp": int(time.time()) + 12 * 3600}
    # The Topic lets a push service replace a message it still holds for the device by
    # a newer one of the same room and game (at most 32 base64url characters).
    topic = base64.urlsafe_b64encode(hashlib.sha256(payload["tag"].encode()).digest()[:24])
    headers = {
        **keys.vapid.sign(claims),
        "Content-Encoding": "aes128gcm",
        "TTL": str(7 * 24 * 3600),
        "Topic": topic.decode().rstrip("="),
        "Urgency": "normal",
    }
    return headers, bytes(body)


async def send(
    keys: Keys,
    endpoint: PushEndpoint,
    subscription: dict[str, Any],
    payload: dict[str, Any],
    *,
    settings: Settings,
    network: Network,
) -> tuple[Outcome, str | None]:
    """Encrypt `payload` for the subscription and post it to its push service, at an
    address checked when sending: a name that resolves to any address the server may not
    reach (`subscriptions.address_allowed`) is refused, whatever else it resolves to."""
    headers, body = message(
        keys, subscription, payload, origin=endpoint.origin, subject=settings.vapid_subject
    )
    try:
        literal = ipaddress.ip_address(endpoint.host)
    except ValueError:
        try:
            found = await network.resolve(endpoint.host, endpoint.port)
        except OSError as exc:
            return Outcome.RETRY, f"name lookup failed: {type(exc).__name__}"
        addresses = [ipaddress.ip_address(text.split("%", 1)[0]) for text in found]
    else:
        addresses = [literal]
    if not addresses:
        return Outcome.RETRY, "the push service's name resolves to nothing"
    refused = [a for a in addresses if not address_allowed(a, settings)]
    if refused:
        return Outcome.REFUSED, f"the push service's name resolves to {refused[0]}"
    try:
        status = await _post(endpoint, str(addresses[0]), headers, body, network.tls)
    except (OSError, ValueError, asyncio.IncompleteReadError) as exc:  # try again later
        return Outcome.RETRY, f"push failed: {type(exc).__name__}"
    if 200 <= status < 300:
        return Outcome.SENT, None
    if status in (404, 410):
        return Outcome.GONE, f"push service answered {status}"
    if 300 <= status < 500 and status != 429:
        return Outcome.REFUSED, f"push service answered {status}"
    return Outcome.RETRY, f"push service answered {status}"
