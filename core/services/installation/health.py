"""Whether the installation is ready to serve, as `/readyz` answers it on the panel and on the
bot's listener: the database answers, its schema is at the migrations' head, the periodic job
(deadline sweep, warnings, reminders) ran within its interval, and no message has waited in an
outbox (Telegram, e-mail) longer than a threshold. Each check is named with a short reason;
nothing personal is ever read (counts, ages and revisions only).

    ready = await readiness(core)      # Readiness(ok, checks=[Check("database", True, ""), …])
    ready.as_json()                    # {"status": "ready"|"unready", "checks": {...}}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import func, select, text, true

from core.services.context import Core
from core.services.periodic import JOB
from core.storage.db import alembic_config
from core.storage.models import JobLease, OutboxMessage
from core.storage.models_email import EmailMessage
from core.storage.types import utcnow

#: The outboxes, by channel: the table of messages each face delivers and, where one table
#: holds several channels, the rows of this one
OUTBOXES: dict[str, tuple[type[OutboxMessage] | type[EmailMessage], Any]] = {
    "telegram": (OutboxMessage, OutboxMessage.channel == "telegram"),
    "whatsapp": (OutboxMessage, OutboxMessage.channel == "whatsapp"),
    "email": (EmailMessage, true())}
WAITING = ("pending", "sending")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class Readiness:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failing(self) -> list[str]:
        return [c.name for c in self.checks if not c.ok]

    def as_json(self) -> dict:
        return {"status": "ready" if self.ok else "unready", "failing": self.failing,
                "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in self.checks}}


@lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The newest migration shipped with this code."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def database_revision(core: Core) -> str | None:
    """The revision the database's schema is at; None when it has none (never migrated)."""
    try:
        async with core.db.read() as s:
            return (await s.execute(text("SELECT version_num FROM alembic_version"))).scalar()
    except Exception:  # no alembic_version table
        return None


async def last_sweep(core: Core) -> datetime | None:
    """When the periodic job last started a run that completed (any worker)."""
    async with core.db.read() as s:
        return (await s.execute(select(JobLease.last_run_at).where(
            JobLease.name == JOB))).scalar()


async def oldest_waiting(core: Core) -> dict[str, tuple[int, datetime | None]]:
    """Per channel: how many messages wait to be delivered, and when the oldest was queued."""
    out: dict[str, tuple[int, datetime | None]] = {}
    async with core.db.read() as s:
        for channel, (model, rows) in OUTBOXES.items():
            row = (await s.execute(select(func.count(), func.min(model.created_at)).where(
                rows, model.status.in_(WAITING)))).one()
            out[channel] = (int(row[0]), row[1])
    return out


def _seconds(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds()))


async def readiness(core: Core, now: datetime | None = None) -> Readiness:
    """Every check, in order; once the database does not answer, the others are not tried."""
    settings = core.settings
    now = now or utcnow()
    try:
        async with core.db.read() as s:
            await s.execute(text("SELECT 1"))
    except Exception as exc:  # unreachable, locked past the busy timeout, …
        return Readiness([Check("database", False, type(exc).__name__)]
                         + [Check(n, False, "database unavailable")
                            for n in ("migrations", "sweep", "outbox")])
    checks = [Check("database", True, core.db.dialect)]
    head, current = head_revision(), await database_revision(core)
    checks.append(Check("migrations", current == head,
                        f"at {current}" if current == head else f"at {current}, head {head}"))
    late = timedelta(seconds=settings.ready_sweep_late_s)
    ran = await last_sweep(core)
    if ran is None:
        checks.append(Check("sweep", False, "never ran"))
    else:
        age = now - ran
        checks.append(Check("sweep", age <= late, f"last run {_seconds(age)} s ago "
                                                  f"(late after {_seconds(late)} s)"))
    limit = timedelta(seconds=settings.ready_outbox_max_age_s)
    stuck, parts = [], []
    for channel, (count, oldest) in (await oldest_waiting(core)).items():
        waited = _seconds(now - oldest) if oldest is not None else 0
        parts.append(f"{channel}: {count} waiting, oldest {waited} s")
        if oldest is not None and now - oldest > limit:
            stuck.append(channel)
    checks.append(Check("outbox", not stuck, "; ".join(parts)
                        + (f" (stuck: {', '.join(stuck)}; limit {_seconds(limit)} s)"
                           if stuck else "")))
    return Readiness(checks)
