"""The reporter asked afterwards: is the object gone?

A few days after a case closes (ASK_AFTER: three days, time for an owner's promise or an
inspector's finding to show on the street, short enough to be remembered; FixMyStreet asks
weeks later), the periodic job asks its reporter once whether the object left the place: in the
bot, with two buttons, or, for a reporter without Telegram, through the contact they gave
(core.services.messaging.contact_updates; the answer then comes by phone or at the counter and
staff record it as the reopening step). A case is asked about only when it closed in a state
its law lets the reporter's answer reopen (the `reopen` step of each track: e.g. Dores Art. 4º,
caput, "diligenciará até o local da ocorrência / denúncia"; Dracena Art. 1º): a closing that
left the object there or rests on a declaration (not abandoned, no infraction, removed by the
owner). Closings where the city removed the object, or that answer the complaint itself
(duplicate, unfounded, not competent, police), ask nothing.

- "Sim, saiu": the confirmation goes on the timeline (GONE) and the loop is closed.
- "Não, continua lá": the case takes the law's `reopen` step back to the diligence, with the
  reason on the timeline, and the diligence is offered at once to the competent inspector (the
  one who worked the case, if still active and competent; otherwise the best by the rules of a
  new report, core.services.inspectors.tasks); a photo sent after it is kept as evidence and
  goes to that inspector too.

Everything is a timeline event (ASKED, GONE, PHOTO and the reopen step): asked once per case,
answered once, and counted by the panel's indicators (core.services.staff.indicators). The
reporter can rate nothing else."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import and_, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import fmt_date
from core.laws.common import REOPEN
from core.lifecycle import Actor
from core.services.cases.evidence import EvidenceIn, attach
from core.services.cases.transitions import NOT_FOUND, apply_transition, load_case
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.inspectors.tasks import (AUTO, OPEN, REFUSED, WITHDRAWN, chat_of,
                                            current_task, load_roster, offer_task)
from core.services.messaging.contact_updates import tell_contact
from core.storage import outbox
from core.storage.models import Case, Event, Inspector, Person, Subscription, Task
from core.storage.timeline import ActorRef, append_event

ASK_AFTER = timedelta(days=3)
#: A case closed longer ago than this is not asked any more (the job was down, the feature
#: came after): the answer would no longer say much about the closing.
ASK_UNTIL = timedelta(days=10)
#: How long the question may be answered.
ANSWER_WITHIN = timedelta(days=30)
LIMIT = 500  # cases asked in one run (the rest in the next)

ASKED, GONE, PHOTO = "followup_asked", "followup_gone", "followup_photo"
STILL_THERE = "Cidadão informou que o objeto continua no local"
ASKER = ActorRef(Actor.SYSTEM.value, None, "Sistema (pergunta ao cidadão)")
#: The heading of the inspector's task message for a reopened diligence.
REOPENED = "Vistoria reaberta (o cidadão informou que o objeto continua no local)"

YES, NO = "Sim, saiu", "Não, continua lá"
NOT_ASKED = "Esta pergunta não é para você, ou o caso não está mais aguardando resposta."
EXPIRED = ("O prazo para responder a esta pergunta terminou. Se o objeto ainda está no local, "
           "faça uma nova denúncia com /denunciar.")
ANSWERED = "Você já respondeu a esta pergunta. Obrigado!"
NO_PHOTO_NOW = ("Esta foto não pôde ser juntada: o caso não está mais reaberto por sua "
                "resposta. Se o objeto ainda está no local, faça uma nova denúncia com "
                "/denunciar.")


@dataclass
class FollowupReport:
    asked: list[str] = field(default_factory=list)  # protocols asked
    unreachable: list[str] = field(default_factory=list)  # no chat, no channel for the contact


@dataclass(frozen=True)
class Answer:
    protocol: str
    reopened: bool
    inspector_name: str | None  # who got the reopened diligence (None: waits for staff)


def askable(core: Core) -> list[tuple[str, str]]:
    """(track, state) pairs whose closing the reporter is asked about: the sources of each
    track's `reopen` step."""
    return [(lc.track, st) for lc in core.law.tracks.values()
            for t in [lc.transitions.get(REOPEN)] if t is not None for st in sorted(t.sources)]


# -- asking -------------------------------------------------------------------------------------

async def ask_due(core: Core, now: datetime | None = None) -> FollowupReport:
    """Ask every reporter whose case of this Core's city closed ASK_AFTER ago (and not more
    than ASK_UNTIL) in an askable state of its law and was never asked (the periodic job, once
    per city served; idempotent)."""
    now = now or core.now()
    report = FollowupReport()
    pairs = askable(core)
    if not pairs:
        return report
    async with core.db.unit_of_work() as s:
        asked = exists().where(Event.case_id == Case.id, Event.action == ASKED)
        cases = (await s.execute(select(Case).where(
            Case.municipality == core.municipality, Case.closed_at.is_not(None), Case.closed_at <= now - ASK_AFTER,
            Case.closed_at > now - ASK_UNTIL, Case.is_open.is_not(True),
            or_(*[and_(Case.track == t, Case.state == st) for t, st in pairs]), ~asked)
            .order_by(Case.closed_at, Case.id).limit(LIMIT).with_for_update())).scalars().all()
        for case in cases:
            if await _ask(core, s, case, now):
                report.asked.append(case.protocol)
            else:
                report.unreachable.append(case.protocol)
    return report


async def _ask(core: Core, s: AsyncSession, case: Case, now: datetime) -> bool:
    """Ask the reporter of `case` (the case row locked by the caller); False when they cannot
    be reached (no chat with notifications on, no channel for their contact): nothing is
    recorded then. Worded under the case's own city's law."""
    core = core.for_case(case)
    lifecycle = core.law.tracks[case.track]
    label = lifecycle.public_state(case.state).label
    category = core.law.categories[case.category].label.split(" (")[0]
    closed = fmt_date(case.closed_at.astimezone(ZoneInfo(core.settings.timezone)).date())
    what = f"{category}, {case.address}." if case.address else f"{category}."
    chat = await _reporter_chat(s, case)
    if chat is not None:
        ev = await append_event(s, case, ASKER, ASKED, None, {"asked_by": "telegram"},
                                public=False, at=now)
        text = (f"Protocolo {case.protocol}: seu caso foi encerrado em {closed} ({label}).\n"
                f"{what}\nO objeto já saiu do local?\n"
                "Se ainda estiver lá, toque em “Não, continua lá”: um fiscal volta ao local. "
                "Esta pergunta é feita uma única vez.")
        await outbox.enqueue(s, chat, "followup_question", {
            "text": text, "protocol": case.protocol,
            "buttons": [[{"text": YES, "intent": "followup.gone", "case": case.protocol},
                         {"text": NO, "intent": "followup.there", "case": case.protocol}]]},
            dedupe_key=f"case:{case.id}:ev:{ev.seq}:followup")
        return True
    office = core.city.office_phone.strip()
    phone = f" pelo telefone {office}" if office else ""
    text = (f"Protocolo {case.protocol}: seu caso foi encerrado em {closed} ({label}). "
            f"{what} O objeto já saiu do local? Se ainda estiver lá, avise a prefeitura{phone}, "
            "informando o número do protocolo: um fiscal volta ao local.")
    # the event this question will be (the case is locked: nothing comes in between)
    seq = ((await s.execute(select(func.max(Event.seq)).where(Event.case_id == case.id))
            ).scalar_one() or 0) + 1
    if not await tell_contact(s, case, text, seq, core.settings):
        return False
    await append_event(s, case, ASKER, ASKED, None, {"asked_by": "contact"}, public=False,
                       at=now)
    return True


async def _reporter_chat(s: AsyncSession, case: Case) -> int | None:
    """The reporter's Telegram chat, if they follow the case with notifications on."""
    if case.reporter_id is None:
        return None
    row = (await s.execute(
        select(Person.telegram_id, Subscription.notify)
        .join(Subscription, and_(Subscription.person_id == Person.id,
                                 Subscription.case_id == case.id), isouter=True)
        .where(Person.id == case.reporter_id))).first()
    if row is None or row.telegram_id is None or row.notify is False:
        return None
    return row.telegram_id


# -- the answers ----------------------------------------------------------------------------

async def _asked(core: Core, s: AsyncSession, telegram_id: int, protocol: str
                 ) -> tuple[Person, Case]:
    """The reporter and the case they were asked about, still waiting for the answer;
    Forbidden / InvalidInput (Portuguese) otherwise. The case is the reporter's own, in any
    city served (the caller goes on with core.for_case(case))."""
    person = (await s.execute(select(Person).where(Person.telegram_id == telegram_id))
              ).scalar_one_or_none()
    try:
        case = await load_case(s, protocol, for_update=True)
    except NotFound:
        raise Forbidden(NOT_ASKED) from None
    if person is None or case.reporter_id != person.id:
        raise Forbidden(NOT_ASKED)
    events = (await s.execute(select(Event.action, Event.at).where(
        Event.case_id == case.id, Event.action.in_((ASKED, GONE, REOPEN)))
        .order_by(Event.seq))).all()
    asked = next((at for action, at in events if action == ASKED), None)
    if asked is None:
        raise Forbidden(NOT_ASKED)
    if any(action != ASKED for action, _ in events):
        raise InvalidInput(ANSWERED)
    if core.now() - asked > ANSWER_WITHIN:
        raise InvalidInput(EXPIRED)
    return person, case


def _citizen(person: Person) -> ActorRef:
    return ActorRef(Actor.CITIZEN.value, person.id, None)


async def answer_gone(core: Core, telegram_id: int, protocol: str, *,
                      also=None) -> Answer:
    """"Sim, saiu": the confirmation on the timeline; nothing else changes."""
    async with core.db.unit_of_work() as s:
        person, case = await _asked(core, s, telegram_id, protocol)
        core = core.for_case(case)
        await append_event(s, case, _citizen(person), GONE, None, {"answer": YES},
                           public=False, at=core.now())
        if also is not None:
            await also(s)
        return Answer(case.protocol, False, None)


async def answer_still_there(core: Core, telegram_id: int, protocol: str, *,
                             also=None) -> Answer:
    """"Não, continua lá": the law's reopen step (back to the diligence, the reason on the
    timeline) and the diligence offered at once to the competent inspector."""
    async with core.db.unit_of_work() as s:
        person, case = await _asked(core, s, telegram_id, protocol)
        core = core.for_case(case)
        await apply_transition(core, case.id, REOPEN, _citizen(person),
                               {"citizen_statement": STILL_THERE}, session=s)
        inspector = await give_reopened(core, s, case)
        if also is not None:
            await also(s)
        return Answer(case.protocol, True, inspector.name if inspector else None)


async def reopen_on_answer(core: Core, protocol: str, facts: dict, by: ActorRef) -> Answer:
    """Staff record "continua lá" given by phone, e-mail or at the counter: the same reopen
    step (what the citizen said in `facts`), and the diligence offered at once."""
    async with core.db.unit_of_work() as s:
        case = await load_case(s, protocol, for_update=True)
        if case.municipality != core.municipality:  # another city's case: as a missing one
            raise NotFound(NOT_FOUND)
        await apply_transition(core, case.id, REOPEN, by, facts, session=s)
        inspector = await give_reopened(core, s, case)
        return Answer(case.protocol, True, inspector.name if inspector else None)


async def give_reopened(core: Core, s: AsyncSession, case: Case) -> Inspector | None:
    """Offer the reopened diligence: the tasks left from before the closing become history
    (the reopened diligence is a new task), then the inspector who last worked the case if
    still active and competent, otherwise the best by the rules of a new report; never one
    who refused it. None: nobody competent, the case waits in the staff's queue."""
    now = core.now()
    for task in (await s.execute(select(Task).where(
            Task.case_id == case.id, Task.status.in_(OPEN)))).scalars().all():
        task.status, task.updated_at = WITHDRAWN, now
        await append_event(s, case, AUTO, "task_withdrawn", None, {"task": task.id},
                           public=False, at=now)
    await s.flush()
    refused = set((await s.execute(select(Task.inspector_id).where(
        Task.case_id == case.id, Task.status == REFUSED))).scalars().all())
    roster = await load_roster(s)
    ranked = [i for i in roster.candidates(core, case) if i.id not in refused]
    if not ranked:
        return None
    last = (await s.execute(select(Event.actor_id).where(
        Event.case_id == case.id, Event.actor_kind == Actor.INSPECTOR.value)
        .order_by(Event.seq.desc()).limit(1))).scalar_one_or_none()
    best = next((i for i in ranked if str(i.id) == str(last)), ranked[0])
    await offer_task(core, s, case, best, AUTO, heading=REOPENED)
    return best


async def add_photo(core: Core, telegram_id: int, protocol: str, item: EvidenceIn, *,
                    also=None) -> str | None:
    """The photo the reporter sends after "Não, continua lá": evidence of the case, on the
    timeline, and sent to the inspector holding the reopened diligence. Returns that
    inspector's name (None: staff see it on the case page)."""
    async with core.db.unit_of_work() as s:
        person = (await s.execute(select(Person).where(Person.telegram_id == telegram_id))
                  ).scalar_one_or_none()
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)
        reopened = person is not None and (await s.execute(select(Event.id).where(
            Event.case_id == case.id, Event.action == REOPEN,
            Event.actor_kind == Actor.CITIZEN.value, Event.actor_id == str(person.id))
            .limit(1))).first() is not None
        if not (reopened and case.is_open):
            raise InvalidInput(NO_PHOTO_NOW)
        row = await attach(core, s, case.id, item, uploaded_by=person.id)
        ev = await append_event(s, case, _citizen(person), PHOTO, None,
                                {"photos": [row.sha256]}, public=False, at=core.now())
        name = None
        task = await current_task(s, case.id)
        if task is not None:
            inspector = await s.get(Inspector, task.inspector_id)
            name = inspector.name
            await outbox.enqueue(s, await chat_of(s, inspector), "followup_photo", {
                "text": f"Protocolo {case.protocol}: foto enviada pelo cidadão que informou "
                        "que o objeto continua no local.",
                "protocol": case.protocol, "photos": [row.sha256],
                "buttons": [[{"text": "Abrir caso", "intent": "case.open",
                              "case": case.protocol}]]},
                dedupe_key=f"case:{case.id}:ev:{ev.seq}:followup_photo:{inspector.id}")
        if also is not None:
            await also(s)
        return name
