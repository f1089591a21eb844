"""Reminders to linked owners, from the outbox: 3 days and 1 day before the current deadline,
on removal to the depot, and when the object becomes eligible for auction (Dores Art. 3º,
caput; CTB art. 328 / Dracena Art. 6º). One periodic job; each reminder has a dedupe key, so
runs are idempotent and each is sent once; nothing is sent once the case has closed. The
outbox sender paces delivery within Telegram's limits. Owners who left an e-mail on the web
owner page get the same reminders by e-mail (core.services.messaging.email)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select

from core.formatting import fmt_date, fmt_datetime
from core.identifiers import format_case_code
from core.services.papers.placeholders import depot_address
from core.services.context import Core
from core.services.messaging.notifications import AUCTION_STATES
from core.services.cases.depot_dates import depot_dates
from core.services.owners.view import auction_after_of, owner_deadline
from core.services.cases.fee_statement import collected_at, depot_entry
from core.storage import outbox
from core.services.messaging import email
from core.storage.models import Case, Event, OwnerLink, Person
from core.storage.models_email import OwnerEmail

KIND = "owner_reminder"


@dataclass
class ReminderReport:
    queued: list[tuple[str, str]] = field(default_factory=list)  # (protocol, reminder)


def _button(code: str) -> list:
    return [[{"text": "Ver meu caso", "intent": "owner.view", "case": code}]]


async def owner_reminders(core: Core, now: datetime | None = None) -> ReminderReport:
    """Every city's open cases (installation-wide), each worded with its own city's law,
    calendar and depot."""
    now = now or core.now()
    report = ReminderReport()
    async with core.db.unit_of_work() as s:
        rows = (await s.execute(
            select(Case, OwnerLink.person_id, Person.telegram_id)
            .join(OwnerLink, OwnerLink.case_id == Case.id)
            .join(Person, Person.id == OwnerLink.person_id)
            .where(Case.is_open.is_(True)).order_by(Case.id))).all()
        events_of: dict[int, list[Event]] = {}
        targets = [(case, f"p:{person_id}", chat_id) for case, person_id, chat_id in rows]
        if email.enabled(core.settings):  # the owners without Telegram, by e-mail
            targets += [(case, "email", None) for case in (await s.execute(
                select(Case).where(Case.is_open.is_(True), Case.id.in_(
                    select(OwnerEmail.case_id))).order_by(Case.id))).scalars()]
        for case, who, chat_id in targets:
            here = core.for_case(case)  # the case's city: its law, calendar, depot
            lifecycle = here.law.tracks[case.track]
            state = lifecycle.state(case.state)
            if case.id not in events_of:
                events_of[case.id] = list((await s.execute(
                    select(Event).where(Event.case_id == case.id).order_by(Event.seq))
                ).scalars().all())
            events = events_of[case.id]
            messages = []
            shown = format_case_code(case.case_code)
            d = owner_deadline(case.deadline_json, lifecycle)
            if d is not None and now < d.due_at:
                left = d.due_at - now
                tag = "d1" if left <= timedelta(days=1) else "d3" if left <= timedelta(days=3) \
                    else None
                if tag:
                    days = "1 dia" if tag == "d1" else "3 dias"
                    then = f" Se o prazo passar: {d.then}." if d.then else ""
                    text = (f"Lembrete do caso {shown}: falta(m) menos de {days} para o "
                            f"prazo — {d.description} até {d.due_in_full} ({fmt_date(d.due)}), "
                            f"{d.article}.{then}")
                    key = (f"owner:{case.id}:dl:{case.deadline_json.get('transition')}:"
                           f"{d.due.isoformat()}:{tag}:{who}")
                    messages.append((tag, key, text))
            registered = depot_entry(events, lifecycle)
            if state.in_depot and registered is not None:
                entered = collected_at(here, case, registered)  # Dores Art. 3º, caput
                auction, article = auction_after_of(events, lifecycle)
                until = (f" Se não for retirado, poderá ir a leilão após {fmt_date(auction)} "
                         f"({article}).") if auction else ""
                dates = await depot_dates(here, case.category,
                                          (case.details or {}).get("facts", {}), entered)
                if dates:  # the law's dates, as the owner's view and the papers state them
                    until = " " + " ".join(d.owner for d in dates)
                text = (f"Caso {shown}: o objeto foi removido e está no pátio/depósito "
                        f"desde {fmt_datetime(entered)}. Endereço: {depot_address(here.city)}."
                        f" Atendimento: {here.city.depot_hours}.{until} Veja as condições e"
                        " os valores para retirar em “Ver meu caso”.")
                messages.append(("removed", f"owner:{case.id}:removed:{who}", text))
            if state.code in AUCTION_STATES:
                auction, article = auction_after_of(events, lifecycle)
                since = f" em {fmt_date(auction)}" if auction else ""
                text = (f"Caso {shown}: o prazo para retirar terminou{since} e o objeto "
                        f"pode ir a leilão ({article or 'prazo vencido'}).")
                messages.append(("auction", f"owner:{case.id}:auction:{who}", text))
            for tag, key, text in messages:
                if chat_id is None:
                    queued = await email.tell_owners(s, core.settings, case, text, key, KIND)
                else:
                    queued = await outbox.enqueue(
                        s, chat_id, KIND, {"text": text, "buttons": _button(case.case_code)},
                        key)
                if queued:
                    report.queued.append((case.protocol, tag))
    return report
