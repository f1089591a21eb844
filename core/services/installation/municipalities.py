"""The municipalities the installation serves: add one, change one, list them, deactivate one.
Only the installation's administrator does this (the CLI, or the panel's /municipios for a
staff account with no city of its own: `StaffUserInfo.is_installation_admin`).

Every field is checked before anything is written (core.services.installation.checks): the
state, the IBGE code of that state, the PIX key with its name and city, the lengths the table
holds, and the boundary file, read strictly; a city's area may not overlap another active
city's (a pin must have one city), and the refusal names that city. Each change reloads this
process's cities (`Core.load_cities`); another process reads them again within
`Core.cache_seconds` (`Core.cities_if_stale`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely
from sqlalchemy import func, select

from core.area import area_m2, circle_shape
from core.laws import get_law, registry
from core.municipality import City
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.installation.checks import (check_record, check_slug, clean_fields,
                                               open311_key_hash)
from core.storage.models import Case, Inspector, StaffUser
from core.storage.models_city import Municipality

#: The fields `set_municipality` may change (the slug and law stay)
EDITABLE = ("name", "uf", "ibge_code", "boundary", "centre_lat", "centre_lon", "radius_m",
            "office_address", "office_phone", "office_hours", "office_lat", "office_lon",
            "depot_address", "depot_hours", "dpo_contact", "pix_key", "pix_merchant_name",
            "pix_merchant_city", "payment_guia_instructions", "open311_jurisdiction_id",
            "open311_key_sha256", "active")
#: Two cities' areas may share a border line; more than this in common is an overlap (a
#: rounding margin: neighbours cut from the same IBGE mesh share their vertices exactly)
OVERLAP_M2 = 1.0


@dataclass(frozen=True)
class CityRow:
    """A recorded city for the administrator's list: the City as services see it, whether
    it has a drawn boundary, and what it holds."""
    city: City
    law: str
    drawn: bool
    cases: int
    staff: int
    inspectors: int


def _record(row: Municipality) -> dict[str, Any]:
    return {c.key: getattr(row, c.key) for c in Municipality.__table__.columns}


def _unknown(fields: dict[str, Any]) -> None:
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise InvalidInput(f"Campos desconhecidos: {', '.join(sorted(unknown))}.")


def _shape(city: City):
    area = city.area
    return area.shape if area.shape is not None else circle_shape(area.centre,
                                                                  area.radius_m or 0)


def _no_overlap(core: Core, city: City) -> None:
    """Refuse an area that overlaps another active city's, naming it."""
    mine = _shape(city)
    for other in (c for c in core.cities if c.slug != city.slug):  # not itself
        theirs = _shape(other)
        if not mine.intersects(theirs):
            continue
        shared = area_m2(shapely.intersection(mine, theirs))
        if shared > OVERLAP_M2:
            hint = ("" if other.area.shape is not None else
                    f" {other.label} ainda não tem contorno desenhado (vale um círculo de "
                    f"{_km(other.area.radius_m)} km): cadastre o contorno dela "
                    f"primeiro (municipality set {other.slug} --boundary ARQUIVO).")
            raise InvalidInput(f"A área de {city.label} sobrepõe a de {other.label} (cerca de "
                               f"{_size(shared)} em comum): um ponto só pode ser de um "
                               f"município. Use os contornos da mesma malha do IBGE.{hint}",
                               "boundary")


def _km(metres: float | None) -> str:
    return f"{(metres or 0) / 1000:.1f}".replace(".", ",")


def _size(m2: float) -> str:
    if m2 >= 1_000_000:
        return f"{m2 / 1_000_000:.1f} km²".replace(".", ",")
    if m2 >= 10_000:
        return f"{m2 / 10_000:.1f} ha".replace(".", ",")
    return f"{m2:.0f} m²"


def _build(core: Core, record: dict[str, Any]) -> City:
    """The City a record makes, checked across its fields; InvalidInput otherwise."""
    check_record(record, core.settings)
    try:
        city = City.build(core.settings, record=record)
    except ValueError as exc:  # a boundary that does not make an area
        raise InvalidInput(str(exc), "boundary") from None
    if record.get("active", True):
        _no_overlap(core, city)
    return city


async def _ibge_unique(s, record: dict[str, Any]) -> None:
    other = (await s.execute(select(Municipality).where(
        Municipality.ibge_code == record["ibge_code"], Municipality.slug != record["slug"])
    )).scalars().first()
    if other is not None:
        raise InvalidInput(f"O código IBGE {record['ibge_code']} já é de {other.name} "
                           f"({other.uf}), cadastrado como {other.slug!r}.", "ibge_code")


async def add_municipality(core: Core, slug: str, *, law: str | None = None,
                           open311_key: str | None = None, **fields: Any) -> City:
    """Record a city the installation serves, under `law` (a law module's slug; by default
    the slug itself). Its name, state and IBGE code default to the law module's; `boundary`
    is a GeoJSON file's text (or bytes); `open311_key` is kept as its SHA-256."""
    slug = check_slug(slug)
    law_slug = (law or slug).strip()
    if law_slug not in registry():
        known = ", ".join(sorted(registry()))
        raise InvalidInput(f"Lei municipal desconhecida: {law_slug!r}. Use --law com uma das "
                           f"leis que o sistema conhece: {known}.", "law")
    _unknown(fields)
    module = get_law(law_slug)
    given = clean_fields({k: v for k, v in fields.items() if v is not None})
    record = {"slug": slug, "law": law_slug, "name": module.city, "uf": module.uf,
              "ibge_code": module.ibge_code, "active": True,
              **{k: v for k, v in given.items() if v not in (None, "")}}
    if open311_key:
        record["open311_key_sha256"] = open311_key_hash(open311_key)
    await core.load_cities()
    if core.city_named(slug) is not None:
        raise InvalidInput(f"O município {slug!r} já está cadastrado: para mudar um campo, "
                           f"use municipality set {slug}.", "slug")
    async with core.db.read() as s:
        await _ibge_unique(s, record)
    _build(core, record)
    async with core.db.unit_of_work() as s:
        if await s.get(Municipality, slug) is not None:
            raise InvalidInput(f"O município {slug!r} já está cadastrado.", "slug")
        await _ibge_unique(s, record)
        s.add(Municipality(**record))
    await core.load_cities()
    await core.for_city(slug).seed_tariffs()
    return core.city_named(slug)  # type: ignore[return-value]


async def set_municipality(core: Core, slug: str, *, open311_key: str | None = None,
                           **fields: Any) -> City:
    """Change fields of a recorded city ("" clears a field back to the installation's
    setting; `boundary=""` goes back to the law's circle)."""
    _unknown(fields)
    given = clean_fields(fields)
    if open311_key is not None:
        given["open311_key_sha256"] = open311_key_hash(open311_key) if open311_key else ""
    await core.load_cities()
    async with core.db.unit_of_work() as s:
        row = await s.get(Municipality, slug)
        if row is None:
            raise NotFound(f"Município não cadastrado: {slug!r}.")
        record = _record(row)
        record.update(given)
        await _ibge_unique(s, record)
        _build(core, record)
        for key, value in given.items():
            setattr(row, key, value)
    await core.load_cities()
    return core.city_named(slug)  # type: ignore[return-value]


async def deactivate_municipality(core: Core, slug: str) -> City:
    """Stop serving a city: no new report is routed to it. Its cases, staff and inspectors
    stay (an open case is still reachable by its protocol); reactivating brings it back."""
    await core.load_cities()
    city = core.city_named(slug)
    if city is None:
        raise NotFound(f"Município não cadastrado: {slug!r}.")
    if city.active and len(core.cities) <= 1:
        raise InvalidInput(f"{city.label} é o único município ativo: a instalação precisa "
                           "atender pelo menos um. Cadastre outro antes de desativar este.")
    return await set_municipality(core, slug, active=False)


async def activate_municipality(core: Core, slug: str) -> City:
    """Serve a deactivated city again (its area may not overlap an active city's)."""
    return await set_municipality(core, slug, active=True)


async def list_municipalities(core: Core) -> list[CityRow]:
    """Every recorded city, active first, by name, with its cases, staff and inspectors."""
    await core.load_cities()
    async with core.db.read() as s:
        rows = (await s.execute(select(Municipality))).scalars().all()
        counts = {}
        for model, column in ((Case, Case.municipality), (StaffUser, StaffUser.municipality),
                              (Inspector, Inspector.municipality)):
            found = await s.execute(select(column, func.count()).select_from(model)
                                    .group_by(column))
            counts[model] = dict(found.all())
        records = [_record(r) for r in rows]
    out = [CityRow(City.build(core.settings, record=r), r["law"], bool(r.get("boundary")),
                   counts[Case].get(r["slug"], 0), counts[StaffUser].get(r["slug"], 0),
                   counts[Inspector].get(r["slug"], 0)) for r in records]
    return sorted(out, key=lambda c: (not c.city.active, c.city.name, c.city.slug))


async def municipality_record(core: Core, slug: str) -> dict[str, Any]:
    """The stored fields of a city (empty: the installation's setting applies)."""
    async with core.db.read() as s:
        row = await s.get(Municipality, slug)
        if row is None:
            raise NotFound(f"Município não cadastrado: {slug!r}.")
        return _record(row)
