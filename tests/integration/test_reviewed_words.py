"""Reviewed facts on official paper: make, model and colour reach a legal document only once
the inspector confirmed or corrected them at the inspection, each in its box; the citizen's
free description never does (Dores Art. 4º, I: the notification's "características do veículo"); plates
are written one way everywhere (ABC-1234, ABC1D23)."""
from __future__ import annotations

import io

from pypdf import PdfReader

from core.identifiers import format_plate
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.citizens.reports import ReportIn, submit_report
from core.services.papers.facts import COLOUR, MAKE, MODEL
from core.services.inspectors.step_forms import REVIEWED, perform_step, step_form

DORES = (-19.4628, -45.6003)
FACTS = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"],
         "owner_name": "José da Silva", "owner_document": "52998224725",
         "notification_number": "7/2026"}


def text_of(blob: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages).split())


async def held_case(core, photo, **kw):
    await bind_inspector(core, 901, await invite_inspector(core, "Ana", "posturas", "staff",
                                                           registration="1"))
    r = ReportIn("motor_vehicle", *DORES, [photo(1)], address="Rua A, 1", plate="abc1234",
                 **kw)
    return (await submit_report(core, 555, r)).protocol


async def test_the_inspection_form_asks_to_confirm_the_citizens_words_art_4_I(make_core, photo):
    """Make, model and colour asked one box at a time with the citizen's answers offered; the
    citizen's free description is never offered, nor printed."""
    core = await make_core(telegram_bot_username="ViaLivreTesteBot")
    protocol = await held_case(core, photo, make_model="fiat uno", colour="branco",
                               description="com pneu murcho")
    form = await step_form(core, 901, protocol, "notify_owner")
    asked = [(f.fact, f.suggestion) for f in form.fields[:3]]
    assert asked == [(MAKE, "fiat"), (MODEL, "uno"), (COLOUR, "branco")]
    assert not [f for f in form.fields if "pneu murcho" in (f.suggestion or "")]
    done = await perform_step(core, 901, protocol, "notify_owner",
                              {**FACTS, MAKE: "Fiat", MODEL: "Uno Mille", COLOUR: "branco"})
    text = text_of(done.documents[0][2])
    assert "MARCA Fiat" in text and "MODELO Uno Mille" in text and "COR branco" in text
    assert "fiat uno" not in text and "pneu murcho" not in text
    assert "ABC-1234" in text  # the plate as format_plate writes it
    again = await step_form(core, 901, protocol, "confirm_owner_removed")
    assert MAKE not in [f.fact for f in again.fields]  # not a review step


async def test_a_case_reviewed_as_one_text_keeps_it_as_observations(make_core, photo):
    """A case the inspector reviewed before the boxes were asked: his one confirmed text is
    printed under OBSERVAÇÕES, the boxes stay "—"."""
    core = await make_core(telegram_bot_username="ViaLivreTesteBot")
    protocol = await held_case(core, photo)
    done = await perform_step(core, 901, protocol, "notify_owner", FACTS)
    from core.services.cases.transitions import load_case
    from core.services.papers.facts import object_data
    async with core.db.unit_of_work() as s:
        case = await load_case(s, protocol, for_update=True)
        case.details = {**case.details, "facts": {**case.details["facts"],
                                                  REVIEWED: "Fiat Uno Mille, branco"}}
    async with core.db.read() as s:
        obj = object_data(core, await load_case(s, protocol))
    assert obj.description == "Fiat Uno Mille, branco" and not obj.make
    assert done.documents


async def test_unreviewed_words_are_left_out_of_the_document(make_core, photo):
    """No words of the citizen to review: nothing asked, and nothing of the citizen printed."""
    core = await make_core(telegram_bot_username="ViaLivreTesteBot")
    protocol = await held_case(core, photo)
    form = await step_form(core, 901, protocol, "notify_owner")
    assert [f.fact for f in form.fields if f.fact in (MAKE, MODEL, COLOUR) and not
            f.on_request] == []  # nothing to confirm: the boxes only on request


def test_plates_are_written_one_way():
    assert format_plate("abc1234") == "ABC-1234" and format_plate("ABC-1D23") == "ABC1D23"
