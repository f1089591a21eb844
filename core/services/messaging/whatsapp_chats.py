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
from core.storage.group_commit import GroupCommit
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


# -- grouped writes (the face's per-message step) ---------------------------------------------
#
# Most messages end in one small write: the message id taken, the chat's next state. As the
# Telegram bot's (core.services.messaging.conversation.write), concurrent writes of different
# chats share one transaction (core.storage.group_commit): one INSERT of the ids (ON CONFLICT
# DO NOTHING RETURNING), one upsert of the chats. A write whose id was taken before is
# AlreadyProcessed and writes nothing. Durable when `write` returns.

@dataclass(eq=False)
class _Write:
    wa_id: str
    message_id: str
    state: str | None
    draft: dict[str, Any] | None
    now: datetime


async def write(core: Core, wa_id: str, message_id: str, *, state: str | None = None,
                draft: dict[str, Any] | None = None, clear: bool = False) -> None:
    """`record` in a transaction of its own, shared with other chats' concurrent writes."""
    if clear:
        state, draft = IDLE, {}
    await _WRITES.submit(core.db, _Write(wa_id, message_id, state,
                                         clean_data(dict(draft or {})), core.now()))


async def _write_group(s: AsyncSession, batch: list[_Write]) -> list[Any]:
    conn = await s.connection()
    module = sqlite if conn.dialect.name == "sqlite" else postgresql
    seen = WhatsAppSeen.__table__
    stmt = (module.insert(seen).values([{"message_id": w.message_id, "seen_at": w.now}
                                        for w in batch])
            .on_conflict_do_nothing(index_elements=["message_id"])
            .returning(seen.c.message_id))
    inserted = set((await conn.execute(stmt)).scalars())
    results: list[Any] = []
    for w in batch:
        if w.message_id not in inserted:
            results.append(AlreadyProcessed(w.message_id))
            continue
        results.append(None)
        values = {"wa_id": w.wa_id, "updated_at": w.now, "last_inbound_at": w.now,
                  "state": w.state or IDLE, "draft": w.draft or {}}
        up = module.insert(WhatsAppChat.__table__).values(**values)
        changes = {"last_inbound_at": up.excluded.last_inbound_at,
                   "updated_at": up.excluded.updated_at}
        if w.state is not None:
            changes.update(state=up.excluded.state, draft=up.excluded.draft)
        await conn.execute(up.on_conflict_do_update(index_elements=["wa_id"], set_=changes))
    return results


_WRITES: GroupCommit[_Write, Any] = GroupCommit(_write_group, max_group=64,
                                                key=lambda w: w.wa_id)


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
