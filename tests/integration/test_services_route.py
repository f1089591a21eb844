"""The inspector's route of the day (core.services.inspectors.route) and the assignment of a
box of cases on the map (core.services.inspectors.area_assign)."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from core.services.cases.sweep import sweep_deadlines
from core.services.cases.transitions import apply_transition
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.inspectors import route_order
from core.services.inspectors.accounts import actor_ref, inspector_for, update_location
from core.services.inspectors.area_assign import Box, assign_in_box, parse_box
from core.services.inspectors.route import (CHECK, REMOVAL, VISIT, route_for_chat,
                                            route_for_inspector)
from core.storage.models import Case, Task
from core.storage.timeline import ActorRef
from tests.integration.test_services_tasks import ABANDONED, report
from tests.support.task_cases import fiscal

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
OFFICE = (-19.4600, -45.6000)
# Four spots on a line going west from the office, ~1 km apart, given out of order.
WEST = [(-19.4600, -45.6000 - 0.0095 * k) for k in (1, 2, 3, 4)]


async def _protocols_on_line(core, photo, order=(3, 1, 4, 2)):
    by_k = {}
    for k in order:
        by_k[k] = await report(core, photo, where=WEST[k - 1])
    return by_k


async def test_route_visits_stops_in_the_shortest_order_from_the_office(
        make_core, photo):
    core = await make_core(office_lat=OFFICE[0], office_lon=OFFICE[1],
                           office_address="Rua da Prefeitura, 1 — Centro")
    await fiscal(core, 901, "Ana", "posturas")  # never shared a location
    by_k = await _protocols_on_line(core, photo)
    route = await route_for_chat(core, 901)
    assert route.start.kind == "office" and "Rua da Prefeitura, 1" in route.start.label
    assert [s.protocol for s in route.stops] == [by_k[1], by_k[2], by_k[3], by_k[4]]
    assert [s.number for s in route.stops] == [1, 2, 3, 4]
    assert route.total_m == pytest.approx(
        route_order.great_circle_m(OFFICE, WEST[3]), rel=1e-6)  # one straight line
    first = route.stops[0]
    assert first.kind == VISIT and first.due_text == "sem prazo fixado em lei"
    assert "Vistoriar o local" in first.todo and "Notificar" in first.todo
    assert first.maps_url == ("https://www.google.com/maps/search/?api=1&query="
                              f"{WEST[0][0]:.6f},{WEST[0][1]:.6f}")
    assert first.geo_uri.startswith(f"geo:{WEST[0][0]:.6f},{WEST[0][1]:.6f}")
    assert first.awaiting_accept  # offered, not yet accepted


async def test_route_starts_from_the_location_shared_today_else_the_centre(core, photo, clock):
    await fiscal(core, 901, "Ana", "posturas")
    by_k = await _protocols_on_line(core, photo)
    route = await route_for_chat(core, 901)
    assert route.start.kind == "centre"  # no location today, no office point
    assert route.start.lat == core.area.centre[0]
    await update_location(core, 901, *WEST[3])  # standing at the far end
    route = await route_for_chat(core, 901)
    assert route.start.kind == "location" and "hoje às 13:00" in route.start.label
    assert [s.protocol for s in route.stops] == [by_k[4], by_k[3], by_k[2], by_k[1]]
    clock.advance(days=1)  # yesterday's location is not where the day starts
    assert (await route_for_chat(core, 901)).start.kind == "centre"


async def test_route_has_lapsed_removals_and_leaves_running_deadlines_for_their_day_art_6(
        core, photo, clock):
    """Art. 4º, I: while the owner's 10 days run there is nothing to do on the spot; once
    lapsed (Art. 6º, caput) the removal is today's, with the date it lapsed."""
    await fiscal(core, 901, "Ana", "posturas")
    me = await inspector_for(core, 901)
    lapsing = await report(core, photo, where=WEST[0])
    await apply_transition(core, lapsing, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1/2026"}, agency="posturas")
    plain = await report(core, photo, where=WEST[1])
    route = await route_for_chat(core, 901)
    assert [s.protocol for s in route.stops] == [plain] and route.later == 1
    clock.advance(days=11)  # Saturday 12/12: the notice lapsed on Friday 11/12
    await sweep_deadlines(core)
    route = await route_for_chat(core, 901)
    by = {s.protocol: s for s in route.stops}
    assert set(by) == {lapsing, plain} and route.later == 0
    assert by[lapsing].kind == REMOVAL and by[lapsing].due_text == "11/12/2026"
    assert "venceu em 11/12/2026" in by[lapsing].todo


async def test_route_checks_the_owner_s_own_term_on_its_day_art_6_par_3(core, photo, clock):
    await fiscal(core, 901, "Ana", "posturas")
    me = await inspector_for(core, 901)
    p = await report(core, photo, where=WEST[0])
    await apply_transition(core, p, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1/2026"}, agency="posturas")
    clock.advance(days=11)
    await sweep_deadlines(core)
    await apply_transition(core, p, "owner_commits", actor_ref(me),
                           {"owner_statement": "Retiro amanhã",
                            "agreed_removal_by": "2026-12-13"}, agency="posturas")
    assert (await route_for_chat(core, 901)).stops == []  # the owner's term still runs
    clock.advance(days=1)  # Sunday 13/12: the day agreed
    [stop] = (await route_for_chat(core, 901)).stops
    assert stop.kind == CHECK and stop.due_text == "13/12/2026"
    assert "vence hoje" in stop.todo and "Confirmar retirada" in stop.todo


async def test_a_case_with_the_police_is_no_visit_art_4_III(core, photo):
    """Art. 4º, III: once the police are called, the case waits for their answer, which staff
    may record from the office: nothing to do on the spot."""
    await fiscal(core, 901, "Ana", "posturas")
    me = await inspector_for(core, 901)
    police = await report(core, photo, where=WEST[0])
    plain = await report(core, photo, where=WEST[1])
    await apply_transition(core, police, "refer_to_police", actor_ref(me),
                           {"theft_suspicion_reason": "chassi raspado"}, agency="posturas")
    assert [s.protocol for s in (await route_for_chat(core, 901)).stops] == [plain]


async def test_route_is_the_inspector_s_own(core, photo):
    inspector = await fiscal(core, 901, "Ana", "posturas")
    with pytest.raises(Forbidden):
        await route_for_chat(core, 555)  # not an inspector
    await report(core, photo, where=WEST[0])
    assert len((await route_for_inspector(core, inspector)).stops) == 1
    with pytest.raises(NotFound):
        await route_for_inspector(core, inspector + 99)


def test_box_refuses_bad_bounds_with_the_field():
    ok = {"south": "-19,47", "west": "-45,61", "north": "-19,45", "east": "-45,59"}
    assert parse_box(ok) == Box(-19.47, -45.61, -19.45, -45.59)
    for bad, field in ((dict(ok, south=""), "south"), (dict(ok, east="abc"), "east"),
                       (dict(ok, north="-95"), "north"), (dict(ok, south="-19,40"), "south"),
                       (dict(ok, west="-45,58"), "west")):
        with pytest.raises(InvalidInput) as exc:
            parse_box(bad)
        assert exc.value.field == field


async def _holder(core, protocol):
    async with core.db.read() as s:
        return (await s.execute(select(Task.inspector_id).join(Case).where(
            Case.protocol == protocol, Task.status.in_(("offered", "accepted"))))
        ).scalar_one_or_none()


async def test_area_assigns_the_box_s_cases_and_lists_those_not_competent_art_3_par_2(
        core, photo):
    """Art. 3º, §2º and Art. 10: a vehicle's diligence is for posturas, trânsito, vigilância
    sanitária or a partner, not Saúde (Art. 5º, caput: furniture). A Saúde inspector given an
    area gets its furniture; its vehicle stays with its holder, listed with the reason."""
    ana = await fiscal(core, 901, "Ana", "posturas")
    car = await report(core, photo, where=WEST[0])
    sofa = await report(core, photo, where=WEST[1], category="large_furniture")
    outside = await report(core, photo, where=(-19.4800, -45.6050))
    sara = await fiscal(core, 902, "Sara", "saude")
    box = Box(-19.47, -45.62, -19.45, -45.60)
    done = await assign_in_box(core, box, sara, STAFF)
    assert done.inspector_name == "Sara" and done.assigned == [sofa]
    [refused] = done.refused
    assert refused.protocol == car and "competência" in refused.reason
    assert await _holder(core, sofa) == sara
    assert await _holder(core, car) == ana and await _holder(core, outside) == ana
    again = await assign_in_box(core, box, sara, STAFF)
    assert again.assigned == [] and again.already == [sofa]
    with pytest.raises(InvalidInput) as exc:
        await assign_in_box(core, box, None, STAFF)
    assert exc.value.field == "inspector_id"
    with pytest.raises(InvalidInput, match="Nenhum caso"):
        await assign_in_box(core, Box(-10.0, -40.0, -9.0, -39.0), sara, STAFF)
