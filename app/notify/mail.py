"""Email through the configured SMTP server (`SMTP_*`); with none, nothing is sent.

Every notification mail carries a one-click unsubscribe (RFC 8058): a signed link that
works without the seat's token, named in `List-Unsubscribe`, and `List-Unsubscribe-Post`
so that mail programs may post to it themselves.
"""

from __future__ import annotations

import smtplib
import ssl
import string
from email.message import EmailMessage
from email.policy import default
from email.utils import formatdate, make_msgid
from urllib.parse import quote

from sqlalchemy.orm import Session

from app.core.context import Context
from app.core.errors import Unavailable
from app.core.settings import Settings
from app.i18n import valid_zone
from app.i18n.context import current
from app.rooms import subscriptions
from app.rooms.state import GameState


class MailError(Exception):
    """The SMTP server could not be reached or refused the mail."""


# The default policy (non-ASCII text as RFC 2047 encoded words, lines folded at 78
# characters), except that a header stored raw goes out as stored. The List-* headers are
# stored so: the default policy would encode a link longer than a line, which has no place
# to fold, and mail programs read no encoded word as a link (RFC 2369, RFC 8058).
_POLICY = default.clone(refold_source="none")

# What a link in a List-* header may hold as it is: printable ASCII but the angle brackets
# around it (RFC 2369). Anything else is percent-encoded, so no line break can get in.
_LINK_SAFE = "".join(c for c in string.printable if c not in string.whitespace + "<>")


def list_link(url: str) -> str:
    """`url` as a List-* header's value: one line of plain ASCII in angle brackets."""
    return f"<{quote(url, safe=_LINK_SAFE)}>"


def send_mail(
    settings: Settings,
    *,
    to: str,
    subject: str,
    text: str,
    unsubscribe: str | None = None,
    message_id: str | None = None,
) -> None:
    """Send one plain-text mail; raises MailError."""
    if settings.smtp_host is None:
        raise MailError("no SMTP server is configured")
    message = EmailMessage(policy=_POLICY)
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = message_id or make_msgid(domain="checkers")
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe is not None:
        # Stored raw, so written as they are: plain text, never encoded (_POLICY).
        message.set_raw("List-Unsubscribe", list_link(unsubscribe))
        message.set_raw("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
    message.set_content(text)
    timeout = settings.notify_timeout_seconds
    try:
        if settings.smtp_tls == "ssl":
            context = ssl.create_default_context()
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.smtp_host, settings.smtp_port, timeout=timeout, context=context
            )
        else:
            server = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout)
        with server:
            if settings.smtp_tls == "starttls":
                server.starttls(context=ssl.create_default_context())
            if settings.smtp_username:
                server.login(settings.smtp_username, settings.smtp_password or "")
            server.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"{type(exc).__name__}: {exc}") from exc


class MailUnavailable(Unavailable):
    """The mail server cannot take the mail now; retry after `retry_after`."""

    code = "mail_unavailable"


def start_mails(
    session: Session,
    *,
    room_id: str,
    token: str | None,
    address: str,
    base_url: str,
    ctx: Context,
    time_zone: str | None = None,
) -> GameState:
    """Keep `address` for the token's seat and mail it the confirmation link. The mail is
    sent here, once the room is unlocked: the link's secret is stored nowhere else."""
    state, confirmation = subscriptions.request_email(
        session,
        room_id=room_id,
        token=token,
        address=address,
        base_url=base_url,
        time_zone=time_zone,
        ctx=ctx,
    )
    tr = current()  # the mails' language from now on: the one of this request
    hours = max(1, round((confirmation.expires_at - ctx.now).total_seconds() / 3600))
    within = tr.ngettext("{n} hour", "{n} hours", hours)
    until = tr.datetime(confirmation.expires_at, valid_zone(time_zone))
    text = "".join(
        (
            tr._("Someone, probably you, asked to be told by mail about a checkers game."),
            "\n\n",
            tr._(
                "Confirm this address within {within} (until {until}): {link}",
                within=within,
                until=until,
                link=confirmation.link,
            ),
            "\n\n",
            tr._("If it was not you, ignore this mail: nothing more will be sent."),
            "\n",
        )
    )
    try:
        send_mail(ctx.settings, to=address, subject=tr._("Confirm your address"), text=text)
    except MailError as exc:
        raise MailUnavailable(
            "the confirmation mail could not be sent: try again later",
            retry_after=ctx.settings.retry_after_seconds,
        ) from exc
    return state
