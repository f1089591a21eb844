"""Evidence files no case keeps (orphans): a refused report's photos are removed at once
(`discard`), and the periodic job removes any other left behind (`remove_orphans`), e.g. by a
crash between storing a photo and recording its case, or a draft abandoned in the bot.

A file is an orphan when no evidence row names it, it is not the public copy of a kept file,
no conversation draft (a draft's photos are stored before the report is sent), timeline event,
queued message, case detail or supporting report mentions it, and it is older than GRACE (a
form being filled in, an album arriving). The rows are read first and the files deleted after, as the retention purge does
(core.services.cases.retention)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Iterable

from sqlalchemy import String, cast, select

from core.services.context import Core
from core.storage import leases
from core.storage.models import (Case, ConversationState, Event, Evidence, OutboxMessage,
                                 SupportingReport)
from core.storage.models_web import WebDraft
from core.storage.models_whatsapp import WhatsAppChat

GRACE = timedelta(days=2)
#: The sweep reads the whole store: once a day is enough.
EVERY = timedelta(days=1)
JOB = "orphans"
BATCH = 500


@dataclass
class OrphanReport:
    removed: list[str] = field(default_factory=list)


async def _kept(core: Core, shas: list[str]) -> set[str]:
    """Those of `shas` a row names (evidence, its public copy, a draft, an event, a message)."""
    kept: set[str] = set()
    async with core.db.read() as s:
        for i in range(0, len(shas), BATCH):
            part = shas[i:i + BATCH]
            kept |= set((await s.execute(select(Evidence.sha256).where(
                Evidence.sha256.in_(part)))).scalars())
            kept |= set((await s.execute(select(Evidence.stripped_sha256).where(
                Evidence.stripped_sha256.in_(part)))).scalars())
        for sha in (x for x in shas if x not in kept):
            for column in (ConversationState.draft, WhatsAppChat.draft, WebDraft.draft,
                           Event.data, OutboxMessage.payload, Case.details,
                           SupportingReport.photos):
                found = (await s.execute(select(1).where(
                    cast(column, String).like(f"%{sha}%")).limit(1))).first()
                if found:
                    kept.add(sha)
                    break
    return kept


async def discard(core: Core, shas: Iterable[str]) -> list[str]:
    """Remove the files of a refused report that no row names (stored by this request: a
    file that was already there before it is not passed here). Returns the removed ones."""
    wanted = [s for s in dict.fromkeys(shas) if core.evidence.exists(s)]
    if not wanted:
        return []
    kept = await _kept(core, wanted)
    gone = [s for s in wanted if s not in kept]
    for sha in gone:
        public = core.evidence.public_sha(sha)
        keep_public = bool(public and await _kept(core, [public]))
        await asyncio.to_thread(core.evidence.remove, sha, with_public=not keep_public)
    return gone


async def remove_orphans(core: Core, now: datetime | None = None, limit: int = 1000
                         ) -> OrphanReport:
    """The periodic job's sweep: remove at most `limit` orphan files older than GRACE."""
    now = now or core.now()
    cutoff = (now - GRACE).timestamp()
    stored = await asyncio.to_thread(core.evidence.stored)
    old = [(sha, public) for sha, mtime, public in stored if mtime < cutoff]
    report = OrphanReport()
    if not old:
        return report
    kept = await _kept(core, [sha for sha, _ in old])
    for sha, public in old:
        if sha in kept or len(report.removed) >= limit:
            continue
        keep_public = bool(public and await _kept(core, [public]))
        await asyncio.to_thread(core.evidence.remove, sha, with_public=not keep_public)
        report.removed.append(sha)
    return report



async def remove_orphans_if_due(core: Core, now: datetime | None = None) -> OrphanReport:
    """`remove_orphans` when it last ran EVERY ago or more (its own lease row)."""
    now = now or core.now()
    if not await leases.hold(core.db, JOB, JOB, now) or not await leases.due(
            core.db, JOB, EVERY, now):
        return OrphanReport()
    report = await remove_orphans(core, now)
    await leases.record_run(core.db, JOB, JOB, now)
    return report
