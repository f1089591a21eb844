"""How a reporter without Telegram hears that their case moved: the one place that decides.

A reporter who wrote to the bot follows the case by Telegram (a Subscription;
core.services.messaging.notifications.notify_subscribers). A reporter served at the counter, by phone or
through an Open311 client has no chat at all; they are reached only through the contact they
chose to give (ReporterContact: phone or e-mail, LGPD, Lei 13.709/2018 art. 7º, III), and
nothing for them ever goes to Telegram.

Each change of the case's state comes here (same transaction as the change). A channel that
can reach the contact takes the message and the contact is marked told of that state; with no
channel for it, the case waits on the panel's "Cidadãos a avisar" list
(core.services.staff.counter_intake.contacts_to_tell) for staff to call or write. The one
channel is e-mail (core.services.messaging.email.EmailChannel: a contact with an e-mail, while
SMTP_URL and PUBLIC_URL are set; its own outbox, never the Telegram one)."""
from __future__ import annotations

from typing import Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.messaging.email import EmailChannel
from core.settings import Settings
from core.storage.models import Case, ReporterContact


class ContactChannel(Protocol):
    def takes(self, contact: ReporterContact, settings: Settings | None) -> bool: ...

    async def send(self, s: AsyncSession, case: Case, contact: ReporterContact, text: str,
                   dedupe_key: str) -> None: ...


#: The channels able to reach a contact, tried in order.
CHANNELS: list[ContactChannel] = [EmailChannel()]


async def tell_contact(s: AsyncSession, case: Case, text: str, seq: int,
                       settings: Settings | None = None) -> bool:
    """Send `text` (the case's update) to the reporter's contact by the first channel that
    takes it under `settings`, and mark them told; False when nobody could be sent anything
    (no contact, or no channel for it: the panel lists them)."""
    contact = (await s.execute(select(ReporterContact).where(
        ReporterContact.case_id == case.id))).scalar_one_or_none()
    if contact is None:
        return False
    for channel in CHANNELS:
        if channel.takes(contact, settings):
            await channel.send(s, case, contact, text, f"case:{case.id}:ev:{seq}:contact")
            contact.told_state = case.state
            return True
    return False
