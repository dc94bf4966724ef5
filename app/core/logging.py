"""Structured logs: one JSON object per line. Tokens are never passed to these helpers."""

from __future__ import annotations

import enum
import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any


def _plain(value: Any) -> Any:
    """What JSON cannot say by itself: an enum by its value, anything else as text."""
    return value.value if isinstance(value, enum.Enum) else str(value)


class JsonFormatter(logging.Formatter):
    """Renders a record as one JSON line; `fields` given through `extra` are merged in."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            payload.update(fields)
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        return json.dumps(payload, default=_plain, separators=(",", ":"))


def configure_logging(level: str = "INFO") -> None:
    """Send the service's loggers to stderr as JSON lines (idempotent)."""
    logger = logging.getLogger("checkers")
    logger.setLevel(level.upper())
    if not any(getattr(h, "_checkers", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler._checkers = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False


def log_fields(logger: logging.Logger, msg: str, **fields: Any) -> None:
    """Log `msg` at INFO with structured `fields`."""
    logger.info(msg, extra={"fields": fields})
