"""The bot's durable conversation: one draft per Telegram user, and the update ids already
handled. Both are written in the SAME transaction as the step's effect, so a crash (even
SIGKILL) between two updates loses nothing, and an update delivered twice does nothing twice.

The bot never uses python-telegram-bot's persistence (it writes on an interval and loses what
came in since the last write)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.storage.dialect import insert_ignore
from core.storage.models import ConversationState, ProcessedUpdate
from core.storage.types import utcnow

IDLE = "idle"


class AlreadyProcessed(Exception):
    """The update was handled before (the transaction that raised this is rolled back)."""


@dataclass
class Conversation:
    user_id: int
    state: str = IDLE
    draft: dict[str, Any] = field(default_factory=dict)
    updated_at: datetime | None = None


async def load(core: Core, user_id: int) -> Conversation:
    """The user's current state and draft (IDLE and {} when there is none)."""
    async with core.db.read() as s:
        return await load_in(s, user_id)


async def load_in(s: AsyncSession, user_id: int) -> Conversation:
    row = await s.get(ConversationState, user_id)
    if row is None:
        return Conversation(user_id)
    return Conversation(user_id, row.state, dict(row.draft or {}), row.updated_at)


async def save(s: AsyncSession, user_id: int, state: str, draft: dict[str, Any],
               now: datetime | None = None) -> None:
    """Store the user's state and draft in the caller's transaction (one upsert)."""
    values = {"user_id": user_id, "state": state, "draft": dict(draft),
              "updated_at": now or utcnow()}
    module = sqlite if s.get_bind().dialect.name == "sqlite" else postgresql
    stmt = module.insert(ConversationState.__table__).values(**values)
    await s.execute(stmt.on_conflict_do_update(
        index_elements=["user_id"],
        set_={"state": stmt.excluded.state, "draft": stmt.excluded.draft,
              "updated_at": stmt.excluded.updated_at}))


async def clear(s: AsyncSession, user_id: int) -> None:
    """Forget the user's draft (after a submission or /cancelar), in the caller's transaction."""
    await s.execute(delete(ConversationState).where(ConversationState.user_id == user_id))


async def last_processed(core: Core) -> int:
    """The highest update id handled so far (0 if none): Telegram's ids only grow, so a
    newer one cannot have been handled before."""
    async with core.db.read() as s:
        return (await s.execute(select(func.max(ProcessedUpdate.update_id)))).scalar() or 0


async def is_processed(core: Core, update_id: int) -> bool:
    async with core.db.read() as s:
        return (await s.execute(select(ProcessedUpdate.update_id).where(
            ProcessedUpdate.update_id == update_id))).first() is not None


async def mark_processed(s: AsyncSession, update_id: int, now: datetime | None = None) -> None:
    """Record the update as handled in the caller's transaction; raise AlreadyProcessed (so
    the caller's transaction rolls back) if it was recorded before."""
    result = await s.execute(insert_ignore(s, ProcessedUpdate.__table__, {
        "update_id": update_id, "processed_at": now or utcnow()}, ["update_id"]))
    if result.rowcount != 1:
        raise AlreadyProcessed(update_id)


async def forget_processed(core: Core, older_than: timedelta = timedelta(days=7)) -> int:
    """Drop old idempotency records (Telegram never re-delivers an update after a day)."""
    async with core.db.unit_of_work() as s:
        result = await s.execute(delete(ProcessedUpdate).where(
            ProcessedUpdate.processed_at < utcnow() - older_than))
        return result.rowcount or 0
