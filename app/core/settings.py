"""Configuration read from the environment (and an optional `.env` file)."""

from __future__ import annotations

import re
from datetime import timedelta
from functools import lru_cache
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every knob of the service; each field is an environment variable of the same name."""

    # An empty variable counts as unset (a compose file passes `${SMTP_HOST:-}` through).
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    database_url: str = Field(
        default="sqlite:///checkers.sqlite3",
        description="SQLAlchemy URL; SQLite file by default, postgresql://... in production.",
    )
    host: str = Field(default="127.0.0.1", description="Address `checkers serve` binds.")
    port: int = Field(default=8000, ge=1, le=65535, description="Port `checkers serve` binds.")
    public_url: str | None = Field(
        default=None,
        description="Base URL of share links; when unset, taken from each request.",
    )
    allowed_hosts: str = Field(
        default="localhost,127.0.0.1,[::1]",
        description="Host names the service answers to, comma-separated (`*.example.com` "
        "a subdomain, `*` any); the host of PUBLIC_URL is always allowed.",
    )
    trusted_proxies: str = Field(
        default="",
        description="Reverse proxies (addresses or networks, comma-separated) whose "
        "X-Forwarded-For / X-Forwarded-Proto are believed; none by default.",
    )
    migrate_on_start: bool = Field(
        default=True, description="Apply Alembic migrations when the app starts."
    )
    scheduler_enabled: bool = Field(
        default=True, description="Run the deadline sweep inside the web process."
    )
    sweep_interval_seconds: float = Field(default=60.0, gt=0, description="Sweep period.")
    sweep_batch_size: int = Field(default=500, ge=1, description="Rooms locked per sweep batch.")
    claim_after_seconds: int = Field(
        default=48 * 3600, ge=1, description="A forfeit claim opens this long after a turn began."
    )
    expire_after_seconds: int = Field(
        default=7 * 24 * 3600, ge=1, description="A room expires this long after its last move."
    )
    rematch_window_seconds: int = Field(
        default=7 * 24 * 3600,
        ge=1,
        description="A finished room closes to rematches this long after its game ended.",
    )
    max_plies: int = Field(default=1000, ge=1, description="A game is drawn at this many plies.")
    max_body_bytes: int = Field(default=4096, ge=256, description="Largest request body.")
    import_max_bytes: int = Field(
        default=512 * 1024, ge=1024, description="Largest PDN import (POST /api/imports)."
    )
    import_max_games: int = Field(
        default=1000,
        ge=1,
        description="Games one PDN import may hold; a text with more is refused whole (422).",
    )
    import_max_plies: int = Field(
        default=1000,
        ge=1,
        description="Plies of an imported game; a longer one is reported, not stored.",
    )
    import_max_total_plies: int = Field(
        default=100_000,
        ge=1,
        description="Moves the games of one PDN import may hold in all (Tinsley's 724 "
        "games hold 36,108); a text with more is refused whole (422).",
    )
    import_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Processes that replay imported texts, apart from the web process and "
        "at a lower priority.",
    )
    import_queue_per_client: int = Field(
        default=1, ge=1, description="Imports one client may have being replayed (429)."
    )
    import_queue_max: int = Field(
        default=8, ge=1, description="Imports being replayed or waiting, in all (503 when full)."
    )
    log_level: str = Field(default="INFO", description="Python logging level.")
    db_pool_size: int = Field(default=10, ge=1, description="Database connections kept open.")
    db_max_overflow: int = Field(
        default=10, ge=0, description="Extra connections opened under load, closed after."
    )
    db_pool_timeout: float = Field(
        default=5.0, gt=0, description="Seconds a request waits for a free connection (503)."
    )
    db_connect_timeout: int = Field(
        default=3, ge=2, description="Seconds to open a PostgreSQL connection before a 503."
    )
    db_statement_timeout_ms: int = Field(
        default=10_000, ge=0, description="PostgreSQL statement_timeout in ms (0: none)."
    )
    retry_after_seconds: int = Field(
        default=5, ge=1, description="Retry-After of a 503 while the database is unreachable."
    )
    rate_limit_enabled: bool = Field(default=True, description="Limit requests per client.")
    rate_limit_storage: str = Field(
        default="async+memory://",
        description="`limits` storage URI; async+redis://host:6379 shares limits across instances.",
    )
    rate_limit_create: str = Field(
        default="20/minute", description="Rooms (and computer games) a client may create."
    )
    rate_limit_join: str = Field(default="30/minute", description="Joins per client.")
    rate_limit_moves: str = Field(default="120/minute", description="Moves per client.")
    rate_limit_claims: str = Field(default="20/minute", description="Forfeit claims per client.")
    rate_limit_imports: str = Field(default="10/minute", description="PDN imports per client.")
    rate_limit_imported_reads: str = Field(
        default="60/minute",
        description="Reads of imported games per client: the replay page, the JSON, the PDN.",
    )
    rate_limit_actions: str = Field(
        default="60/minute",
        description="Draw, resign, rematch and more-time actions per client.",
    )
    rate_limit_chat: str = Field(
        default="20/minute", description="Chat messages written per client."
    )
    rate_limit_reviews: str = Field(
        default="20/hour", description="Computer reviews of games asked for, per client."
    )
    rate_limit_links: str = Field(
        default="10/minute", description="Device links made or redeemed per client."
    )
    rate_limit_seat: str = Field(
        default="30/minute",
        description="Changes to a seat's settings per client: renames, push and mail turned "
        "off or push on, conditional moves stored or cleared, the chat switched, notes and "
        "analysis lines kept.",
    )
    rate_limit_mail: str = Field(
        default="10/hour", description="Confirmation mails asked for (mail turned on) per client."
    )
    rate_limit_profiles: str = Field(
        default="20/minute",
        description="Passkey ceremonies (creating a profile, signing in, adding a passkey) and "
        "sign-in links asked for or followed, per client.",
    )
    profile_session_days: int = Field(
        default=30,
        ge=1,
        le=400,
        description="A signed-in device signs out after this many days without a visit.",
    )
    profile_link_seconds: int = Field(
        default=15 * 60, ge=60, description="How long a mailed sign-in link works."
    )
    profile_sign_ins_per_hour: int = Field(
        default=20, ge=1, description="Sign-ins one profile may have in an hour, all devices."
    )
    profile_links_per_hour: int = Field(
        default=3, ge=1, description="Sign-in links one profile may be mailed in an hour."
    )
    max_games_per_room: int = Field(
        default=50, ge=1, description="Games a room may hold; a rematch past it is refused."
    )
    join_retry_seconds: int = Field(
        default=120,
        ge=0,
        description="How long a join sent with an Idempotency-Key may be retried (0: never).",
    )
    live_streams_max: int = Field(
        default=2000, ge=1, description="Live event streams one process holds open."
    )
    live_streams_per_client: int = Field(
        default=32, ge=1, description="Live event streams one client address may hold open."
    )
    live_keepalive_seconds: float = Field(
        default=15.0, gt=0, description="A comment is sent on a stream idle this long."
    )
    live_stream_seconds: float = Field(
        default=600.0, gt=0, description="A stream ends after this long (the client resumes)."
    )
    live_coalesce_seconds: float = Field(
        default=0.5,
        ge=0,
        le=10,
        description="A room's renames reach its viewers at most once in this long, each "
        "seat's latest name (0: each at once).",
    )
    http_header_timeout: float = Field(
        default=10.0, gt=0, description="Seconds a client has to send a request's headers."
    )
    http_body_timeout: float = Field(
        default=20.0, gt=0, description="Seconds a client has to send a request's body."
    )
    http_keepalive_timeout: int = Field(
        default=5, ge=1, description="Seconds an idle kept-alive connection stays open."
    )
    http_limit_concurrency: int = Field(
        default=4000,
        ge=10,
        description="Connections (and requests) a server process takes before answering 503.",
    )
    computer_workers: int = Field(
        default=2, ge=1, le=64, description="Processes that compute the computer's replies."
    )
    computer_time_limit: float = Field(
        default=2.0,
        gt=0,
        le=60,
        description="Executive's seconds a move (the others search a fixed node budget).",
    )
    computer_scan_seconds: float = Field(
        default=30.0, gt=0, description="How often replies owed by the computer are looked for."
    )
    egdb_build_on_use: bool = Field(
        default=True,
        description="Build a rule set's missing endgame tables in the background the first "
        "time the Executive plays it.",
    )
    egdb_pieces: int = Field(
        default=4,
        ge=2,
        le=5,
        description="Pieces of the tables built on first use (2 to 5; 5 pieces take 180 MB "
        "of disk and tens of minutes of CPU a rule set).",
    )
    conditional_max_depth: int = Field(
        default=8, ge=1, le=50, description="Move pairs along one line of conditional moves."
    )
    conditional_max_moves: int = Field(
        default=64, ge=1, le=1000, description="Pairs of moves in a seat's conditional lines."
    )
    remind_before_seconds: int = Field(
        default=24 * 3600,
        ge=0,
        description="Remind the player to move this long before the opponent may claim (0: never).",
    )
    vapid_private_key: str | None = Field(
        default=None,
        description="Web Push signing key (base64url DER or PEM); made once and stored if unset.",
    )
    vapid_subject: str = Field(
        default="mailto:checkers@localhost",
        description="Contact the push services see in the VAPID claim (mailto: or https:).",
    )
    push_services: str = Field(
        default="fcm.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com",
        description="The push services a subscription may name, by host suffix, "
        "comma-separated (a host matches itself and its subdomains): by default those of "
        "Chrome and its kin, Firefox, Safari and Edge. The server posts to these alone.",
    )
    push_devices_per_seat: int = Field(
        default=3,
        ge=1,
        le=10,
        description="Push subscriptions a seat keeps; a new one past this replaces the oldest.",
    )
    push_allow_loopback_for_tests: bool = Field(
        default=False,
        description="Also accept push endpoints on a loopback address (plain HTTP too), and "
        "push service names that resolve to one: for tests with a local push service, "
        "never in production.",
    )
    smtp_host: str | None = Field(
        default=None, description="SMTP server for mail notifications; unset: no email at all."
    )
    smtp_port: int = Field(default=587, ge=1, le=65535, description="SMTP port.")
    smtp_tls: Literal["starttls", "ssl", "none"] = Field(
        default="starttls", description="starttls, ssl (implicit TLS) or none."
    )
    smtp_username: str | None = Field(default=None, description="SMTP user, if it needs one.")
    smtp_password: str | None = Field(default=None, description="SMTP password.")
    mail_from: str = Field(
        default="Checkers <checkers@localhost>", description="Sender of the mails."
    )
    email_min_interval_seconds: int = Field(
        default=3600,
        ge=0,
        description="At most one mail per kind of event and game in this long.",
    )
    email_confirm_seconds: int = Field(
        default=24 * 3600, ge=60, description="How long a confirmation link works."
    )
    email_confirm_resend_seconds: int = Field(
        default=300,
        ge=0,
        description="A seat may have a confirmation mailed to the same address again "
        "after this long.",
    )
    email_confirms_per_seat: int = Field(
        default=5, ge=1, description="Confirmation mails one seat may ask for in a day."
    )
    email_confirms_per_address: int = Field(
        default=3,
        ge=1,
        description="Confirmation mails one address may be sent in a day, across the service.",
    )
    notify_interval_seconds: float = Field(
        default=5.0, gt=0, description="How often due notifications are sent."
    )
    notify_max_attempts: int = Field(
        default=8, ge=1, description="Tries before a notification is given up."
    )
    notify_retry_seconds: float = Field(
        default=30.0, gt=0, description="First retry delay; it doubles with each failure."
    )
    notify_timeout_seconds: float = Field(
        default=5.0,
        gt=0,
        description="Time limit of one push or mail delivery, the whole of it (a push's "
        "name lookup, connection and answer).",
    )
    notify_concurrency: int = Field(
        default=8, ge=1, le=100, description="Pushes and mails sent at once by one sender."
    )
    review_seconds_per_position: float = Field(
        default=0.5, gt=0, le=30, description="The Executive's time on each position it reviews."
    )
    computer_thinking_per_client: int = Field(
        default=1, ge=1, description="The computer's searches one client may have running at once."
    )
    computer_queue_per_client: int = Field(
        default=8, ge=1, description="The computer's replies one client may have waiting (429)."
    )
    computer_queue_max: int = Field(
        default=64, ge=1, description="The computer's replies waiting in all (503 when full)."
    )
    review_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Processes that evaluate the positions of computer reviews, apart from "
        "those of the replies and at a lower priority still.",
    )
    review_queue_per_client: int = Field(
        default=4, ge=1, description="Computer reviews one client may have waiting (429)."
    )
    review_queue_max: int = Field(
        default=32, ge=1, description="Computer reviews waiting in all (503 when full)."
    )
    retain_days: float | None = Field(
        default=None,
        gt=0,
        description="Finished and expired rooms are deleted this long after their last "
        "activity; unset: kept forever.",
    )
    import_retain_days: float | None = Field(
        default=None,
        gt=0,
        description="Imported games, with their reviews, are deleted this long after their "
        "import; unset: RETAIN_DAYS (and kept forever when that is unset too).",
    )
    retention_batch_size: int = Field(
        default=100,
        ge=1,
        description="Rooms (or imported games) deleted per retention transaction.",
    )
    bench_endpoints: bool = Field(
        default=False, description="Serve the load benchmark's floor endpoint (never in prod)."
    )

    @field_validator("database_url")
    @classmethod
    def _psycopg_driver(cls, value: str) -> str:
        """Plain `postgres://` / `postgresql://` URLs use psycopg 3, the installed driver."""
        for prefix in ("postgres://", "postgresql://"):
            if value.startswith(prefix):
                return "postgresql+psycopg://" + value[len(prefix) :]
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        from .proxies import parse_networks

        parse_networks(value)  # refuse a malformed list at start-up, naming the entry
        return value

    @field_validator("push_services")
    @classmethod
    def _push_hosts(cls, value: str) -> str:
        """A malformed list is refused at start-up, naming the entry."""
        for name in value.split(","):
            name = name.strip().lower()
            if not re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)+", name):
                raise ValueError(f"PUSH_SERVICES: {name!r} is not a host name")
        return value

    @property
    def push_service_hosts(self) -> tuple[str, ...]:
        return tuple(name.strip().lower() for name in self.push_services.split(","))

    @property
    def retain(self) -> timedelta | None:
        return timedelta(days=self.retain_days) if self.retain_days is not None else None

    @property
    def import_retain(self) -> timedelta | None:
        days = self.import_retain_days if self.import_retain_days is not None else self.retain_days
        return timedelta(days=days) if days is not None else None

    @property
    def claim_after(self) -> timedelta:
        return timedelta(seconds=self.claim_after_seconds)

    @property
    def expire_after(self) -> timedelta:
        return timedelta(seconds=self.expire_after_seconds)

    @property
    def rematch_window(self) -> timedelta:
        return timedelta(seconds=self.rematch_window_seconds)

    @property
    def remind_before(self) -> timedelta:
        return timedelta(seconds=self.remind_before_seconds)

    @property
    def email_enabled(self) -> bool:
        return self.smtp_host is not None


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
