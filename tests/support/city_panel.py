"""The `cities_panel` fixture (a pytest plugin of tests/conftest.py): one installation serving
Dores do Indaiá (MG) and Dracena (SP), each with its own panel accounts, a reported case with a
photo, an inspector, a future closure and a dead letter (Telegram and e-mail), so a test can
ask every panel route for the OTHER city's objects."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from sqlalchemy import select

from core.services.citizens.reports import ReportIn, submit_report
from core.services.staff.accounts import StaffUserInfo, create_user
from core.services.staff.calendar import add_closure
from core.storage.models import Case, Closure, Evidence, Inspector, OutboxMessage, Person
from core.storage.models_email import EmailMessage
from tests.support.panel import PASSWORD, Panel

DORES, DRACENA = "dores-do-indaia", "dracena"
CENTRES = {DORES: (-19.4628, -45.6003), DRACENA: (-21.4843, -51.5353)}
#: A vehicle left on the street, in each city's law
VEHICLE = {DORES: "motor_vehicle", DRACENA: "abandoned_vehicle"}
#: Who signs in for each city: its administrator and its servant
ACCOUNTS = {DORES: {"city_admin": "ana", "staff": "bruno"},
            DRACENA: {"city_admin": "carla", "staff": "davi"}}
INSTALLATION_ADMIN = "iris"
MISSING_PROTOCOL = "2099-999999"
MISSING_ID = 987654
MISSING_SHA = "0" * 64


@dataclass
class CityObjects:
    """One city's objects, as URLs name them."""
    slug: str
    protocol: str = ""
    case_code: str = ""
    sha: str = ""
    evidence_id: int = 0
    inspector_id: int = 0
    inspector_name: str = ""
    closure_id: int = 0
    user_ids: dict[str, int] = field(default_factory=dict)
    outbox_id: int = 0
    email_id: int = 0


class CitiesPanel(Panel):
    def __init__(self, core, objects: dict[str, CityObjects]):
        super().__init__(core)
        self.objects = objects

    def other(self, slug: str) -> CityObjects:
        return next(o for s, o in self.objects.items() if s != slug)


async def _city_objects(core, slug: str, photo, n: int) -> CityObjects:
    city = core.for_city(slug)
    out = CityObjects(slug)
    lat, lon = CENTRES[slug]
    report = ReportIn(category=VEHICLE[slug], lat=lat, lon=lon, photos=[photo(n)],
                      address=f"Rua {n}, centro", neighbourhood="Centro")
    submitted = await submit_report(city, 3000 + n, report, display_name=f"Cidadã {n}")
    out.protocol = submitted.protocol
    async with core.db.unit_of_work() as s:
        case = (await s.execute(select(Case).where(Case.protocol == out.protocol))).scalar_one()
        assert case.municipality == slug
        out.case_code = case.case_code
        ev = (await s.execute(select(Evidence).where(Evidence.case_id == case.id))
              ).scalars().first()
        out.sha, out.evidence_id = ev.sha256, ev.id
        person = Person(telegram_id=7000 + n, display_name=f"Fiscal {n}")
        s.add(person)
        await s.flush()
        out.inspector_name = f"Fiscal de {city.city.name}"
        inspector = Inspector(person_id=person.id, municipality=slug, name=out.inspector_name,
                              agency=next(iter(city.law.agencies)), registration=f"M-{n}")
        s.add(inspector)
        msg = OutboxMessage(chat_id=8000 + n, kind="case_update", status="failed",
                            payload={"protocol": out.protocol, "text": "x"},
                            dedupe_key=f"test:{slug}:dead", attempts=5,
                            last_error="bloqueado", failed_at=core.now())
        mail = EmailMessage(case_id=case.id, address=f"pessoa{n}@example.org", role="owner",
                            kind="owner_update", payload={"protocol": out.protocol},
                            dedupe_key=f"test:{slug}:mail", status="failed", attempts=5,
                            last_error="recusado", failed_at=core.now())
        s.add_all([msg, mail])
        await s.flush()
        out.inspector_id, out.outbox_id, out.email_id = inspector.id, msg.id, mail.id
    day = core.now().date() + timedelta(days=40 + n)
    await add_closure(city, day, f"Feriado de {city.city.name}", "holiday", "Decreto 1/2027",
                      StaffUserInfo(0, "seed", "admin", True))
    async with core.db.read() as s:
        out.closure_id = (await s.execute(select(Closure.id).where(
            Closure.municipality == slug, Closure.date == day))).scalar_one()
    for role, username in ACCOUNTS[slug].items():
        user = await create_user(core, username, PASSWORD,
                                 "admin" if role == "city_admin" else "staff", slug)
        out.user_ids[role] = user.id
    return out


@pytest.fixture
async def cities_panel(make_two_cities, photo) -> CitiesPanel:
    core = await make_two_cities()
    await core.for_city(DRACENA).seed_tariffs()
    objects = {DORES: await _city_objects(core, DORES, photo, 1),
               DRACENA: await _city_objects(core, DRACENA, photo, 2)}
    await create_user(core, INSTALLATION_ADMIN, PASSWORD, "admin")
    return CitiesPanel(core, objects)
