"""Cases brought to the owner's steps through the core's services (no tests here): a report, the
notice affixed and the owner notified, a vehicle in the depot, a Dracena apprehension; the
people who act on them."""
from __future__ import annotations

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.citizens.reports import ReportIn, submit_report
from core.services.owners import link_by_code
from core.storage.models import Inspector, OutboxMessage, Person, Task
from core.storage.timeline import ActorRef

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
FISCAL = ActorRef("inspector", 7, "João Fiscal")
ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}
REPORTER, OWNER, STRANGER, INSPECTOR_CHAT = 555, 777, 888, 900
APPELLANT = ("José da Silva", "529.982.247-25")  # Art. 3º: who appeals
DORES = (-19.4628, -45.6003)
DRACENA = (-21.4843, -51.5353)


async def report(core, photo, category="motor_vehicle", where=DORES, **fields):
    r = ReportIn(category=category, lat=where[0], lon=where[1], photos=[photo(1)],
                 address="Rua das Flores, 10", **fields)
    return await submit_report(core, REPORTER, r, display_name="Maria Denunciante")


async def notified(core, photo, **fields):
    sub = await report(core, photo, plate="ABC1D23", **fields)
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "notify_owner", FISCAL,
                           {**ABANDONED, "owner_name": "José da Silva",
                            "owner_document": "529.982.247-25", "notification_number": "1/2026"},
                           agency="posturas")
    return sub


async def in_depot(core, photo):
    sub = await report(core, photo, plate="ABC1D23")
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "recidivism_removal", FISCAL,
                           {**ABANDONED, "previous_case": "2025-000009",
                            "removal_photos": ["sha1"], "removal_started_at": "2026-12-22T10:00"},
                           agency="posturas")
    res = await apply_transition(core, sub.protocol, "depot_entry", FISCAL,
                                 {"termo_number": "T-1", "missing_parts": ["pneus"],
                                  "odometer": "123456", "depot": "Pátio central"},
                                 agency="posturas")
    return sub, res


async def add_inspector(core, case_id, chat=INSPECTOR_CHAT):
    async with core.db.unit_of_work() as s:
        p = Person(telegram_id=chat, display_name="Ana Fiscal", roles=["inspector"])
        s.add(p)
        await s.flush()
        i = Inspector(person_id=p.id, name="Ana Fiscal", agency="posturas",
                      municipality=core.municipality)
        s.add(i)
        await s.flush()
        s.add(Task(case_id=case_id, inspector_id=i.id, status="accepted"))


async def outbox_for(core, chat_id):
    async with core.db.read() as s:
        return (await s.execute(select(OutboxMessage).where(OutboxMessage.chat_id == chat_id)
                                .order_by(OutboxMessage.id))).scalars().all()


async def dracena_apprehension(core, photo, clock):
    sub = await report(core, photo, category="livestock", where=DRACENA)
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "apprehend", ActorRef("inspector", 3, "Fiscal"),
                           {"goods_description": "3 cabeças de gado", "place": "Rua 1",
                            "apprehended_at": clock.now.isoformat(),
                            "provision_violated": "Código de Posturas, art. 10",
                            "fine_amount": "100.00", "depot_register_entry": "Livro 1, fl. 2",
                            "animals": 3}, agency="fiscalizacao")
    await link_by_code(core, OWNER, sub.case_code)
    return sub
