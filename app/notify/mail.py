"""Email through the configured SMTP server (`SMTP_*`); with none, nothing is sent. Every
mail goes out from the delivery job (`app.notify.delivery`), none inside a request.

Every notification mail carries a one-click unsubscribe (RFC 8058): a signed link that
works without the seat's token, named in `List-Unsubscribe`, and `List-Unsubscribe-Post`
so that mail programs may post to it themselves.
"""

from __future__ import annotations

import smtplib
import ssl
import string
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from email.utils import formatdate, make_msgid
from urllib.parse import quote

from app.core.settings import Settings
from app.i18n import translator, valid_zone

from .confirmations import Confirmation


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


def confirmation_mail(found: Confirmation, now: datetime) -> tuple[str, str]:
    """The subject and text of a confirmation mail, in the language and time zone the
    address was given in."""
    tr = translator(found.language)
    hours = max(1, round((found.expires_at - now).total_seconds() / 3600))
    within = tr.ngettext("{n} hour", "{n} hours", hours)
    until = tr.datetime(found.expires_at, valid_zone(found.time_zone))
    text = "".join(
        (
            tr._("Someone, probably you, asked to be told by mail about a checkers game."),
            "\n\n",
            tr._(
                "Confirm this address within {within} (until {until}): {link}",
                within=within,
                until=until,
                link=found.link,
            ),
            "\n\n",
            tr._("If it was not you, ignore this mail: nothing more will be sent."),
            "\n",
        )
    )
    return tr._("Confirm your address"), text
