"""A closure registered after deadlines were counted moves the running deadlines that end on
that day, and only those (Lei 9.784/1999, art. 66, § 1º: "Considera-se prorrogado o prazo até o
primeiro dia útil seguinte se o vencimento cair em dia em que não houver expediente"). The
change is on the case's timeline with its reason, the owner and the inspector are told the new
date, the case page shows it; removing the closure never shortens it — on every engine, through
the panel's form, the services and the sweep."""
from __future__ import annotations

import re
from datetime import date

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.cases.deadline_recount import RECOUNT_ACTION, RECOUNT_LABEL
from core.services.owners import (file_appeal, link_by_code_and_plate, owner_statement,
                                  owner_view)
from core.services.staff.accounts import authenticate, create_user
from core.services.staff.calendar import add_closure, remove_closure
from core.services.cases.sweep import sweep_deadlines
from core.services.citizens.case_status import status_view
from core.storage.models import Case, Closure, Event, OutboxMessage
from tests.support.panel import PASSWORD, post_form
from tests.support.owner_cases import (ABANDONED, FISCAL, INSPECTOR_CHAT, OWNER, STAFF,
                                       add_inspector, dracena_apprehension, notified, report)

NOTICE = "retirar o veículo do espaço público"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


async def _case(core, case_id) -> Case:
    async with core.db.read() as s:
        return await s.get(Case, case_id)


async def _events(core, case_id) -> list[Event]:
    async with core.db.read() as s:
        return list((await s.execute(select(Event).where(Event.case_id == case_id)
                                     .order_by(Event.seq))).scalars())


async def _told(core, chat_id) -> list[str]:
    async with core.db.read() as s:
        return [m.payload["text"] for m in (await s.execute(
            select(OutboxMessage).where(OutboxMessage.chat_id == chat_id)
            .order_by(OutboxMessage.id))).scalars()]


async def _notified_elsewhere(core, photo, where, plate):
    sub = await report(core, photo, where=where, plate=plate)
    if (await _case(core, sub.case_id)).state == "reported":  # not yet routed to an inspector
        await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "notify_owner", FISCAL,
                           {**ABANDONED, "owner_name": "Ana Souza",
                            "owner_document": "111.444.777-35", "notification_number": "9/2026"},
                           agency="posturas")
    return sub


async def _depot_elsewhere(core, photo, where, plate):
    sub = await report(core, photo, where=where, plate=plate)
    if (await _case(core, sub.case_id)).state == "reported":  # not yet routed to an inspector
        await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "recidivism_removal", FISCAL,
                           {**ABANDONED, "previous_case": "2025-000009",
                            "removal_photos": ["sha1"], "removal_started_at": "2026-12-02T10:00"},
                           agency="posturas")
    await apply_transition(core, sub.protocol, "depot_entry", FISCAL,
                           {"termo_number": "T-1", "missing_parts": ["pneus"],
                            "odometer": "123456", "depot": "Pátio central"}, agency="posturas")
    return sub


async def _ana(core):
    return await authenticate(core, "ana", PASSWORD)


async def test_ponto_facultativo_on_the_due_day_moves_it_and_says_so_art_66_par_1(
        panel, photo, clock):
    core = panel.core
    sub = await notified(core, photo)  # Tue 01/12: 10 days (Art. 4º, I), due Fri 11/12
    await add_inspector(core, sub.case_id)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    clock.advance(days=1)
    # Wed 02/12: due Sat 12/12 → Mon 14/12; and 60 days in the depot (Art. 3º): not touched
    other = await _notified_elsewhere(core, photo, (-19.47, -45.61), "DEF2E34")
    depot = await _depot_elsewhere(core, photo, (-19.45, -45.59), "GHI3F45")
    untouched = {c: (await _case(core, c)).deadline_json for c in (other.case_id, depot.case_id)}
    before = len(await _events(core, sub.case_id))
    async with panel.client("ana") as c:
        r = await post_form(c, "/tarifas", "/feriados",
                            {"date": "11/12/2026", "name": "Ponto facultativo de fim de ano",
                             "kind": "decree", "source": "Decreto nº 101/2026"})
        assert r.status == 302
        flash = _text(await (await c.get(r.headers["Location"])).text())
        assert f"1 prazo prorrogado (Lei 9.784/1999, art. 66, § 1º): {sub.protocol} " \
               "(de 11/12/2026 para 14/12/2026)" in flash
        case = await _case(core, sub.case_id)
        assert case.deadline_json["due"] == "2026-12-14" and case.state == "owner_notified"
        assert case.next_deadline_at.isoformat().startswith("2026-12-15T02:59:59")
        assert "11/12/2026 é ponto facultativo decretado (Ponto facultativo de fim de ano)" in \
            case.deadline_json["explanation"]
        # the timeline: one entry, with the rule, the previous date and the reason
        [ev] = (await _events(core, sub.case_id))[before:]
        assert ev.action == RECOUNT_ACTION and ev.article == "Lei 9.784/1999, art. 66, § 1º"
        assert ev.data["previous_due"] == "2026-12-11" and ev.public
        assert ev.data["deadline"] == {"due": "2026-12-14", "article": "Art. 4º, I",
                                       "description": NOTICE}
        # the case page shows the new date and why
        page = _text(await (await c.get(f"/casos/{sub.protocol}")).text())
        assert f"Prazo: {NOTICE} até 14/12/2026" in page and RECOUNT_LABEL in page
        assert "Vencimento anterior: 11/12/2026" in page
        assert "Motivo: 11/12/2026 é ponto facultativo decretado" in page
    # only the deadline that ended that day moved
    for case_id, dj in untouched.items():
        assert (await _case(core, case_id)).deadline_json == dj
        assert RECOUNT_ACTION not in [e.action for e in await _events(core, case_id)]
    # the owner and the inspector are told the new date, in plain words
    owner_msg = (await _told(core, OWNER))[-1]
    assert owner_msg.startswith("Prazo prorrogado no seu caso ")
    assert f"{NOTICE} até segunda-feira, 14 de dezembro de 2026 (14/12/2026) — Art. 4º, I. " \
           "Antes era até 11/12/2026; mudou porque 11/12/2026 é ponto facultativo decretado " \
           "(Ponto facultativo de fim de ano)" in owner_msg
    assert " até até " not in owner_msg
    inspector_msg = (await _told(core, INSPECTOR_CHAT))[-1]
    assert inspector_msg.startswith(f"Protocolo {sub.protocol}: prazo prorrogado") and \
        "(14/12/2026)" in inspector_msg
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.deadline.due == date(2026, 12, 14) and view.remove_by == "Retire até 14/12/2026"
    public = await status_view(core, sub.protocol)
    assert public.deadline.due == date(2026, 12, 14) and RECOUNT_LABEL in \
        [step.label for step in public.steps]
    # the removal waits for the new date (Art. 6º, caput)
    clock.now = clock.now.replace(day=12)
    assert (await sweep_deadlines(core)).moved == []
    clock.now = clock.now.replace(day=15, hour=3)
    moved = (await sweep_deadlines(core)).moved
    assert (sub.protocol, "lapse_deadline") in moved


async def test_removing_the_closure_never_shortens_and_a_later_one_still_moves_it(
        core, photo, clock, panel):
    sub = await notified(core, photo)  # due Fri 11/12
    ana = await _ana(core)
    await add_closure(core, date(2026, 12, 11), "Ponto facultativo", "optional",
                      "Decreto nº 101/2026", ana)
    assert (await _case(core, sub.case_id)).deadline_json["due"] == "2026-12-14"
    async with core.db.read() as s:
        closure_id = (await s.execute(select(Closure.id))).scalar_one()
    await remove_closure(core, closure_id, ana)
    case = await _case(core, sub.case_id)  # the date the owner was told stands
    assert case.deadline_json["due"] == "2026-12-14"
    # a closure on the new due day moves it again, never back to 11/12
    moved = await add_closure(core, date(2026, 12, 14), "Feriado municipal (lei nova)",
                              "holiday", "Lei nº 9/2026", ana)
    assert [(m.previous_due, m.due) for m in moved] == [(date(2026, 12, 14),
                                                         date(2026, 12, 15))]
    case = await _case(core, sub.case_id)
    assert case.deadline_json["due"] == "2026-12-15"
    assert "14/12/2026 é feriado municipal (Feriado municipal (lei nova))" in \
        case.deadline_json["explanation"]


async def test_a_closure_elsewhere_or_on_an_agreed_date_moves_nothing(core, photo, clock,
                                                                      panel):
    sub = await notified(core, photo)
    ana = await _ana(core)
    # a closure inside the period changes nothing (days run on, § 2º)
    assert await add_closure(core, date(2026, 12, 8), "Ponto facultativo", "optional",
                             "Decreto nº 100/2026", ana) == []
    assert (await _case(core, sub.case_id)).deadline_json["due"] == "2026-12-11"
    # once removal is due, the owner's agreed date is fixed by the act, not counted
    clock.advance(days=11)
    await sweep_deadlines(core)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 16))
    assert await add_closure(core, date(2026, 12, 16), "Ponto facultativo", "optional",
                             "Decreto nº 102/2026", ana) == []
    assert (await _case(core, sub.case_id)).deadline_json["due"] == "2026-12-16"


async def test_the_sweep_moves_a_deadline_whose_day_closed_instead_of_lapsing_it(
        core, photo, clock):
    """A closure that reached the database without the recount (another process, a calendar
    read before it): the sweep checks the due day before acting (art. 66, § 1º)."""
    sub = await notified(core, photo)
    async with core.db.unit_of_work() as s:
        s.add(Closure(municipality=core.law.slug, date=date(2026, 12, 11), name="Luto oficial",
                      kind="decreed_closure", source="Decreto nº 103/2026"))
    clock.now = clock.now.replace(day=12)  # Sat 12/12, 13:00: the old due day is over
    report = await sweep_deadlines(core)
    assert report.recounted == [sub.protocol] and report.moved == []
    case = await _case(core, sub.case_id)
    assert case.state == "owner_notified" and case.deadline_json["due"] == "2026-12-14"
    assert (await _events(core, sub.case_id))[-1].action == RECOUNT_ACTION
    clock.now = clock.now.replace(day=15)
    assert (await sweep_deadlines(core)).moved == [(sub.protocol, "lapse_deadline")]


async def test_an_hours_deadline_moves_to_the_same_hour_of_the_next_business_day(
        make_core, photo, clock):
    """Dracena Art. 4º, §2º: 48 hours to appeal from the apprehension (Tue 01/12, 13:00), due
    Thu 03/12 at 13:00; Thursday declared closed moves it to Fri 04/12 at 13:00 (setting
    hours_deadline_end_of_day: the same clock time), and the owner may still appeal."""
    core = await make_core("dracena")
    await create_user(core, "ana", PASSWORD, "admin")
    sub = await dracena_apprehension(core, photo, clock)
    moved = await add_closure(core, date(2026, 12, 3), "Ponto facultativo", "optional",
                              "Decreto nº 7/2026", await _ana(core))
    assert [(m.previous_due, m.due) for m in moved] == [(date(2026, 12, 3), date(2026, 12, 4))]
    case = await _case(core, sub.case_id)
    assert case.deadline_json["due_at"].startswith("2026-12-04T13:00")
    told = (await _told(core, OWNER))[-1]
    assert told.startswith("Prazo prorrogado no seu caso")
    assert "até sexta-feira, 4 de dezembro de 2026 (04/12/2026), às 13:00 — Art. 4º, §2º" in told
    clock.advance(hours=50)  # Thu 03/12, 15:00: past the old deadline, within the new one
    res = await file_appeal(core, OWNER, sub.case_code, "O gado não é meu.", [],
                            appellant=("José da Silva", "529.982.247-25"))
    assert res.protocol == sub.protocol
