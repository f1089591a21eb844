"""The cities an installation serves, as the public sees them: the installation's page
(/publico with more than one city: each city's name, state and open cases) and the city a
public address names (/publico/<city>/…). An unknown or inactive city is answered as a
missing page."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from core.municipality import City
from core.services.context import Core
from core.services.errors import NotFound
from core.storage.models import Case
from core.storage.protocol import PROTOCOL_RE

UNKNOWN_CITY = ("Município não encontrado. Confira o endereço ou escolha um dos municípios "
                "atendidos.")


@dataclass(frozen=True)
class CityEntry:
    slug: str
    name: str
    uf: str
    label: str
    open_cases: int


def city_core(core: Core, slug: str) -> Core:
    """The installation acting for the city `slug` (the address's part); NotFound when it
    serves no such active city."""
    city = core.city_named((slug or "").strip()[:60])
    if city is None or not city.active:
        raise NotFound(UNKNOWN_CITY)
    return core.for_city(city)


async def served_cities(core: Core) -> list[CityEntry]:
    """Every active city, by name, with its open cases (one grouped count)."""
    async with core.db.read() as s:
        counts = dict((await s.execute(select(Case.municipality, func.count()).where(
            Case.is_open.is_(True)).group_by(Case.municipality))).all())
    return [_entry(c, int(counts.get(c.slug, 0))) for c in core.cities]


def _entry(city: City, open_cases: int) -> CityEntry:
    return CityEntry(city.slug, city.name, city.uf, city.label, open_cases)


async def city_of_protocol(core: Core, protocol: str) -> Core | None:
    """Installation-wide, as a citizen's /status: the installation acting for the city of the
    case `protocol` (an old link without the city), None when no city has it."""
    protocol = (protocol or "").strip()[:20]
    if not PROTOCOL_RE.match(protocol):
        return None
    async with core.db.read() as s:
        slug = (await s.execute(select(Case.municipality).where(Case.protocol == protocol))
                ).scalar_one_or_none()
    city = core.city_named(slug) if slug else None
    return core.for_city(city) if city is not None and city.active else None
