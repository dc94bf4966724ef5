"""Who the client is and which host it asked for, as far as they can be trusted.

A peer's `X-Forwarded-For` is only a claim: any client can send one. It is believed only
from the reverse proxies listed in `TRUSTED_PROXIES` (addresses or networks; none by
default), and then read from the right, skipping trusted hops, so the client address is
the first hop no trusted proxy vouches for. Everything downstream (the rate limits, the
live-stream caps, the computer's queue) counts `client_key` of `scope["client"]` as set
here: one client is an IPv4 address, or an IPv6 /64, the least a site or a home line is
given, so that the addresses of one network do not each get their own share.

The `Host` header builds share links when `PUBLIC_URL` is unset and names the origin the
page checks compare with, so it is checked against `ALLOWED_HOSTS` (local names by
default; the host of `PUBLIC_URL` is always allowed); a forged one is refused with 400.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from .responses import send_json
from .settings import Settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """`10.0.0.1, 10.1.0.0/16, ::1` as networks; ValueError names a bad entry."""
    networks = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or network: {item!r}") from None
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _trusted(address: str, networks: Iterable[Network]) -> bool:
    ip = _address(address)
    return ip is not None and any(ip in network for network in networks)


@lru_cache(maxsize=4096)
def client_key(address: str) -> str:
    """What a per-client limit counts for `address`: an IPv4 address as it is, an IPv6
    address by its /64 (`2001:db8:1:2::/64`; an IPv4-mapped one as its IPv4 address), and
    anything that is not an address (a test client's name) as it is."""
    ip = _address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip) if ip is not None else address


def client_from_forwarded(peer: str, forwarded: list[str], proxies: tuple[Network, ...]) -> str:
    """The client address: the peer itself unless it is a trusted proxy; then the
    rightmost `X-Forwarded-For` hop that is not one (a malformed hop ends the walk at the
    last trusted one, which is then the client)."""
    if not _trusted(peer, proxies):
        return peer
    client = peer
    hops = [hop.strip() for value in forwarded for hop in value.split(",")]
    for hop in reversed(hops):
        if _address(hop) is None:
            break
        client = str(_address(hop))
        if not _trusted(client, proxies):
            break
    return client


class ClientAddressMiddleware:
    """Set `scope["client"]` (and the scheme, from `X-Forwarded-Proto`) from a trusted
    proxy's headers; a request from any other peer keeps its peer address."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.proxies = parse_networks(settings.trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not self.proxies:
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        if peer and _trusted(peer[0], self.proxies):
            forwarded = [
                v.decode("latin-1") for k, v in scope["headers"] if k == b"x-forwarded-for"
            ]
            if forwarded:
                scope = {
                    **scope,
                    "client": (client_from_forwarded(peer[0], forwarded, self.proxies), 0),
                }
            proto = [v for k, v in scope["headers"] if k == b"x-forwarded-proto"]
            if proto and proto[-1].strip().lower() in (b"http", b"https"):
                scope = {**scope, "scheme": proto[-1].strip().lower().decode()}
        await self.app(scope, receive, send)


def host_of(header: str) -> str:
    """The host part of a `Host` header (`[::1]:8000` is `[::1]`), lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def allowed_hosts(settings: Settings) -> tuple[str, ...]:
    """`ALLOWED_HOSTS` (`*` allows any, `*.example.com` any subdomain) plus the host of
    `PUBLIC_URL`."""
    hosts = [h.strip().lower() for h in settings.allowed_hosts.split(",") if h.strip()]
    if settings.public_url:
        public = urlsplit(settings.public_url).netloc
        if public:
            hosts.append(host_of(public))
    return tuple(hosts)


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    for pattern in allowed:
        if pattern == "*" or host == pattern:
            return True
        if pattern.startswith("*.") and host.endswith(pattern[1:]):
            return True
    return False


class HostCheckMiddleware:
    """Refuse a request whose `Host` is not one of the allowed hosts (400, JSON)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.allowed = allowed_hosts(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or "*" in self.allowed:
            await self.app(scope, receive, send)
            return
        header = next((v for k, v in scope["headers"] if k == b"host"), b"").decode("latin-1")
        if host_allowed(host_of(header), self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            await send_json(
                send,
                400,
                {"detail": "this host name is not served here (ALLOWED_HOSTS)", "code": "bad_host"},
            )
