"""`Core`: what every use case needs — the database, the city's law, its calendar and tariff
book, the evidence store, a clock and the city's time zone. Both faces build one at start-up
with `Core.open()`.

One installation serves one or many cities (core.municipality). A `Core` is bound to one of
them (`core.city`, `core.law`, `core.municipality`); `core.for_city(slug)` and
`core.for_case(case)` give the same installation bound to another, sharing the database, the
evidence store, the clock and the per-city caches. `core.cities` lists the cities served and
`core.city_at(lat, lon)` is the one whose boundary holds a point (the pin decides).

One way to join a transaction: a service that may be part of a larger change takes
`session: AsyncSession | None = None` and opens `async with core.transaction(session) as s:`
(the caller's session, or a unit of work of its own); a face, which holds no session, passes
`also=` (a `SessionHook`) that the service awaits inside its own transaction.

May import: core's pure rules and core.storage; no other service (every service imports it)."""
from __future__ import annotations

import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from core.area import CityArea
from core.municipality import City, CityMap
from core.fees import Tariff as FeeTariff, TariffBook
from core.laws import get_law
from core.laws.base import Law
from core.legal_calendar import Closure as CalendarClosure, LegalCalendar
from core.settings import Settings
from core.storage.db import Database
from core.storage.evidence import EvidenceStore
from core.storage.models import Closure, Tariff
from core.storage.models_city import Municipality


#: A face's change that must commit with a service's (the conversation's next state with the
#: step it answers): the service awaits `hook(session)` inside its own transaction, after its
#: writes; if either fails, both roll back.
SessionHook = Callable[[AsyncSession], Awaitable[None]]


def utc_clock() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class _CityCache:
    calendar: LegalCalendar | None = None
    book: TariffBook | None = None
    loaded_at: float = 0.0


@dataclass
class _Installation:
    """What every city's `Core` of one process shares: the cities served and their caches."""
    cities: dict[str, City] = field(default_factory=dict)
    caches: dict[str, _CityCache] = field(default_factory=dict)
    map: CityMap | None = None
    #: time.monotonic() when the records were last read (0: never)
    loaded_at: float = 0.0


@dataclass
class Core:
    db: Database
    law: Law
    settings: Settings
    evidence: EvidenceStore
    clock: Callable[[], datetime] = utc_clock
    #: The city this Core acts for; by default the settings' MUNICIPALITY (law and .env)
    city: City = None  # type: ignore[assignment]
    #: Seconds a process keeps tariffs and closures cached: a change made in the panel
    #: reaches the bot (another process) within this time.
    cache_seconds: float = 60.0
    _shared: _Installation = field(default_factory=_Installation, repr=False)

    def __post_init__(self) -> None:
        if self.city is None:
            self.city = City.build(self.settings, slug=self.law.slug)
        if not self._shared.cities:
            self._shared.cities[self.city.slug] = self.city

    @classmethod
    async def open(cls, settings: Settings, *, clock: Callable[[], datetime] | None = None,
                   database_url: str | None = None) -> "Core":
        """Create the data directory, apply migrations, load the cities served (the first
        start of a single-city installation records MUNICIPALITY's) and seed each law's dated
        values."""
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
        db = Database.from_url(database_url or settings.resolved_database_url())
        await db.migrate()
        core = cls(db, get_law(settings.municipality), settings, EvidenceStore(settings.data_dir),
                   clock or utc_clock)
        await core.load_cities(adopt=True)
        for city in core.cities:
            await core.for_city(city.slug).seed_tariffs()
        return core

    async def close(self) -> None:
        await self.db.dispose()

    def now(self) -> datetime:
        return self.clock()

    # -- the cities served -----------------------------------------------------------------

    @property
    def municipality(self) -> str:
        """The slug of the city this Core acts for (cases.municipality, tariffs, closures…)."""
        return self.city.slug

    @property
    def cities(self) -> tuple[City, ...]:
        """Every active city the installation serves, by name."""
        return tuple(sorted((c for c in self._shared.cities.values() if c.active),
                            key=lambda c: c.name))

    @property
    def many_cities(self) -> bool:
        return len(self.cities) > 1

    def city_named(self, slug: str) -> City | None:
        return self._shared.cities.get(slug)

    def city_at(self, lat: float, lon: float) -> City | None:
        """The city whose boundary holds the point (None: no city served)."""
        return self._map().at(lat, lon)

    def cities_named(self) -> str:
        """"Dores do Indaiá (MG) e Dracena (SP)"."""
        return self._map().names()

    def _map(self) -> CityMap:
        if self._shared.map is None:
            self._shared.map = CityMap(self._shared.cities.values())
        return self._shared.map

    def for_city(self, city: "str | City") -> "Core":
        """This installation acting for another city (KeyError: not served here)."""
        if not isinstance(city, City):
            found = self._shared.cities.get(city)
            if found is None:
                raise KeyError(f"município não atendido: {city!r}")
            city = found
        if city is self.city:
            return self
        return replace(self, law=city.law, city=city)

    def for_case(self, case) -> "Core":
        """Bound to the case's city (anything with a `municipality`)."""
        return self.for_city(case.municipality)

    async def load_cities(self, *, adopt: bool = False) -> None:
        """Read the municipality records. With `adopt` (at start-up), record the settings'
        MUNICIPALITY when the database has no city yet, or when MUNICIPALITY is set explicitly
        and names a city not recorded."""
        explicit = "municipality" in self.settings.model_fields_set
        for attempt in (1, 2):
            try:
                async with self.db.unit_of_work() as s:
                    rows = (await s.execute(select(Municipality))).scalars().all()
                    if adopt and (not rows or (explicit and self.settings.municipality
                                               not in {r.slug for r in rows})):
                        law = get_law(self.settings.municipality)
                        row = Municipality(slug=law.slug, law=law.slug, name=law.city,
                                           uf=law.uf, ibge_code=law.ibge_code)
                        s.add(row)
                        await s.flush()
                        rows = [*rows, row]
                    records = [{c.key: getattr(r, c.key)
                                for c in Municipality.__table__.columns} for r in rows]
                break
            except IntegrityError:
                # several workers starting on a fresh database at once: another one recorded
                # the city first; read what it wrote
                if attempt == 2:
                    raise
        cities = {r["slug"]: City.build(self.settings, record=r) for r in records}
        if not cities:  # not adopted yet: the settings' city alone, as before
            cities = {self.city.slug: self.city}
        self._shared.loaded_at = time.monotonic()
        self._shared.cities.clear()
        self._shared.cities.update(cities)
        self._shared.map = None
        bound = cities.get(self.city.slug) or cities.get(self.settings.municipality) or \
            next(iter(sorted(cities.values(), key=lambda c: c.name)), None)
        if bound is not None:
            self.city = bound
            self.law = bound.law

    async def cities_if_stale(self) -> bool:
        """Read the municipality records again when this process last read them more than
        `cache_seconds` ago (a city added or changed by the administrator in another
        process): cheap to call before routing a pin or in a long-running loop. True when
        it read them."""
        if time.monotonic() - self._shared.loaded_at <= self.cache_seconds:
            return False
        await self.load_cities()
        return True

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
        """The city's area (its boundary, or a centre and radius)."""
        return self.city.area

    # -- dated data: tariffs and closures ----------------------------------------------------

    async def seed_tariffs(self) -> None:
        """Insert the law module's tariff seeds the first time (staff edit them later)."""
        async with self.db.unit_of_work() as s:
            have = (await s.execute(select(Tariff.id).where(
                Tariff.municipality == self.municipality).limit(1))).first()
            if have:
                return
            for t in self.law.tariffs:
                s.add(Tariff(municipality=self.municipality, code=t.code, amount=t.amount,
                             currency=t.currency, unit=t.unit, valid_from=t.valid_from,
                             article=t.article, source=t.source, created_by="seed"))
        self._cache.book = None

    @property
    def _cache(self) -> _CityCache:
        return self._shared.caches.setdefault(self.municipality, _CityCache())

    def _expire(self) -> _CityCache:
        cache = self._cache
        if time.monotonic() - cache.loaded_at > self.cache_seconds:
            cache.calendar = cache.book = None
            cache.loaded_at = time.monotonic()
        return cache

    async def tariff_book(self) -> TariffBook:
        cache = self._expire()
        if cache.book is None:
            async with self.db.read() as s:
                rows = (await s.execute(select(Tariff).where(
                    Tariff.municipality == self.municipality))).scalars().all()
            labels = {t.code: t.label for t in self.law.tariffs}
            cache.book = TariffBook([
                FeeTariff(code=r.code, label=labels.get(r.code, r.code), amount=r.amount,
                          currency=r.currency, unit=r.unit, valid_from=r.valid_from,
                          article=r.article, source=r.source) for r in rows])
        return cache.book

    async def calendar(self, session: AsyncSession | None = None) -> LegalCalendar:
        """The municipality's legal calendar (cached). With `session`, read afresh in that
        transaction (a closure just added there counts: core.services.cases.deadline_recount)."""
        if session is not None:
            return self._build_calendar(await _closures(session, self.municipality))
        cache = self._expire()
        if cache.calendar is None:
            async with self.db.read() as s:
                cache.calendar = self._build_calendar(await _closures(s, self.municipality))
        return cache.calendar

    def _build_calendar(self, rows: list[Closure]) -> LegalCalendar:
        closures = [CalendarClosure(r.date, r.name, _closure_kind(r.kind), r.source,
                                    closes_at=r.closes_at) for r in rows]
        setting = self.law.settings.get("hours_deadline_end_of_day")
        end_of_day = bool(setting and setting.value)
        return LegalCalendar(self.city.uf, self.law.municipal_holidays, closures,
                             tz=self.settings.timezone, hours_end_of_day=end_of_day)

    def invalidate(self) -> None:
        """Forget this city's cached tariffs and calendar (after staff edit them here)."""
        cache = self._cache
        cache.calendar = cache.book = None


async def _closures(s: AsyncSession, slug: str) -> list[Closure]:
    return list((await s.execute(select(Closure).where(Closure.municipality == slug))
                 ).scalars().all())


def _closure_kind(kind: str) -> str:
    return "municipal_holiday" if kind in ("holiday", "municipal_holiday") else "decreed_closure"
