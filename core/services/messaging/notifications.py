"""Messages a case's changes cause, queued in the same transaction as the change (outbox):
subscribers told the case moved, linked owners told what it means for them (never who
reported it), the inspector asked to verify an owner's statement (Dores Art. 6º, §3º).

Buttons are intents ({"intent": "case.open", "case": ...}); the bot turns them into
Telegram buttons (bot/buttons.py). Kept apart from cases and owners so neither imports the
other."""
from __future__ import annotations

from datetime import date
from typing import Any, Mapping

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import fmt_date
from core.identifiers import format_case_code
from core.laws import get_law
from core.lifecycle import Actor, Transition
from core.services.messaging import email
from core.services.messaging.contact_updates import tell_contact
from core.settings import Settings
from core.storage import outbox
from core.storage.models_city import Municipality
from core.storage.models import Case, Event, Inspector, OwnerLink, Person, Subscription, Task

VIA_OWNER = "owner_bot"  # fact marking steps the owner took in the bot (no echo to them)
#: Depot states after the deadline: auction or disposal next (told by owner_reminders).
AUCTION_STATES = frozenset({"auction_eligible", "disposal_due"})


# -- subscribers ------------------------------------------------------------------------------

async def notify_subscribers(s: AsyncSession, case: Case, t: Transition, state_label: str,
                             given: Mapping[str, Any], deadline: Mapping[str, Any] | None,
                             seq: int, settings: Settings | None = None) -> None:
    """Queue "your case moved" for every subscriber who kept notifications on (outbox, same
    transaction; one message per event and person, never twice). A reporter without Telegram
    is told by core.services.messaging.contact_updates (never through a chat), by e-mail under
    `settings` when it can. Linked owners are told too (notify_owners: owner-facing texts never
    mention the reporter), and so are the addresses owners left on the web owner page."""
    await notify_owners(s, case, t, state_label, given, deadline, seq, settings)
    rows = (await s.execute(
        select(Subscription.person_id, Person.telegram_id, Person.whatsapp_id)
        .join(Person, Person.id == Subscription.person_id)
        .where(Subscription.case_id == case.id, Subscription.notify.is_(True),
               or_(Person.telegram_id.is_not(None), Person.whatsapp_id.is_not(None))))).all()
    lines = [f"Atualização do protocolo {case.protocol}: {state_label}."]
    reason = given.get("public_reason") or given.get("reason")
    if reason and not case.is_open:
        lines.append(f"Motivo: {reason}")
    if deadline and deadline.get("on_lapse"):
        lines.append(f"Próximo prazo: {deadline['description']} até "
                     f"{fmt_date(date.fromisoformat(deadline['due']))} ({deadline['article']}).")
    text = "\n".join(lines)
    # a reporter without Telegram: by the contact they gave, or on the panel's list
    await tell_contact(s, case, text, seq, settings)
    for person_id, chat_id, wa_id in rows:
        payload = {"text": text, "protocol": case.protocol, "state": state_label,
                   "buttons": [[{"text": "Parar avisos deste caso",
                                 "intent": "case.unsubscribe", "case": case.protocol}]]}
        key = f"case:{case.id}:ev:{seq}:p:{person_id}"
        if chat_id is not None:
            await outbox.enqueue(s, chat_id, "case_update", payload, dedupe_key=key)
        else:  # on WhatsApp: a template, once the 24 hours are past (whatsapp.sender)
            await outbox.enqueue(s, int(wa_id), "case_update", payload, dedupe_key=key,
                                 channel=outbox.WHATSAPP)


async def law_of(s: AsyncSession, case: Case):
    """The law of the case's city (its municipality record; a city is named after its law
    when it has no record)."""
    record = await s.get(Municipality, case.municipality)
    return get_law(record.law if record is not None else case.municipality)


# -- owners ---------------------------------------------------------------------------------

async def notify_owners(s: AsyncSession, case: Case, t: Transition, state_label: str,
                        given: Mapping[str, Any], deadline: Mapping[str, Any] | None,
                        seq: int, settings: Settings | None = None) -> None:
    """Queue "your case moved" for the linked owners (never who reported it) and, by e-mail,
    for the addresses owners left on the web owner page (core.services.messaging.email).
    Steps the owner took in the bot are not echoed; entering the depot and becoming eligible
    for auction are told by owner_reminders (with the depot's address and the fees)."""
    if given.get("submitted_via") == VIA_OWNER:
        return
    law = await law_of(s, case)
    lifecycle = law.tracks[case.track]
    target = lifecycle.states[t.target]
    if (target.in_depot and not any(lifecycle.states[x].in_depot for x in t.sources)) or (
            t.target in AUCTION_STATES and t.actors == frozenset({Actor.SYSTEM})):
        return
    rows = (await s.execute(
        select(OwnerLink.person_id, Person.telegram_id)
        .join(Person, Person.id == OwnerLink.person_id)
        .where(OwnerLink.case_id == case.id))).all()
    subscribed = set((await s.execute(select(Subscription.person_id).where(
        Subscription.case_id == case.id, Subscription.notify.is_(True)))).scalars().all())
    lines = [f"Atualização do seu caso {format_case_code(case.case_code)}: {state_label}."]
    if given.get("decision_text"):
        lines.append(f"Decisão: {given['decision_text']}")
    reason = given.get("public_reason")
    if reason and t.target in lifecycle.states and lifecycle.states[t.target].final:
        lines.append(f"Motivo: {reason}")
    where = law.state_text(case.track, t.target)  # where it is, what comes next (per track)
    if where is not None:
        lines.append(f"O que acontece agora: {where.for_owner()}")
    if deadline and deadline.get("on_lapse"):
        lines.append(f"Próximo prazo: {deadline['description']} até "
                     f"{fmt_date(date.fromisoformat(deadline['due']))} ({deadline['article']}).")
    payload = {"text": "\n".join(lines),
               "buttons": [[{"text": "Ver meu caso", "intent": "owner.view",
                             "case": case.case_code}]]}
    await email.tell_owners(s, settings, case, payload["text"], f"case:{case.id}:ev:{seq}")
    for person_id, chat_id in rows:
        if person_id in subscribed:
            continue
        await outbox.enqueue(s, chat_id, "case_update", payload,
                             dedupe_key=f"case:{case.id}:ev:{seq}:o:{person_id}")


async def _verifier(s: AsyncSession, case: Case) -> tuple[Inspector, int] | None:
    """The assigned inspector (the inspector who last acted on the case if none is assigned)
    and their chat; None when there is none."""
    inspector = (await s.execute(
        select(Inspector).join(Task, Task.inspector_id == Inspector.id)
        .where(Task.case_id == case.id, Task.status.in_(("accepted", "offered")),
               Inspector.active.is_(True))
        .order_by(Task.status == "offered", Task.updated_at.desc()).limit(1))
    ).scalar_one_or_none()
    if inspector is None:
        last = (await s.execute(
            select(Event.actor_id).where(Event.case_id == case.id,
                                         Event.actor_kind == Actor.INSPECTOR.value)
            .order_by(Event.seq.desc()).limit(1))).scalar_one_or_none()
        if last is not None and str(last).isdigit():
            inspector = (await s.execute(select(Inspector).where(
                Inspector.id == int(last), Inspector.active.is_(True)))).scalar_one_or_none()
    if inspector is None:
        return None
    chat_id = (await s.execute(select(Person.telegram_id).where(
        Person.id == inspector.person_id))).scalar_one()
    return inspector, chat_id


def _case_payload(case: Case, text: str) -> dict:
    return {"text": text,
            "buttons": [[{"text": "Abrir caso", "intent": "case.open", "case": case.protocol}]],
            "location": {"lat": case.lat, "lon": case.lon, "title": f"Protocolo {case.protocol}",
                         "address": case.address or ""}}


async def tell_withdrawn(s: AsyncSession, case: Case, statement: str, seq: int, who: str,
                         deadline_line: str) -> bool:
    """Tell the inspector asked to verify (ask_to_verify) that the owner took the statement
    back (Dores Art. 6º, §3º): that verification is no longer needed. False when there is no
    inspector to tell (staff see it in the panel's timeline)."""
    found = await _verifier(s, case)
    if found is None:
        return False
    inspector, chat_id = found
    text = (f"Protocolo {case.protocol}: o proprietário desfez a declaração “{statement}” "
            "(Art. 6º, §3º). Não é mais preciso conferir essa retirada no local: o pedido de "
            f"verificação anterior deixou de valer. {deadline_line}\nDesfeito por: {who}")
    await outbox.enqueue(s, chat_id, "owner_statement_withdrawn", _case_payload(case, text),
                         dedupe_key=f"case:{case.id}:ev:{seq}:withdrawn:{inspector.id}")
    return True


async def ask_to_verify(s: AsyncSession, case: Case, statement: str, seq: int,
                        who: str = "") -> bool:
    """Queue "please verify" for the assigned inspector (the inspector who last acted on the
    case if none is assigned). False when there is none: staff see the statement in the panel
    (a non-public timeline entry / the owner_removing state)."""
    found = await _verifier(s, case)
    if found is None:
        return False
    inspector, chat_id = found
    text = (f"Protocolo {case.protocol}: o proprietário declarou: “{statement}” "
            "Confira no local e registre a retirada (Art. 6º, §3º).")
    if who:  # who declared and with which proof (core.services.owners.proof)
        text += f"\nDeclarado por: {who}"
    await outbox.enqueue(s, chat_id, "owner_statement", _case_payload(case, text),
                         dedupe_key=f"case:{case.id}:ev:{seq}:verify:{inspector.id}")
    return True


async def tell_deadline_moved(s: AsyncSession, case: Case, seq: int, *, owner_text: str,
                              inspector_text: str, settings: Settings | None = None) -> None:
    """A running deadline was recounted (Lei 9.784/1999, art. 66, § 1º;
    core.services.cases.deadline_recount): the linked owners and the inspector of the case (the
    assigned one, or the one who last acted) are told the new date."""
    owners = (await s.execute(
        select(OwnerLink.person_id, Person.telegram_id)
        .join(Person, Person.id == OwnerLink.person_id)
        .where(OwnerLink.case_id == case.id))).all()
    for person_id, chat_id in owners:
        await outbox.enqueue(s, chat_id, "deadline_extended",
                             {"text": owner_text,
                              "buttons": [[{"text": "Ver meu caso", "intent": "owner.view",
                                            "case": case.case_code}]]},
                             dedupe_key=f"case:{case.id}:ev:{seq}:moved:o:{person_id}")
    await email.tell_owners(s, settings, case, owner_text, f"case:{case.id}:ev:{seq}:moved")
    found = await _verifier(s, case)
    if found is not None:
        inspector, chat_id = found
        await outbox.enqueue(s, chat_id, "deadline_extended_inspector",
                             _case_payload(case, inspector_text),
                             dedupe_key=f"case:{case.id}:ev:{seq}:moved:i:{inspector.id}")
