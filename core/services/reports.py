"""Citizens' reports: submit one, find open cases nearby, support an existing case."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Awaitable, Callable
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.identifiers import InvalidIdentifier, normalize_plate, validate_chassis
from core.lifecycle import Actor
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.evidence import EvidenceIn, attach
from core.services.people import person_for
from core.storage.geo import cell_of
from core.storage.models import Case, Evidence, Subscription, SupportingReport
from core.storage.protocol import allocate_protocol, new_case_code
from core.storage.queries import nearby_open_cases
from core.storage.timeline import ActorRef, append_event

MAX_PHOTOS = 10
MAX_TEXT = 1000  # description, colour, make/model, how long: each
SessionHook = Callable[[AsyncSession], Awaitable[None]]


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


def validate_report(core: Core, r: ReportIn) -> dict:
    """Refuse bad data before anything is written; return the normalised fields."""
    law = core.law
    if r.category not in law.categories:
        raise InvalidInput("Categoria desconhecida. Escolha uma das opções apresentadas.")
    if not (-90 <= r.lat <= 90 and -180 <= r.lon <= 180):
        raise InvalidInput("Localização inválida. Envie a localização pelo botão do Telegram.")
    if not core.area.contains(r.lat, r.lon):
        raise InvalidInput(f"Esse ponto fica fora da área de {law.city}. Esta prefeitura só pode "
                           "atender ocorrências dentro do município.")
    if not 1 <= len(r.photos) <= MAX_PHOTOS:
        raise InvalidInput(f"Envie de 1 a {MAX_PHOTOS} fotos do objeto.")
    known = {c.code for c in law.criteria}
    unknown = [s for s in r.signs if s not in known]
    if unknown:
        raise InvalidInput("Sinal de abandono desconhecido: " + ", ".join(unknown))
    for name in ("address", "neighbourhood", "colour", "make_model", "time_there", "description"):
        value = getattr(r, name)
        if value is not None and len(value) > MAX_TEXT:
            raise InvalidInput(f"Texto longo demais (máximo de {MAX_TEXT} caracteres).")
    out = {"plate": None, "chassis": None, "warnings": []}
    try:
        if r.plate:
            out["plate"] = normalize_plate(r.plate).value
        if r.chassis:
            ch = validate_chassis(r.chassis)
            out["chassis"], out["warnings"] = ch.value, list(ch.warnings)
    except InvalidIdentifier as exc:
        raise InvalidInput(str(exc)) from None
    return out


async def submit_report(core: Core, telegram_id: int, report: ReportIn, *,
                        display_name: str | None = None,
                        also: SessionHook | None = None) -> Submitted:
    """Open a case from a citizen's report (Dores Art. 4º caput / Dracena Art. 1º): a protocol
    AAAA-NNNNNN, the photos as evidence, the reporter subscribed to its updates. `also` runs
    in the same transaction (the bot clears its draft there, so a retry cannot report twice)."""
    norm = validate_report(core, report)
    law = core.law
    category = law.categories[report.category]
    lifecycle = law.tracks[category.track]
    now = core.now()
    local_year = now.astimezone(ZoneInfo(core.settings.timezone)).year
    async with core.db.unit_of_work() as s:
        person = await person_for(s, telegram_id, display_name)
        case = Case(protocol=await allocate_protocol(s, local_year), case_code=new_case_code(),
                    municipality=law.slug, category=category.code, track=category.track,
                    state=lifecycle.initial, lat=report.lat, lon=report.lon,
                    cell=cell_of(report.lat, report.lon), address=report.address,
                    neighbourhood=report.neighbourhood, plate=norm["plate"],
                    chassis=norm["chassis"], description=report.description,
                    details={"report": {"colour": report.colour, "make_model": report.make_model,
                                        "time_there": report.time_there,
                                        "signs": list(report.signs),
                                        "location_kind": report.location_kind},
                             "facts": {}},
                    reporter_id=person.id, created_at=now, updated_at=now, is_open=True)
        s.add(case)
        await s.flush()
        photos = [await attach(core, s, case.id, p, person.id) for p in report.photos]
        s.add(Subscription(person_id=person.id, case_id=case.id, notify=True))
        await append_event(s, case, ActorRef(Actor.CITIZEN.value, person.id, None), "report",
                           category.article,
                           {"category": category.code, "photos": [p.sha256 for p in photos],
                            "lat": report.lat, "lon": report.lon, "address": report.address,
                            "plate": norm["plate"], "signs": list(report.signs)}, at=now)
        from core.services.tasks import assign_new_case  # diligence task, same transaction
        await assign_new_case(core, s, case)
        if also is not None:
            await also(s)
        return Submitted(case.id, case.protocol, case.case_code,
                         lifecycle.state(case.state).label,
                         tuple(law.next_steps.get(category.track, ())))


async def find_nearby(core: Core, category: str, lat: float, lon: float,
                      radius_m: float | None = None) -> list[NearbyCase]:
    """Open cases of `category` within the duplicate radius, nearest first (indexed)."""
    radius = radius_m if radius_m is not None else core.settings.duplicate_radius_m
    law = core.law
    async with core.db.read() as s:
        found = await nearby_open_cases(s, category, lat, lon, radius)
        out = []
        for case, dist in found:
            photo = (await s.execute(select(Evidence.sha256).where(
                Evidence.case_id == case.id, Evidence.kind == "photo")
                .order_by(Evidence.id).limit(1))).scalar_one_or_none()
            out.append(NearbyCase(case.protocol, law.categories[case.category].label,
                                  law.tracks[case.track].state(case.state).label,
                                  case.address, round(dist, 1), photo))
    return out


async def support_case(core: Core, protocol: str, telegram_id: int,
                       photos: list[EvidenceIn] = (), note: str | None = None, *,
                       display_name: str | None = None,
                       also: SessionHook | None = None) -> str:
    """"É este": the citizen's report supports an open case; they follow its updates."""
    from core.services.cases import load_case
    if note and len(note) > MAX_TEXT:
        raise InvalidInput(f"Texto longo demais (máximo de {MAX_TEXT} caracteres).")
    async with core.db.unit_of_work() as s:
        case = await load_case(s, protocol, for_update=True)
        if not case.is_open:
            raise InvalidInput(f"O caso {case.protocol} já foi encerrado. Faça uma nova denúncia.")
        person = await person_for(s, telegram_id, display_name)
        shas = [(await attach(core, s, case.id, p, person.id)).sha256 for p in photos]
        s.add(SupportingReport(case_id=case.id, person_id=person.id, note=note, photos=shas))
        sub = (await s.execute(select(Subscription).where(
            Subscription.case_id == case.id, Subscription.person_id == person.id))
        ).scalar_one_or_none()
        if sub is None:
            s.add(Subscription(person_id=person.id, case_id=case.id, notify=True))
        await append_event(s, case, ActorRef(Actor.CITIZEN.value, person.id, None), "support",
                           None, {"photos": shas}, at=core.now())
        if also is not None:
            await also(s)
        return case.protocol
