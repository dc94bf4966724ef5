"""Acceptance (issue 14): client addresses you can trust. Through real HTTP to
`checkers serve`, with forged `X-Forwarded-For` headers from an untrusted peer (127.0.0.1)
and from the one trusted proxy (127.0.0.2): only the proxy's forwarded address counts, and
the rate limits count that validated address."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.web.servers import serve_cli

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("served")]

PROXY = "127.0.0.2"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("proxies")
    with serve_cli(
        f"sqlite:///{tmp}/proxies.sqlite3",
        log=tmp / "server.log",
        TRUSTED_PROXIES=PROXY,
        RATE_LIMIT_ENABLED="true",
        RATE_LIMIT_CREATE="3/minute",
    ) as base:
        yield base


def _from(address: str, base: str) -> httpx.Client:
    """A client whose connections leave from `address` (any 127.x address is local)."""
    return httpx.Client(
        base_url=base, transport=httpx.HTTPTransport(local_address=address), timeout=10
    )


def _create(client: httpx.Client, forwarded: str | None = None, **headers: str) -> httpx.Response:
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    return client.post("/api/rooms", json={"rule_set": "english"}, headers=headers)


def test_an_untrusted_peer_cannot_rotate_forwarded_addresses_past_the_limit(served: str) -> None:
    with _from("127.0.0.1", served) as client:
        answers = [_create(client, f"198.51.100.{n}") for n in range(1, 6)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    assert int(answers[-1].headers["retry-after"]) >= 1


def test_the_trusted_proxy_forwards_each_client_address(served: str) -> None:
    with _from(PROXY, served) as proxy:
        # Six clients behind the proxy, one room each: none is limited by the others.
        rotating = [_create(proxy, f"203.0.113.{n}") for n in range(1, 7)]
        assert [a.status_code for a in rotating] == [201] * 6
        # One client behind the proxy forging hops in front of its own address: the proxy
        # appended the address it saw last, and that is the one counted.
        forged = [_create(proxy, f"10.9.9.{n}, 192.0.2.50") for n in range(1, 6)]
        assert [a.status_code for a in forged] == [201, 201, 201, 429, 429]
        # The proxy's scheme is believed: links point where the client came from.
        https = _create(proxy, "203.0.113.99", **{"X-Forwarded-Proto": "https"})
        assert https.status_code == 201
        assert https.json()["share_url"].startswith("https://127.0.0.1:")
    with _from("127.0.0.3", served) as other:
        plain = _create(other, "203.0.113.98", **{"X-Forwarded-Proto": "https"})
        assert plain.status_code == 201
        assert plain.json()["share_url"].startswith("http://127.0.0.1:")


def test_the_forwarded_chain_is_read_from_the_right() -> None:
    from app.core.proxies import client_from_forwarded, parse_networks

    proxies = parse_networks("10.0.0.0/8, 2001:db8::1")
    assert client_from_forwarded("192.0.2.1", ["198.51.100.1"], proxies) == "192.0.2.1"
    assert client_from_forwarded("10.0.0.5", ["198.51.100.1"], proxies) == "198.51.100.1"
    # Hops the trusted proxies added are skipped; the first one they did not is the client.
    chain = ["6.6.6.6, 198.51.100.1", "10.1.2.3"]
    assert client_from_forwarded("10.0.0.5", chain, proxies) == "198.51.100.1"
    # Garbage stops the walk: the last address a trusted proxy vouched for is the client.
    assert client_from_forwarded("10.0.0.5", ["nonsense, 10.2.2.2"], proxies) == "10.2.2.2"
    assert client_from_forwarded("2001:db8::1", ["2001:db8::99"], proxies) == "2001:db8::99"
    with pytest.raises(ValueError, match="not-an-ip"):
        parse_networks("10.0.0.1, not-an-ip")
