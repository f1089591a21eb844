"""Staff give an inspector every open case inside a box on the map at once.

Each case goes through the same assignment as one case given from its page
(core.services.inspectors.tasks.assign_case): competence comes from the lifecycle (the
agencies allowed for the inspector steps of the case's state, e.g. Dores Art. 5º, caput and
Art. 10 for furniture, Art. 3º, §2º and Art. 10 for vehicles), the previous holder's task is
withdrawn and the inspector is told. A case the inspector may not take is listed with the
reason, and the others are given all the same (each case in its own transaction).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from core.services.context import Core
from core.lifecycle import TransitionRefused
from core.services.errors import InvalidInput, ServiceError
from core.services.inspectors.tasks import OPEN, allowed_agencies, assign_case
from core.storage.models import Case, Inspector, Task
from core.storage.timeline import ActorRef

MAX_CASES = 200
BOUNDS = (("south", "Sul", -90.0, 90.0), ("west", "Oeste", -180.0, 180.0),
          ("north", "Norte", -90.0, 90.0), ("east", "Leste", -180.0, 180.0))


@dataclass(frozen=True)
class Box:
    south: float
    west: float
    north: float
    east: float


@dataclass(frozen=True)
class NotAssigned:
    protocol: str
    reason: str  # Portuguese


@dataclass
class AreaAssignment:
    inspector_id: int
    inspector_name: str
    assigned: list[str] = field(default_factory=list)  # protocols now with the inspector
    already: list[str] = field(default_factory=list)  # already theirs: unchanged
    refused: list[NotAssigned] = field(default_factory=list)


def _number(raw: object, label: str, name: str, low: float, high: float) -> float:
    text = str(raw or "").strip().replace(",", ".")
    if not text:
        raise InvalidInput(f"{label}: informe a coordenada (ou desenhe a área no mapa).", name)
    try:
        value = float(text)
    except ValueError:
        raise InvalidInput(f"{label}: “{str(raw)[:30]}” não é um número (ex.: -19,4628).",
                           name) from None
    if not low <= value <= high:
        raise InvalidInput(f"{label}: deve estar entre {low:g} e {high:g}.", name)
    return value


def parse_box(form) -> Box:
    """The box from a form's south/west/north/east (comma or point as decimal separator)."""
    got = {name: _number(form.get(name), label, name, low, high)
           for name, label, low, high in BOUNDS}
    box = Box(**got)
    if box.south >= box.north:
        raise InvalidInput("O limite Sul deve ser menor que o Norte.", "south")
    if box.west >= box.east:
        raise InvalidInput("O limite Oeste deve ser menor que o Leste.", "west")
    return box


async def cases_in_box(core: Core, box: Box) -> list[Case]:
    """Open cases of this city inside the box where an inspector has a step to take."""
    async with core.db.read() as s:
        rows = (await s.execute(select(Case).where(
            Case.municipality == core.municipality, Case.is_open.is_(True),
            Case.lat.between(box.south, box.north), Case.lon.between(box.west, box.east))
            .order_by(Case.protocol).limit(MAX_CASES + 1))).scalars().all()
    return [c for c in rows
            if allowed_agencies(core, core.law.tracks[c.track], c.state)]


async def assign_in_box(core: Core, box: Box, inspector_id: int | None,
                        by: ActorRef) -> AreaAssignment:
    if inspector_id is None:
        raise InvalidInput("Escolha um fiscal.", "inspector_id")
    async with core.db.read() as s:
        inspector = await s.get(Inspector, inspector_id)
        if inspector is None or not inspector.active or \
                inspector.municipality not in (core.municipality, ""):
            raise InvalidInput("Fiscal não encontrado ou desativado.", "inspector_id")
        name = inspector.name
    cases = await cases_in_box(core, box)
    if not cases:
        raise InvalidInput("Nenhum caso aberto com etapa de fiscal nesta área: desenhe outra "
                           "área.", "")
    if len(cases) > MAX_CASES:
        raise InvalidInput(f"Mais de {MAX_CASES} casos nesta área: desenhe uma área menor.", "")
    async with core.db.read() as s:
        held = set((await s.execute(select(Task.case_id).where(
            Task.inspector_id == inspector_id, Task.status.in_(OPEN),
            Task.case_id.in_([c.id for c in cases])))).scalars().all())
    out = AreaAssignment(inspector_id, name)
    for case in cases:
        if case.id in held:
            out.already.append(case.protocol)
            continue
        try:
            done = await assign_case(core, case.protocol, inspector_id, by)
        except (ServiceError, TransitionRefused) as exc:
            out.refused.append(NotAssigned(case.protocol, exc.message))
            continue
        out.assigned.append(done.protocol)
    return out


@dataclass(frozen=True)
class CasePoint:
    protocol: str
    lat: float
    lon: float
    label: str  # category · state (Portuguese)


async def assignable_points(core: Core, limit: int = 1000) -> list[CasePoint]:
    """The newest open cases where an inspector has a step to take (the area page's map)."""
    law = core.law
    async with core.db.read() as s:
        rows = (await s.execute(select(Case).where(
            Case.municipality == core.municipality, Case.is_open.is_(True))
            .order_by(Case.id.desc()).limit(limit))).scalars().all()
    return [CasePoint(c.protocol, c.lat, c.lon,
                      f"{law.categories[c.category].label} · "
                      f"{law.tracks[c.track].state(c.state).label}")
            for c in rows if allowed_agencies(core, law.tracks[c.track], c.state)]
