"""`Core`: what every use case needs — the database, the city's law, its calendar and tariff
book, the evidence store, a clock and the city's time zone. Both faces build one at start-up
with `Core.open()`.

One way to join a transaction: a service that may be part of a larger change takes
`session: AsyncSession | None = None` and opens `async with core.transaction(session) as s:`
(the caller's session, or a unit of work of its own); a face, which holds no session, passes
`also=` (a `SessionHook`) that the service awaits inside its own transaction.

May import: core's pure rules and core.storage; no other service (every service imports it)."""
from __future__ import annotations

import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.area import CityArea
from core.fees import Tariff as FeeTariff, TariffBook
from core.laws import get_law
from core.laws.base import Law
from core.legal_calendar import Closure as CalendarClosure, LegalCalendar
from core.settings import Settings
from core.storage.db import Database
from core.storage.evidence import EvidenceStore
from core.storage.models import Closure, Tariff


#: A face's change that must commit with a service's (the conversation's next state with the
#: step it answers): the service awaits `hook(session)` inside its own transaction, after its
#: writes; if either fails, both roll back.
SessionHook = Callable[[AsyncSession], Awaitable[None]]


def utc_clock() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Core:
    db: Database
    law: Law
    settings: Settings
    evidence: EvidenceStore
    clock: Callable[[], datetime] = utc_clock
    _calendar: LegalCalendar | None = field(default=None, repr=False)
    _book: TariffBook | None = field(default=None, repr=False)
    _loaded_at: float = field(default=0.0, repr=False)
    _area: CityArea | None = field(default=None, repr=False)
    #: Seconds a process keeps tariffs and closures cached: a change made in the panel
    #: reaches the bot (another process) within this time.
    cache_seconds: float = 60.0

    @classmethod
    async def open(cls, settings: Settings, *, clock: Callable[[], datetime] | None = None,
                   database_url: str | None = None) -> "Core":
        """Create the data directory, apply migrations and seed the law's dated values."""
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
        db = Database.from_url(database_url or settings.resolved_database_url())
        await db.migrate()
        core = cls(db, get_law(settings.municipality), settings, EvidenceStore(settings.data_dir),
                   clock or utc_clock)
        await core.seed_tariffs()
        return core

    async def close(self) -> None:
        await self.db.dispose()

    def now(self) -> datetime:
        return self.clock()

    @property
    def tz(self) -> ZoneInfo:
        """The city's time zone (TIMEZONE; by default core.formatting.TZ_NAME)."""
        return ZoneInfo(self.settings.timezone)

    @asynccontextmanager
    async def transaction(self, session: AsyncSession | None = None
                          ) -> AsyncIterator[AsyncSession]:
        """The caller's `session` (a larger use case: everything commits together), or a unit
        of work of its own."""
        if session is not None:
            yield session
            return
        async with self.db.unit_of_work() as s:
            yield s

    @property
    def area(self) -> CityArea:
        """The city's area: CITY_BOUNDARY_FILE (GeoJSON) or a centre and radius, by default
        the law module's (read once)."""
        if self._area is None:
            s = self.settings
            if s.city_boundary_file:
                self._area = CityArea.from_geojson(self.law.city, s.city_boundary_file)
            else:
                centre = (s.city_center_lat if s.city_center_lat is not None
                          else self.law.centre[0],
                          s.city_center_lon if s.city_center_lon is not None
                          else self.law.centre[1])
                self._area = CityArea(self.law.city, centre,
                                      s.city_radius_m or self.law.radius_m)
        return self._area

    # -- dated data: tariffs and closures ----------------------------------------------------

    async def seed_tariffs(self) -> None:
        """Insert the law module's tariff seeds the first time (staff edit them later)."""
        async with self.db.unit_of_work() as s:
            have = (await s.execute(select(Tariff.id).where(
                Tariff.municipality == self.law.slug).limit(1))).first()
            if have:
                return
            for t in self.law.tariffs:
                s.add(Tariff(municipality=self.law.slug, code=t.code, amount=t.amount,
                             currency=t.currency, unit=t.unit, valid_from=t.valid_from,
                             article=t.article, source=t.source, created_by="seed"))
        self._book = None

    def _expire(self) -> None:
        if time.monotonic() - self._loaded_at > self.cache_seconds:
            self._calendar = self._book = None
            self._loaded_at = time.monotonic()

    async def tariff_book(self) -> TariffBook:
        self._expire()
        if self._book is None:
            async with self.db.read() as s:
                rows = (await s.execute(select(Tariff).where(
                    Tariff.municipality == self.law.slug))).scalars().all()
            labels = {t.code: t.label for t in self.law.tariffs}
            self._book = TariffBook([
                FeeTariff(code=r.code, label=labels.get(r.code, r.code), amount=r.amount,
                          currency=r.currency, unit=r.unit, valid_from=r.valid_from,
                          article=r.article, source=r.source) for r in rows])
        return self._book

    async def calendar(self, session: AsyncSession | None = None) -> LegalCalendar:
        """The municipality's legal calendar (cached). With `session`, read afresh in that
        transaction (a closure just added there counts: core.services.cases.deadline_recount)."""
        if session is not None:
            return self._build_calendar(await _closures(session, self.law.slug))
        self._expire()
        if self._calendar is None:
            async with self.db.read() as s:
                self._calendar = self._build_calendar(await _closures(s, self.law.slug))
        return self._calendar

    def _build_calendar(self, rows: list[Closure]) -> LegalCalendar:
        closures = [CalendarClosure(r.date, r.name, _closure_kind(r.kind), r.source)
                    for r in rows]
        setting = self.law.settings.get("hours_deadline_end_of_day")
        end_of_day = bool(setting and setting.value)
        return LegalCalendar.for_law(self.law, closures, tz=self.settings.timezone,
                                     hours_end_of_day=end_of_day)

    def invalidate(self) -> None:
        """Forget cached tariffs and calendar (after staff edit them in this process)."""
        self._calendar = None
        self._book = None


async def _closures(s: AsyncSession, slug: str) -> list[Closure]:
    return list((await s.execute(select(Closure).where(Closure.municipality == slug))
                 ).scalars().all())


def _closure_kind(kind: str) -> str:
    return "municipal_holiday" if kind in ("holiday", "municipal_holiday") else "decreed_closure"
