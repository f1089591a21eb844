"""Citizens' reports: submit one, find open cases nearby, support an existing case.

Concurrent submissions are committed in groups (core.storage.group_commit): every call first
validates its report (nothing is written for bad input), then queues; a group is written in
ONE unit of work with set-wise statements (one SELECT/INSERT of persons, one counter UPDATE
for all their protocols, one INSERT each of cases, evidence, subscriptions and first timeline
events), then each case's auto-assignment and `also` hook run in order. Each caller gets its
own protocol, in queue order, sequential with no gaps; a failing submission fails alone.
The cases' INSERT is one statement on SQLite too because the case code (unique, chosen here)
is SQLAlchemy's insert sentinel (`Case.case_code`): without one, SQLite's RETURNING order is
not guaranteed and SQLAlchemy inserts every row alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.area import valid_point
from core.identifiers import InvalidIdentifier, normalize_plate, validate_chassis
from core.lifecycle import Actor
from core.parsing import ParseError, parse_text
from core.services.context import Core, SessionHook
from core.services.errors import InvalidInput, NotFound
from core.services.cases.evidence import EvidenceIn, attach
from core.services.citizens.people import person_for, person_on_whatsapp
from core.storage.geo import cell_of
from core.storage.group_commit import GroupCommit
from core.storage.models import Case, Event, Evidence, Person, Subscription, SupportingReport
from core.storage.protocol import allocate_protocols, new_case_code
from core.storage.queries import nearby_open_cases
from core.storage.timeline import ActorRef, append_event, build_event
from core.text import clean_optional

MAX_PHOTOS = 10
MAX_TEXT = 1000  # description, colour, make/model, how long: each
MAX_GROUP = 64  # submissions written in one grouped transaction at most
CaseHook = Callable[[AsyncSession, Case], Awaitable[None]]


@dataclass
class ReportIn:
    category: str
    lat: float
    lon: float
    photos: list[EvidenceIn]
    address: str | None = None
    neighbourhood: str | None = None
    plate: str | None = None
    chassis: str | None = None
    colour: str | None = None
    make_model: str | None = None
    time_there: str | None = None
    signs: tuple[str, ...] = ()  # abandonment criteria codes the citizen ticked
    description: str | None = None
    location_kind: str | None = None  # e.g. public space or vacant lot (Dores Art. 2º, 7º)
    # Photos by reference (an Open311 media_url): kept in the report's timeline fact as
    # `media_urls`; when no file came (not downloaded), they stand for the photos.
    media_urls: tuple[str, ...] = ()
    # A report by phone has no photo to give: the inspector takes them on site.
    photos_required: bool = True


@dataclass(frozen=True)
class Submitted:
    case_id: int
    protocol: str
    case_code: str
    state_label: str
    next_steps: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class NearbyCase:
    protocol: str
    category_label: str
    state_label: str
    address: str | None
    distance_m: float
    photo_sha256: str | None
    #: Where the object is and what comes next, in plain words (Law.state_texts), for the
    #: citizen: never a state's name.
    situation: str = ""


TEXT_FIELDS = ("address", "neighbourhood", "colour", "make_model", "time_there", "description")


def _text(value: str, lines: bool) -> str | None:
    """Free text as core.parsing reads it; None when nothing but blanks was typed."""
    try:
        return parse_text(value, MAX_TEXT, lines=lines)
    except ParseError as exc:
        if len(value) > MAX_TEXT:
            raise InvalidInput(exc.message) from None
        return None


def validate_report(core: Core, r: ReportIn) -> dict:
    """Refuse bad data before anything is written; return the normalised fields."""
    law = core.law
    if r.category not in law.categories:
        raise InvalidInput("Categoria desconhecida. Escolha uma das opções apresentadas.",
                           "category")
    if not valid_point(r.lat, r.lon):
        raise InvalidInput("Localização inválida. Envie a localização pelo botão do Telegram.",
                           "lat")
    here = core.city_at(r.lat, r.lon)  # the pin decides the city (core.municipality.CityMap)
    if here is None or here.slug != core.municipality:
        raise InvalidInput(outside(core, here), "lat")
    least = 1 if r.photos_required else 0
    if not least <= (len(r.photos) or len(r.media_urls)) <= MAX_PHOTOS:
        raise InvalidInput(f"Envie de {least} a {MAX_PHOTOS} fotos do objeto.", "photos")
    known = {c.code for c in law.criteria}
    unknown = [s for s in r.signs if s not in known]
    if unknown:
        raise InvalidInput("Sinal de abandono desconhecido: " + ", ".join(unknown))
    out = {"plate": None, "chassis": None, "warnings": [], "text": {}}
    for name in TEXT_FIELDS:  # trimmed, no NUL or control characters (core.parsing)
        value = getattr(r, name)
        if value is not None:
            out["text"][name] = _text(value, name == "description")
    try:
        if r.plate:
            out["plate"] = normalize_plate(r.plate).value
    except InvalidIdentifier as exc:
        raise InvalidInput(str(exc), "plate") from None
    try:
        if r.chassis:
            ch = validate_chassis(r.chassis)
            out["chassis"], out["warnings"] = ch.value, list(ch.warnings)
    except InvalidIdentifier as exc:
        raise InvalidInput(str(exc), "chassis") from None
    return out


def outside(core: Core, here=None) -> str:
    """Why a point cannot be reported to this Core's city: outside every city served (named),
    or in another one of them (`here`)."""
    if here is not None:
        return (f"Esse ponto fica em {here.label}, não em {core.city.label}. A denúncia vai "
                "para a prefeitura do município onde fica o local.")
    if core.many_cities:
        return (f"Esse ponto fica fora dos municípios atendidos ({core.cities_named()}). "
                "Só podemos atender ocorrências dentro deles.")
    return (f"Esse ponto fica fora da área de {core.law.city}. Esta prefeitura só pode "
            "atender ocorrências dentro do município.")


async def submit_report(core: Core, telegram_id: int | None, report: ReportIn, *,
                        display_name: str | None = None,
                        also: SessionHook | None = None,
                        with_case: CaseHook | None = None,
                        whatsapp_id: str | None = None) -> Submitted:
    """Open a case from a citizen's report (Dores Art. 4º caput / Dracena Art. 1º): a protocol
    AAAA-NNNNNN, the photos as evidence, the reporter subscribed to its updates (a reporter
    without Telegram, `telegram_id` None, is a person of this report only, with no chat and
    no subscription: core.services.messaging.contact_updates tells them). `also` runs
    in the same transaction (the bot clears its draft there, so a retry cannot report twice),
    and so does `with_case` with the new case (the counter intake records its contact there).
    A reporter on WhatsApp (`whatsapp_id`, `telegram_id` None) follows the case there.
    Concurrent calls are committed in groups (see the module docstring)."""
    report = _clean(report)
    display_name = clean_optional(display_name)
    norm = validate_report(core, report)
    report = replace(report, **norm.pop("text"))
    for p in report.photos:  # checked before anything is written, as attach() would
        if not core.evidence.exists(p.sha256):
            raise InvalidInput("Não encontramos o arquivo enviado. Envie a foto novamente.")
    now = core.now()
    job = _Job(core, telegram_id, report, norm, display_name, also, now,
               now.astimezone(core.tz).year, with_case, whatsapp_id)
    return await _SUBMISSIONS.submit(core.db, job)


def _clean(r: ReportIn) -> ReportIn:
    """The report's typed texts as the database can keep them (core.text)."""
    return replace(r, **{name: clean_optional(getattr(r, name)) for name in _TEXTS})


_TEXTS = ("address", "neighbourhood", "plate", "chassis", "colour", "make_model",
          "time_there", "description")


# -- grouped commit (core.storage.group_commit; see the module docstring) ---------------------

@dataclass(eq=False)
class _Job:
    core: Core
    telegram_id: int | None
    report: ReportIn
    norm: dict
    display_name: str | None
    also: SessionHook | None
    now: datetime
    local_year: int
    with_case: CaseHook | None = None
    whatsapp_id: str | None = None


async def _write_group(s: AsyncSession, batch: list[_Job]) -> list[Submitted]:
    """Write every submission of `batch` in the session's transaction, set-wise. A group may
    hold several cities' reports: each is written under its own city's Core (`j.core`)."""
    wanted = {j.telegram_id for j in batch if j.telegram_id is not None}
    known = {p.telegram_id: p for p in (await s.execute(
        select(Person).where(Person.telegram_id.in_(wanted)))).scalars()} if wanted else {}
    people: dict[int, Person] = {}  # id(job) → its reporter
    new_people = []
    on_whatsapp = {j.whatsapp_id for j in batch if j.whatsapp_id is not None}
    by_wa = {p.whatsapp_id: p for p in (await s.execute(
        select(Person).where(Person.whatsapp_id.in_(on_whatsapp)))).scalars()
    } if on_whatsapp else {}
    for j in batch:  # person_for(): created on first contact
        if j.telegram_id is None and j.whatsapp_id is not None:
            if j.whatsapp_id not in by_wa:
                by_wa[j.whatsapp_id] = Person(whatsapp_id=j.whatsapp_id,
                                              display_name=j.display_name, roles=["citizen"])
                new_people.append(by_wa[j.whatsapp_id])
            people[id(j)] = by_wa[j.whatsapp_id]
            continue
        if j.telegram_id is None:  # no chat: a person of this report only
            people[id(j)] = Person(telegram_id=None, display_name=j.display_name,
                                   roles=["citizen"])
            new_people.append(people[id(j)])
            continue
        if j.telegram_id not in known:
            known[j.telegram_id] = Person(telegram_id=j.telegram_id,
                                          display_name=j.display_name, roles=["citizen"])
            new_people.append(known[j.telegram_id])
        people[id(j)] = known[j.telegram_id]
    if new_people:
        s.add_all(new_people)
        await s.flush()
    protocols: dict[int, list[str]] = {}
    for year in dict.fromkeys(j.local_year for j in batch):
        count = sum(1 for j in batch if j.local_year == year)
        protocols[year] = await allocate_protocols(s, year, count)
    from core.services.inspectors import tasks  # diligence tasks, same transaction
    roster = await tasks.load_roster(s)
    cases = []
    for j in batch:
        r, norm, law = j.report, j.norm, j.core.law
        category = law.categories[r.category]
        cases.append(Case(
            protocol=protocols[j.local_year].pop(0), case_code=new_case_code(),
            municipality=j.core.municipality, category=category.code, track=category.track,
            state=law.tracks[category.track].initial, lat=r.lat, lon=r.lon,
            cell=cell_of(r.lat, r.lon), address=r.address, neighbourhood=r.neighbourhood,
            plate=norm["plate"], chassis=norm["chassis"], description=r.description,
            details={"report": {"colour": r.colour, "make_model": r.make_model,
                                "time_there": r.time_there, "signs": list(r.signs),
                                "location_kind": r.location_kind},
                     "facts": {}},
            reporter_id=people[id(j)].id, created_at=j.now, updated_at=j.now,
            is_open=True))
    assignable: dict[str, tuple[Core, list[Case]]] = {}  # city → its Core, its cases
    for j, case in zip(batch, cases):  # nobody competent: flagged for staff in the INSERT
        if roster.candidates(j.core, case):
            assignable.setdefault(j.core.municipality, (j.core, []))[1].append(case)
        else:
            case.details["needs_assignment"] = tasks.staff_flag(j.core)
    s.add_all(cases)
    await s.flush()
    evidence, subscriptions, events = [], [], []  # plain rows: one INSERT each for the group
    for j, case in zip(batch, cases):
        r, person, core = j.report, people[id(j)], j.core
        category = core.law.categories[r.category]
        seen: set[str] = set()
        for p in r.photos:  # attach(): once per case and hash
            if p.sha256 not in seen:
                seen.add(p.sha256)
                evidence.append(dict(
                    sha256=p.sha256, case_id=case.id, kind=p.kind, mime=p.mime,
                    size=core.evidence.path_of(p.sha256).stat().st_size,
                    telegram_file_id=p.telegram_file_id,
                    telegram_file_unique_id=p.telegram_file_unique_id,
                    path=core.evidence.relative_path(p.sha256), uploaded_by=person.id,
                    created_at=j.now))
        if person.telegram_id is not None or person.whatsapp_id is not None:  # in its chat
            subscriptions.append(dict(person_id=person.id, case_id=case.id, notify=True,
                                      created_at=j.now))
        # the case's first event: created in this transaction, so no earlier one exists
        ev = build_event(case.id, 1, None, ActorRef(Actor.CITIZEN.value, person.id, None),
                         "report", category.article,
                         {"category": category.code, "photos": [p.sha256 for p in r.photos],
                          "lat": r.lat, "lon": r.lon, "address": r.address,
                          "plate": j.norm["plate"], "signs": list(r.signs),
                          **({"media_urls": list(r.media_urls)} if r.media_urls else {})},
                         at=j.now)
        events.append({c.key: getattr(ev, c.key) for c in Event.__table__.columns
                       if c.key != "id"})
    for table, rows in ((Evidence.__table__, evidence), (Subscription.__table__, subscriptions),
                        (Event.__table__, events)):
        if rows:
            await s.execute(table.insert(), rows)
    for city_core, city_cases in assignable.values():
        await tasks.assign_new_cases(city_core, s, city_cases, roster)
    out = []
    for j, case in zip(batch, cases):
        if j.also is not None:
            await j.also(s)
        if j.with_case is not None:
            await j.with_case(s, case)
        law = j.core.law
        lifecycle = law.tracks[case.track]
        out.append(Submitted(case.id, case.protocol, case.case_code,
                             lifecycle.state(case.state).label,
                             tuple(law.next_steps.get(case.track, ()))))
    return out


_SUBMISSIONS: GroupCommit[_Job, Submitted] = GroupCommit(_write_group, max_group=MAX_GROUP)


async def find_nearby(core: Core, category: str, lat: float, lon: float,
                      radius_m: float | None = None) -> list[NearbyCase]:
    """Open cases of `category` of this Core's city (never across a city's border) within
    the duplicate radius, nearest first (indexed). Another
    citizen's case: what is shown of it is its public projection (core.services.public.case:
    the neighbourhood, the state in public words, the public photo), never the address
    that citizen typed."""
    from core.services.public.case import public_photos, public_view
    radius = radius_m if radius_m is not None else core.settings.duplicate_radius_m
    async with core.db.read() as s:
        found = await nearby_open_cases(s, core.municipality, category, lat, lon, radius)
        photos = await public_photos(s, [c.id for c, _ in found])
    out = []
    for case, dist in found:
        pv = public_view(core, case, photo=photos.get(case.id))
        out.append(NearbyCase(pv.protocol, pv.category_label, pv.state_label, pv.place,
                              round(dist, 1), pv.photo, pv.situation))
    return out


async def support_case(core: Core, protocol: str, telegram_id: int | None,
                       photos: list[EvidenceIn] = (), note: str | None = None, *,
                       display_name: str | None = None,
                       also: SessionHook | None = None,
                       whatsapp_id: str | None = None) -> str:
    """"É este": the citizen's report supports an open case of this Core's city; they follow
    its updates. A
    reporter without Telegram (`telegram_id` None: an Open311 client's) is a person of this
    report only, with no chat, and follows nothing."""
    from core.services.cases.transitions import NOT_FOUND, load_case
    note, display_name = clean_optional(note), clean_optional(display_name)
    if note and len(note) > MAX_TEXT:
        raise InvalidInput(f"Texto longo demais (máximo de {MAX_TEXT} caracteres).")
    async with core.db.unit_of_work() as s:
        case = await load_case(s, protocol, for_update=True)
        if case.municipality != core.municipality:  # another city's case: as a missing one
            raise NotFound(NOT_FOUND)
        if not case.is_open:
            raise InvalidInput(f"O caso {case.protocol} já foi encerrado. Faça uma nova denúncia.")
        if telegram_id is None and whatsapp_id is not None:
            person = await person_on_whatsapp(s, whatsapp_id, display_name)
        elif telegram_id is None:
            person = Person(telegram_id=None, display_name=display_name, roles=["citizen"])
            s.add(person)
            await s.flush()
        else:
            person = await person_for(s, telegram_id, display_name)
        shas = [(await attach(core, s, case.id, p, person.id)).sha256 for p in photos]
        s.add(SupportingReport(case_id=case.id, person_id=person.id, note=note, photos=shas))
        in_chat = telegram_id is not None or whatsapp_id is not None
        sub = None if not in_chat else (await s.execute(select(Subscription).where(
            Subscription.case_id == case.id, Subscription.person_id == person.id))
        ).scalar_one_or_none()
        if sub is None and in_chat:
            s.add(Subscription(person_id=person.id, case_id=case.id, notify=True))
        await append_event(s, case, ActorRef(Actor.CITIZEN.value, person.id, None), "support",
                           None, {"photos": shas}, at=core.now())
        if also is not None:
            await also(s)
        return case.protocol
