"""What a citizen (or the public) may see of a case: its state in plain words, the public
steps with dates, and the next step with its date. Never the reporter, the owner's data or
non-public events."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from core.laws.base import Law
from core.services.cases.transitions import NOT_FOUND, load_case
from core.services.context import Core
from core.services.cases.deadline_recount import RECOUNT_ACTION, RECOUNT_LABEL
from core.services.errors import NotFound
from core.services.citizens.people import person_for
from core.services.public.case import PublicDeadline, PublicStep, load_public, next_step_text
from core.storage.models import Case, Event, Person, Subscription


@dataclass(frozen=True)
class PublicCaseView:
    protocol: str
    category_label: str
    state_label: str
    is_open: bool
    address: str | None
    created: date
    steps: tuple[PublicStep, ...]
    deadline: PublicDeadline | None
    notify: bool | None = None  # for /minhas: whether this person gets updates
    #: Where the object is and what comes next on this track (Law.state_texts).
    situation: str = ""
    #: "Dracena (SP)": the case's city, when the installation serves more than one
    city: str = ""

    def next_step_text(self) -> str:
        return next_step_text(self.is_open, self.situation, self.deadline)


def citizen_situation(law: Law, track: str, state: str) -> str:
    """Where the object is and what comes next on this track, for the citizen and the public
    (Law.state_texts); empty for a closed case or a state the law words nothing for."""
    text = law.state_text(track, state)
    return text.for_citizen() if text else ""


def _city(core: Core) -> str:
    """The case's city as the citizen is told it: only when there is more than one."""
    return core.city.label if core.many_cities else ""


async def _view(core: Core, s, case: Case, notify: bool | None = None) -> PublicCaseView:
    core = core.for_case(case)  # the case's city: its law, categories and time zone
    law = core.law
    lifecycle = law.tracks[case.track]
    events = (await s.execute(select(Event).where(Event.case_id == case.id,
                                                  Event.public.is_(True))
                              .order_by(Event.seq))).scalars().all()
    tz = core.tz
    steps = []
    for ev in events:
        if ev.action == "report":
            label = "Denúncia registrada"
        elif ev.action == "support":
            continue
        elif ev.action == RECOUNT_ACTION:
            label = RECOUNT_LABEL
        else:
            label = lifecycle.step_label(ev.action) or ev.action
        steps.append(PublicStep(ev.at.astimezone(tz).date(), label, ev.article))
    deadline = None
    dj = case.deadline_json
    if case.is_open and dj:
        then = None
        if dj.get("on_lapse") and dj["on_lapse"] in lifecycle.transitions:
            then = lifecycle.transitions[dj["on_lapse"]].label
        deadline = PublicDeadline(date.fromisoformat(dj["due"]), dj["due_in_full"],
                                  dj["description"], dj["article"], dj["explanation"], then)
    return PublicCaseView(case.protocol, law.categories[case.category].label,
                          lifecycle.state(case.state).label, case.is_open, case.address,
                          case.created_at.astimezone(tz).date(), tuple(steps), deadline, notify,
                          citizen_situation(law, case.track, case.state), _city(core))


async def status_view(core: Core, protocol: str) -> PublicCaseView:
    """/status AAAA-NNNNNN: anyone may ask about any protocol, so this is the public projection
    (core.services.public.case.public_view): the neighbourhood for the place, the state in
    its public words. Protocols are unique in the installation: the case is found in any
    city served and told under its own city's law (installation-wide on purpose)."""
    protocol = (protocol or "").strip()
    async with core.db.read() as s:
        slug = (await s.execute(select(Case.municipality).where(Case.protocol == protocol))
                ).scalar_one_or_none()
        if slug is None or core.city_named(slug) is None:
            raise NotFound(NOT_FOUND)
        core = core.for_city(slug)
        c = await load_public(core, s, protocol)
    if c is None:
        raise NotFound(NOT_FOUND)
    return PublicCaseView(c.protocol, c.category_label, c.state_label, c.is_open,
                          f"{c.place} (local aproximado)", c.created, c.steps, c.deadline,
                          None, c.situation, _city(core))


async def my_cases(core: Core, telegram_id: int | None, limit: int = 20, *,
                   whatsapp_id: str | None = None) -> list[PublicCaseView]:
    """/minhas: the cases this person (by Telegram id, or by WhatsApp id) reported or
    follows, newest first, in every city served (each told under its own city's law)."""
    who = (Person.telegram_id == telegram_id if telegram_id is not None
           else Person.whatsapp_id == whatsapp_id)
    async with core.db.read() as s:
        rows = (await s.execute(
            select(Case, Subscription.notify)
            .join(Subscription, Subscription.case_id == Case.id)
            .join(Person, Person.id == Subscription.person_id)
            .where(who)
            .order_by(Case.created_at.desc()).limit(limit))).all()
        return [await _view(core, s, case, notify) for case, notify in rows]


async def set_notifications(core: Core, telegram_id: int, protocol: str, on: bool) -> bool:
    """Turn a person's updates for one case on or off; False if they don't follow it."""
    async with core.db.unit_of_work() as s:
        person = await person_for(s, telegram_id)
        case = await load_case(s, protocol)
        sub = (await s.execute(select(Subscription).where(
            Subscription.case_id == case.id, Subscription.person_id == person.id))
        ).scalar_one_or_none()
        if sub is None:
            return False
        sub.notify = on
        return True
