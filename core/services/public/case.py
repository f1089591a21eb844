"""The public projection of a case: the one function (`public_view`) that decides what anyone
may know of a case without a role. The map and its JSON, the open data (GeoJSON), the status
page, the owner's web page before proof and Open311 GET (JSON and XML, list and single) all
render from the PublicCase it returns, and from nothing else.

Public (LGPD, Lei 13.709/2018, art. 6º, III — necessity): the protocol, the category, the
state in the law's public words, the dates, the neighbourhood and the point coarsened to the
block (COORD_DECIMALS, ≈ 110 m), the law's next step and deadline, the public steps, and the
EXIF/GPS-free copy of the photo `public_photos` names. Never: the address as typed (it may
hold a neighbour's name, a house number, a CPF), the citizen's description, the reporter
(Lei 13.460/2017, art. 10, §7º), the owner, the plate or chassis, any document. A state the
law hides behind another (State.public_as: a police referral, Dores Art. 4º, III) is shown as
that state, without its steps or deadline: the public never reads a suspicion of theft
attached to an identifiable vehicle.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Iterable

from sqlalchemy import select

from core.formatting import fmt_date
from core.services.context import Core
from core.services.cases.deadline_recount import RECOUNT_ACTION, RECOUNT_LABEL
from core.services.public.photos import public_first_photos
from core.storage.models import Case, Event

COORD_DECIMALS = 3  # ≈ 110 m: the block, not the house
#: The case columns the projection reads (queries select exactly these).
COLUMNS = (Case.id, Case.protocol, Case.category, Case.track, Case.state, Case.is_open,
           Case.created_at, Case.updated_at, Case.closed_at, Case.neighbourhood, Case.lat,
           Case.lon, Case.deadline_json)
REPORTED = "Denúncia registrada"


@dataclass(frozen=True)
class PublicStep:
    day: date
    label: str
    article: str | None


@dataclass(frozen=True)
class PublicDeadline:
    due: date
    due_in_full: str
    description: str
    article: str
    explanation: str
    then: str | None  # what happens when it passes
    due_at: datetime | None = None


@dataclass(frozen=True)
class PublicCase:
    protocol: str
    category: str
    category_label: str
    state: str  # the public state's code (State.public_as applied)
    state_label: str  # its public label
    situation: str  # where the object is and what comes next (Law.state_texts, public state)
    is_open: bool
    created_at: datetime
    updated_at: datetime
    created: date  # local dates (the municipality's time zone)
    updated: date
    closed: date | None
    neighbourhood: str | None
    lat: float  # coarse (COORD_DECIMALS)
    lon: float
    deadline: PublicDeadline | None
    steps: tuple[PublicStep, ...] = ()
    #: The original photo whose public copy may be shown (public_photos), or None.
    photo: str | None = None
    #: The city's public pages (public_base)
    base: str = "/publico"

    @property
    def place(self) -> str:
        """The place in words: the neighbourhood only."""
        return self.neighbourhood or "bairro não informado"

    @property
    def photo_path(self) -> str | None:
        return f"{self.base}/protocolo/{self.protocol}/foto" if self.photo else None

    @property
    def status_path(self) -> str:
        return f"{self.base}/protocolo/{self.protocol}"

    def next_step_text(self) -> str:
        return next_step_text(self.is_open, self.situation, self.deadline)

    def properties(self) -> dict[str, Any]:
        """The GeoJSON properties (map and open data)."""
        return {"foto": self.photo_path, "protocolo": self.protocol,
                "categoria": self.category_label, "codigo_categoria": self.category,
                "situacao": self.state_label, "aberto": self.is_open,
                "criado_em": fmt_date(self.created), "atualizado_em": fmt_date(self.updated),
                "encerrado_em": fmt_date(self.closed) if self.closed else None,
                "bairro": self.neighbourhood}


def public_base(core: Core) -> str:
    """Where the city's public pages live: /publico while the installation serves one city
    (its old addresses), /publico/<city> once it serves more."""
    return f"/publico/{core.municipality}" if core.many_cities else "/publico"


def coarse(lat: float, lon: float) -> tuple[float, float]:
    """A point as the public sees it: to the block (COORD_DECIMALS), everywhere."""
    return round(lat, COORD_DECIMALS), round(lon, COORD_DECIMALS)


def public_view(core: Core, case: Any, *, photo: str | None = None,
                events: Iterable[Event] | None = None) -> PublicCase:
    """What anyone may know of `case` (a Case, or a row of COLUMNS). `photo` is what
    public_photos gave for it; `events` its timeline, when the public steps are wanted."""
    law = core.law
    lifecycle = law.tracks[case.track]
    shown = lifecycle.public_state(case.state)
    hidden = bool(lifecycle.state(case.state).public_as)
    zone = core.tz
    cat = law.categories.get(case.category)
    text = law.state_text(case.track, shown.code) if case.is_open else None
    deadline = None
    dj = case.deadline_json
    if case.is_open and dj and not hidden:
        then = None
        if dj.get("on_lapse") and dj["on_lapse"] in lifecycle.transitions:
            then = lifecycle.transitions[dj["on_lapse"]].label
        due_at = datetime.fromisoformat(dj["due_at"]) if dj.get("due_at") else None
        deadline = PublicDeadline(date.fromisoformat(dj["due"]), dj["due_in_full"],
                                  dj["description"], dj["article"], dj.get("explanation", ""),
                                  then, due_at)
    steps = []
    for ev in events or ():
        if not ev.public or ev.action == "support" or not lifecycle.public_step(ev.action):
            continue
        label = REPORTED if ev.action == "report" else RECOUNT_LABEL \
            if ev.action == RECOUNT_ACTION else (lifecycle.step_label(ev.action) or ev.action)
        steps.append(PublicStep(ev.at.astimezone(zone).date(), label, ev.article))
    lat, lon = coarse(case.lat, case.lon)
    return PublicCase(
        case.protocol, case.category, cat.label if cat else case.category, shown.code,
        shown.label, text.for_citizen() if text else "", bool(case.is_open), case.created_at,
        case.updated_at, case.created_at.astimezone(zone).date(),
        case.updated_at.astimezone(zone).date(),
        case.closed_at.astimezone(zone).date() if case.closed_at else None,
        case.neighbourhood, lat, lon, deadline, tuple(steps), photo, public_base(core))


async def public_photos(s, case_ids: Iterable[int]) -> dict[int, str]:
    """Case id → the original photo (sha256) whose EXIF/GPS-free copy the public may see; a
    case without one is absent. The one rule for which photo is public: every public output
    asks it (the first photo a staff member approved: core.services.public.photos)."""
    return await public_first_photos(s, list(case_ids))


async def public_cases(core: Core, s, rows: list) -> list[PublicCase]:
    """The projection of each row (Case or COLUMNS), with its public photo."""
    photos = await public_photos(s, [r.id for r in rows])
    return [public_view(core, r, photo=photos.get(r.id)) for r in rows]


async def load_public(core: Core, s, protocol: str) -> PublicCase | None:
    """One case of the city by protocol with its public steps; None when unknown (or another
    city's: answered as a missing one)."""
    row = (await s.execute(select(*COLUMNS).where(
        Case.protocol == protocol, Case.municipality == core.municipality))).one_or_none()
    if row is None:
        return None
    events = (await s.execute(select(Event).where(Event.case_id == row.id)
                              .order_by(Event.seq))).scalars().all()
    photos = await public_photos(s, [row.id])
    return public_view(core, row, photo=photos.get(row.id), events=events)


def next_step_text(is_open: bool, situation: str, deadline: PublicDeadline | None) -> str:
    """What happens next, in words: the track's situation and the running deadline."""
    if not is_open:
        return "Caso encerrado."
    lead = f"{situation} " if situation else ""
    if deadline is None:
        return situation or "Aguardando a próxima providência da prefeitura."
    then = f" Depois disso: {deadline.then}." if deadline.then else ""
    return (f"{lead}Prazo: {deadline.description} até {fmt_date(deadline.due)} "
            f"({deadline.article}).{then}")
