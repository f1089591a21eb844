"""The city's dated values and days: a new tariff from a date on (never an edit of one
already charged) and the municipal closures the legal calendar skips, with the recount of the
deadlines a new closure moves."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import select

from core.formatting import fmt_date
from core.services.cases.deadline_recount import Recounted, recount_for_closure
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.staff.accounts import StaffUserInfo
from core.services.staff.common import today
from core.storage.models import Closure, Tariff

CLOSURE_KINDS = {"holiday": "Feriado municipal", "optional": "Ponto facultativo",
                 "decree": "Fechamento por decreto"}


async def add_tariff(core: Core, code: str, amount: Decimal, valid_from: date, article: str,
                     source: str, by: StaffUserInfo) -> None:
    """A new value for a fee, from `valid_from` on (Dores Art. 9º, II: the Secretaria "definir
    os valores das despesas"; Dracena Art. 7º: keeping costs "na seguinte base").

    A new value is a new dated row, never an edit: values already in force stay, and a value
    may not start before today, so fees already charged are never rewritten."""
    seeds = {t.code: t for t in core.law.tariffs}
    if code not in seeds:
        raise InvalidInput("Tarifa desconhecida para esta lei.", "code")
    if amount <= 0:
        raise InvalidInput("O valor precisa ser maior que zero.", "amount")
    if valid_from < today(core):
        raise InvalidInput("Um novo valor não pode valer para datas passadas: as taxas já "
                           f"cobradas não mudam. Use {fmt_date(today(core))} ou uma data futura.",
                           "valid_from")
    if not article.strip() or not source.strip():
        raise InvalidInput("Informe o artigo e o ato (fonte legal) que fixou o novo valor.",
                           "source" if article.strip() else "article")
    async with core.db.unit_of_work() as s:
        clash = (await s.execute(select(Tariff.id).where(
            Tariff.municipality == core.municipality, Tariff.code == code,
            Tariff.valid_from == valid_from))).first()
        if clash:
            raise InvalidInput("Já existe um valor desta tarifa a partir de "
                               f"{fmt_date(valid_from)}.", "valid_from")
        s.add(Tariff(municipality=core.municipality, code=code, amount=amount, currency="BRL",
                     unit=seeds[code].unit, valid_from=valid_from, article=article.strip(),
                     source=source.strip(), created_by=by.username, created_at=core.now()))
    core.invalidate()


async def list_closures(core: Core) -> list[Closure]:
    """The city's registered closures (municipal holidays, decreed closures), by date."""
    async with core.db.read() as s:
        return list((await s.execute(select(Closure).where(
            Closure.municipality == core.municipality).order_by(Closure.date))).scalars().all())


async def add_closure(core: Core, day: date, name: str, kind: str, source: str,
                      by: StaffUserInfo) -> list[Recounted]:
    """A municipal holiday, optional point or decreed closure (the legal calendar skips it when
    counting deadlines). Only today or later. Every running deadline that ends that day moves
    to the next business day (Lei 9.784/1999, art. 66, § 1º), in the same transaction: the
    timeline records it and the owner and the inspector are told (core.services
    .deadline_recount). Returns the deadlines moved."""
    if kind not in CLOSURE_KINDS:
        raise InvalidInput("Tipo de fechamento inválido.")
    if day < today(core):
        raise InvalidInput("Não é possível cadastrar fechamento em data passada: os prazos que "
                           "já venceram não são reabertos.")
    if not name.strip() or not source.strip():
        raise InvalidInput("Informe o nome e o ato (decreto, lei) do fechamento.")
    async with core.db.unit_of_work() as s:
        if (await s.execute(select(Closure.id).where(Closure.municipality == core.municipality,
                                                     Closure.date == day))).first():
            raise InvalidInput(f"Já há um fechamento cadastrado em {fmt_date(day)}.")
        s.add(Closure(municipality=core.municipality, date=day, name=name.strip(), kind=kind,
                      source=f"{source.strip()} (cadastrado por {by.username})"))
        await s.flush()
        moved = await recount_for_closure(core, s, day)
    core.invalidate()
    return moved


async def remove_closure(core: Core, closure_id: int, by: StaffUserInfo) -> None:
    """Remove a future closure (a past one already shaped counted deadlines). The deadlines it
    already extended keep their later date: a recount never shortens a deadline the owner was
    told (core.services.cases.deadline_recount)."""
    async with core.db.unit_of_work() as s:
        row = await s.get(Closure, closure_id)
        if row is None or row.municipality != core.municipality:
            raise NotFound("Fechamento não encontrado.")
        if row.date <= today(core):
            raise InvalidInput("Fechamentos de hoje ou de datas passadas não podem ser removidos.")
        await s.delete(row)
    core.invalidate()
