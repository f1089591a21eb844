"""People as the bot knows them: a Telegram id and what they chose to give (LGPD: minimal)."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.storage.models import Person
from core.text import clean_optional


async def person_for(s: AsyncSession, telegram_id: int, display_name: str | None = None) -> Person:
    """The person with this Telegram id, created on first contact (their Telegram name as the
    database can keep it: core.text)."""
    person = (await s.execute(select(Person).where(Person.telegram_id == telegram_id))
              ).scalar_one_or_none()
    if person is None:
        person = Person(telegram_id=telegram_id, display_name=clean_optional(display_name),
                        roles=["citizen"])
        s.add(person)
        await s.flush()
    return person


async def person_on_whatsapp(s: AsyncSession, wa_id: str,
                             display_name: str | None = None) -> Person:
    """The person with this WhatsApp id (their number), created on first contact."""
    person = (await s.execute(select(Person).where(Person.whatsapp_id == wa_id))
              ).scalar_one_or_none()
    if person is None:
        person = Person(whatsapp_id=wa_id, display_name=clean_optional(display_name),
                        roles=["citizen"])
        s.add(person)
        await s.flush()
    return person
