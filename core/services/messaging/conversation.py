"""The bot's durable conversation: one draft per Telegram user, and the update ids already
handled. Both are written in the SAME transaction as the step's effect, so a crash (even
SIGKILL) between two updates loses nothing, and an update delivered twice does nothing twice.

The bot never uses python-telegram-bot's persistence (it writes on an interval and loses what
came in since the last write). Drafts hold what people typed: they are stored cleaned of the
characters the database refuses (core.text)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.storage.dialect import insert_ignore
from core.storage.group_commit import GroupCommit
from core.storage.models import ConversationState, ProcessedUpdate
from core.storage.types import utcnow
from core.text import clean_data

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


async def load_all(core: Core, limit: int) -> dict[int, Conversation] | None:
    """Every stored conversation (users mid-conversation only: a finished one is cleared),
    or None when there are more than `limit` of them."""
    async with core.db.read() as s:
        rows = (await s.execute(select(ConversationState).limit(limit + 1))).scalars().all()
    if len(rows) > limit:
        return None
    return {r.user_id: Conversation(r.user_id, r.state, dict(r.draft or {}), r.updated_at)
            for r in rows}


async def save(s: AsyncSession, user_id: int, state: str, draft: dict[str, Any],
               now: datetime | None = None) -> None:
    """Store the user's state and draft in the caller's transaction (one upsert)."""
    values = {"user_id": user_id, "state": state, "draft": clean_data(dict(draft)),
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


async def forget_processed(core: Core, older_than: timedelta = timedelta(days=7),
                           now: datetime | None = None) -> int:
    """Drop old idempotency records (Telegram never re-delivers an update after a day)."""
    async with core.db.unit_of_work() as s:
        result = await s.execute(delete(ProcessedUpdate).where(
            ProcessedUpdate.processed_at < (now or core.now()) - older_than))
        return result.rowcount or 0


# -- grouped writes (the bot's per-update step) ---------------------------------------------------
#
# Every update the bot handles ends in one small write: the idempotency mark and usually the
# user's next state. Concurrent `write` calls (different users; one user's updates run one at
# a time, and one user's writes never share a group) are group-committed
# (core.storage.group_commit): one INSERT of all marks (ON CONFLICT DO NOTHING RETURNING the
# ids it inserted), one upsert of all saved states, one DELETE of all cleared ones. A write
# whose mark was already there is AlreadyProcessed: nothing of it is written, so each update
# stays all-or-nothing. Each caller returns only once its transaction committed: the step is
# durable when `write` returns.

SAVE, CLEAR, MARK = "save", "clear", "mark"
MAX_GROUP = 64


@dataclass(eq=False)
class _Write:
    op: str  # SAVE, CLEAR or MARK (only the idempotency mark)
    user_id: int
    update_id: int | None  # None: this update is marked already (a second write in one step)
    state: str | None
    draft: dict[str, Any] | None
    now: datetime


async def write(core: Core, user_id: int, update_id: int | None, op: str = SAVE,
                state: str | None = None, draft: dict[str, Any] | None = None) -> None:
    """Mark `update_id` processed (unless None) and, in the same transaction, store the
    user's `state` and `draft` (op SAVE), forget them (CLEAR) or leave them (MARK). Durable
    when it returns; raises AlreadyProcessed (nothing written) if the update was marked
    before. Concurrent calls share one transaction (see above)."""
    if op == SAVE and state is None:
        raise ValueError("SAVE needs a state")
    draft = clean_data(dict(draft or {})) if op == SAVE else None
    w = _Write(op, user_id, update_id, state, draft, core.now())
    await _WRITES.submit(core.db, w)


_MARKS = ProcessedUpdate.__table__
_STATES = ConversationState.__table__


async def _write_group(s: AsyncSession, batch: list[_Write]) -> list[Any]:
    """All of `batch` in the session's transaction, set-wise; per write None or
    AlreadyProcessed (that write's statements left out)."""
    conn = await s.connection()
    module = sqlite if conn.dialect.name == "sqlite" else postgresql
    marks = [{"update_id": w.update_id, "processed_at": w.now}
             for w in batch if w.update_id is not None]
    inserted: set[int] = set()
    if marks:
        stmt = (module.insert(_MARKS).values(marks)
                .on_conflict_do_nothing(index_elements=["update_id"])
                .returning(_MARKS.c.update_id))
        inserted = set((await conn.execute(stmt)).scalars())
    results: list[Any] = []
    saves, clears = [], []
    for w in batch:
        if w.update_id is not None and w.update_id not in inserted:
            results.append(AlreadyProcessed(w.update_id))
            continue
        results.append(None)
        if w.op == SAVE:
            saves.append({"user_id": w.user_id, "state": w.state, "draft": w.draft,
                          "updated_at": w.now})
        elif w.op == CLEAR:
            clears.append(w.user_id)
    if saves:
        stmt = module.insert(_STATES).values(saves)
        await conn.execute(stmt.on_conflict_do_update(
            index_elements=["user_id"],
            set_={"state": stmt.excluded.state, "draft": stmt.excluded.draft,
                  "updated_at": stmt.excluded.updated_at}))
    if clears:
        await conn.execute(delete(_STATES).where(_STATES.c.user_id.in_(clears)))
    return results


_WRITES: GroupCommit[_Write, Any] = GroupCommit(_write_group, max_group=MAX_GROUP,
                                                key=lambda w: w.user_id)
