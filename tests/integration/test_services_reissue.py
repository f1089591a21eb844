"""Documents a clerk would sign: issued again from what was recorded, the
inspector's matrícula (never a database id), the office's contact, and no placeholder printed
(the depot address, the reference tariffs of Dores Art. 9º, II)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import select

from core.services.papers import placeholders
from core.services.cases.transitions import apply_transition
from core.services.errors import InvalidInput
from core.services.inspectors.accounts import actor_ref, bind_inspector, invite_inspector
from core.services.papers.reissue import issued_documents, reissue
from core.services.citizens.reports import ReportIn, submit_report
from core.services.staff.accounts import StaffUserInfo
from core.services.staff.calendar import add_tariff
from core.services.cases.steps import take_step
from core.services.cases.sweep import sweep_deadlines
from core.storage.models import Case, Event, Inspector
from tests.support.paper_cases import ABANDONED, BOT, OWNER, STAFF, text_of


@pytest.fixture
async def dores(make_core):
    return await make_core(telegram_bot_username=BOT, office_address="Rua Direita, 50, Centro",
                           office_phone="(37) 3551-1000")


async def inspector(core, registration="12.345-6"):
    code = await invite_inspector(core, "Ana Fiscal", "posturas", "maria",
                                  registration=registration)
    bound = await bind_inspector(core, 4242, code)
    async with core.db.read() as s:
        return actor_ref(await s.get(Inspector, bound.inspector_id))


async def new_case(core, photo) -> Case:
    r = ReportIn(category="motor_vehicle", lat=core.law.centre[0], lon=core.law.centre[1],
                 photos=[photo(1)], address="Rua Tiradentes, 120, Centro", plate="ABC1234")
    done = await submit_report(core, 555, r)
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == done.protocol))).scalar_one()
    if case.state == "reported":  # no inspector to take it yet
        await apply_transition(core, done.protocol, "open_diligence", STAFF)
    return case


async def test_notification_issued_again_is_the_same_document_after_the_case_moved_art_4_I(
        dores, photo, clock):
    ana = await inspector(dores)
    case = await new_case(dores, photo)
    taken = await take_step(dores, case.protocol, "notify_owner", ana, {**ABANDONED, **OWNER},
                            agency="posturas")
    sha, _, blob = taken.documents[0]
    clock.advance(days=11)  # the 10 days of Art. 4º, I lapse: the case moves on
    await sweep_deadlines(dores)
    clock.advance(days=3)
    again = await reissue(dores, case.protocol, "notificacao", STAFF)
    assert again[0] == sha and again[2] == blob  # same facts, same deadline, same signer
    text = text_of(again[2])
    assert "11/12/2026" in text and "Art. 4º, I" in text and "Ana Fiscal" in text
    assert [d.kind for d in await issued_documents(dores, case.protocol)] == ["notificacao"]
    async with dores.db.read() as s:
        last = (await s.execute(select(Event).where(Event.case_id == case.id)
                                .order_by(Event.seq.desc()).limit(1))).scalar_one()
    assert last.action == "document_issued" and last.actor_name == STAFF.name


async def test_a_document_never_issued_cannot_be_issued_again(dores, photo):
    case = await new_case(dores, photo)
    with pytest.raises(InvalidInput, match="ainda não foi emitido"):
        await reissue(dores, case.protocol, "termo_recolhimento", STAFF)


async def test_documents_carry_the_matricula_never_the_database_id_and_the_office(dores,
                                                                                  photo):
    ana = await inspector(dores, registration="98.765-4")
    case = await new_case(dores, photo)
    taken = await take_step(dores, case.protocol, "notify_owner", ana, {**ABANDONED, **OWNER},
                            agency="posturas")
    text = text_of(taken.documents[0][2])
    assert "Matr. 98.765-4" in text and f"Matr. {ana.id} " not in text
    assert "Rua Direita, 50, Centro" in text and "(37) 3551-1000" in text


async def test_invitation_without_matricula_is_refused(dores):
    with pytest.raises(InvalidInput, match="matrícula"):
        await invite_inspector(dores, "Ana Fiscal", "posturas", "maria", registration="  ")


async def test_affixed_notice_says_the_depot_address_is_missing_instead_of_printing_it_art_4_II_a(
        dores, photo):
    ana = await inspector(dores)
    case = await new_case(dores, photo)
    taken = await take_step(dores, case.protocol, "affix_notice", ana,
                            {**ABANDONED, "notice_photo": "ab" * 32,
                             "notification_number": "8/2026"}, agency="posturas")
    text = text_of(taken.documents[0][2])
    assert "a definir pela Secretaria" not in text  # the placeholder of DEPOT_ADDRESS
    assert "endereço do pátio ainda não definido" in text


async def test_panel_warns_while_tariffs_are_reference_values_art_9_II(dores, clock):
    warnings = " ".join(await placeholders.warnings(dores))
    assert "Reboque até o pátio" in warnings and "Diária de pátio" in warnings
    assert "DEPOT_ADDRESS" in warnings
    assert await placeholders.amounts_are_estimates(dores)
    today = clock().astimezone(placeholders.TZ).date()
    maria = StaffUserInfo(1, "maria", "admin", True)
    for code in ("towing", "daily_storage"):
        await add_tariff(dores, code, Decimal("300.00"), today, "Art. 9º, II",
                         "Decreto 10/2026", maria)
    assert await placeholders.placeholder_tariffs(dores) == []
    assert not await placeholders.amounts_are_estimates(dores)


async def test_a_real_depot_address_is_printed(make_core):
    core = await make_core(depot_address="Av. Brasil, 900, Distrito Industrial")
    assert placeholders.depot_address(core.settings) == "Av. Brasil, 900, Distrito Industrial"
    assert not any("DEPOT_ADDRESS" in w for w in await placeholders.warnings(core))
