"""The `panel` fixture and helpers for the panel's tests (a pytest plugin of tests/conftest.py): a
Core with two panel users, a few real cases made through the core's services, and logged-in
test clients."""
from __future__ import annotations

import re
from contextlib import asynccontextmanager

import pytest
from aiohttp.test_utils import TestClient, TestServer

from admin.app import create_app
from core.services.cases.transitions import apply_transition, load_case
from core.services.citizens.reports import ReportIn, submit_report
from core.services.staff.accounts import create_user
from core.storage.timeline import ActorRef

PASSWORD = "senha-muito-secreta"
CSRF_RE = re.compile(r'name="csrf" value="([^"]+)"')
CENTRE = (-19.4606, -45.6003)  # Dores do Indaiá


def csrf_of(html: str) -> str:
    m = CSRF_RE.search(html)
    assert m, "page has no CSRF field"
    return m.group(1)


class Panel:
    def __init__(self, core):
        self.core = core
        self.app = create_app(core)

    @asynccontextmanager
    async def client(self, username: str | None = None):
        async with TestClient(TestServer(self.app)) as client:
            if username:
                await login(client, username)
            yield client


async def login(client: TestClient, username: str, password: str = PASSWORD):
    page = await client.get("/login")
    token = csrf_of(await page.text())
    return await client.post("/login", data={"username": username, "password": password,
                                              "csrf": token, "next": "/"},
                             allow_redirects=False)


async def post_form(client: TestClient, page_url: str, action: str, data: dict,
                    **kwargs):
    """Open `page_url`, take its CSRF token, and POST `data` to `action` (as a browser does)."""
    page = await client.get(page_url)
    assert page.status == 200, await page.text()
    token = csrf_of(await page.text())
    return await client.post(action, data={**data, "csrf": token}, allow_redirects=False,
                             **kwargs)


async def new_case(core, photo, i: int = 0, category: str = "motor_vehicle", **kw):
    report = ReportIn(category=category, lat=CENTRE[0] + i * 1e-4, lon=CENTRE[1],
                      photos=kw.pop("photos", None) or [photo(i)], address=kw.pop("address", f"Rua {i}, centro"),
                      neighbourhood=kw.pop("neighbourhood", "Centro"), **kw)
    return await submit_report(core, 1000 + i, report, display_name=f"Cidadão {i}")


async def counter_case(core, photo, email: str = "maria@example.com") -> str:
    """A report taken at the counter by the clerk `clara` for Maria, who gave `email` for
    its updates; its protocol."""
    from core.services.staff import counter_intake as intake
    staff = await create_user(core, "clara", PASSWORD, "staff")
    report = ReportIn(category="motor_vehicle", lat=core.law.centre[0], lon=core.law.centre[1],
                      photos=[photo(1)], address="Rua Goiás, 120")
    done = await intake.submit_counter_report(core, report, channel="balcao", staff=staff,
                                              contact=intake.read_contact("Maria", "", email))
    return done.protocol


async def to_notice_affixed(core, protocol: str):
    """A vehicle case on the street with the notice affixed (owner not identified)."""
    staff = ActorRef("staff", 0, "seed")
    async with core.db.read() as s:
        case = await load_case(s, protocol)
    if case.state == "reported":  # with inspectors on duty, the diligence opens on its own
        await apply_transition(core, protocol, "open_diligence", staff)
    await apply_transition(core, protocol, "affix_notice", ActorRef("inspector", 1, "Fiscal"),
                           {"abandonment_criteria": ["days_in_place", "missing_tyres",
                                                     "no_bumpers"],
                            "notice_photo": "sha", "notification_number": "N-1"},
                           agency="transito")


async def to_depot_furniture(core, protocol: str):
    """A furniture case removed at once (owner not identified, Dores Art. 5º, II) and entered
    in the depot: its Diário Oficial notification (Art. 5º, III) is due."""
    staff = ActorRef("staff", 0, "seed")
    inspector = ActorRef("inspector", 1, "Fiscal")
    async with core.db.read() as s:
        case = await load_case(s, protocol)
    if case.state == "reported":
        await apply_transition(core, protocol, "open_diligence", staff)
    await apply_transition(core, protocol, "remove_immediately", inspector,
                           {"abandonment_criteria": ["days_in_place", "neighbours_unaware"],
                            "removal_reason": "proprietário não identificado",
                            "removal_photos": ["sha"],
                            "removal_started_at": "2026-11-20T09:30:00-03:00"},
                           agency="saude")
    await apply_transition(core, protocol, "depot_entry", inspector,
                           {"termo_number": "T-7", "item_description": "sofá de 3 lugares",
                            "depot": "Pátio Municipal, Av. Brasil, 900"}, agency="saude")


@pytest.fixture
async def panel(core):
    await create_user(core, "ana", PASSWORD, "admin")
    await create_user(core, "bruno", PASSWORD, "staff")
    return Panel(core)
