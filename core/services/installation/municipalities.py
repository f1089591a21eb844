"""The municipalities the installation serves: add one, change one, list them. Each change
reloads this process's cities (`Core.load_cities`); another process (the bot) reads them again
within `Core.cache_seconds`."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from core.area import CityArea
from core.laws import get_law, registry
from core.municipality import City
from core.services.context import Core
from core.services.errors import InvalidInput
from core.storage.models_city import Municipality

#: The fields `set_municipality` may change (the slug and law stay)
EDITABLE = ("name", "uf", "ibge_code", "boundary", "centre_lat", "centre_lon", "radius_m",
            "office_address", "office_phone", "office_hours", "office_lat", "office_lon",
            "depot_address", "depot_hours", "dpo_contact", "pix_key", "pix_merchant_name",
            "pix_merchant_city", "payment_guia_instructions", "open311_jurisdiction_id",
            "open311_key_sha256", "active")


def _check(core: Core, record: dict[str, Any]) -> None:
    """Refuse what would not build a city (an unreadable boundary) with the reason."""
    if record.get("boundary"):
        try:
            CityArea.from_geojson_text(record.get("name") or record["slug"], record["boundary"])
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
    City.build(core.settings, record=record)


async def add_municipality(core: Core, slug: str, *, law: str | None = None,
                           **fields: Any) -> City:
    """Record a city the installation serves, under `law` (a law module's slug; by default
    the slug itself). Its name, state and IBGE code default to the law module's."""
    law_slug = law or slug
    if law_slug not in registry():
        known = ", ".join(sorted(registry()))
        raise InvalidInput(f"Lei municipal desconhecida: {law_slug!r}. Conhecidas: {known}.")
    module = get_law(law_slug)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise InvalidInput(f"Campos desconhecidos: {', '.join(sorted(unknown))}.")
    record = {"slug": slug, "law": law_slug, "name": module.city, "uf": module.uf,
              "ibge_code": module.ibge_code,
              **{k: v for k, v in fields.items() if v is not None}}
    _check(core, record)
    async with core.db.unit_of_work() as s:
        if await s.get(Municipality, slug) is not None:
            raise InvalidInput(f"O município {slug!r} já está cadastrado.")
        s.add(Municipality(**record))
    await core.load_cities()
    await core.for_city(slug).seed_tariffs()
    return core.city_named(slug)  # type: ignore[return-value]


async def set_municipality(core: Core, slug: str, **fields: Any) -> City:
    """Change fields of a recorded city ("" clears a field back to the installation's
    setting)."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise InvalidInput(f"Campos desconhecidos: {', '.join(sorted(unknown))}.")
    async with core.db.unit_of_work() as s:
        row = await s.get(Municipality, slug)
        if row is None:
            raise InvalidInput(f"Município não cadastrado: {slug!r}.")
        record = {c.key: getattr(row, c.key) for c in Municipality.__table__.columns}
        record.update(fields)
        _check(core, record)
        for key, value in fields.items():
            setattr(row, key, value)
    await core.load_cities()
    return core.city_named(slug)  # type: ignore[return-value]


async def list_municipalities(core: Core) -> list[Municipality]:
    async with core.db.read() as s:
        return list((await s.execute(select(Municipality).order_by(Municipality.name)))
                    .scalars().all())
