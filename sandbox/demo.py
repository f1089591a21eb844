"""What a newcomer needs around the sandbox chat: a panel account to enter with, the folder
where the documents the bot sends are kept, and a demo clock that can be moved forward so a
deadline lapses before their eyes.

All of it lives in DATA_DIR/sandbox/ (the sandbox's own corner of the data directory):
`conta-demo.txt` (the demo panel account, made once, on a database with no panel account),
`documentos/` (every file the bot sends in the sandbox) and `relogio.txt` (how far the demo
clock is ahead of the real one, in seconds). The demo clock is the sandbox's Core clock
(core.services.context.Core.clock): the dates the bot records and the deadline sweep
(core.services.periodic.run_periodic) read it; the panel, a separate process, keeps the
real clock.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from core.formatting import plural
from core.services.context import Core, utc_clock
from core.services.staff.accounts import create_user, list_users
from core.settings import Settings

DEMO_USERNAME = "demo"
_STEP = re.compile(r"^([+-]?)(\d{1,4})\s*([dhm]?)$")
_UNITS = {"d": "days", "h": "hours", "m": "minutes", "": "days"}


def corner(settings: Settings) -> Path:
    """DATA_DIR/sandbox: the files only the sandbox writes."""
    return Path(settings.data_dir).resolve() / "sandbox"


def documents_dir(settings: Settings) -> Path:
    return corner(settings) / "documentos"


# -- the demo panel account -------------------------------------------------------------------

@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    address: str


def panel_address(settings: Settings) -> str:
    host = settings.admin_host if settings.admin_host not in ("0.0.0.0", "::", "") \
        else "127.0.0.1"
    return f"http://{host}:{settings.admin_port}/login"


async def demo_account(core: Core) -> DemoAccount | None:
    """The demo panel account (an administrator): made on a database with no panel account
    yet, its password kept in DATA_DIR/sandbox/conta-demo.txt and shown again on later starts;
    None when the database already had its own accounts (never a known password there)."""
    saved = corner(core.settings) / "conta-demo.txt"
    users = {u.username: u for u in await list_users(core)}
    if saved.is_file() and DEMO_USERNAME in users and users[DEMO_USERNAME].active:
        password = saved.read_text("utf-8").strip()
    elif users:
        return None
    else:
        password = secrets.token_urlsafe(12)
        await create_user(core, DEMO_USERNAME, password, "admin")
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(password + "\n", "utf-8")
        saved.chmod(0o600)
    return DemoAccount(DEMO_USERNAME, password, panel_address(core.settings))


# -- the demo clock ---------------------------------------------------------------------------

def parse_step(text: str) -> timedelta:
    """"+3d", "3d", "+12h", "-1d", "90m" (days when no unit) as a timedelta; ValueError in
    Portuguese otherwise."""
    m = _STEP.match(text.strip().lower())
    if not m:
        raise ValueError(f"não entendi “{text}”: use, por exemplo, +3d (dias), +12h (horas) "
                         "ou +30m (minutos)")
    sign, amount, unit = m.groups()
    step = timedelta(**{_UNITS[unit]: int(amount)})
    return -step if sign == "-" else step


class DemoClock:
    """The real UTC clock plus the offset in DATA_DIR/sandbox/relogio.txt, read again when the
    file changes (so `python -m sandbox clock +3d` in another terminal moves a running chat)."""

    def __init__(self, settings: Settings, real: Callable[[], datetime] = utc_clock) -> None:
        self.path = corner(settings) / "relogio.txt"
        self.real = real
        self._mtime: float | None = None
        self._offset = timedelta()

    @property
    def offset(self) -> timedelta:
        try:
            mtime = self.path.stat().st_mtime
        except OSError:
            self._mtime, self._offset = None, timedelta()
            return self._offset
        if mtime != self._mtime:
            try:
                self._offset = timedelta(seconds=float(self.path.read_text("utf-8").strip()))
            except ValueError:
                self._offset = timedelta()
            self._mtime = mtime
        return self._offset

    def __call__(self) -> datetime:
        return self.real() + self.offset

    def move(self, step: timedelta) -> timedelta:
        """Move the clock by `step` (never behind the real clock); the new offset."""
        offset = max(timedelta(), self.offset + step)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(f"{offset.total_seconds():.0f}\n", "utf-8")
        self._mtime = None
        return offset


def describe_offset(clock: DemoClock, tz) -> str:
    """The demo date and how far ahead it is, in Portuguese."""
    now = clock().astimezone(tz).strftime("%d/%m/%Y %H:%M")
    offset = clock.offset
    if not offset:
        return f"Relógio do sandbox: {now} (o relógio real)."
    days, rest = offset.days, offset.seconds
    parts = [f"{days} dia{'s' if days != 1 else ''}"] if days else []
    if rest // 3600:
        parts.append(f"{rest // 3600} h")
    if rest % 3600 // 60:
        parts.append(f"{rest % 3600 // 60} min")
    return f"Relógio do sandbox: {now} ({' e '.join(parts)} à frente do relógio real)."


def moved_text(n: int) -> str:
    """What the deadline sweep did, in Portuguese: "nenhum caso mudou de etapa", "1 caso mudou
    de etapa", "2 casos mudaram de etapa"."""
    if n == 0:
        return "nenhum caso mudou de etapa"
    return f"{plural(n, 'caso', 'casos')} {'mudou' if n == 1 else 'mudaram'} de etapa"


# -- the demo people ----------------------------------------------------------------------------

DEMO_INSPECTOR = "Fiscal de Demonstração"
DEMO_REGISTRATION = "DEMO-0001"  # printed on the papers the demo inspector signs
DEMO_AGENCY = "posturas"


async def demo_invitation(core: Core, telegram_id: int) -> str | None:
    """An invitation for the demo inspector (core.services.inspectors, as `python -m admin
    invite-inspector` makes one) when the sandbox's inspector account is not bound yet; the
    chat binds it by sending `/fiscal CÓDIGO` as that account. Only ever on the sandbox's own
    database (the sandbox refuses one a real bot uses)."""
    from core.services.inspectors.accounts import inspector_for, invite_inspector
    if await inspector_for(core, telegram_id) is not None:
        return None
    return await invite_inspector(core, DEMO_INSPECTOR, DEMO_AGENCY, "sandbox",
                                  registration=DEMO_REGISTRATION)


async def last_case_code(core: Core) -> str | None:
    """The newest case's code: what the QR code on its notice opens for the owner."""
    from sqlalchemy import select

    from core.storage.models import Case
    async with core.db.read() as s:
        return await s.scalar(select(Case.case_code).order_by(Case.id.desc()).limit(1))
