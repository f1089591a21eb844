"""WhatsApp chats as the conversation keeps them: each chat's state and draft (as
core.services.messaging.conversation keeps Telegram's), the hour of the person's last message
(it opens the 24 hours in which a free-form message may go: after them only an approved
template) and the message ids already taken. A step's effect, its state and its message id
are written in ONE transaction (`record`), so a webhook delivered twice, or a process killed
between two messages, does nothing twice and loses nothing acknowledged."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.services.messaging.conversation import IDLE, AlreadyProcessed
from core.storage.dialect import insert_ignore
from core.storage.models_whatsapp import WhatsAppChat, WhatsAppSeen
from core.text import clean_data

#: After the person's last message, free-form messages may go for this long (Meta's
#: customer-service window); later, only approved templates.
WINDOW = timedelta(hours=24)
#: Meta redelivers a webhook for up to 7 days: ids older than that are forgotten.
SEEN_FOR = timedelta(days=8)


@dataclass
class Chat:
    wa_id: str
    state: str = IDLE
    draft: dict[str, Any] = field(default_factory=dict)
    last_inbound_at: datetime | None = None


async def load(core: Core, wa_id: str, message_id: str | None = None) -> Chat | None:
    """The chat as stored (a new one when there is none), or None when `message_id` was
    taken before (a redelivered webhook): one read for both."""
    async with core.db.read() as s:
        if message_id is not None and await s.get(WhatsAppSeen, message_id) is not None:
            return None
        row = await s.get(WhatsAppChat, wa_id)
    if row is None:
        return Chat(wa_id)
    return Chat(wa_id, row.state, dict(row.draft or {}), row.last_inbound_at)


async def record(s: AsyncSession, wa_id: str, message_id: str | None, now: datetime, *,
                 state: str | None = None, draft: dict[str, Any] | None = None,
                 clear: bool = False) -> None:
    """In the caller's transaction: the message taken (AlreadyProcessed, so the transaction
    rolls back, when it was taken before), the person's last message now, and the chat's
    next `state` and `draft` (kept as they are when `state` is None; IDLE and empty when
    `clear`)."""
    if message_id is not None:
        result = cast(CursorResult[Any], await s.execute(insert_ignore(
            s, WhatsAppSeen.__table__, {"message_id": message_id, "seen_at": now},
            ["message_id"])))
        if result.rowcount != 1:
            raise AlreadyProcessed(message_id)
    if clear:
        state, draft = IDLE, {}
    values: dict[str, Any] = {"wa_id": wa_id, "updated_at": now, "last_inbound_at": now,
                              "state": state or IDLE, "draft": clean_data(dict(draft or {}))}
    module = sqlite if s.get_bind().dialect.name == "sqlite" else postgresql
    stmt = module.insert(WhatsAppChat.__table__).values(**values)
    changes = {"last_inbound_at": stmt.excluded.last_inbound_at,
               "updated_at": stmt.excluded.updated_at}
    if state is not None:
        changes.update(state=stmt.excluded.state, draft=stmt.excluded.draft)
    await s.execute(stmt.on_conflict_do_update(index_elements=["wa_id"], set_=changes))


def window_open(last_inbound_at: datetime | None, now: datetime) -> bool:
    """May a free-form message go now (within 24 hours of the person's last message)?"""
    return last_inbound_at is not None and now - last_inbound_at < WINDOW


async def last_inbound(core: Core, wa_ids: set[str]) -> dict[str, datetime | None]:
    """Each person's last message (the outbox asks before sending free text)."""
    if not wa_ids:
        return {}
    async with core.db.read() as s:
        rows = (await s.execute(select(WhatsAppChat.wa_id, WhatsAppChat.last_inbound_at)
                                .where(WhatsAppChat.wa_id.in_(wa_ids)))).all()
    return {w: at for w, at in rows}


async def forget_seen(core: Core, now: datetime | None = None) -> int:
    """Drop message ids older than any redelivery."""
    async with core.db.unit_of_work() as s:
        result = cast(CursorResult[Any], await s.execute(delete(WhatsAppSeen).where(
            WhatsAppSeen.seen_at < (now or core.now()) - SEEN_FOR)))
        return result.rowcount or 0
