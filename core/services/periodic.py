"""The periodic job both deployments run (the bot's loop; a cron could too): move lapsed
deadlines, warn inspectors, remind owners, purge expired evidence, forget old update ids. Each part is idempotent
and driven by the database, so running it twice or after a crash sends nothing twice."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.services.context import Core
from core.services.conversation import forget_processed
from core.services.reminders import ReminderReport, owner_reminders
from core.services.retention import PurgeReport, purge_expired_evidence
from core.services.sweep import SweepReport, sweep_deadlines
from core.services.warnings import WarningReport, inspector_warnings


@dataclass
class PeriodicReport:
    sweep: SweepReport
    warnings: WarningReport
    reminders: ReminderReport
    purge: PurgeReport
    forgotten_updates: int = 0

    @property
    def queued_messages(self) -> bool:
        return bool(self.sweep.moved or self.sweep.refused or self.warnings.queued
                    or self.reminders.queued)


async def run_periodic(core: Core, now: datetime | None = None) -> PeriodicReport:
    now = now or core.now()
    return PeriodicReport(await sweep_deadlines(core, now), await inspector_warnings(core, now),
                          await owner_reminders(core, now), await purge_expired_evidence(core, now),
                          await forget_processed(core, now=now))
