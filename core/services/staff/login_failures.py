"""Wrong passwords at the panel, counted in the database so every panel process (replicas
behind one address) throttles the same login attempts (admin.security.LoginThrottle), and a
restart does not clear them."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select

from core.services.context import Core
from core.storage.models import LoginFailure


async def since(core: Core, username: str, ip: str, start: datetime) -> list[datetime]:
    """The pair's failures from `start` on, oldest first."""
    async with core.db.read() as s:
        return list((await s.execute(select(LoginFailure.failed_at).where(
            LoginFailure.username == username[:200], LoginFailure.ip == ip[:64],
            LoginFailure.failed_at >= start).order_by(LoginFailure.failed_at))).scalars())


async def record(core: Core, username: str, ip: str, at: datetime,
                 forget_before: datetime) -> None:
    """One more failure of the pair; the pair's failures older than `forget_before` go."""
    async with core.db.unit_of_work() as s:
        await s.execute(delete(LoginFailure).where(
            LoginFailure.username == username[:200], LoginFailure.ip == ip[:64],
            LoginFailure.failed_at < forget_before))
        s.add(LoginFailure(username=username[:200], ip=ip[:64], failed_at=at))


async def clear(core: Core, username: str, ip: str) -> None:
    async with core.db.unit_of_work() as s:
        await s.execute(delete(LoginFailure).where(
            LoginFailure.username == username[:200], LoginFailure.ip == ip[:64]))
