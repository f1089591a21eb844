"""The owner's view through the core services: reaching the case, the deadline, the statement
(Dores Art. 6º, §3º–§4º), the depot's conditions and fees (Art. 3º, §3º), the Dracena appeal
(Art. 3º; Art. 4º, §2º; Art. 7º) and the summary PDF — on every engine."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from core.services.owners.text import view_text
from core.services.papers.placeholders import DEPOT_MISSING
from core.services.cases.transitions import apply_transition
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.owners import (NOT_LINKED, WRONG_ANSWER, file_appeal, link_by_code,
                                  link_by_code_and_plate, owner_statement, owner_summary_pdf,
                                  owner_view, set_owner_situation)
from core.services.cases.sweep import sweep_deadlines
from core.storage.models import Tariff
from tests.support.owner_cases import (ABANDONED, APPELLANT, FISCAL, INSPECTOR_CHAT, OWNER,
                                       REPORTER, STAFF, STRANGER, add_inspector,
                                       dracena_apprehension, in_depot, notified, outbox_for, report)

SP = ZoneInfo("America/Sao_Paulo")


# -- reaching the case ----------------------------------------------------------------------------

async def test_deep_link_opens_the_owners_view_without_the_reporter(core, photo):
    sub = await notified(core, photo)
    view = await link_by_code(core, OWNER, sub.case_code)
    text = view_text(view)
    assert view.protocol == sub.protocol and view.state == "owner_notified"
    assert "Maria Denunciante" not in text and str(REPORTER) not in text
    assert "José da Silva" not in text and "529" not in text  # no personal data in the view
    # Art. 4º, I: the deadline counted by the core, in full, with its article and consequence
    assert view.deadline.due == date(2026, 12, 11) and view.deadline.article == "Art. 4º, I"
    assert "sexta-feira, 11 de dezembro de 2026" in text
    assert view.deadline.then == "Prazo vencido: remoção autorizada"
    # while still in public space: remove by, the two answers and the §4º warning
    assert view.remove_by == "Retire até 11/12/2026"
    buttons = [(a.intent, a.case) for row in view.actions for a in row]
    assert ("owner.removed", sub.case_code) in buttons
    assert ("owner.will_remove", sub.case_code) in buttons
    assert "Art. 6º, §4º" in view.towing_warning
    # the same person can reopen it; another person cannot see it
    assert (await owner_view(core, OWNER, sub.case_code)).case_code == sub.case_code
    with pytest.raises(NotFound) as err:
        await owner_view(core, STRANGER, sub.case_code)
    assert err.value.message == NOT_LINKED


async def test_code_and_plate_and_same_message_for_unknown_code_and_wrong_plate(core, photo):
    sub = await notified(core, photo)
    with pytest.raises(NotFound) as wrong_plate:
        await link_by_code_and_plate(core, OWNER, sub.case_code, "XYZ9999")
    with pytest.raises(NotFound) as unknown:
        await link_by_code_and_plate(core, OWNER, "nao-existe1", "ABC1D23")
    assert wrong_plate.value.message == unknown.value.message == WRONG_ANSWER
    view = await link_by_code_and_plate(core, OWNER, sub.case_code, "abc-1d23")
    assert view.case_code == sub.case_code


async def test_chassis_tail_or_code_alone_where_there_is_no_plate(core, photo):
    body = await report(core, photo, category="chassis_body", chassis="9BWZZZ377VT004251")
    with pytest.raises(NotFound):
        await link_by_code_and_plate(core, OWNER, body.case_code, "1111")
    assert (await link_by_code_and_plate(core, OWNER, body.case_code, "4251")).case_code \
        == body.case_code
    fridge = await report(core, photo, category="large_furniture")
    assert (await link_by_code_and_plate(core, OWNER, fridge.case_code)).case_code \
        == fridge.case_code


async def test_five_failures_cool_the_account_down_for_an_hour_persisted(core, photo, clock,
                                                                         make_core):
    sub = await notified(core, photo)
    for _ in range(4):
        with pytest.raises(NotFound):
            await link_by_code_and_plate(core, OWNER, sub.case_code, "XYZ9999")
    with pytest.raises(Forbidden) as err:
        await link_by_code(core, OWNER, "nao-existe1")
    assert "Muitas tentativas" in err.value.message
    restarted = await make_core()  # a restart keeps the cool-down (it is in the database)
    with pytest.raises(Forbidden):
        await link_by_code_and_plate(restarted, OWNER, sub.case_code, "ABC1D23")
    # another account is not affected
    assert (await link_by_code(restarted, STRANGER, sub.case_code)).case_code == sub.case_code
    clock.advance(hours=1, minutes=1)
    assert (await link_by_code_and_plate(restarted, OWNER, sub.case_code, "ABC1D23")
            ).case_code == sub.case_code


async def test_a_known_code_between_wrong_answers_does_not_reset_the_count(core, photo):
    """Rounds of four wrong answers and one known code (a notice on the street) lock as
    five wrong answers do."""
    sub = await notified(core, photo)
    for _ in range(4):
        with pytest.raises(NotFound):
            await link_by_code_and_plate(core, STRANGER, sub.case_code, "XYZ9999")
    assert (await link_by_code(core, STRANGER, sub.case_code)).case_code == sub.case_code
    with pytest.raises(Forbidden) as err:
        await link_by_code_and_plate(core, STRANGER, sub.case_code, "XYZ9999")
    assert "Muitas tentativas" in err.value.message


# -- the owner's statement (Art. 6º, §3º and §4º) -------------------------------------------------

async def test_owner_statement_reaches_the_inspector_art_6_par_3(core, photo):
    sub = await notified(core, photo)
    await add_inspector(core, sub.case_id)
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    with pytest.raises(InvalidInput) as late:  # beyond the deadline the agent set
        await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 20))
    assert "11/12/2026" in late.value.message
    res = await owner_statement(core, OWNER, sub.case_code, "will_remove", date(2026, 12, 5))
    assert res.verifier_notified and "Art. 6º, §4º" in res.message
    view = await owner_view(core, OWNER, sub.case_code)
    # the law's deadline is kept; the owner's date stands beside it (Art. 4º, I; Art. 6º, §3º)
    assert view.state == "owner_notified" and view.remove_by == "Retire até 11/12/2026"
    assert "O prazo legal continua valendo" in res.message and "11/12/2026" in res.message
    assert view.deadline.due == date(2026, 12, 11) and view.promise == date(2026, 12, 5)
    [msg] = await outbox_for(core, INSPECTOR_CHAT)
    assert msg.payload["buttons"] == [[{"text": "Abrir caso", "intent": "case.open",
                                        "case": sub.protocol}]]
    assert "05/12/2026" in msg.payload["text"] and "Maria" not in msg.payload["text"]
    assert await outbox_for(core, OWNER) == []  # the owner's own step is not echoed back


async def test_statement_refused_once_towing_started_art_6_par_4(core, photo):
    sub = await report(core, photo, plate="ABC1D23")
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "recidivism_removal", FISCAL,
                           {**ABANDONED, "previous_case": "2025-000009",
                            "removal_photos": ["sha1"], "removal_started_at": "2026-12-01T13:00"},
                           agency="posturas")
    await link_by_code_and_plate(core, OWNER, sub.case_code, "ABC1D23")
    with pytest.raises(InvalidInput) as err:
        await owner_statement(core, OWNER, sub.case_code, "removed")
    assert "Art. 6º, §4º" in err.value.message


# -- the depot (Art. 3º, §3º) ---------------------------------------------------------------------

async def test_depot_fees_across_weekend_and_holiday_on_a_dated_tariff_art_3_par_3_II(
        core, photo, clock):
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)  # Tuesday before Christmas
    async with core.db.unit_of_work() as s:  # a new daily value from Saturday 26/12/2026
        s.add(Tariff(municipality=core.law.slug, code="daily_storage", amount=Decimal("35.00"),
                     currency="BRL", unit="day", valid_from=date(2026, 12, 26),
                     article="Art. 3º, §3º, II; Art. 9º, II", source="Decreto de teste"))
    core.invalidate()
    sub, res = await in_depot(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    clock.now = datetime(2026, 12, 28, 9, tzinfo=SP)  # Monday: weekend and 25/12 in between
    view = await owner_view(core, OWNER, sub.case_code)
    fees = view.depot.fees
    # towing + every started day, holiday and weekend included: 22–25/12 at 30, 26–27/12 at 35
    assert [ln.amount for ln in fees.lines] == [Decimal("250.00"), Decimal("120.00"),
                                                Decimal("70.00")]
    assert [ln.valid_from for ln in fees.lines] == [date(2022, 9, 23), date(2022, 9, 23),
                                                    date(2026, 12, 26)]
    assert fees.total == Decimal("440.00") and fees.per_day == Decimal("35.00")
    assert all("Art. 3º, §3º, II" in ln.article for ln in fees.lines)
    # Art. 3º, caput; CTB art. 328: the auction date is the depot deadline counted by the core
    assert view.depot.auction_after == date.fromisoformat(res.deadline["due"])
    assert view.depot.auction_article == "Art. 3º, caput; CTB art. 328"
    assert view.depot.address == DEPOT_MISSING  # DEPOT_ADDRESS still its default
    text = view_text(view)
    assert "R$\xa0440,00" in text and "vigente desde 26/12/2026" in text
    assert core.settings.depot_hours in text


async def test_attorney_checklist_art_3_par_3_I(core, photo, clock):
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)
    sub, _ = await in_depot(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    view = await set_owner_situation(core, OWNER, sub.case_code, by_attorney=True)
    codes = [step.label for step in view.depot.release]
    docs = [d for step in view.depot.release for d in step.documents]
    assert any("procurador" in label for label in codes)
    assert any("Procuração pública" in d for d in docs)
    assert (await owner_view(core, OWNER, sub.case_code)).depot.situation.by_attorney  # kept


async def test_sold_but_not_transferred_must_transfer_first_art_3_par_3_III_a(core, photo,
                                                                               clock):
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)
    sub, _ = await in_depot(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    view = await set_owner_situation(core, OWNER, sub.case_code, sale_communicated=True)
    step = next(s for s in view.depot.release if s.article == "Art. 3º, §3º, III, a")
    assert "depois da transferência" in step.label
    assert "Art. 3º, §3º, III, a" not in [
        s.article for s in (await set_owner_situation(
            core, OWNER, sub.case_code, sale_communicated=False)).depot.release]


async def test_summary_pdf(core, photo, clock):
    clock.now = datetime(2026, 12, 22, 10, tzinfo=SP)
    sub, _ = await in_depot(core, photo)
    await link_by_code(core, OWNER, sub.case_code)
    pdf = await owner_summary_pdf(core, OWNER, sub.case_code, bot_username="ViaLivreTesteBot")
    assert pdf.startswith(b"%PDF")
    with pytest.raises(NotFound):
        await owner_summary_pdf(core, STRANGER, sub.case_code)


# -- Dracena: appeal and retrieval (Art. 3º; Art. 4º, §2º; Art. 7º) -----------------------------


async def test_dracena_appeal_inside_deadline_and_decision_told_art_4_par_2(make_core, photo,
                                                                            clock):
    core = await make_core("dracena")
    sub = await dracena_apprehension(core, photo, clock)
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.appeal.can_appeal and view.appeal.deadline.article == "Art. 4º, §2º"
    assert ("fine_amount", "Valor da multa imposta", "100.00") in view.appeal.auto
    assert "• Valor da multa imposta: R$\xa0100,00" in view_text(view)
    clock.advance(hours=20)
    res = await file_appeal(core, OWNER, sub.case_code, "O gado não é meu.", [photo(2)], 
                            appellant=APPELLANT)
    assert (res.decision_deadline.due_at - clock.now).total_seconds() == 48 * 3600
    assert (await owner_view(core, OWNER, sub.case_code)).state == "appeal_pending"
    await apply_transition(core, sub.protocol, "decide_appeal_rejected", STAFF,
                           {"decision_text": "Recurso improcedente: animais identificados."})
    [msg] = await outbox_for(core, OWNER)
    assert "Decisão: Recurso improcedente" in msg.payload["text"]
    assert "Maria" not in msg.payload["text"]


async def test_dracena_appeal_outside_deadline_is_refused_naming_it_art_4_par_2(
        make_core, photo, clock):
    core = await make_core("dracena")
    sub = await dracena_apprehension(core, photo, clock)
    clock.advance(hours=49)
    with pytest.raises(InvalidInput) as err:
        await file_appeal(core, OWNER, sub.case_code, "Tarde demais?", [], 
                            appellant=APPELLANT)
    assert "terminou em quinta-feira, 3 de dezembro de 2026, às 13:00" in err.value.message
    assert "Art. 4º, §2º" in err.value.message
    await sweep_deadlines(core)  # after the lapse moved it on, the same answer
    with pytest.raises(InvalidInput) as again:
        await file_appeal(core, OWNER, sub.case_code, "Tarde demais?", [], 
                            appellant=APPELLANT)
    assert again.value.message == err.value.message


async def test_dracena_retrieval_amount_before_auction_art_7(make_core, photo, clock):
    core = await make_core("dracena")
    sub = await dracena_apprehension(core, photo, clock)
    clock.advance(days=2, hours=1)
    depot = (await owner_view(core, OWNER, sub.case_code)).depot
    # fine 100 + 3 animals × 3 started days × R$ 40,00 (Art. 7º, a)
    assert depot.fees.total == Decimal("460.00") and depot.fees.per_day == Decimal("120.00")
    assert any(step.article == "Art. 7º" for step in depot.release)
