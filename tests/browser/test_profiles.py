"""Profiles in real Chromium with its virtual authenticator (DevTools' WebAuthn domain):
a player makes a profile with a passkey, signs out and in, signs in on a second browser
with the same passkey, sees and plays their game from both, and signs a device out; a
device without the passkey signs in by a link mailed through a local SMTP server."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from email.policy import default
from typing import Any

import httpx
import pytest

from tests.browser.conftest import SHARED, WAIT, new_page
from tests.browser.test_room_page import _create, _tap
from tests.web.servers import free_port, serve

pytestmark = pytest.mark.xdist_group(__name__)

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}


class Mailbox:
    def __init__(self) -> None:
        self.mails: list[Message] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.mails.append(message_from_bytes(envelope.content, policy=default))
        return "250 OK"


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    from aiosmtpd.controller import Controller

    box, port = Mailbox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[Mailbox, int]) -> Iterator[str]:
    """A server with mail, reached as `localhost` (a passkey's relying party is a host
    name, never an address)."""
    tmp = tmp_path_factory.mktemp("profiles")
    env = {**SHARED, "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(mailbox[1]), "SMTP_TLS": "none"}
    with serve(f"sqlite:///{tmp}/checkers.sqlite3", log=tmp / "server.log", env=env) as base:
        yield base.replace("127.0.0.1", "localhost")


def _authenticator(page: Any) -> tuple[Any, str]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, str(made["authenticatorId"])


# A passkey ceremony is two requests and the authenticator's key work: on a loaded
# machine it takes longer than a live update.
CEREMONY_WAIT = 3 * WAIT


def _signed_in(page: Any, name: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#profile-name")).to_have_text(name, timeout=CEREMONY_WAIT)


def _game_listed(page: Any, site: str, room: str) -> None:
    from playwright.sync_api import expect

    page.goto(site + "/")
    expect(page.locator(f'#games a[href="/r/{room}"]')).to_be_visible(timeout=WAIT)


def test_a_passkey_profile_follows_the_player_to_a_second_browser(browser: Any, site: str) -> None:
    from playwright.sync_api import expect

    first = new_page(browser)
    cdp, authenticator = _authenticator(first)
    url = _create(first, site)
    room = url.rsplit("/", 1)[1]

    first.goto(site + "/profile")
    first.locator("#create-name").fill("Ana")
    first.get_by_role("button", name="Create a profile with a passkey").click()
    _signed_in(first, "Ana")
    # The seat this browser took before the profile existed is offered, then attached.
    expect(first.locator("#attach-text")).to_contain_text("1 game", timeout=WAIT)
    first.locator("#attach-go").click()
    expect(first.locator("#profile-done")).to_contain_text("1 game added", timeout=WAIT)

    first.get_by_role("button", name="Sign out", exact=True).click()
    expect(first.get_by_role("button", name="Sign in with a passkey")).to_be_visible(timeout=WAIT)
    first.get_by_role("button", name="Sign in with a passkey").click()
    _signed_in(first, "Ana")

    # The second browser gets the same passkey, as it stands after its last use (its
    # signature counter too: a copy behind the counter would be refused as a clone).
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(credentials["credentials"]) == 1
    assert credentials["credentials"][0]["isResidentCredential"]
    second = new_page(browser, 390, 844)
    cdp2, authenticator2 = _authenticator(second)
    cdp2.send(
        "WebAuthn.addCredential",
        {"authenticatorId": authenticator2, "credential": credentials["credentials"][0]},
    )
    second.goto(site + "/profile")
    second.get_by_role("button", name="Sign in with a passkey").click()
    _signed_in(second, "Ana")
    expect(second.locator("#devices li")).to_have_count(2, timeout=WAIT)

    # An opponent joins by the API; the second browser, which never held the seat's
    # cookie, lists the game and plays the first move from its page.
    joined = httpx.post(f"{site}/api/rooms/{room}/join")
    assert joined.status_code == 200, joined.text
    _game_listed(second, site, room)
    second.locator(f'#games a[href="/r/{room}"]').click()
    expect(second.locator("#player-bottom")).to_contain_text("you", timeout=WAIT)
    _tap(second, 11, 15)
    expect(second.locator("#moves")).to_contain_text("11-15", timeout=WAIT)
    assert httpx.get(f"{site}/api/rooms/{room}").json()["game"]["ply"] == 1

    # The first browser sees it too, and plays the seat's next move.
    replied = httpx.post(
        f"{site}/api/rooms/{room}/moves",
        json={"move": "22-18", "expected_ply": 1},
        headers={"Authorization": f"Bearer {joined.json()['token']}"},
    )
    assert replied.status_code == 200, replied.text
    _game_listed(first, site, room)
    first.goto(url)
    expect(first.locator("#moves")).to_contain_text("22-18", timeout=WAIT)
    _tap(first, 15, 22)
    expect(first.locator("#moves")).to_contain_text("15x22", timeout=WAIT)
    assert httpx.get(f"{site}/api/rooms/{room}").json()["game"]["ply"] == 3

    # The second browser signs the first out: the first no longer sees the profile.
    second.goto(site + "/profile")
    first_device = second.locator("#devices li").filter(has_not_text="this device")
    first_device.get_by_role("button").click()
    expect(second.locator("#devices li")).to_have_count(1, timeout=WAIT)
    first.goto(site + "/profile")
    expect(first.get_by_role("button", name="Sign in with a passkey")).to_be_visible(timeout=WAIT)
    assert not first.errors and not second.errors


def test_a_device_without_the_passkey_signs_in_by_a_mailed_link(
    browser: Any, site: str, mailbox: tuple[Mailbox, int]
) -> None:
    from playwright.sync_api import expect

    box = mailbox[0]
    phone = new_page(browser, 390, 844)
    _authenticator(phone)
    phone.goto(site + "/profile")
    phone.locator("#create-name").fill("Bea")
    phone.get_by_role("button", name="Create a profile with a passkey").click()
    _signed_in(phone, "Bea")
    phone.locator("#email-input").fill("bea@example.org")
    phone.get_by_role("button", name="Send a confirmation link").click()
    confirm = _link_in(box, "bea@example.org", "#c=")
    phone.goto(confirm)
    phone.get_by_role("button", name="Confirm").click()
    expect(phone.locator("#link-text")).to_have_text("Address confirmed.", timeout=WAIT)

    laptop = new_page(browser)
    laptop.goto(site + "/profile")
    laptop.locator("#link-address").fill("bea@example.org")
    laptop.get_by_role("button", name="Mail me a sign-in link").click()
    expect(laptop.locator("#profile-done")).to_contain_text("on its way", timeout=WAIT)
    link = _link_in(box, "bea@example.org", "#t=")
    laptop.goto(link)
    laptop.get_by_role("button", name="Sign in").click()
    expect(laptop.locator("#link-after")).to_be_visible(timeout=WAIT)
    laptop.goto(site + "/profile")
    _signed_in(laptop, "Bea")
    # From there the laptop adds a passkey of its own.
    _authenticator(laptop)
    laptop.get_by_role("button", name="Add a passkey on this device").click()
    expect(laptop.locator("#passkeys li")).to_have_count(2, timeout=WAIT)
    # The link worked once.
    again = httpx.post(
        f"{site}/profile/link/redeem",
        json={"secret": link.split("#t=")[1]},
        headers={"Origin": site},
    )
    assert again.status_code == 403 and again.json()["code"] == "link_refused"
    assert not phone.errors and not laptop.errors


def _link_in(box: Mailbox, address: str, marker: str) -> str:
    import time

    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        with box.lock:
            for mail in reversed(box.mails):
                if mail["To"] == address:
                    body = mail.get_content()
                    found = re.search(r"(http\S+" + re.escape(marker) + r"[\w-]+)", body)
                    if found:
                        box.mails.remove(mail)
                        return found.group(1)
        time.sleep(0.05)
    raise AssertionError(f"no mail with a {marker} link to {address}")


def test_an_invited_player_sees_the_creators_public_record_before_accepting(
    browser: Any, site: str
) -> None:
    from playwright.sync_api import expect

    creator = new_page(browser)
    _authenticator(creator)
    creator.goto(site + "/profile")
    creator.locator("#create-name").fill("Cleo")
    creator.get_by_role("button", name="Create a profile with a passkey").click()
    _signed_in(creator, "Cleo")
    url = _create(creator, site)  # taken while signed in: attached by itself
    invited = new_page(browser, 390, 844)
    invited.goto(url)
    expect(invited.get_by_role("button", name="Accept and play the tires")).to_be_visible()
    expect(invited.locator("#creator-record")).to_be_hidden()  # a private record
    creator.goto(site + "/profile")
    creator.locator("#public-input").check()
    creator.locator("#public-form button[type=submit]").click()
    expect(creator.locator("#profile-done")).to_have_text("Saved.", timeout=WAIT)
    invited.goto(url)
    record = invited.locator("#creator-record")
    expect(record).to_contain_text("Cleo's record: 0 games finished", timeout=WAIT)
    record.get_by_role("link").click()
    expect(invited.locator("h1")).to_have_text("Cleo", timeout=WAIT)
    assert not creator.errors and not invited.errors
