"""The collection date (Dores Art. 3º, caput: "não reclamado [...] dentro do prazo de sessenta
dias, contado da data de recolhimento"; CTB art. 328): the depot entry records when the object
was collected — by default the moment its removal started, editable — and the 60 days, the
storage fees and the termo de recolhimento (Art. 6º, caput: 10 days to retrieve) all count
from it, not from the moment the entry was typed into the bot.

Counting (core/legal_calendar.py, Lei 9.784/1999 art. 66): the start day excluded, the due day
included, a due day without office hours moves to the next business day."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from core.services.owners.text import view_text
from core.services.cases.transitions import apply_transition
from core.services.papers.documents import issue_removal_term
from core.services.owners import link_by_code
from tests.support.paper_cases import ABANDONED, FISCAL, new_case, text_of

OWNER = 777
REMOVED = "2026-12-01T09:00:00-03:00"  # Tuesday 01/12/2026, the tow truck starts


@pytest.fixture
async def core(make_core):
    return await make_core(telegram_bot_username="ViaLivreTesteBot")


async def _removed_then_registered(core, photo, clock, **entry):
    case = await new_case(core, photo, plate="ABC1D23")  # in diligence
    await apply_transition(core, case.protocol, "recidivism_removal", FISCAL,
                           {**ABANDONED, "previous_case": "2025-000009",
                            "removal_photos": ["ab" * 32], "removal_started_at": REMOVED},
                           agency="posturas")
    clock.now = datetime(2026, 12, 4, 13, tzinfo=timezone.utc)  # registered on Friday 04/12
    res = await apply_transition(core, case.protocol, "depot_entry", FISCAL,
                                 {"termo_number": "T-9/2026", "missing_parts": ["nenhum"],
                                  "odometer": "sem hodômetro", "depot": "Pátio Central",
                                  **entry}, agency="posturas")
    return case, res


async def test_late_registration_counts_60_days_from_the_removal_art_3(core, photo, clock):
    """Removal 01/12, registered 04/12 → 01/12 + 60 = 30/01/2027, a Saturday → auction after
    Monday 01/02/2027 (not 02/02, which 04/12 + 60 would give)."""
    case, res = await _removed_then_registered(core, photo, clock)
    assert res.deadline["due"] == "2027-02-01" and res.deadline["article"] == "Art. 3º, caput"
    view = await link_by_code(core, OWNER, case.case_code)
    assert view.depot.auction_after == date(2027, 2, 1)
    assert "ainda pode ser retirado até 01/02/2027, 60 dias contados do recolhimento; só " \
           "depois dessa data pode ir a leilão (Art. 3º, caput; CTB art. 328)" in view_text(view)
    # Art. 6º, caput: the 10 days the termo prints, stated in the owner's view too
    assert "Prazo para retirada: até 11/12/2026, 10 dias contados da remoção (Art. 6º, " \
           "caput)." in view_text(view)
    # Art. 3º, §3º, II: diárias since the collection: 01/12 09:00 → 04/12 10:00 is 4 started
    # days at R$ 30,00, plus the tow (R$ 250,00).
    assert view.depot.entered_at.isoformat().startswith("2026-12-01T09:00")
    assert view.depot.fees.total == Decimal("250.00") + 4 * Decimal("30.00")
    # the termo: removed on 01/12; 10 days to retrieve → 11/12; auction after 01/02/2027
    _, _, blob = await issue_removal_term(core, case.protocol, FISCAL)
    text = text_of(blob)
    assert "01/12/2026, às 09:00" in text and "11/12/2026" in text and "01/02/2027" in text
    assert "02/02/2027" not in text


async def test_the_collection_moment_is_editable_art_3(core, photo, clock):
    """The inspector states another collection moment (e.g. the tow reached the depot the next
    morning): 02/12 + 60 = 31/01/2027, a Sunday → 01/02/2027; the fees count from 02/12."""
    case, res = await _removed_then_registered(
        core, photo, clock, collected_at="2026-12-02T08:00:00-03:00")
    assert res.deadline["due"] == "2027-02-01"
    view = await link_by_code(core, OWNER, case.case_code)
    assert view.depot.entered_at.isoformat().startswith("2026-12-02T08:00")
    assert view.depot.fees.total == Decimal("250.00") + 3 * Decimal("30.00")


@pytest.mark.parametrize("track", ["dores_vehicle", "dores_furniture"])
def test_the_depot_entry_asks_for_the_collection_defaulting_to_the_removal_art_3(core, track):
    from core.services.inspectors.step_forms import fields_for
    fields = {f.fact: f for f in fields_for(core, track, "depot_entry", "2026-000001")}
    assert not fields["collected_at"].required and fields["collected_at"].kind == "datetime"
    step = core.law.tracks[track].transitions["depot_entry"]
    assert step.with_defaults({}, {"removal_started_at": REMOVED}) == {"collected_at": REMOVED}


async def test_staff_register_the_depot_entry_with_its_collection_in_the_panel_art_3(
        core, photo, clock):
    """The panel's depot entry asks for the collection moment too: collected 30/11 18:00 →
    30/11 + 60 = 29/01/2027 (a Friday)."""
    from core.services.staff.accounts import create_user
    from tests.support.panel import PASSWORD, Panel, post_form
    case = await new_case(core, photo, plate="ABC1D23")
    await apply_transition(core, case.protocol, "recidivism_removal", FISCAL,
                           {**ABANDONED, "previous_case": "2025-000009",
                            "removal_photos": ["ab" * 32], "removal_started_at": REMOVED},
                           agency="posturas")
    await create_user(core, "bruno", PASSWORD, "staff")
    async with Panel(core).client("bruno") as c:
        page = await (await c.get(f"/casos/{case.protocol}")).text()
        assert 'name="collected_at"' in page
        resp = await post_form(c, f"/casos/{case.protocol}",
                               f"/casos/{case.protocol}/acao/depot_entry",
                               {"termo_number": "T-1", "missing_parts": "nenhum",
                                "odometer": "1000", "depot": "Pátio Central",
                                "collected_at": "30/11/2026 18:00"})
        assert resp.status in (302, 303)
    async with core.db.read() as s:
        from sqlalchemy import select

        from core.storage.models import Case
        row = (await s.execute(select(Case).where(Case.protocol == case.protocol))).scalar_one()
    assert row.state == "in_depot" and row.deadline_json["due"] == "2027-01-29"
    assert row.details["facts"]["collected_at"].startswith("2026-11-30T18:00")
