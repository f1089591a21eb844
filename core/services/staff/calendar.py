"""The city's dated values and days: a new tariff from a date on (never an edit of one
already charged) and the municipal closures the legal calendar skips — a whole day, or an
early closing from an hour on (Lei 9.784/1999, art. 66, § 1º: "ou este for encerrado antes
da hora normal") — with the recount of the deadlines a closure moves, the correction of a
closure's date or act, and, for each closure, the deadlines it moved."""
from __future__ import annotations

from collections import defaultdict
from datetime import date, time
from decimal import Decimal

from sqlalchemy import select

from core.formatting import fmt_date
from core.services.cases.deadline_recount import (RECOUNT_ACTION, Recounted,
                                                  recount_for_closure)
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.staff.accounts import StaffUserInfo
from core.services.staff.common import today
from core.storage.models import Case, Closure, Event, Tariff

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


async def _closing_hour(core: Core, closes_at: time | None) -> time | None:
    """An early closing's hour, before the office's normal close (else it is not early)."""
    if closes_at is None:
        return None
    normal = (await core.calendar()).office_close
    if closes_at >= normal:
        raise InvalidInput(f"O expediente normal termina às {normal:%H:%M}; um encerramento a "
                           "partir desse horário não é antecipado. Deixe o horário em branco "
                           "para um dia inteiro sem expediente.", "closes_at")
    return closes_at


async def add_closure(core: Core, day: date, name: str, kind: str, source: str,
                      by: StaffUserInfo, closes_at: time | None = None) -> list[Recounted]:
    """A municipal holiday, optional point or decreed closure (the legal calendar skips it when
    counting deadlines), for the whole day or, with `closes_at`, an early closing from that
    hour (Lei 9.784/1999, art. 66, § 1º). Only today or later. Every running deadline that
    ends that day moves to the next business day, in the same transaction: the timeline
    records it and the owner and the inspector are told (core.services.cases
    .deadline_recount). Returns the deadlines moved."""
    if kind not in CLOSURE_KINDS:
        raise InvalidInput("Tipo de fechamento inválido.")
    if day < today(core):
        raise InvalidInput("Não é possível cadastrar fechamento em data passada: os prazos que "
                           "já venceram não são reabertos.")
    if not name.strip() or not source.strip():
        raise InvalidInput("Informe o nome e o ato (decreto, lei) do fechamento.")
    closes_at = await _closing_hour(core, closes_at)
    async with core.db.unit_of_work() as s:
        if (await s.execute(select(Closure.id).where(Closure.municipality == core.municipality,
                                                     Closure.date == day))).first():
            raise InvalidInput(f"Já há um fechamento cadastrado em {fmt_date(day)}.")
        s.add(Closure(municipality=core.municipality, date=day, name=name.strip(), kind=kind,
                      source=f"{source.strip()} (cadastrado por {by.username})",
                      closes_at=closes_at))
        await s.flush()
        moved = await recount_for_closure(core, s, day)
    core.invalidate()
    return moved


async def closure_of(core: Core, closure_id: int) -> Closure:
    """One of this city's closures (NotFound for another city's, as for a missing one)."""
    async with core.db.read() as s:
        row = await s.get(Closure, closure_id)
    if row is None or row.municipality != core.municipality:
        raise NotFound("Fechamento não encontrado.")
    return row


async def correct_closure(core: Core, closure_id: int, day: date, name: str, source: str,
                          by: StaffUserInfo) -> tuple[bool, list[Recounted]]:
    """Correct a registered closure: its name or act (a typo) at any time; its date only while
    both the old and the new date are still ahead (a closure of today or before already
    shaped counted deadlines). The new date recounts the deadlines ending on it; those the old
    date moved keep their later date (a recount never shortens a deadline: core.services
    .cases.deadline_recount). Returns whether the date changed and the deadlines the new date
    moved."""
    if not name.strip() or not source.strip():
        raise InvalidInput("Informe o nome e o ato (decreto, lei) do fechamento.")
    async with core.db.unit_of_work() as s:
        row = await s.get(Closure, closure_id, with_for_update=True)
        if row is None or row.municipality != core.municipality:
            raise NotFound("Fechamento não encontrado.")
        moving = day != row.date
        if moving and (row.date <= today(core) or day < today(core)):
            raise InvalidInput("A data só pode ser corrigida enquanto o fechamento e a nova "
                               "data estão no futuro: os prazos já contados não mudam.", "date")
        if moving and (await s.execute(select(Closure.id).where(
                Closure.municipality == core.municipality, Closure.date == day))).first():
            raise InvalidInput(f"Já há um fechamento cadastrado em {fmt_date(day)}.", "date")
        row.date, row.name = day, name.strip()
        if source.strip() != row.source:
            row.source = f"{source.strip()} (corrigido por {by.username})"
        await s.flush()
        moved = await recount_for_closure(core, s, day) if moving else []
    core.invalidate()
    return moving, moved


async def moved_by_closures(core: Core) -> dict[date, list[Recounted]]:
    """For each day, the running deadlines a closure of that day moved (the recounts on the
    cases' timelines whose previous due day it was), by protocol."""
    out: dict[date, list[Recounted]] = defaultdict(list)
    async with core.db.read() as s:
        rows = (await s.execute(
            select(Case.protocol, Event.data).join(Event, Event.case_id == Case.id)
            .where(Case.municipality == core.municipality, Event.action == RECOUNT_ACTION)
            .order_by(Event.id))).all()
    for protocol, data in rows:
        try:
            previous = date.fromisoformat(data["previous_due"])
            due = date.fromisoformat(data["deadline"]["due"])
        except (KeyError, TypeError, ValueError):
            continue
        out[previous].append(Recounted(protocol, previous, due,
                                       str(data["deadline"].get("description") or "")))
    return dict(out)


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
