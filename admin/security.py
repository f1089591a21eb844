"""Sessions, CSRF, login throttling and security headers for the panel.

Sessions are signed tokens: the cookie holds {user id, session version, random nonce, issue
time}, signed with HMAC-SHA256 under ADMIN_SECRET_KEY (generated once and kept in
DATA_DIR/admin_secret_key when the setting is empty). Every request reloads the user and
compares the user's session version (staff_users.session_version) with the token's: logout,
a password change and deactivation raise the version, so every token issued before — a copied
cookie included — is refused at once, server-side. (One version per user: logging out ends the
user's sessions on every device.) A token also expires SESSION_HOURS after login. An
installation administrator's token also carries the city they act as (admin.web.city_core).

CSRF: every form carries HMAC(secret, "csrf:" + nonce) of the session's nonce (anonymous
visitors get a nonce too, so the login form is protected); every POST is checked.

Login throttling is in the database, per (username, IP): MAX_FAILURES wrong passwords within
WINDOW lock that pair out for WINDOW, whichever panel process answered them (several panel
replicas behave as one; a restart does not clear it).
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from typing import TYPE_CHECKING

from core.services.staff import login_failures

if TYPE_CHECKING:
    from core.services.context import Core

SESSION_COOKIE = "vl_session"
FLASH_COOKIE = "vl_flash"
SESSION_HOURS = 12
MAX_FAILURES = 5
WINDOW_S = 15 * 60

_UNSAFE_RAW = re.compile(r"[\x00-\x20\x7f\\]")  # controls, spaces, backslashes
_UNSAFE_DECODED = re.compile(r"[\x00-\x1f\x7f\\]")  # "%20" (a space) is a fine search


def safe_next(value: object) -> str:
    """Where to go after login: `value` only if it is a local path of this panel, else "/".

    Browsers drop tabs and line breaks inside URLs and read a backslash as a slash, so
    "/\t/evil.example" or "/\\evil.example" would become "//evil.example" (another site):
    any control character or backslash is refused, in the value and once percent-decoded
    (and a raw space), as are scheme-relative ("//host") and absolute ("https:...") URLs."""
    text = value if isinstance(value, str) else ""
    for form, unsafe in ((text, _UNSAFE_RAW), (unquote(text), _UNSAFE_DECODED)):
        if (not form.startswith("/") or form.startswith("//") or len(form) > 1000
                or unsafe.search(form)):
            return "/"
        parts = urlsplit(form)
        if parts.scheme or parts.netloc:
            return "/"
    return text


@lru_cache(maxsize=4)
def csp(tile_url: str = "") -> str:
    """Content-Security-Policy: everything from the panel itself (Leaflet is vendored under
    /static/vendor), plus images from the configured map tile server, if any."""
    parts = urlsplit(tile_url.replace("{s}", "*"))
    tiles = f" {parts.scheme}://{parts.netloc}" if parts.netloc else ""
    return ("default-src 'self'; img-src 'self' data:" + tiles + "; script-src 'self'; "
            "style-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


#: Strict-Transport-Security, sent on every response when ADMIN_COOKIE_SECURE=true (the panel
#: is served over HTTPS): a year, subdomains included.
HSTS = "max-age=31536000; includeSubDomains"

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "geolocation=(), camera=(), microphone=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def load_secret(configured: str, data_dir: Path) -> bytes:
    """ADMIN_SECRET_KEY, or a random key generated once and kept under DATA_DIR."""
    if configured:
        return configured.encode()
    path = Path(data_dir) / "admin_secret_key"
    if path.is_file():
        return path.read_text().strip().encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key.encode()


class Signer:
    def __init__(self, secret: bytes):
        self._key = hashlib.sha256(b"via-livre-admin:" + secret).digest()

    def _mac(self, data: bytes) -> str:
        return base64.urlsafe_b64encode(hmac.new(self._key, data, hashlib.sha256).digest()
                                        ).decode().rstrip("=")

    def sign(self, payload: dict) -> str:
        body = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()
                                        ).decode().rstrip("=")
        return f"{body}.{self._mac(body.encode())}"

    def unsign(self, token: str | None) -> dict | None:
        if not token or "." not in token:
            return None
        body, mac = token.rsplit(".", 1)
        if not hmac.compare_digest(mac, self._mac(body.encode())):
            return None
        try:
            return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except ValueError:
            return None

    def csrf_token(self, nonce: str) -> str:
        return self._mac(f"csrf:{nonce}".encode())

    def csrf_ok(self, nonce: str, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf_token(nonce), token or "")


@dataclass
class Session:
    user_id: int | None
    nonce: str
    issued: float
    fresh: bool = False  # must be (re)written to the cookie
    version: int = 0  # the user's session version when it was issued
    #: The city an installation administrator acts as (chosen in the header; admin.web)
    city: str | None = None

    @classmethod
    def anonymous(cls) -> "Session":
        return cls(None, secrets.token_urlsafe(18), time.time(), True)

    def payload(self) -> dict:
        data = {"u": self.user_id, "n": self.nonce, "t": int(self.issued), "v": self.version}
        if self.city:
            data["c"] = self.city
        return data


def read_session(signer: Signer, token: str | None, now: float | None = None) -> Session:
    data = signer.unsign(token)
    now = time.time() if now is None else now
    if not data or not isinstance(data.get("n"), str):
        return Session.anonymous()
    if data.get("u") is not None and now - float(data.get("t", 0)) > SESSION_HOURS * 3600:
        return Session.anonymous()
    user, version = data.get("u"), data.get("v", 0)
    if user is not None and not (isinstance(user, int) and isinstance(version, int)):
        return Session.anonymous()
    city = data.get("c") if isinstance(data.get("c"), str) else None
    return Session(user, data["n"], float(data.get("t", now)), version=version, city=city)


@dataclass
class LoginThrottle:
    """Wrong passwords per (username, IP), in the database (core.services.staff.login_failures), so
    N panel processes behind one address throttle as one."""

    max_failures: int = MAX_FAILURES
    window_s: float = WINDOW_S

    async def blocked_for(self, core: Core, username: str, ip: str,
                          now: float | None = None) -> float:
        """Seconds until this pair may try again (0 = allowed)."""
        now = time.time() if now is None else now
        recent = [t.timestamp() for t in await login_failures.since(
            core, username.lower(), ip, _at(now - self.window_s))]
        if len(recent) < self.max_failures:
            return 0.0
        return max(0.0, recent[-self.max_failures] + self.window_s - now)

    async def failed(self, core: Core, username: str, ip: str,
                     now: float | None = None) -> None:
        now = time.time() if now is None else now
        await login_failures.record(core, username.lower(), ip, _at(now),
                                    forget_before=_at(now - self.window_s))

    async def succeeded(self, core: Core, username: str, ip: str) -> None:
        await login_failures.clear(core, username.lower(), ip)


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, timezone.utc)


def local_referer(request) -> str | None:
    """The Referer's path when it is a page of this panel, by the same check as the login's
    `next` (safe_next); None otherwise ("http://host//evil.example/x" is another site)."""
    prefix = f"{request.scheme}://{request.host}"
    back = request.headers.get("Referer", "")
    if not back.startswith(prefix + "/"):
        return None
    path = back[len(prefix):]
    return path if safe_next(path) == path else None
