"""Cases moving through the law's lifecycle via the services, on every engine."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import func, select

from core.lifecycle import TransitionRefused
from core.services.cases.transitions import apply_transition
from core.services.citizens.reports import ReportIn, submit_report
from core.services.cases.sweep import sweep_deadlines
from core.services.citizens.case_status import status_view
from core.storage.models import Case, CaseOwner, Event, OutboxMessage
from core.storage.timeline import ActorRef, verify_chain

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
FISCAL = ActorRef("inspector", 7, "João Fiscal")
ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}


async def new_case(core, photo, category="motor_vehicle") -> str:
    r = ReportIn(category=category, lat=-19.4628, lon=-45.6003, photos=[photo(1)])
    return (await submit_report(core, 555, r)).protocol


async def state_of(core, protocol) -> Case:
    async with core.db.read() as s:
        return (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()


async def test_owner_notified_gets_ten_days_then_removal_is_due_art_4_I_and_6(core, photo, clock):
    """Art. 4º, I: 10 days from the notification; Art. 6º, caput: lapsed → removal due."""
    p = await new_case(core, photo)
    await apply_transition(core, p, "open_diligence", STAFF)
    # Tuesday 01/12/2026: 10 days → Friday 11/12/2026 (Lei 9.784/1999 art. 66)
    res = await apply_transition(core, p, "notify_owner", FISCAL,
                                 {**ABANDONED, "owner_name": "José da Silva",
                                  "owner_document": "529.982.247-25",
                                  "notification_number": "1/2026"}, agency="posturas")
    assert res.deadline["due"] == "2026-12-11" and res.deadline["article"] == "Art. 4º, I"
    assert res.deadline["due_in_full"] == "sexta-feira, 11 de dezembro de 2026"
    clock.advance(days=9)
    assert (await sweep_deadlines(core)).moved == []
    clock.advance(days=1, hours=12)  # past 11/12 23:59:59 local
    report = await sweep_deadlines(core)
    assert report.moved == [(p, "lapse_deadline")]
    assert (await sweep_deadlines(core)).moved == []  # idempotent
    case = await state_of(core, p)
    assert case.state == "removal_due" and case.next_deadline_at is None


async def test_owner_personal_data_stays_out_of_case_and_timeline_lgpd(core, photo):
    p = await new_case(core, photo)
    await apply_transition(core, p, "open_diligence", STAFF)
    await apply_transition(core, p, "notify_owner", FISCAL,
                           {**ABANDONED, "owner_name": "José da Silva",
                            "owner_document": "52998224725", "notification_number": "1/2026"},
                           agency="posturas")
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        owner = (await s.execute(select(CaseOwner))).scalar_one()
        events = (await s.execute(select(Event).order_by(Event.seq))).scalars().all()
    assert owner.owner_cpf == "52998224725" and owner.owner_name == "José da Silva"
    assert "52998224725" not in repr(case.details)
    assert "52998224725" not in repr([e.data for e in events])
    assert events[-1].data["owner_document"] == "***.982.247-**"


async def test_publication_starts_the_ten_days_art_4_II_b(core, photo):
    """Art. 4º, II, b: the 10 days count from the Diário Oficial publication date."""
    p = await new_case(core, photo)
    await apply_transition(core, p, "open_diligence", STAFF)
    await apply_transition(core, p, "affix_notice", FISCAL,
                           {**ABANDONED, "notice_photo": "sha", "notification_number": "2/2026"},
                           agency="transito")
    # Published Friday 18/12/2026: 10 days → Monday 28/12/2026
    res = await apply_transition(core, p, "record_publication", STAFF,
                                 {"publication_date": "2026-12-18",
                                  "publication_reference": "DOM nº 100"})
    assert res.deadline["due"] == "2026-12-28"
    assert res.deadline["on_lapse"] == "lapse_deadline"


async def test_refused_transition_changes_nothing(core, photo):
    p = await new_case(core, photo)
    async with core.db.read() as s:
        before = await s.scalar(select(func.count()).select_from(Event))
    with pytest.raises(TransitionRefused) as err:  # not yet in diligence
        await apply_transition(core, p, "notify_owner", FISCAL, {}, agency="posturas")
    assert "Denúncia recebida" in err.value.message
    await apply_transition(core, p, "open_diligence", STAFF)
    with pytest.raises(TransitionRefused) as err:  # missing facts named in Portuguese
        await apply_transition(core, p, "notify_owner", FISCAL, ABANDONED, agency="posturas")
    assert "nome do proprietário" in err.value.message
    with pytest.raises(TransitionRefused):  # wrong agency for vehicles (Art. 5º is Saúde's)
        await apply_transition(core, p, "notify_owner", FISCAL,
                               {**ABANDONED, "owner_name": "X", "owner_document": "1",
                                "notification_number": "1"}, agency="saude")
    with pytest.raises(TransitionRefused):  # a citizen cannot close a case
        await apply_transition(core, p, "close_unfounded", ActorRef("citizen", 1),
                               {"reason": "x"})
    case = await state_of(core, p)
    assert case.state == "diligence"
    async with core.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Event)) == before + 1


async def test_depot_sixty_days_then_auction_eligible_art_3(core, photo, clock):
    """Art. 3º, caput: unclaimed 60 days after collection → auction (CTB art. 328)."""
    p = await new_case(core, photo)
    await apply_transition(core, p, "open_diligence", STAFF)
    await apply_transition(core, p, "recidivism_removal", FISCAL,
                           {**ABANDONED, "previous_case": "2025-000009",
                            "removal_photos": ["sha1"], "removal_started_at": "2026-12-01T13:00"},
                           agency="posturas")
    res = await apply_transition(core, p, "depot_entry", FISCAL,
                                 {"termo_number": "T-1", "missing_parts": ["pneus"],
                                  "odometer": "123456", "depot": "Pátio central"},
                                 agency="posturas")
    # 01/12/2026 + 60 days = 30/01/2027 (Saturday) → Monday 01/02/2027
    assert res.deadline["due"] == "2027-02-01"
    clock.now = datetime(2027, 2, 2, 12, tzinfo=timezone.utc)
    assert (await sweep_deadlines(core)).moved == [(p, "auction_deadline")]
    assert (await state_of(core, p)).state == "auction_eligible"


async def test_closing_tells_the_citizen_with_reason_once(core, photo):
    p = await new_case(core, photo)
    await apply_transition(core, p, "close_unfounded", STAFF,
                           {"reason": "Veículo já retirado pelo dono"})
    async with core.db.read() as s:
        msgs = (await s.execute(select(OutboxMessage))).scalars().all()
        case = (await s.execute(select(Case))).scalar_one()
        assert (await verify_chain(s, case.id)).ok
    assert len(msgs) == 1 and msgs[0].chat_id == 555
    assert "Veículo já retirado pelo dono" in msgs[0].payload["text"]
    assert not case.is_open and case.closed_at is not None
    view = await status_view(core, p)
    assert view.state_label.startswith("Encerrado") and view.deadline is None
