"""Diligence tasks: automatic assignment by competence, load and distance; acceptance, refusal,
staff reassignment; the task message; /tarefas order; the case card; recidivism."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.errors import Forbidden, InvalidInput
from core.services.inspectors.accounts import actor_ref, inspector_for
from core.services.citizens.reports import ReportIn, submit_report
from core.services.inspectors.task_list import case_card, open_tasks, previous_cases_for
from core.services.inspectors.tasks import accept_task, assign_case, deactivate_inspector, refuse_task
from core.storage.models import Case, Event, OutboxMessage, Task
from core.storage.timeline import ActorRef
from tests.support.task_cases import fiscal

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
CENTRE = (-19.4628, -45.6003)
NEAR = (-19.4630, -45.6005)  # ~30 m from the centre
FAR = (-19.4800, -45.6200)  # ~2.8 km away
ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}


async def report(core, photo, category="motor_vehicle", where=CENTRE, **kw) -> str:
    r = ReportIn(category=category, lat=where[0], lon=where[1], photos=[photo(1), photo(2)],
                 address="Rua Tiradentes, 120, Centro", **kw)
    return (await submit_report(core, 555, r)).protocol


async def task_of(core, protocol) -> Task:
    async with core.db.read() as s:
        return (await s.execute(select(Task).join(Case).where(Case.protocol == protocol)
                                .order_by(Task.id.desc()).limit(1))).scalar_one()


async def outbox(core, kind):
    async with core.db.read() as s:
        return (await s.execute(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                .order_by(OutboxMessage.id))).scalars().all()


async def test_new_case_goes_to_fewest_tasks_then_nearest_and_opens_the_diligence_art_4(
        core, photo):
    near = await fiscal(core, 901, "Perto", "posturas", NEAR)
    far = await fiscal(core, 902, "Longe", "transito", FAR)
    first = await report(core, photo)
    assert (await task_of(core, first)).inspector_id == near  # both idle: the nearest
    second = await report(core, photo)
    assert (await task_of(core, second)).inspector_id == far  # fewer open tasks wins
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == first))).scalar_one()
        actions = (await s.execute(select(Event.action).where(Event.case_id == case.id)
                                   .order_by(Event.seq))).scalars().all()
    assert case.state == "diligence"
    assert actions == ["report", "open_diligence", "task_offered"]


async def test_task_message_has_photos_pin_step_deadline_and_buttons(core, photo):
    await fiscal(core, 901, "João", "posturas", NEAR)
    p = await report(core, photo, plate="ABC1D23")
    task = await task_of(core, p)
    [msg] = await outbox(core, "task_offer")
    assert msg.chat_id == 901 and msg.dedupe_key == f"task:{task.id}:offer"
    body = msg.payload
    assert len(body["photos"]) == 2 and all(len(h) == 64 for h in body["photos"])
    assert body["location"]["address"] == "Rua Tiradentes, 120, Centro"
    assert (body["location"]["lat"], body["location"]["lon"]) == CENTRE
    assert p in body["text"] and "Veículo motorizado" in body["text"]
    assert "Etapa: Em vistoria (Art. 4º, caput)" in body["text"]
    assert "Prazo:" in body["text"] and "ABC1D23" in body["text"]
    assert body["buttons"] == [[{"text": "Aceitar", "intent": "task.accept", "task": task.id},
                                {"text": "Recusar", "intent": "task.refuse", "task": task.id}]]


async def test_furniture_goes_to_saude_or_posturas_not_transito_art_5_caput(core, photo):
    """Art. 5º, caput: furniture diligence by the Secretaria de Saúde (or partner); Art. 10:
    fiscais de posturas. Trânsito may remove (Art. 3º, §2º) but not do the diligence."""
    await fiscal(core, 901, "Trânsito ao lado", "transito", NEAR)
    saude = await fiscal(core, 902, "Saúde longe", "saude", FAR)
    p = await report(core, photo, category="large_furniture")
    assert (await task_of(core, p)).inspector_id == saude


async def test_without_a_competent_inspector_the_case_waits_for_staff(core, photo):
    await fiscal(core, 901, "Trânsito", "transito", NEAR)
    p = await report(core, photo, category="machinery")
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == p))).scalar_one()
        assert (await s.execute(select(Task))).first() is None
    assert case.state == "reported" and case.details["needs_assignment"]


async def test_refusal_needs_a_reason_and_reassigns_never_back_to_a_refuser(core, photo):
    a = await fiscal(core, 901, "Ana", "posturas", NEAR)
    b = await fiscal(core, 902, "Bruno", "vigilancia_sanitaria", FAR)
    p = await report(core, photo)
    task = await task_of(core, p)
    assert task.inspector_id == a
    with pytest.raises(InvalidInput, match="motivo"):
        await refuse_task(core, 901, task.id, "  ")
    with pytest.raises(Forbidden):
        await refuse_task(core, 902, task.id, "não é meu")  # not B's task
    moved = await refuse_task(core, 901, task.id, "Estou de férias")
    assert moved.inspector_id == b
    again = await refuse_task(core, 902, moved.task_id, "Fora da minha área")
    assert again.task_id is None  # nobody left: staff decide
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == p))).scalar_one()
        last = (await s.execute(select(Event).where(Event.case_id == case.id)
                                .order_by(Event.seq.desc()).limit(1))).scalar_one()
    assert case.details["needs_assignment"] and last.action == "assignment_pending"
    assert last.public is False


async def test_accept_then_staff_reassign_tells_the_old_inspector(core, photo):
    a = await fiscal(core, 901, "Ana", "posturas", NEAR)
    b = await fiscal(core, 902, "Bruno", "transito", FAR)
    s_ = await fiscal(core, 903, "Saúde", "saude", NEAR)
    p = await report(core, photo)
    task = await task_of(core, p)
    assert (await accept_task(core, 901, task.id)).inspector_id == a
    assert (await accept_task(core, 901, task.id)).task_id == task.id  # twice: no change
    with pytest.raises(InvalidInput, match="Secretaria Municipal de Saúde"):
        await assign_case(core, p, s_, STAFF)  # vehicles are not the Saúde's (Art. 3º, §2º)
    moved = await assign_case(core, p, b, STAFF)
    assert moved.inspector_id == b
    assert (await task_of(core, p)).status == "offered"
    [gone] = await outbox(core, "task_withdrawn")
    assert gone.chat_id == 901 and p in gone.payload["text"]
    with pytest.raises(InvalidInput, match="não está mais aberta"):
        await accept_task(core, 901, task.id)
    assert [t.protocol for t in await open_tasks(core, 901)] == []


async def test_staff_assign_a_waiting_case_opens_its_diligence(core, photo):
    p = await report(core, photo)
    a = await fiscal(core, 901, "Ana", "posturas")
    await assign_case(core, p, a, STAFF)
    card = await case_card(core, 901, p)
    assert card.state == "diligence"


async def test_deactivating_an_inspector_hands_their_tasks_on(core, photo):
    a = await fiscal(core, 901, "Ana", "posturas", NEAR)
    b = await fiscal(core, 902, "Bruno", "posturas", FAR)
    p = await report(core, photo)
    assert (await task_of(core, p)).inspector_id == a
    await deactivate_inspector(core, a, STAFF)
    assert (await task_of(core, p)).inspector_id == b


async def test_open_tasks_by_deadline_then_distance(core, photo):
    await fiscal(core, 901, "Ana", "posturas", CENTRE)
    far, near, due = (await report(core, photo, where=FAR), await report(core, photo, where=NEAR),
                      await report(core, photo, where=FAR))
    me = await inspector_for(core, 901)
    await apply_transition(core, due, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1/2026"}, agency="posturas")
    tasks = await open_tasks(core, 901)
    assert [t.protocol for t in tasks] == [due, near, far]
    assert tasks[0].due_text.endswith("até 11/12/2026 (Art. 4º, I)")
    assert tasks[1].distance_m < 100 < tasks[2].distance_m


async def test_tarefas_puts_a_lapsed_removal_first_with_its_date_art_6(core, photo, clock):
    """Art. 6º, caput: a lapsed notice makes removal due — the most urgent task, listed
    first with the date that lapsed; the others by their due date, those without one last."""
    from core.services.cases.sweep import sweep_deadlines
    await fiscal(core, 901, "Ana", "posturas", CENTRE)
    me = await inspector_for(core, 901)
    plain = await report(core, photo, where=NEAR)  # no deadline yet, the nearest
    lapsing = await report(core, photo, where=FAR)
    await apply_transition(core, lapsing, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1/2026"}, agency="posturas")
    clock.advance(days=6)  # Monday 07/12
    later = await report(core, photo, where=FAR)
    await apply_transition(core, later, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "Rita", "owner_document": "11144477735",
                            "notification_number": "2/2026"}, agency="posturas")
    clock.advance(days=5)  # Saturday 12/12: the first notice lapsed on Friday 11/12
    await sweep_deadlines(core)
    tasks = await open_tasks(core, 901)
    assert [t.protocol for t in tasks] == [lapsing, later, plain]
    assert tasks[0].lapsed and "VENCIDO em 11/12/2026" in tasks[0].due_text
    assert "remoção autorizada" in tasks[0].due_text
    assert tasks[1].due_text.endswith("até 17/12/2026 (Art. 4º, I)")
    assert tasks[2].due is None


async def test_card_shows_only_actions_the_lifecycle_allows_for_the_agency(core, photo):
    await fiscal(core, 901, "Saúde", "saude", NEAR)
    p = await report(core, photo, category="large_furniture")
    card = await case_card(core, 901, p)
    codes = {a.code for a in card.actions}
    assert {"notify_owner", "remove_immediately", "inspect_not_abandoned"} <= codes
    assert "release" not in codes and "open_diligence" not in codes
    with pytest.raises(Forbidden):
        await case_card(core, 999, p)


async def test_recidivism_same_plate_offers_immediate_removal_art_6_par_5(core, photo):
    await fiscal(core, 901, "Ana", "posturas", NEAR)
    me = await inspector_for(core, 901)
    old = await report(core, photo, plate="ABC-1D23")
    other = await report(core, photo, plate="XYZ9876")
    await apply_transition(core, old, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1/2026"}, agency="posturas")
    await apply_transition(core, other, "inspect_not_abandoned", actor_ref(me),
                           {"inspection_notes": "carro em uso"}, agency="posturas")
    assert [c.protocol for c in await previous_cases_for(core, plate="abc1d23")] == [old]
    assert await previous_cases_for(core, plate="XYZ9876") == []  # never found abandoned
    new = await report(core, photo, plate="ABC1D23")
    card = await case_card(core, 901, new)
    assert [c.protocol for c in card.previous_cases] == [old]
    assert "recidivism_removal" in {a.code for a in card.actions}
    fresh = await report(core, photo, plate="QWE1234")
    assert "recidivism_removal" not in {a.code for a in (await case_card(core, 901, fresh)).actions}


# -- deadline warnings (core.services.inspectors.warnings) ------------------------------------------------

async def test_warned_the_day_before_and_on_the_day_once_each_then_removal_due_art_6(
        core, photo, clock):
    """Art. 4º, I: 10 days from the notification (Tue 01/12 → Fri 11/12/2026); Art. 6º, caput:
    the lapse makes removal due and the task returns to the inspector."""
    from core.services.cases.sweep import sweep_deadlines
    from core.services.inspectors.warnings import inspector_warnings
    await fiscal(core, 901, "Ana", "posturas", NEAR)
    p = await report(core, photo)
    me = await inspector_for(core, 901)
    await apply_transition(core, p, "notify_owner", actor_ref(me),
                           {**ABANDONED, "owner_name": "José", "owner_document": "52998224725",
                            "notification_number": "1/2026"}, agency="posturas")
    assert (await inspector_warnings(core)).queued == []  # 10 days ahead: nothing yet
    clock.advance(days=9)  # Thursday 10/12, 13:00
    assert (await inspector_warnings(core)).queued == [(p, "day_before")]
    assert (await inspector_warnings(core)).queued == []  # run twice: not sent twice
    clock.advance(days=1)  # Friday 11/12
    assert (await inspector_warnings(core)).queued == [(p, "due_today")]
    assert (await inspector_warnings(core)).queued == []
    [before, today] = await outbox(core, "deadline_warning")
    assert before.chat_id == 901 and "vence amanhã" in before.payload["text"]
    assert "sexta-feira, 11 de dezembro de 2026" in before.payload["text"]
    assert "Art. 4º, I" in before.payload["text"] and "vence hoje" in today.payload["text"]
    clock.advance(days=1)  # Saturday 12/12: lapsed
    assert await outbox(core, "task_removal_due") == []
    assert (await sweep_deadlines(core)).moved == [(p, "lapse_deadline")]
    assert len(await outbox(core, "task_removal_due")) == 1  # told by the sweep, at once
    assert (await inspector_warnings(core)).queued == []  # the hourly run: not twice
    [due] = await outbox(core, "task_removal_due")
    assert due.chat_id == 901 and due.payload["text"].startswith("Remoção devida")
    assert "Art. 6º, caput" in due.payload["text"] and len(due.payload["photos"]) == 2
    assert due.payload["location"]["address"] == "Rua Tiradentes, 120, Centro"
