"""The owner's view as a chat shows it, on every face: plain Portuguese text (≤ 4096
characters, Telegram's and WhatsApp's limit) from the core's OwnerView
(core.services.owners.view)."""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from core.facts import DATE, DATETIME, MONEY, fact_kind, stored_decimal
from core.formatting import TZ, fmt_date, fmt_datetime, fmt_money
from core.identifiers import format_case_code
from core.services.owners.payments import PIX_HINT
from core.services.owners import AppealInfo, DepotInfo, OwnerDeadline, OwnerView

MAX_TEXT = 4096
PROMISE_LINE = ("Sua data: você disse que vai retirar até {date}. O prazo legal acima continua "
                "valendo.")
#: Once the notice's period has lapsed there is no legal deadline above: the date is the one
#: the owner gave for the removal (Art. 6º, §3º).
PROMISE_LINE_DUE = "Sua data: você disse que vai retirar até {date} (Art. 6º, §3º)."


def fact_value(fact: str, value: Any) -> str:
    """A stored fact as the owner reads it: R$ amounts, dd/mm/aaaa dates, lists joined."""
    kind = fact_kind(fact)
    if kind == MONEY:
        return fmt_money(stored_decimal(value))
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    text = str(value)
    try:
        if kind == DATETIME or "T" in text:
            moment = datetime.fromisoformat(text)
            return fmt_datetime(moment if moment.tzinfo else moment.replace(tzinfo=TZ))
        if kind == DATE:
            return fmt_date(date.fromisoformat(text))
    except ValueError:
        pass
    return text


def deadline_line(d: OwnerDeadline) -> str:
    then = f" Se o prazo passar: {d.then}." if d.then else ""
    return (f"Prazo: {d.description} até {d.due_in_full} ({fmt_date(d.due)}) — "
            f"{d.article}.{then}")


def view_text(view: OwnerView) -> str:
    """The whole view as plain Portuguese text."""
    out = [f"Seu caso {format_case_code(view.case_code)} (protocolo {view.protocol})",
           f"{view.category_label}: {view.object_text}"]
    if view.address:
        out.append(f"Local: {view.address}")
    out += [f"Situação: {view.state_label}", f"O que acontece agora: {view.next_step}"]
    if view.deadline_shown:  # the law's deadline always comes first (once: depot dates)
        out.append(deadline_line(view.deadline_shown))
    if view.remove_by:
        out.append(view.remove_by)
    if view.promise:  # the owner's own date, beside the law's, never instead of it
        line = PROMISE_LINE if view.deadline else PROMISE_LINE_DUE
        out.append(line.format(date=fmt_date(view.promise)))
    if view.towing_warning:
        out.append(view.towing_warning)
    if view.appeal:
        out += _appeal_text(view.appeal)
    if view.depot:
        out += _depot_text(view.depot)
    return "\n".join(out)[:MAX_TEXT]


def _appeal_text(a: AppealInfo) -> list[str]:
    out = ["", f"{a.title}:"] + [f"• {label}: {fact_value(fact, value)}"
                                        for fact, label, value in a.auto]
    if a.filed_at:
        out.append(f"Recurso apresentado em {fmt_datetime(a.filed_at)}.")
        if a.decision_deadline:
            out.append(f"Decisão do Prefeito até {fmt_datetime(a.decision_deadline.due_at)} "
                       f"({a.decision_deadline.article}).")
    elif a.can_appeal and a.deadline:
        out.append(f"Você pode recorrer ao Prefeito até {fmt_datetime(a.deadline.due_at)} "
                   f"({a.deadline.article}).")
    elif a.deadline:
        out.append(f"O prazo de recurso terminou em {fmt_datetime(a.deadline.due_at)} "
                   f"({a.deadline.article}).")
    return out


def per_day_line(f: Any) -> str:
    """"Cada dia a mais custa R$ X", with what is charged (Dracena Art. 7º: the animals, the
    kilograms of goods) when the law says."""
    if f.per_day_basis:
        return f"Cada dia a mais custa {fmt_money(f.per_day)}: {f.per_day_basis}."
    return f"Cada dia a mais custa {fmt_money(f.per_day)} ({f.per_day_article})."


def _depot_text(d: DepotInfo) -> list[str]:
    out = ["", f"Pátio/depósito: {d.address}", f"Atendimento: {d.hours}"]
    if d.dates:  # the law's dates, each once with its article
        out += [date_.owner for date_ in d.dates]
    elif d.auction_after:
        out.append(f"Se não for retirado, poderá ir a leilão após {fmt_date(d.auction_after)} "
                   f"({d.auction_article}).")
    if not d.can_release:
        out.append("O prazo para retirar já terminou; a liberação não é mais possível.")
    out.append("Para retirar:")
    for step in d.release:
        out.append(f"• {step.label} ({step.article})")
        out += [f"   – {doc_}" for doc_ in step.documents]
    if d.fees:
        f = d.fees
        estimate = " — estimativa, valores ainda a confirmar pela Prefeitura" if f.estimate \
            else ""
        out.append(f"Valores devidos hoje ({fmt_date(f.as_of)}){estimate}:")
        for line in f.lines:
            since = f", tarifa vigente desde {fmt_date(line.valid_from)}" if line.valid_from \
                else ""
            out.append(f"• {line.label}: {fmt_money(line.amount)} ({line.article}{since})")
        out.append(f"Total{' (estimativa)' if f.estimate else ''}: {fmt_money(f.total)}")
        out.append(per_day_line(f))
    elif d.fees_error:
        out.append(d.fees_error)
    out += payment_lines(d)
    return out


def payment_lines(d: DepotInfo) -> list[str]:
    """How to pay today's total: the PIX (its code and QR code follow as their own messages)
    or the city's guia."""
    paid = [f"Pagamento registrado: {fmt_money(r.amount)} em {fmt_date(r.paid_on)} por "
            f"{r.method} ({r.reference}) — {r.words}." for r in d.paid]
    p = d.payment
    if p is None:
        return [""] + paid if paid else []
    if p.guia:
        return ["", f"Como pagar (guia da Prefeitura): {p.guia}"]
    return ["", f"Pagar por PIX: {fmt_money(p.amount)}, o total de hoje (identificador "
                f"{p.txid}). O código “copia e cola” e o QR code seguem nas próximas mensagens.",
            PIX_HINT]
