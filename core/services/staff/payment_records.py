"""Staff record a payment of the depot's fees against a case: the PIX end-to-end id from the
receipt (or the guia's number), the amount and the date. The amount is compared with the one
fee statement's total for that day (core.services.cases.fee_statement): a different amount is recorded
with the difference in words, never silently taken as the total. The payment is an event on
the timeline (not public); the linked owner is told through the outbox."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal

from sqlalchemy import select

from core.formatting import fmt_date, fmt_money
from core.identifiers import format_case_code
from core.parse_error import ParseError
from core.parsing import parse_date, parse_money
from core.services.cases import fee_statement as statements
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.messaging import email
from core.storage import outbox
from core.storage.models import Case, Event, OwnerLink, Person
from core.storage.timeline import ActorRef, append_event

ACTION = "payment_recorded"
#: The PIX end-to-end id printed on every receipt: "E", the payer's bank ISPB (8 digits), the
#: moment (yyyyMMddHHmm) and 11 letters or digits — 32 characters.
E2E = re.compile(r"E\d{8}\d{12}[A-Za-z0-9]{11}")
GUIA = re.compile(r"[A-Za-z0-9][A-Za-z0-9./ -]{0,59}")


@dataclass(frozen=True)
class RecordedPayment:
    at: datetime
    method: str  # "PIX" or "guia"
    reference: str
    amount: Decimal
    paid_on: date
    expected: Decimal | None  # the statement's total on paid_on
    by: str

    @property
    def difference(self) -> Decimal | None:
        return None if self.expected is None else self.amount - self.expected

    @property
    def words(self) -> str:
        return difference_words(self.amount, self.expected)


def difference_words(amount: Decimal, expected: Decimal | None) -> str:
    """The amount paid against the statement's total, in words."""
    if expected is None:
        return "sem extrato de valores para comparar"
    diff = amount - expected
    if diff == 0:
        return f"igual ao total devido ({fmt_money(expected)})"
    if diff < 0:
        return (f"{fmt_money(-diff)} a menos que o total devido ({fmt_money(expected)}): "
                f"falta pagar {fmt_money(-diff)}")
    return f"{fmt_money(diff)} a mais que o total devido ({fmt_money(expected)})"


def payments_of(events: list[Event]) -> list[RecordedPayment]:
    """The payments recorded on a case's timeline, oldest first."""
    out = []
    for ev in events:
        if ev.action != ACTION:
            continue
        d = ev.data or {}
        out.append(RecordedPayment(ev.at, d["payment_method"], d["payment_reference"],
                                   Decimal(d["paid_amount"]), date.fromisoformat(d["paid_on"]),
                                   Decimal(d["amount_due"]) if d.get("amount_due") else None,
                                   ev.actor_name or ""))
    return out


def _reference(text: str, guia_city: bool) -> tuple[str, str]:
    ref = re.sub(r"\s+", " ", (text or "").strip())
    if E2E.fullmatch("E" + ref[1:] if ref[:1] == "e" else ref):
        return "PIX", "E" + ref[1:]
    if guia_city and GUIA.fullmatch(ref):
        return "guia", ref
    if guia_city:
        raise InvalidInput("Número da guia: até 60 letras, números, pontos ou traços.",
                           "reference")
    raise InvalidInput("Identificador do PIX: o código “E…” de 32 letras e números do "
                       "comprovante (ID da transação / fim a fim).", "reference")


async def record_payment(core: Core, ref: str, amount_text: str, paid_on_text: str,
                         reference_text: str, actor: ActorRef) -> RecordedPayment:
    """Record the payment (a depot case, open); InvalidInput in Portuguese on bad input."""
    try:
        amount = parse_money(amount_text or "")
    except ParseError as exc:
        raise InvalidInput(f"Valor pago: {exc.message}", "amount") from None
    if amount <= 0:
        raise InvalidInput("Valor pago: informe um valor maior que zero.", "amount")
    try:
        paid_on = parse_date(paid_on_text or "")
    except ParseError as exc:
        raise InvalidInput(f"Data do pagamento: {exc.message}", "paid_on") from None
    tz = core.tz
    now = core.now()
    if paid_on > now.astimezone(tz).date():
        raise InvalidInput("Data do pagamento: não pode ser no futuro.", "paid_on")
    method, reference = _reference(reference_text,
                                   bool(core.city.payment_guia_instructions.strip()))
    async with core.db.unit_of_work() as s:
        case = await load_here(s, core, ref, for_update=True)
        events = (await s.execute(select(Event).where(Event.case_id == case.id)
                                  .order_by(Event.seq))).scalars().all()
        lc = core.law.tracks[case.track]
        if not case.is_open or not lc.state(case.state).in_depot:
            raise InvalidInput("Pagamento só se registra para um caso aberto com o objeto no "
                               "pátio.")
        if any((e.data or {}).get("payment_reference") == reference for e in events
               if e.action == ACTION):
            raise InvalidInput(f"O pagamento {reference} já foi registrado neste caso.",
                               "reference")
        collected = statements.collected_at(
            core, case, statements.depot_entry(events, lc) or case.updated_at)
        if collected is not None and paid_on < collected.astimezone(tz).date():
            raise InvalidInput("Data do pagamento: anterior ao recolhimento "
                               f"({fmt_date(collected)}).", "paid_on")
        as_of = min(now, datetime.combine(paid_on, time(23, 59), tz))
        stmt, _err = await statements.statement_or_error(core, case, collected, as_of)
        expected = stmt.total if stmt else None
        done = RecordedPayment(now, method, reference, amount, paid_on, expected, actor.name
                               or "")
        ev = await append_event(s, case, actor, ACTION, data={
            "payment_method": method, "payment_reference": reference,
            "paid_amount": str(amount), "paid_on": paid_on.isoformat(),
            "amount_due": str(expected) if expected is not None else None,
            "payment_difference": done.words}, public=False)
        await _tell_owner(s, case, done, ev.seq, core.settings)
    return done


async def _tell_owner(s, case: Case, p: RecordedPayment, seq: int, settings=None) -> None:
    rows = (await s.execute(
        select(OwnerLink.person_id, Person.telegram_id)
        .join(Person, Person.id == OwnerLink.person_id)
        .where(OwnerLink.case_id == case.id, Person.telegram_id.is_not(None)))).all()
    text = (f"Pagamento registrado no seu caso {format_case_code(case.case_code)}: "
            f"{fmt_money(p.amount)} por {p.method} ({p.reference}), pago em "
            f"{fmt_date(p.paid_on)} — {p.words}.")
    for person_id, chat_id in rows:
        await outbox.enqueue(s, chat_id, "case_update",
                             {"text": text, "buttons": [[{"text": "Ver meu caso",
                                                         "intent": "owner.view",
                                                         "case": case.case_code}]]},
                             dedupe_key=f"case:{case.id}:ev:{seq}:paid:{person_id}")
    await email.tell_owners(s, settings, case, text, f"case:{case.id}:ev:{seq}:paid")
