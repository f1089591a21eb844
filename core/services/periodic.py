"""The periodic job both deployments run (the bot's loop; a cron could too): move lapsed
deadlines, warn inspectors, remind inspectors of a notice's missing photo, remind owners,
ask reporters whether the object of a case closed days ago is gone,
purge expired evidence, remove orphan evidence files (daily), forget old update ids and the pace of quiet chats. Each part is
idempotent and driven by the database, so running it twice or after a crash sends nothing
twice.

May import: core's pure rules, core.storage, and every services package (it runs their
periodic parts)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from core.services.citizens.followup import FollowupReport, ask_due
from core.services.context import Core
from core.services.messaging.conversation import forget_processed
from core.services.cases.orphans import OrphanReport, remove_orphans_if_due
from core.services.citizens import web_drafts
from core.services.inspectors.notice_photo import NoticePhotoReport, notice_photo_reminders
from core.services.owners.reminders import ReminderReport, owner_reminders
from core.services.cases.retention import PurgeReport, purge_expired_evidence
from core.services.inspectors.queue_flow import move_queue
from core.services.cases.sweep import SweepReport, sweep_deadlines
from core.services.inspectors.warnings import WarningReport, inspector_warnings
from core.storage import leases, send_limits
from core.storage.types import utcnow

JOB = "periodic"  # its lease row (core.storage.leases): one worker at a time runs it


@dataclass
class PeriodicReport:
    sweep: SweepReport
    warnings: WarningReport
    reminders: ReminderReport
    purge: PurgeReport
    forgotten_updates: int = 0
    notice_photos: NoticePhotoReport = field(default_factory=NoticePhotoReport)
    orphans: OrphanReport = field(default_factory=OrphanReport)
    followups: FollowupReport = field(default_factory=FollowupReport)

    @property
    def queued_messages(self) -> bool:
        return bool(self.sweep.moved or self.sweep.refused or self.warnings.queued
                    or self.reminders.queued or self.notice_photos.queued
                    or self.followups.asked)


async def run_periodic(core: Core, now: datetime | None = None) -> PeriodicReport:
    """Every city served: the sweep and the owners' reminders go over all cases (each by its
    own city's law and calendar, core.for_case); the inspectors' parts run once per city."""
    now = now or core.now()
    swept = await sweep_deadlines(core, now)
    cities = [core.for_city(c) for c in core.cities] or [core]
    warnings, photos, followups = WarningReport(), NoticePhotoReport(), FollowupReport()
    for here in cities:
        await move_queue(here)  # waiting cases an inspector of the city can take now
        got = await inspector_warnings(here, now)
        warnings.queued += got.queued
        warnings.unassigned += got.unassigned
        photos.queued += (await notice_photo_reminders(here, now)).queued
        asked = await ask_due(here, now)  # the question after the closing, under its law
        followups.asked += asked.asked
        followups.unreachable += asked.unreachable
    report = PeriodicReport(
        swept, warnings,
        await owner_reminders(core, now), await purge_expired_evidence(core, now),
        await forget_processed(core, now=now), photos,
        await remove_orphans_if_due(core, now), followups)
    await send_limits.forget_idle_chats(core.db)  # the per-chat pace of chats quiet for a day
    await web_drafts.forget_old(core, now)  # web reports left unfinished for a day
    return report


async def run_if_due(core: Core, holder: str, every: timedelta) -> PeriodicReport | None:
    """Run the periodic job if `holder` holds (or takes) its lease and it last ran `every`
    ago or more, whichever worker ran it; None otherwise. The lease is renewed while the job
    runs, so a long run is not taken over; a dead holder's lease runs out (leases.LEASE) and
    the next worker to try takes the job over."""
    if not await leases.hold(core.db, JOB, holder) or not await leases.due(core.db, JOB, every):
        return None
    started = utcnow()
    renew = asyncio.create_task(_renew(core, holder))
    try:
        report = await run_periodic(core)
    finally:
        renew.cancel()
        await asyncio.gather(renew, return_exceptions=True)
    await leases.record_run(core.db, JOB, holder, started)
    return report


async def _renew(core: Core, holder: str) -> None:
    while True:
        await asyncio.sleep(leases.LEASE.total_seconds() / 3)
        await leases.hold(core.db, JOB, holder)


async def give_up(core: Core, holder: str) -> None:
    """A worker stopping cleanly hands the periodic job over at once (its lease row)."""
    await leases.give_up(core.db, JOB, holder)
