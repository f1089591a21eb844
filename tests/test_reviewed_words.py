"""Reviewed words on official paper (issue 12, part 5): make, model, colour and the citizen's
description reach a legal document only once the inspector confirmed or corrected them at
the inspection (Dores Art. 4º, I: the notification's "características do veículo"); plates
are written one way everywhere (ABC-1234, ABC1D23)."""
from __future__ import annotations

import io

from pypdf import PdfReader

from core.identifiers import format_plate
from core.services.inspectors import bind_inspector, invite_inspector
from core.services.reports import ReportIn, submit_report
from core.services.step_forms import REVIEWED, perform_step, step_form
from tests.core_fixtures import clock, core, make_core, photo  # noqa: F401

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
    core = await make_core(telegram_bot_username="ViaLivreTesteBot")
    protocol = await held_case(core, photo, make_model="fiat uno", colour="branco",
                               description="com pneu murcho")
    form = await step_form(core, 901, protocol, "notify_owner")
    first = form.fields[0]
    assert first.fact == REVIEWED and first.required
    assert first.suggestion == "fiat uno, branco; com pneu murcho"
    done = await perform_step(core, 901, protocol, "notify_owner",
                              {**FACTS, REVIEWED: "Fiat Uno Mille, branco, sem para-choques"})
    text = text_of(done.documents[0][2])
    assert "Fiat Uno Mille, branco, sem para-choques" in text
    assert "fiat uno" not in text and "pneu murcho" not in text
    assert "ABC-1234" in text  # the plate as format_plate writes it


async def test_unreviewed_words_are_left_out_of_the_document(make_core, photo):
    """No words of the citizen to review: nothing asked, and nothing of the citizen printed."""
    core = await make_core(telegram_bot_username="ViaLivreTesteBot")
    protocol = await held_case(core, photo)
    form = await step_form(core, 901, protocol, "notify_owner")
    assert REVIEWED not in [f.fact for f in form.fields]


def test_plates_are_written_one_way():
    assert format_plate("abc1234") == "ABC-1234" and format_plate("ABC-1D23") == "ABC1D23"
