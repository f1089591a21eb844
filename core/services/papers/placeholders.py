"""What a legal document must not print while it is still a placeholder.

The depot address (DEPOT_ADDRESS left at its default) and the reference tariffs the law
modules seed (TariffSeed.placeholder: Dores Art. 9º, II, "definir os valores das despesas";
Dracena Art. 7º, the keeping costs) are not facts a clerk could sign: documents say what is
missing instead, the panel shows a warning, and owners see the amounts marked "estimativa".
The office contact (OFFICE_ADDRESS, OFFICE_PHONE, OFFICE_HOURS) is printed on every document,
with "a informar" where a setting is empty.
"""
from __future__ import annotations

from datetime import date

from sqlalchemy import select

from core.formatting import TZ
from core.municipality import City
from core.services.context import Core
from core.settings import Settings
from core.storage.models import Tariff

DEPOT_MISSING = ("endereço do pátio ainda não definido pela Prefeitura — informe-se no setor "
                 "de fiscalização")
TO_INFORM = "a informar"
ESTIMATE = "estimativa"


def depot_address_is_placeholder(settings: "City | Settings") -> bool:
    value = (settings.depot_address or "").strip()
    return not value or value == Settings.model_fields["depot_address"].default


def depot_address(settings: "City | Settings") -> str:
    """The depot address to print, or what is missing (never the placeholder)."""
    if depot_address_is_placeholder(settings):
        return DEPOT_MISSING
    return settings.depot_address.strip()


def office_contact(settings: "City | Settings", city: str) -> str:
    """"Setor de fiscalização da Prefeitura de X: endereço — tel. — horário", as printed."""
    address = (settings.office_address or "").strip() or f"endereço {TO_INFORM}"
    phone = (settings.office_phone or "").strip() or TO_INFORM
    hours = (settings.office_hours or "").strip() or TO_INFORM
    return (f"Setor de fiscalização da Prefeitura Municipal de {city}: {address} — "
            f"tel. {phone} — atendimento {hours}")


async def placeholder_tariffs(core: Core, day: date | None = None) -> list[str]:
    """Labels of the fees whose value in force on `day` (today) is still a seeded reference
    value (TariffSeed.placeholder), not one the city set (Dores Art. 9º, II; Dracena Art. 7º)."""
    day = day or core.now().astimezone(TZ).date()
    seeds = {(t.code, t.valid_from, t.amount) for t in core.law.tariffs
             if t.placeholder and t.currency == "BRL"}
    labels = {t.code: t.label for t in core.law.tariffs}
    async with core.db.read() as s:
        rows = (await s.execute(select(Tariff).where(
            Tariff.municipality == core.municipality, Tariff.currency == "BRL",
            Tariff.valid_from <= day).order_by(Tariff.code, Tariff.valid_from))).scalars().all()
    in_force: dict[str, Tariff] = {}
    for r in rows:
        in_force[r.code] = r  # ordered by valid_from: the last one is in force
    out = []
    for code, r in sorted(in_force.items()):
        if r.created_by == "seed" and (code, r.valid_from, r.amount) in seeds:
            out.append(labels.get(code, code))
    return out


async def amounts_are_estimates(core: Core) -> bool:
    return bool(await placeholder_tariffs(core))


async def warnings(core: Core) -> list[str]:
    """The panel's banner: what is still a placeholder (Portuguese, for staff)."""
    out = []
    if depot_address_is_placeholder(core.city):
        out.append("O endereço do pátio ainda é provisório (DEPOT_ADDRESS): os documentos "
                   "dizem que ele falta em vez de imprimi-lo.")
    tariffs = await placeholder_tariffs(core)
    if tariffs:
        out.append("Tarifas ainda com valor de referência, a confirmar: " + ", ".join(tariffs)
                   + ". Cadastre o valor oficial em Tarifas; até lá, o proprietário vê os "
                   "valores marcados como estimativa.")
    if not (core.city.office_address or "").strip() or \
            not (core.city.office_phone or "").strip():
        out.append("O endereço ou o telefone do setor (OFFICE_ADDRESS, OFFICE_PHONE) não foi "
                   "definido: os documentos imprimem \"a informar\".")
    return out
