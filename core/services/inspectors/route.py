"""The inspector's route of the day: today's field tasks in a visiting order.

Today's field tasks are the inspector's open tasks (offered or accepted, on open cases) whose
object is still in the public space, where the lifecycle offers the inspector's agency a step
now that only an inspector takes (one staff may also take from the office, such as the police
referral's answer, Dores Art. 4º, III, is no visit), and that are due today: a diligence (no deadline: Dores Art. 4º, caput, "diligenciará até
o local"), a removal a lapsed deadline made due (e.g. Dores Art. 6º, caput), or a deadline
ending today or already ended (the owner's own term, Art. 6º, §3º: verify on the spot). A
task whose deadline is still running is left for its day (counted in `later`).

The order starts from the inspector's location shared today (/tarefas asks for it), else the
office's point (OFFICE_LAT/OFFICE_LON), else the city's centre, and is the shortest open path
over great-circle distances (core.services.inspectors.route_order states the method and its
gap to the optimum). Road distances plug in through `distance` where a city has a routing
service; none is called here.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import date
from typing import Callable

from sqlalchemy import select

from core.formatting import TZ, fmt_date, fmt_time, local_date
from core.lifecycle import Actor
from core.services.context import Core
from core.services.errors import NotFound
from core.services.inspectors.accounts import inspector_core
from core.services.inspectors import route_order
from core.services.inspectors.task_list import TaskSummary, open_tasks
from core.storage.models import Case, Inspector, Person

VISIT, REMOVAL, CHECK = "Vistoria", "Remoção", "Verificação"
NO_DUE = "sem prazo fixado em lei"
STRAIGHT = "em linha reta, não pelas ruas"


@dataclass(frozen=True)
class Start:
    lat: float
    lon: float
    label: str  # Portuguese: where the route starts from
    kind: str  # "location" (shared today), "office" or "centre"


@dataclass(frozen=True)
class Stop:
    number: int  # 1, 2, … in visiting order
    task_id: int
    protocol: str
    kind: str  # VISIT, REMOVAL or CHECK
    todo: str  # what to do there (Portuguese)
    category_label: str
    state_label: str
    address: str
    lat: float
    lon: float
    due: date | None
    due_text: str  # dd/mm/aaaa, or NO_DUE
    leg_m: float  # from the previous stop (or the start)
    awaiting_accept: bool

    @property
    def geo_uri(self) -> str:
        """Opens the spot in the phone's map app (RFC 5870)."""
        return f"geo:{self.lat:.6f},{self.lon:.6f}?q={self.lat:.6f},{self.lon:.6f}"

    @property
    def maps_url(self) -> str:
        return ("https://www.google.com/maps/search/?api=1&query="
                f"{self.lat:.6f},{self.lon:.6f}")

    @property
    def osm_url(self) -> str:
        return (f"https://www.openstreetmap.org/?mlat={self.lat:.6f}&mlon={self.lon:.6f}"
                f"#map=18/{self.lat:.6f}/{self.lon:.6f}")


@dataclass(frozen=True)
class DayRoute:
    day: date
    inspector_id: int
    inspector_name: str
    start: Start
    stops: list[Stop]
    total_m: float
    later: int  # open tasks whose deadline still runs (not today's)
    distances: str = STRAIGHT  # how the distances were measured

    @property
    def directions_url(self) -> str:
        """The whole route in Google Maps (its URL takes the first 9 stops as waypoints)."""
        if not self.stops:
            return ""
        shown = self.stops[:10]
        url = ("https://www.google.com/maps/dir/?api=1"
               f"&origin={self.start.lat:.6f},{self.start.lon:.6f}"
               f"&destination={shown[-1].lat:.6f},{shown[-1].lon:.6f}&travelmode=driving")
        if len(shown) > 1:
            url += "&waypoints=" + "%7C".join(f"{s.lat:.6f},{s.lon:.6f}" for s in shown[:-1])
        return url


def km(metres: float) -> str:
    """"1,2 km" or "850 m"."""
    return f"{metres / 1000:.1f} km".replace(".", ",") if metres >= 1000 else f"{metres:.0f} m"


async def route_for_chat(core: Core, telegram_id: int, *,
                         distance: Callable | None = None) -> DayRoute:
    """/rota: the route of the bound inspector of this chat (Forbidden otherwise), in the
    inspector's city (its office, centre and law)."""
    tasks = await open_tasks(core, telegram_id)  # Forbidden for a non-inspector
    async with core.db.read() as s:
        inspector = (await s.execute(select(Inspector).join(
            Person, Person.id == Inspector.person_id).where(
            Person.telegram_id == telegram_id, Inspector.active.is_(True)))).scalars().first()
        return await _route(inspector_core(core, inspector), s, inspector, tasks, distance)


async def route_for_inspector(core: Core, inspector_id: int, *,
                              distance: Callable | None = None) -> DayRoute:
    """The panel's page: the route of inspector `inspector_id` (NotFound when inactive)."""
    async with core.db.read() as s:
        inspector = await s.get(Inspector, inspector_id)
        chat = None if inspector is None else (await s.execute(select(Person.telegram_id).where(
            Person.id == inspector.person_id))).scalar_one_or_none()
    if inspector is None or not inspector.active or chat is None or \
            inspector.municipality not in (core.municipality, ""):
        raise NotFound("Fiscal não encontrado ou desativado.")
    tasks = await open_tasks(core, chat)
    async with core.db.read() as s:
        return await _route(core, s, inspector, tasks, distance)


def start_point(core: Core, inspector: Inspector) -> Start:
    """The inspector's location shared today, else the office's point, else the centre."""
    seen = inspector.last_seen_at
    today = local_date(core.now())
    if inspector.last_lat is not None and inspector.last_lon is not None and seen is not None \
            and local_date(seen) == today:
        return Start(inspector.last_lat, inspector.last_lon,
                     f"localização enviada pelo fiscal hoje às {fmt_time(seen.astimezone(TZ))}",
                     "location")
    city = core.city
    if city.office_point is not None:
        return Start(*city.office_point,
                     f"sede da fiscalização{': ' + city.office_address if city.office_address else ''}",
                     "office")
    lat, lon = core.area.centre
    return Start(lat, lon, f"centro de {core.city.name} (o fiscal não enviou a localização hoje "
                           "e a sede não tem ponto configurado)", "centre")


async def _route(core: Core, s, inspector: Inspector, tasks: list[TaskSummary],
                 distance: Callable | None) -> DayRoute:
    today = local_date(core.now())
    cases = {c.protocol: c for c in (await s.execute(select(Case).where(
        Case.municipality == core.municipality,
        Case.protocol.in_([t.protocol for t in tasks])))).scalars().all()} if tasks else {}
    picked, later = [], 0
    for t in tasks:
        case = cases.get(t.protocol)
        if case is None:
            continue
        lifecycle = core.law.tracks[case.track]
        if not lifecycle.state(case.state).in_public_space:
            continue  # off the street (removal started, depot): nothing to visit
        steps = [x for x in lifecycle.available(case.state, Actor.INSPECTOR, inspector.agency)
                 if "previous_case" not in x.requires
                 and core.law.category_refuses(x.code, case.category) is None]
        if not any(Actor.STAFF not in x.actors for x in steps):
            continue  # nothing only the inspector on the spot can do (e.g. awaiting the police)
        if t.due is not None and t.due > today and not t.lapsed:
            later += 1
            continue
        picked.append((t, steps))
    start = start_point(core, inspector)
    points = [(start.lat, start.lon), *[(t.lat, t.lon) for t, _ in picked]]
    measure = distance or route_order.great_circle_m
    visit = await asyncio.to_thread(route_order.order, points, measure)
    stops, here, total = [], points[0], 0.0
    for n, i in enumerate(visit, 1):
        t, steps = picked[i - 1]
        leg = measure(here, points[i])
        total += leg
        here = points[i]
        stops.append(_stop(n, t, steps, leg, today))
    return DayRoute(today, inspector.id, inspector.name, start, stops, total, later,
                    STRAIGHT if distance is None else "pelas ruas")


def _stop(n: int, t: TaskSummary, steps, leg: float, today: date) -> Stop:
    options = ", ".join(x.button or x.label for x in steps)
    if t.lapsed:
        kind = REMOVAL
        todo = (f"Remover o objeto: o prazo venceu em {fmt_date(t.due)} e a remoção está "
                f"autorizada. Passos possíveis: {options}.")
    elif t.due is None:
        kind = VISIT
        todo = ("Vistoriar o local: verificar os sinais de abandono e identificar o "
                f"proprietário. Passos possíveis: {options}.")
    else:
        kind = CHECK
        when = "vence hoje" if t.due == today else f"venceu em {fmt_date(t.due)}"
        todo = (f"Verificar se o objeto ainda está no local (o prazo {when}). "
                f"Passos possíveis: {options}.")
    return Stop(n, t.task_id, t.protocol, kind, todo, t.category_label, t.state_label,
                t.address or f"{t.lat:.5f}, {t.lon:.5f}", t.lat, t.lon, t.due,
                fmt_date(t.due) if t.due else NO_DUE, leg, t.status == "offered")
