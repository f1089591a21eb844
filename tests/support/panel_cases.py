"""Cases with a history for the panel's tests (no tests here)."""
from __future__ import annotations

from datetime import date

from core.services.cases.sweep import sweep_deadlines
from core.services.cases.transitions import apply_transition
from core.services.citizens.reports import ReportIn, submit_report
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.inspectors.tasks import accept_task
from core.services.owners import link_by_code_and_plate, owner_statement
from core.storage.timeline import ActorRef
from tests.support.panel import CENTRE, new_case, to_depot_furniture, to_notice_affixed
from tests.support.queue_cases import task_of

INSPECTOR, OWNER = 701, 777
ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}


async def lived_case(core, photo):
    """A vehicle case through the real services, from report to the depot."""
    code = await invite_inspector(core, "Joana Fiscal", "posturas", "ana")
    inspector = (await bind_inspector(core, INSPECTOR, code, "Joana Fiscal")).inspector_id
    sub = await submit_report(core, 555, ReportIn(
        category="motor_vehicle", lat=CENTRE[0], lon=CENTRE[1], photos=[photo(1), photo(2)],
        address="Rua Goiás, 120", neighbourhood="Vila Nova", plate="ABC1D23",
        colour="prata", make_model="Fiat Uno", time_there="mais de 3 meses",
        signs=("missing_tyres",), description="com pneu murcho"), display_name="Maria")
    fiscal = ActorRef("inspector", inspector, "Joana Fiscal")
    await accept_task(core, INSPECTOR, (await task_of(core, sub.protocol)).id)
    await apply_transition(core, sub.protocol, "notify_owner", fiscal,
                           {**ABANDONED, "owner_name": "José da Silva",
                            "owner_document": "529.982.247-25",
                            "notification_number": "1/2026"}, agency="posturas")
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 5))
    core.clock.advance(days=11)  # 12/12: the notice's 10 days (Art. 4º, I) ran out on 11/12
    await sweep_deadlines(core)  # removal due (Art. 6º, caput), never before
    await apply_transition(core, sub.protocol, "start_removal", fiscal,
                           {"removal_photos": ["sha1"],
                            "removal_started_at": "2026-12-12T13:00:00-03:00"},
                           agency="posturas")
    await apply_transition(core, sub.protocol, "depot_entry", fiscal,
                           {"termo_number": "T-1", "missing_parts": ["pneus"],
                            "odometer": "123456", "depot": "Pátio central",
                            "collected_at": "2026-12-12T15:00:00-03:00"}, agency="posturas")
    return sub, inspector
STAFF = ActorRef("staff", 0, "seed")


async def indicator_city(core, photo, clock):
    """Three cases reported in November 2026: a car whose notice was affixed two days after
    the report (Dores Art. 4º, II, a) and published, whose period the sweep finds lapsed
    (removal due, Art. 6º), a sofa removed to the depot a day after its report (Art. 5º, II),
    and an unfounded report closed at once, in another neighbourhood."""
    clock.advance(days=-10)
    car = await new_case(core, photo, 1)
    clock.advance(days=2)
    await to_notice_affixed(core, car.protocol)
    await apply_transition(core, car.protocol, "record_publication", STAFF,
                           {"publication_date": "2026-11-23", "publication_reference": "DOM 1"})
    sofa = await new_case(core, photo, 2, category="large_furniture")
    clock.advance(days=1)
    await to_depot_furniture(core, sofa.protocol)
    other = await new_case(core, photo, 3, neighbourhood="Vila Nova")
    await apply_transition(core, other.protocol, "close_unfounded", STAFF,
                           {"reason": "nada no local"})
    clock.advance(days=21)  # 22/12/2026: the published notice's 10 days lapsed (Art. 4º, II, b)
    await sweep_deadlines(core)
    return car, sofa, other
