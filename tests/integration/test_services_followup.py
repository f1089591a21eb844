"""The reporter asked afterwards (core.services.citizens.followup): three days after a closing
the law lets the reporter's answer reopen, the reporter is asked once whether the object is
gone; "Sim, saiu" goes on the timeline, "Não, continua lá" takes the law's reopen step back to
the diligence (Dores Art. 4º, caput / Art. 5º, caput; Dracena Art. 1º) and the inspector gets
the task at once; a photo after it is evidence and goes to that inspector."""
from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from sqlalchemy import select

from core.laws.common import REOPEN
from core.services.cases.transitions import apply_transition
from core.services.citizens import followup
from core.services.citizens.case_status import set_notifications
from core.services.errors import Forbidden, InvalidInput
from core.services.inspectors.accounts import actor_ref, bind_inspector, invite_inspector, \
    update_location
from core.services.messaging import contact_updates
from core.services.citizens.reports import ReportIn, submit_report
from core.services.staff import counter_intake as intake
from core.services.staff import indicators as ind
from core.services.staff.accounts import create_user
from core.storage.models import Case, Event, Evidence, Inspector, OutboxMessage, Task
from core.storage.timeline import ActorRef
from tests.support.panel import post_form

REPORTER = 555
CENTRE = (-19.4628, -45.6003)
NEAR = (-19.4630, -45.6005)
FAR = (-19.4800, -45.6200)
STAFF = ActorRef("staff", "u1", "Clara (Secretaria)")
DRACENA = (-21.4843, -51.5353)


async def fiscal(core, tg: int, name: str, agency: str, where=None) -> Inspector:
    bound = await bind_inspector(core, tg, await invite_inspector(core, name, agency, "clara"))
    if where:
        await update_location(core, tg, *where)
    async with core.db.read() as s:
        return await s.get(Inspector, bound.inspector_id)


async def report(core, photo, where=CENTRE, category="motor_vehicle", tg=REPORTER) -> str:
    r = ReportIn(category=category, lat=where[0], lon=where[1], photos=[photo(1)],
                 address="Rua Tiradentes, 120, Centro")
    return (await submit_report(core, tg, r)).protocol


async def close_not_abandoned(core, protocol, inspector: Inspector) -> None:
    await apply_transition(core, protocol, "inspect_not_abandoned", actor_ref(inspector),
                           {"inspection_notes": "veículo em uso pelo morador"},
                           agency=inspector.agency)


async def case_of(core, protocol) -> Case:
    async with core.db.read() as s:
        return (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()


async def actions(core, protocol) -> list[str]:
    async with core.db.read() as s:
        return list((await s.execute(select(Event.action).join(Case).where(
            Case.protocol == protocol).order_by(Event.seq))).scalars().all())


async def messages(core, kind) -> list[OutboxMessage]:
    async with core.db.read() as s:
        return list((await s.execute(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                     .order_by(OutboxMessage.id))).scalars().all())


async def test_the_reporter_is_asked_once_three_days_after_the_closing_art_4_caput(
        core, photo, clock):
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    protocol = await report(core, photo)
    await close_not_abandoned(core, protocol, ana)
    clock.advance(days=2)
    assert (await followup.ask_due(core)).asked == []  # too soon: nothing asked
    clock.advance(days=1, minutes=1)
    assert (await followup.ask_due(core)).asked == [protocol]
    [msg] = await messages(core, "followup_question")
    assert msg.chat_id == REPORTER
    text = msg.payload["text"]
    assert text.startswith(f"Protocolo {protocol}: seu caso foi encerrado em 01/12/2026 "
                           "(Encerrado: abandono não caracterizado).")
    assert "\nVeículo motorizado, Rua Tiradentes, 120, Centro.\nO objeto já saiu do local?\n" in text
    assert msg.payload["buttons"] == [[
        {"text": "Sim, saiu", "intent": "followup.gone", "case": protocol},
        {"text": "Não, continua lá", "intent": "followup.there", "case": protocol}]]
    clock.advance(hours=1)
    assert (await followup.ask_due(core)).asked == []  # once
    assert (await actions(core, protocol)).count(followup.ASKED) == 1


async def test_no_question_for_closings_that_answer_the_complaint_itself(core, photo, clock):
    """Duplicate, unfounded, not competent: the complaint itself was answered, and the law's
    reopen step is not taken from them; nor is the reporter who turned the updates off asked."""
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    dup = await report(core, photo)
    unfounded = await report(core, photo)
    muted = await report(core, photo, tg=777)
    await apply_transition(core, dup, "close_duplicate", STAFF, {"duplicate_of": unfounded})
    await apply_transition(core, unfounded, "close_unfounded", STAFF,
                           {"reason": "nada no local"})
    await close_not_abandoned(core, muted, ana)
    assert await set_notifications(core, 777, muted, False)
    clock.advance(days=3, minutes=1)
    done = await followup.ask_due(core)
    assert done.asked == [] and done.unreachable == [muted]
    assert await messages(core, "followup_question") == []


async def test_sim_records_the_confirmation_and_closes_the_loop(core, photo, clock):
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    protocol = await report(core, photo)
    await close_not_abandoned(core, protocol, ana)
    clock.advance(days=3, minutes=1)
    await followup.ask_due(core)
    with pytest.raises(Forbidden):  # only the reporter answers
        await followup.answer_gone(core, 777, protocol)
    done = await followup.answer_gone(core, REPORTER, protocol)
    assert not done.reopened
    case = await case_of(core, protocol)
    assert case.state == "closed_not_abandoned" and not case.is_open
    assert (await actions(core, protocol))[-2:] == [followup.ASKED, followup.GONE]
    for answer in (followup.answer_gone, followup.answer_still_there):  # answered once
        with pytest.raises(InvalidInput, match="já respondeu"):
            await answer(core, REPORTER, protocol)


async def test_nao_reopens_the_diligence_and_its_inspector_gets_the_task_at_once_art_4_caput(
        core, photo, clock):
    """The owner said he removed it (Art. 6º, §3º); the reporter says it is still there: the
    diligence is open again (Art. 4º, caput; Art. 6º, §2º), the reason on the timeline, and
    the inspector who worked the case is offered it, with a photo sent after the answer."""
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    await fiscal(core, 902, "Beto", "transito", FAR)
    protocol = await report(core, photo)
    await apply_transition(core, protocol, "notify_owner", actor_ref(ana), {
        "abandonment_criteria": ["days_in_place", "missing_tyres"], "owner_name": "José",
        "owner_document": "52998224725", "notification_number": "12/2026"}, agency="posturas")
    await apply_transition(core, protocol, "confirm_owner_removed", actor_ref(ana),
                           {"verification_notes": "local livre"}, agency="posturas")
    # Beto has fewer open tasks than Ana, but Ana worked the case: she gets it back
    clock.advance(days=3, minutes=1)
    await followup.ask_due(core)
    done = await followup.answer_still_there(core, REPORTER, protocol)
    assert done.reopened and done.inspector_name == "Ana"
    case = await case_of(core, protocol)
    assert (case.state, case.is_open, case.closed_at) == ("diligence", True, None)
    async with core.db.read() as s:
        reopen = (await s.execute(select(Event).where(
            Event.case_id == case.id, Event.action == REOPEN))).scalar_one()
        tasks = (await s.execute(select(Task).where(Task.case_id == case.id)
                                 .order_by(Task.id))).scalars().all()
        kept = (await s.execute(select(Evidence.retain_until).where(
            Evidence.case_id == case.id))).scalars().all()
    assert reopen.article == "Art. 4º, caput; Art. 6º, §2º" and reopen.actor_kind == "citizen"
    assert reopen.data["citizen_statement"] == "Cidadão informou que o objeto continua no local"
    assert [(t.inspector_id, t.status) for t in tasks] == [(ana.id, "withdrawn"),
                                                            (ana.id, "offered")]
    assert kept == [None]  # the process goes on: nothing of it may be purged (Art. 6º, I, a)
    offer = (await messages(core, "task_offer"))[-1]
    assert offer.chat_id == 901
    assert offer.payload["text"].startswith(f"{followup.REOPENED} — protocolo {protocol}")
    assert "Etapa: Em vistoria (Art. 4º, caput; Art. 6º, §2º)" in offer.payload["text"]
    # the photo the reporter sends next: evidence of the case, straight to Ana
    assert await followup.add_photo(core, REPORTER, protocol, photo(9)) == "Ana"
    [sent] = await messages(core, "followup_photo")
    assert sent.chat_id == 901 and sent.payload["photos"] == [photo(9).sha256]
    assert "foto enviada pelo cidadão que informou que o objeto continua no local" in \
        sent.payload["text"]
    assert (await actions(core, protocol))[-3:] == ["task_withdrawn", "task_offered",
                                                    followup.PHOTO]
    with pytest.raises(Forbidden):
        await followup.answer_still_there(core, 777, protocol)
    # closed again later: the reporter is not asked a second time
    await close_not_abandoned(core, protocol, ana)
    clock.advance(days=3, minutes=1)
    assert (await followup.ask_due(core)).asked == []


async def test_with_nobody_competent_the_reopened_case_waits_in_the_staff_queue(
        core, photo, clock):
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    protocol = await report(core, photo)
    await close_not_abandoned(core, protocol, ana)
    async with core.db.unit_of_work() as s:
        (await s.get(Inspector, ana.id)).active = False
    clock.advance(days=3, minutes=1)
    await followup.ask_due(core)
    done = await followup.answer_still_there(core, REPORTER, protocol)
    assert done.reopened and done.inspector_name is None
    from core.services.inspectors.queue_flow import waiting_case_ids
    async with core.db.read() as s:
        assert (await case_of(core, protocol)).id in await waiting_case_ids(core, s)
    # the photo is kept on the case for whoever takes it
    assert await followup.add_photo(core, REPORTER, protocol, photo(3)) is None


async def test_the_answer_waits_thirty_days_at_most(core, photo, clock):
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    protocol = await report(core, photo)
    await close_not_abandoned(core, protocol, ana)
    clock.advance(days=3, minutes=1)
    await followup.ask_due(core)
    clock.advance(days=31)
    with pytest.raises(InvalidInput, match="nova denúncia"):
        await followup.answer_still_there(core, REPORTER, protocol)
    assert (await case_of(core, protocol)).state == "closed_not_abandoned"


class _Mailbox:
    """A contact channel (the extension point e-mail plugs into) that keeps what it sends."""

    def __init__(self):
        self.sent: list[tuple[str, str, str]] = []

    def takes(self, contact, *_):
        return bool(contact.email)

    async def send(self, s, case, contact, text, dedupe_key):
        self.sent.append((contact.email, text, dedupe_key))


async def test_a_reporter_without_telegram_is_asked_through_their_contact(
        core, photo, clock, monkeypatch):
    staff = await create_user(core, "clara", "senha-muito-secreta", "staff")
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    done = await intake.submit_counter_report(
        core, ReportIn(category="motor_vehicle", lat=CENTRE[0], lon=CENTRE[1],
                       photos=[photo(1)], address="Rua Goiás, 120"),
        channel="balcao", contact=intake.read_contact("Rita", "", "rita@example.com"),
        staff=staff)
    await close_not_abandoned(core, done.protocol, ana)
    clock.advance(days=3, minutes=1)
    # no channel for the contact: nobody is asked, nothing is recorded
    assert (await followup.ask_due(core)).unreachable == [done.protocol]
    assert followup.ASKED not in await actions(core, done.protocol)
    mailbox = _Mailbox()
    monkeypatch.setattr(contact_updates, "CHANNELS", [mailbox])
    assert (await followup.ask_due(core)).asked == [done.protocol]
    [(to, text, key)] = [m for m in mailbox.sent if "já saiu do local" in m[1]]
    assert to == "rita@example.com" and done.protocol in text
    assert "Se ainda estiver lá, avise a prefeitura" in text
    seq = (await actions(core, done.protocol)).index(followup.ASKED) + 1
    assert key.endswith(f":ev:{seq}:contact")
    assert await messages(core, "followup_question") == []  # nothing to a Telegram chat


async def test_dracena_no_infraction_is_asked_and_reopened_art_1(make_core, photo, clock):
    core = await make_core("dracena")
    bound = await bind_inspector(core, 901, await invite_inspector(core, "Ana", "fiscalizacao",
                                                                   "clara"))
    protocol = await report(core, photo, where=DRACENA, category="abandoned_thing")
    await apply_transition(core, protocol, "inspect_no_infraction",
                           ActorRef("inspector", bound.inspector_id, "Ana"),
                           {"inspection_notes": "nada irregular"}, agency="fiscalizacao")
    clock.advance(days=3, minutes=1)
    assert (await followup.ask_due(core)).asked == [protocol]
    done = await followup.answer_still_there(core, REPORTER, protocol)
    assert done.inspector_name == "Ana"
    async with core.db.read() as s:
        article = (await s.execute(select(Event.article).where(Event.action == REOPEN))
                   ).scalar_one()
    assert article == "Art. 1º" and (await case_of(core, protocol)).state == "diligence"


async def test_the_answers_count_in_the_city_s_numbers(panel, photo, clock):
    """Three reporters asked: one confirms, one says it is still there, one is silent; the
    indicators page shows the shares and the CSV has them."""
    core = panel.core
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    cases = [await report(core, photo, tg=tg) for tg in (601, 602, 603)]
    for protocol in cases:
        await close_not_abandoned(core, protocol, ana)
    clock.advance(days=3, minutes=1)
    assert len((await followup.ask_due(core)).asked) == 3
    await followup.answer_gone(core, 601, cases[0])
    await followup.answer_still_there(core, 602, cases[1])
    p = ind.Period(clock.now.date() - timedelta(days=30), clock.now.date())
    assert (await ind.compute(core, p)).followups == [
        ("Confirmou que o objeto saiu", 1),
        ("Informou que continua no local (vistoria reaberta)", 1), ("Não respondeu", 1)]
    async with panel.client("bruno") as c:
        html = await (await c.get("/indicadores")).text()
        r = await c.get("/indicadores.csv", params={"grafico": "resposta-do-cidadao"})
        body = (await r.read()).decode("utf-8-sig")
    assert "Depois do encerramento: o objeto saiu?" in html
    rows = list(csv.reader(io.StringIO(body), delimiter=";"))
    assert rows == [["resposta", "casos", "% dos perguntados"],
                    ["Confirmou que o objeto saiu", "1", "33%"],
                    ["Informou que continua no local (vistoria reaberta)", "1", "33%"],
                    ["Não respondeu", "1", "33%"]]


async def test_staff_record_an_answer_given_by_phone_and_the_inspector_is_told_art_4_caput(
        panel, photo, clock):
    """A reporter without Telegram answers by phone: the clerk takes the same reopen step on
    the case page, with what the citizen said; the inspector gets the task at once."""
    core = panel.core
    ana = await fiscal(core, 901, "Ana", "posturas", NEAR)
    protocol = await report(core, photo)
    await close_not_abandoned(core, protocol, ana)
    url = f"/casos/{protocol}"
    async with panel.client("bruno") as c:
        assert f"{url}/acao/{REOPEN}" in await (await c.get(url)).text()
        r = await post_form(c, url, f"{url}/acao/{REOPEN}", {
            "citizen_statement": "Rita ligou: o carro continua em frente ao nº 120"})
        assert r.status == 302
        page = await (await c.get(url)).text()
    assert "Tarefa oferecida a Ana" in page
    case = await case_of(core, protocol)
    assert (case.state, case.is_open) == ("diligence", True)
    offer = (await messages(core, "task_offer"))[-1]
    assert offer.chat_id == 901 and offer.payload["text"].startswith(followup.REOPENED)
