"""Profiles through the app on both databases: passkeys checked by the real WebAuthn
library (origin, relying party, challenge, counter), sessions kept as hashes, cookies,
the cross-site check, answers that tell nothing of who exists, limits, expiry, and seats
played from every signed-in device without their tokens."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.core.clock import ManualClock
from app.core.db import Database
from app.core.settings import Settings
from app.main import create_app
from tests.profiles.authenticator import Authenticator

ORIGIN = "http://checkers.test"  # the tests' PUBLIC_URL
SAME = {"Origin": ORIGIN}


@pytest.fixture
def app_settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """The tests' settings, with what a test asks for (`indirect` parameters)."""
    return settings.model_copy(update=getattr(request, "param", {}))


@pytest.fixture
def client(app_settings: Settings, clock: ManualClock, database: Database) -> Iterator[TestClient]:
    app = create_app(app_settings, clock=clock, database=database)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def device(client: TestClient) -> TestClient:
    """Another browser of the same app: its own cookies."""
    other = TestClient(client.app, raise_server_exceptions=False)
    return other


def register(client: TestClient, key: Authenticator, name: str = "Ana") -> dict[str, Any]:
    begun = client.post("/profile/register/options", json={"name": name}, headers=SAME)
    assert begun.status_code == 200, begun.text
    made = client.post(
        "/profile/register",
        json={
            "ceremony": begun.json()["ceremony"],
            "credential": key.create(begun.json()["options"]),
        },
        headers=SAME,
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


def sign_in(client: TestClient, key: Authenticator, **wrong: Any) -> Any:
    begun = client.post("/profile/sign-in/options", headers=SAME)
    assert begun.status_code == 200, begun.text
    options = begun.json()["options"]
    assert options["allowCredentials"] == [] and options["userVerification"] == "preferred"
    return client.post(
        "/profile/sign-in",
        json={"ceremony": begun.json()["ceremony"], "credential": key.get(options, **wrong)},
        headers=SAME,
    )


def test_a_profile_is_made_with_a_passkey_and_its_session_is_kept_as_a_hash(
    client: TestClient, database: Database
) -> None:
    key = Authenticator(ORIGIN)
    profile = register(client, key)
    assert profile["name"] == "Ana" and len(profile["passkeys"]) == 1
    assert [d["current"] for d in profile["devices"]] == [True]
    cookie = client.cookies.get("profile")
    assert cookie
    with database.engine.connect() as conn:
        stored = conn.execute(text("SELECT token_hash FROM profile_sessions")).scalars().all()
        profiles = conn.execute(text("SELECT * FROM profiles")).all()
    assert stored == [hashlib.sha256(cookie.encode()).hexdigest()]
    assert cookie not in repr(profiles)
    assert client.get("/profile/me").json()["name"] == "Ana"


def test_the_session_cookie_is_httponly_lax_and_secure_under_https(
    settings: Settings, clock: ManualClock, database: Database
) -> None:
    for public, secure in (("http://checkers.test", False), ("https://checkers.test", True)):
        app = create_app(
            settings.model_copy(update={"public_url": public}), clock=clock, database=database
        )
        with TestClient(app, raise_server_exceptions=False) as client:
            key = Authenticator(public)
            begun = client.post(
                "/profile/register/options", json={"name": "Ana"}, headers={"Origin": public}
            )
            made = client.post(
                "/profile/register",
                json={
                    "ceremony": begun.json()["ceremony"],
                    "credential": key.create(begun.json()["options"]),
                },
                headers={"Origin": public},
            )
            assert made.status_code == 201, made.text
            cookie = made.headers["set-cookie"].lower()
            assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
            assert ("secure" in cookie.split(";")[-1] or "; secure" in cookie) is secure


def test_sign_in_checks_origin_counter_and_ceremony(client: TestClient) -> None:
    key = Authenticator(ORIGIN)
    register(client, key)
    other = device(client)
    assert sign_in(other, key).status_code == 200
    assert other.get("/profile/me").status_code == 200
    # Another site's page, a counter that did not go up (a cloned key), an unknown key:
    # refused alike, and no device signed in.
    third = device(client)
    stored = key.count
    for refused in (
        sign_in(third, key, origin="http://evil.test"),
        sign_in(third, key, count=stored),
        sign_in(third, Authenticator(ORIGIN)),
    ):
        assert refused.status_code == 403
        assert refused.json()["code"] == "passkey_refused"
    assert third.get("/profile/me").status_code == 401
    # A ceremony answers once.
    begun = third.post("/profile/sign-in/options", headers=SAME).json()
    answer = key.get(begun["options"])
    body = {"ceremony": begun["ceremony"], "credential": answer}
    assert third.post("/profile/sign-in", json=body, headers=SAME).status_code == 200
    again = device(client).post("/profile/sign-in", json=body, headers=SAME)
    assert again.status_code == 403 and again.json()["code"] == "passkey_refused"


def test_every_cookie_write_is_refused_from_another_site(client: TestClient) -> None:
    register(client, Authenticator(ORIGIN))
    for path in ("/profile/sign-out", "/profile/sign-out-everywhere", "/profile/name"):
        for headers in ({"Origin": "http://evil.test"}, {"Sec-Fetch-Site": "cross-site"}, {}):
            refused = client.post(path, json={"name": "Eve"}, headers=headers)
            assert refused.status_code == 403, (path, headers)
            assert refused.json()["code"] == "cross_site_request"
    assert client.get("/profile/me").json()["name"] == "Ana"


def test_devices_are_listed_and_signed_out_one_or_all(client: TestClient) -> None:
    key = Authenticator(ORIGIN)
    register(client, key)
    phone, laptop = device(client), device(client)
    assert sign_in(phone, key).status_code == 200
    assert sign_in(laptop, key).status_code == 200
    devices = client.get("/profile/me").json()["devices"]
    assert len(devices) == 3 and sum(d["current"] for d in devices) == 1
    phone_id = next(d["id"] for d in phone.get("/profile/me").json()["devices"] if d["current"])
    out = client.post(f"/profile/devices/{phone_id}/sign-out", headers=SAME)
    assert out.status_code == 200 and len(out.json()["devices"]) == 2
    assert phone.get("/profile/me").status_code == 401
    assert client.post("/profile/devices/999999/sign-out", headers=SAME).status_code == 404
    assert laptop.post("/profile/sign-out-everywhere", headers=SAME).status_code == 204
    assert client.get("/profile/me").status_code == 401
    assert laptop.get("/profile/me").status_code == 401


def test_a_session_expires_after_days_without_a_visit(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    register(client, Authenticator(ORIGIN))
    clock.advance(timedelta(days=settings.profile_session_days - 1))
    assert client.get("/profile/me").status_code == 200  # a visit pushes the expiry on
    clock.advance(timedelta(days=settings.profile_session_days - 1))
    assert client.get("/profile/me").status_code == 200
    clock.advance(timedelta(days=settings.profile_session_days, seconds=1))
    refused = client.get("/profile/me")
    assert refused.status_code == 401 and refused.json()["code"] == "not_signed_in"


@pytest.mark.parametrize("app_settings", [{"profile_sign_ins_per_hour": 3}], indirect=True)
def test_sign_ins_are_limited_per_profile(client: TestClient, clock: ManualClock) -> None:
    key = Authenticator(ORIGIN)
    register(client, key)  # the first sign-in
    assert sign_in(device(client), key).status_code == 200
    assert sign_in(device(client), key).status_code == 200
    refused = sign_in(device(client), key)
    assert refused.status_code == 429 and refused.json()["code"] == "sign_in_limit"
    clock.advance(timedelta(hours=1))
    assert sign_in(device(client), key).status_code == 200


def test_a_passkey_is_named_and_removed_but_not_the_last(client: TestClient) -> None:
    key, spare = Authenticator(ORIGIN), Authenticator(ORIGIN)
    profile = register(client, key)
    only = profile["passkeys"][0]["id"]
    last = client.post(f"/profile/passkeys/{only}/remove", headers=SAME)
    assert last.status_code == 409 and last.json()["code"] == "last_passkey"
    begun = client.post("/profile/passkeys/options", headers=SAME).json()
    assert [c["id"] for c in begun["options"]["excludeCredentials"]] == [profile_key_id(key)]
    added = client.post(
        "/profile/passkeys",
        json={"ceremony": begun["ceremony"], "credential": spare.create(begun["options"])},
        headers=SAME,
    )
    assert added.status_code == 200 and len(added.json()["passkeys"]) == 2
    named = client.post(f"/profile/passkeys/{only}/name", json={"name": "Phone"}, headers=SAME)
    assert named.json()["passkeys"][0]["name"] == "Phone"
    assert client.post(f"/profile/passkeys/{only}/remove", headers=SAME).status_code == 200
    assert sign_in(device(client), key).status_code == 403
    assert sign_in(device(client), spare).status_code == 200


def profile_key_id(key: Authenticator) -> str:
    from tests.profiles.authenticator import b64

    return b64(key.credential_id)


def test_asking_for_a_link_says_nothing_of_who_exists(
    client: TestClient, database: Database
) -> None:
    register(client, Authenticator(ORIGIN))
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE profiles SET email = 'ana@example.org'"))
    known = device(client).post("/profile/link", json={"address": "ana@example.org"}, headers=SAME)
    unknown = device(client).post(
        "/profile/link", json={"address": "nobody@example.org"}, headers=SAME
    )
    assert (
        (known.status_code, known.json())
        == (unknown.status_code, unknown.json())
        == (
            202,
            {"sent": True},
        )
    )


def test_seats_follow_the_profile_without_their_tokens(client: TestClient) -> None:
    created = client.post("/r", json={"rule_set": "english"}, headers=SAME)
    room = created.json()["room_id"]
    key = Authenticator(ORIGIN)
    register(client, key)
    attached = client.post(f"/r/{room}/attach", headers=SAME)
    assert attached.status_code == 200 and attached.json()["rooms"] == [room]
    assert created.json().keys() == {"room_id", "url"}  # no token reaches a page
    # Another browser with no seat cookie: a spectator, until it signs in.
    phone = device(client)
    assert phone.get(f"/r/{room}/state").json()["you"] is None
    assert sign_in(phone, key).status_code == 200
    assert phone.get("/profile/games").json() == {"signed_in": True, "rooms": [room]}
    assert phone.get(f"/r/{room}/state").json()["you"]["side"] == "drums"
    joined = client.post(f"/api/rooms/{room}/join")
    assert joined.status_code == 200
    moved = phone.post(f"/r/{room}/moves", json={"move": "11-15", "expected_ply": 0}, headers=SAME)
    assert moved.status_code == 200, moved.text
    assert "token" not in moved.text
    # The seat's own token still plays it (the API), and the cookie browser too.
    their = joined.json()["token"]
    reply = client.post(
        f"/api/rooms/{room}/moves",
        json={"move": "22-18", "expected_ply": 1},
        headers={"Authorization": f"Bearer {their}"},
    )
    assert reply.status_code == 200
    assert client.get(f"/r/{room}/state").json()["you"]["side"] == "drums"
    # Signed out, the phone is a spectator again.
    phone.post("/profile/sign-out", headers=SAME)
    assert phone.get(f"/r/{room}/state").json()["you"] is None


def test_a_seat_taken_while_signed_in_attaches_by_itself_and_only_once(
    client: TestClient,
) -> None:
    key = Authenticator(ORIGIN)
    register(client, key)
    room = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    assert client.get("/profile/games").json()["rooms"] == [room]
    # Another profile cannot take it over with the seat's cookie.
    other = device(client)
    other.cookies.set("seat", client.cookies.get("seat") or "", path=f"/r/{room}")
    register(other, Authenticator(ORIGIN), name="Eve")
    taken = other.post(f"/r/{room}/attach", headers=SAME)
    assert taken.status_code == 409 and taken.json()["code"] == "seat_attached_elsewhere"
    # A browser without the seat's cookie cannot attach it at all.
    stranger = device(client)
    register(stranger, Authenticator(ORIGIN), name="Ida")
    assert stranger.post(f"/r/{room}/attach", headers=SAME).status_code == 401


def test_renaming_renames_games_in_progress_only(client: TestClient) -> None:
    key = Authenticator(ORIGIN)
    register(client, key)
    playing = client.post("/r", json={"rule_set": "english", "name": "Ana"}, headers=SAME).json()
    finished = client.post("/r", json={"rule_set": "english", "name": "Ana"}, headers=SAME).json()
    client.post(f"/api/rooms/{playing['room_id']}/join")
    client.post(f"/api/rooms/{finished['room_id']}/join")
    assert client.post(f"/r/{finished['room_id']}/resign", headers=SAME).status_code == 200
    renamed = client.post("/profile/name", json={"name": "Ana B"}, headers=SAME)
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ana B"

    def name_in(room: str) -> str:
        seats = client.get(f"/api/rooms/{room}").json()["seats"]
        return str(next(s["name"] for s in seats if s["side"] == "drums"))

    assert name_in(playing["room_id"]) == "Ana B"
    assert name_in(finished["room_id"]) == "Ana"
    blank = client.post("/profile/name", json={"name": "  "}, headers=SAME)
    assert blank.status_code == 422


@pytest.mark.parametrize(
    "app_settings", [{"smtp_host": "127.0.0.1", "smtp_port": 9, "smtp_tls": "none"}], indirect=True
)
def test_a_seat_taken_while_signed_in_takes_the_profiles_name_and_address(
    client: TestClient, database: Database
) -> None:
    register(client, Authenticator(ORIGIN), name="Ana")
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE profiles SET email = 'ana@example.org'"))
    room = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    view = client.get(f"/r/{room}/state").json()
    assert view["you"]["notifications"]["email"] is True
    assert next(s["name"] for s in view["seats"] if s["side"] == "drums") == "Ana"
    with database.engine.connect() as conn:
        stored = conn.execute(text("SELECT address, confirmed_at FROM seat_emails")).all()
        confirmations = conn.execute(text("SELECT count(*) FROM confirmation_mails")).scalar()
    assert [row[0] for row in stored] == ["ana@example.org"] and stored[0][1] is not None
    assert confirmations == 0  # confirmed once, for the profile
    # A name the player gives for the seat is kept.
    named = client.post("/r", json={"rule_set": "english", "name": "Ana at work"}, headers=SAME)
    seats = client.get(f"/r/{named.json()['room_id']}/state").json()["seats"]
    assert next(s["name"] for s in seats if s["side"] == "drums") == "Ana at work"


@pytest.mark.parametrize(
    "app_settings", [{"smtp_host": "127.0.0.1", "smtp_port": 9, "smtp_tls": "none"}], indirect=True
)
def test_the_profile_chooses_which_events_notify_its_seats(
    client: TestClient, database: Database
) -> None:
    profile = register(client, Authenticator(ORIGIN), name="Ana")
    assert profile["notify"] == ["deadlines", "moves", "offers", "results"]
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE profiles SET email = 'ana@example.org'"))
    chosen = client.post("/profile/notify", json={"groups": ["results"]}, headers=SAME)
    assert chosen.status_code == 200 and chosen.json()["notify"] == ["results"]
    room = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    tires = client.post(f"/api/rooms/{room}/join").json()["token"]

    def kinds() -> list[str]:
        with database.engine.connect() as conn:
            return list(conn.execute(text("SELECT kind FROM notifications ORDER BY id")).scalars())

    assert kinds() == []  # the join is an offer's group, not chosen
    client.post("/profile/notify", json={"groups": ["offers", "results"]}, headers=SAME)
    client.post(f"/r/{room}/moves", json={"move": "11-15", "expected_ply": 0}, headers=SAME)
    offered = client.post(
        f"/api/rooms/{room}/draw",
        json={"action": "offer"},
        headers={"Authorization": f"Bearer {tires}"},
    )
    assert offered.status_code == 200
    assert kinds() == ["draw_offered"]
    bad = client.post("/profile/notify", json={"groups": ["everything"]}, headers=SAME)
    assert bad.status_code == 422


def test_the_record_counts_finished_games_and_shows_only_when_public(
    client: TestClient, clock: ManualClock, settings: Settings
) -> None:
    profile = register(client, Authenticator(ORIGIN), name="Ana")
    won = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    lost = client.post("/r", json={"rule_set": "russian"}, headers=SAME).json()["room_id"]
    tires = {room: client.post(f"/api/rooms/{room}/join").json()["token"] for room in (won, lost)}
    client.post(f"/r/{won}/moves", json={"move": "11-15", "expected_ply": 0}, headers=SAME)
    resigned = client.post(
        f"/api/rooms/{won}/resign", headers={"Authorization": f"Bearer {tires[won]}"}
    )
    assert resigned.status_code == 200
    # Ana lets the claim window pass in the other room: a game not moved in time.
    clock.advance(timedelta(seconds=settings.claim_after_seconds + 1))
    claimed = client.post(
        f"/api/rooms/{lost}/claim-forfeit", headers={"Authorization": f"Bearer {tires[lost]}"}
    )
    assert claimed.status_code == 200, claimed.text
    own = client.get("/profile/record").json()
    assert own["total"] == {
        "rule_set": None, "played": 2, "won": 1, "drawn": 0, "lost": 1, "in_time": 0.5
    }  # fmt: skip
    assert [(r["rule_set"], r["won"], r["lost"]) for r in own["rule_sets"]] == [
        ("english", 1, 0),
        ("russian", 0, 1),
    ]
    page = f"/p/{profile['public_id']}"
    stranger = device(client)
    invitation = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    assert client.get(page).status_code == 200  # its player sees it
    assert stranger.get(page).status_code == 404
    assert stranger.get("/p/nobody-at-all").status_code == 404
    hidden = stranger.get(f"/r/{invitation}/creator-record")
    assert hidden.status_code == 404 and hidden.json()["code"] == "no_record"
    assert client.post("/profile/public", json={"public": True}, headers=SAME).json()["public"]
    shown = stranger.get(page)
    assert shown.status_code == 200 and "Ana" in shown.text
    invited = stranger.get(f"/r/{invitation}/creator-record").json()
    assert invited["name"] == "Ana" and invited["total"]["played"] == 2
    assert invited["url"].endswith(page)


def test_a_player_downloads_everything_then_deletes_the_profile(
    client: TestClient, database: Database
) -> None:
    key = Authenticator(ORIGIN)
    register(client, key, name="Ana")
    finished = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    playing = client.post("/r", json={"rule_set": "english"}, headers=SAME).json()["room_id"]
    tires = client.post(f"/api/rooms/{finished}/join").json()["token"]
    client.post(f"/api/rooms/{playing}/join")
    client.post(f"/r/{finished}/moves", json={"move": "11-15", "expected_ply": 0}, headers=SAME)
    client.post(f"/api/rooms/{finished}/resign", headers={"Authorization": f"Bearer {tires}"})

    data = client.get("/profile/export")
    assert data.status_code == 200 and "attachment" in data.headers["content-disposition"]
    everything = data.json()
    assert everything["profile"]["name"] == "Ana" and len(everything["passkeys"]) == 1
    assert {g["room"] for g in everything["games"]} == {finished, playing}
    assert client.cookies.get("profile") not in data.text  # no secret in the download
    pdn = client.get("/profile/export.pdn")
    assert pdn.status_code == 200 and pdn.text.count("[Event ") == 2
    assert '[White "Ana"]' in pdn.text or '[Black "Ana"]' in pdn.text

    assert client.post("/profile/delete", json={}, headers=SAME).status_code == 422
    gone = client.post("/profile/delete", json={"confirm": True}, headers=SAME)
    assert gone.status_code == 204
    assert client.get("/profile/me").status_code == 401
    with database.engine.connect() as conn:
        for table in ("profiles", "passkeys", "profile_sessions", "profile_seats"):
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0, table

    def drums(room: str, lang: str = "en") -> str:
        seats = client.get(f"/api/rooms/{room}", headers={"Accept-Language": lang}).json()
        return str(next(s["name"] for s in seats["seats"] if s["seat"] == "creator"))

    assert drums(finished) == "Former player"
    assert drums(finished, "es") != "Former player"  # in the reader's language
    assert "Former player" in client.get(f"/api/rooms/{finished}/games/1.pdn").text
    assert drums(playing) == "Ana"  # a game in play stays with the browser holding it
    assert client.get(f"/r/{playing}/state").json()["you"]["side"] == "drums"
    assert sign_in(device(client), key).status_code == 403


def test_housekeeping_deletes_expired_sessions_ceremonies_and_old_links(
    client: TestClient, clock: ManualClock, settings: Settings, database: Database
) -> None:
    from app.profiles.jobs import clean

    register(client, Authenticator(ORIGIN))
    client.post("/profile/sign-in/options", headers=SAME)  # a ceremony never finished
    assert clean(database, clock, settings) == 0
    clock.advance(timedelta(days=settings.profile_session_days, seconds=1))
    assert clean(database, clock, settings) == 2
    with database.engine.connect() as conn:
        for table in ("profile_sessions", "webauthn_challenges"):
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM profiles")).scalar() == 1


@pytest.mark.parametrize(
    "app_settings", [{"smtp_host": "127.0.0.1", "smtp_port": 9, "smtp_tls": "none"}], indirect=True
)
def test_an_address_signs_in_the_profile_that_confirmed_it_last(
    client: TestClient, clock: ManualClock, app_settings: Settings, database: Database
) -> None:
    from app.core.context import Context
    from app.profiles import links

    first = register(device(client), Authenticator(ORIGIN), name="Ana")
    second = register(device(client), Authenticator(ORIGIN), name="Bea")
    ctx = Context(clock.now(), app_settings)
    with database.engine.connect() as conn:
        ids = dict(conn.execute(text("SELECT name, id FROM profiles")).all())
    with database.session() as session:
        for name in ("Ana", "Bea"):
            mail = links.ask_confirmation(
                session,
                profile_id=ids[name],
                address="Shared@Example.org",
                base_url=ORIGIN,
                ctx=ctx,
            )
            assert mail is not None and mail.address == "shared@example.org"
            secret = mail.link.split("#c=")[1]
            followed = links.follow(session, secret=secret, device="test", ctx=ctx)
            assert followed.purpose == links.CONFIRM
            with pytest.raises(links.LinkRefused):  # once only
                links.follow(session, secret=secret, device="test", ctx=ctx)
        asked = links.ask_sign_in(session, address="shared@example.org", base_url=ORIGIN, ctx=ctx)
        assert asked is not None
        signed = links.follow(session, secret=asked.link.split("#t=")[1], device="test", ctx=ctx)
    assert signed.profile_id == ids["Bea"] and signed.session_secret
    with database.engine.connect() as conn:
        emails = dict(conn.execute(text("SELECT name, email FROM profiles")).all())
    assert emails == {"Ana": None, "Bea": "shared@example.org"}
    assert first["name"] == "Ana" and second["name"] == "Bea"
    # A link past its time signs nobody in.
    with database.session() as session:
        late = links.ask_sign_in(session, address="shared@example.org", base_url=ORIGIN, ctx=ctx)
        assert late is not None
        clock.advance(timedelta(seconds=app_settings.profile_link_seconds))
        later = Context(clock.now(), app_settings)
        with pytest.raises(links.LinkRefused):
            links.follow(session, secret=late.link.split("#t=")[1], device="test", ctx=later)


@pytest.mark.parametrize(
    "app_settings",
    [
        {
            "smtp_host": "127.0.0.1",
            "smtp_port": 9,
            "smtp_tls": "none",
            "email_confirms_per_address": 2,
        }
    ],
    indirect=True,
)
def test_confirmation_mails_count_against_the_addresss_daily_share(
    client: TestClient, clock: ManualClock
) -> None:
    """Profiles cannot be made one after another to flood an address with links."""
    for name in ("Ana", "Bea"):
        browser = device(client)
        register(browser, Authenticator(ORIGIN), name=name)
        asked = browser.post("/profile/email", json={"address": "x@example.org"}, headers=SAME)
        assert asked.status_code == 202, asked.text
    third = device(client)
    register(third, Authenticator(ORIGIN), name="Cleo")
    refused = third.post("/profile/email", json={"address": "X@example.org"}, headers=SAME)
    assert refused.status_code == 429 and refused.json()["code"] == "mail_limit"
    clock.advance(timedelta(days=1))
    again = third.post("/profile/email", json={"address": "x@example.org"}, headers=SAME)
    assert again.status_code == 202


HOSTILE_CREDENTIALS: list[Any] = [
    {},
    {"rawId": 5},
    {"rawId": "!!not-base64!!", "response": "x"},
    {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": "x"},
    {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {"clientDataJSON": 1}},
    {"rawId": "AAAA", "response": {"attestationObject": "AAAA", "clientDataJSON": "e30"}},
    {"rawId": "A" * 3000, "response": {"userHandle": ["x"]}},
]


def test_hostile_passkey_answers_are_refused_and_change_nothing(
    client: TestClient, database: Database
) -> None:
    key = Authenticator(ORIGIN)
    register(client, key)
    other = device(client)
    for credential in HOSTILE_CREDENTIALS:
        for step in ("sign-in", "register"):
            options = (
                "/profile/register/options" if step == "register" else "/profile/sign-in/options"
            )
            begun = other.post(options, json={"name": "Eve"}, headers=SAME).json()
            answer = other.post(
                f"/profile/{step}",
                json={"ceremony": begun["ceremony"], "credential": credential},
                headers=SAME,
            )
            assert answer.status_code == 403, (step, credential, answer.text)
            assert answer.json()["code"] == "passkey_refused"
    for path in ("/profile/passkeys/99999999999999999999/remove", "/profile/devices/0/sign-out"):
        assert client.post(path, headers=SAME).status_code == 422
    assert client.get("/p/%00").status_code == 404
    with database.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM profiles")).scalar() == 1
        assert conn.execute(text("SELECT count(*) FROM profile_sessions")).scalar() == 1
