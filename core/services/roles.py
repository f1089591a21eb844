"""Which roles a Telegram user holds: citizen (anyone), inspector (an active Inspector row,
bound through an invite code), owner (linked to a case through its case code).

May import: core's pure rules, core.storage, and core.services.{context}."""
from __future__ import annotations

from sqlalchemy import select

from core.services.context import Core
from core.storage.models import CaseOwner, Inspector, Person

CITIZEN, INSPECTOR, OWNER = "citizen", "inspector", "owner"


async def roles_of(core: Core, telegram_id: int) -> frozenset[str]:
    async with core.db.read() as s:
        person = (await s.execute(select(Person).where(Person.telegram_id == telegram_id))
                  ).scalar_one_or_none()
        if person is None:
            return frozenset({CITIZEN})
        roles = {CITIZEN}
        if (await s.execute(select(Inspector.id).where(
                Inspector.person_id == person.id, Inspector.active.is_(True)))).first():
            roles.add(INSPECTOR)
        if (await s.execute(select(CaseOwner.id).where(
                CaseOwner.person_id == person.id).limit(1))).first():
            roles.add(OWNER)
        return frozenset(roles)
