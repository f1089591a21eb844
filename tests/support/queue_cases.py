"""Inspectors and their tasks for the queue's tests (no tests here)."""
from __future__ import annotations

from sqlalchemy import select

from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.storage.models import Case, Task


async def fiscal(core, tg: int, name: str, agency: str = "posturas") -> int:
    code = await invite_inspector(core, name, agency, "ana")
    return (await bind_inspector(core, tg, code, name)).inspector_id


async def task_of(core, protocol) -> Task:
    async with core.db.read() as s:
        return (await s.execute(select(Task).join(Case).where(Case.protocol == protocol)
                                .order_by(Task.id.desc()).limit(1))).scalar_one()
