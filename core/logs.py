"""Logging for every process: one line per event, `LOG_FORMAT=text` (human) or `json` (one
JSON object a line, for log shippers), at `LOG_LEVEL`, each record carrying the id of the
request or update it belongs to (`request_id`: `tg-<update_id>` in the bot, `wa-<hash of the
message id>` on WhatsApp, the panel's X-Request-Id).

No personal data in any line: the code logs ids and counts, never a person's text, and the
libraries that would (httpx logs each Bot API URL, which holds the bot's token; aiohttp's
access log holds query strings) are quietened here. `scrub` is the last net under that: what
looks like an e-mail, a phone, a CPF, a plate or a bot token in a message is masked.
"""
from __future__ import annotations

import contextvars
import hashlib
import json
import logging
import re
import sys
import uuid
from datetime import datetime, timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.settings import Settings

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")

#: an incoming X-Request-Id is kept when it looks like this, else a fresh one is made
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")

#: libraries whose lines at INFO or below would carry secrets or personal data
QUIET = {"httpx": logging.WARNING, "httpcore": logging.WARNING, "aiohttp.access": logging.WARNING,
         "telegram": logging.INFO, "aiosmtplib": logging.WARNING, "aiohttp": logging.INFO,
         "asyncio": logging.WARNING, "sqlalchemy": logging.WARNING, "alembic": logging.WARNING,
         "PIL": logging.WARNING, "urllib3": logging.WARNING, "apscheduler": logging.WARNING,
         "geopy": logging.WARNING}  # geopy: the URL asked (DEBUG), the error page got (INFO)

#: our packages: only their loggers go below INFO
OURS = ("core", "bot", "admin", "whatsapp", "sandbox", "__main__")

_PATTERNS = [
    (re.compile(r"bot\d{5,}:[A-Za-z0-9_-]{20,}"), "bot<token>"),
    (re.compile(r"\d{5,}:[A-Za-z0-9_-]{30,}"), "<token>"),
    # every character an address may have before the @ (RFC 5322's atext, as parse_email)
    (re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+"), "<e-mail>"),
    (re.compile(r"\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b"), "<cpf>"),
    (re.compile(r"\b[A-Za-z]{3}-?\d[A-Za-z0-9]\d{2}\b"), "<placa>"),
    (re.compile(r"(?<![\w-])(?:\+?55\s?)?(?:\(?\d{2}\)?\s?)?9?\d{4}[\s.-]\d{4}(?![\w-])"),
     "<telefone>"),
    (re.compile(r"(?<!\d)\+?55\d{10,11}(?!\d)"), "<telefone>"),
]


def scrub(text: str) -> str:
    """`text` with e-mails, phones, CPFs, plates and bot tokens masked."""
    for pattern, mask in _PATTERNS:
        text = pattern.sub(mask, text)
    return text


def opaque(value: str) -> str:
    """A short stable stand-in for an id that itself holds personal data (a WhatsApp message
    id, "wamid.…", is base64 holding the sender's number): the same id, the same 12 hex."""
    return hashlib.sha256(value.encode()).hexdigest()[:12]


def new_request_id(incoming: str | None = None) -> str:
    """`incoming` when it is a sane id (letters, digits, `._:-`, at most 64), else a new one."""
    if incoming and _SANE_ID.match(incoming):
        return incoming
    return uuid.uuid4().hex[:16]


class RequestIdFilter(logging.Filter):
    """Puts the current request or update id on every record (`record.request_id`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class ScrubbingFormatter(logging.Formatter):
    """The text format, scrubbed (the traceback too)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = scrub(record.message)
        return super().formatMessage(record)

    def formatException(self, ei) -> str:
        return scrub(super().formatException(ei))


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, request_id, message (scrubbed), and the
    exception's type and trace when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": datetime.fromtimestamp(record.created, timezone.utc)
               .isoformat(timespec="milliseconds"),
               "level": record.levelname, "logger": record.name,
               "request_id": getattr(record, "request_id", request_id.get()),
               "message": scrub(record.getMessage())}
        if record.exc_info:
            out["exception"] = scrub(self.formatException(record.exc_info))
        elif record.exc_text:
            out["exception"] = scrub(record.exc_text)
        return json.dumps(out, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"


def setup(settings: Settings, stream=None) -> None:
    """The root logger of this process: one handler on `stream` (stderr) in LOG_FORMAT at
    LOG_LEVEL; the chatty libraries capped (QUIET) whatever the level."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if settings.log_format == "json"
                         else ScrubbingFormatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    level = logging.getLevelName(settings.log_level)
    # DEBUG is for our own code: a library's debug lines hold what it carries (the updates'
    # text, the SQL parameters), so every other logger stays at INFO or above
    root.setLevel(max(level, logging.INFO))
    for name in OURS:
        logging.getLogger(name).setLevel(level)
    for name, cap in QUIET.items():
        logging.getLogger(name).setLevel(max(cap, root.level))
