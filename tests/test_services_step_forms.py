"""The inspector's step forms: questions from Transition.requires (Portuguese labels), the
facts the Dracena guard reads (Art. 2º, d; §2º), typed answers validated, and a step taken
only as the inspector holding the case."""
from __future__ import annotations

import pytest

from core.services.errors import Forbidden, InvalidInput
from core.services.inspectors import bind_inspector, invite_inspector
from core.services.reports import ReportIn, submit_report
from core.services.step_forms import (CPF, CRITERIA, PARTS, PHOTOS, fields_for, parse_answer,
                                      perform_step, step_form, wanted)
from core.lifecycle import TransitionRefused
from tests.core_fixtures import clock, core, make_core, photo  # noqa: F401

DORES = (-19.4628, -45.6003)


async def held_case(core, photo, tg=901):
    await bind_inspector(core, tg, await invite_inspector(core, "Ana", "posturas", "staff"))
    r = ReportIn("motor_vehicle", *DORES, [photo(1)], address="Rua A, 1", plate="ABC1D23")
    return (await submit_report(core, 555, r)).protocol


async def test_notification_form_follows_requires_with_labels_art_4_I(core, photo):
    protocol = await held_case(core, photo)
    form = await step_form(core, 901, protocol, "notify_owner")
    facts = [f.fact for f in form.fields]
    assert facts == ["abandonment_criteria", "owner_name", "owner_document", "owner_contact",
                     "notification_number"]
    kinds = {f.fact: f.kind for f in form.fields}
    assert kinds["abandonment_criteria"] == CRITERIA and kinds["owner_document"] == CPF
    assert form.fields[0].label.startswith("sinais de abandono")
    assert form.fields[-1].suggestion == protocol and form.document


async def test_termo_form_has_missing_parts_checklist_art_6_I_b(core):
    fields = fields_for(core, "dores_vehicle", "depot_entry", "2026-000001")
    parts = next(f for f in fields if f.fact == "missing_parts")
    assert parts.kind == PARTS and ("tyres", "PNEUS/RODAS") in parts.options
    start = fields_for(core, "dores_vehicle", "start_removal", "2026-000001")
    assert start[0].kind == PHOTOS


async def test_dracena_auto_asks_signature_refusal_and_witnesses_art_2_par_2(make_core):
    core = await make_core("dracena")
    fields = fields_for(core, "dracena_infraction", "issue_auto", "2026-000001")
    by = {f.fact: f for f in fields}
    assert {"offender_signature", "refusal_declaration", "witnesses"} <= set(by)
    assert not wanted(by["refusal_declaration"], {"offender_signature": True})
    assert wanted(by["refusal_declaration"], {"offender_signature": False})
    assert wanted(by["witnesses"], {})  # two witnesses always (setting, Art. 2º, d)


def test_typed_answers_are_validated(core):
    f = {x.fact: x for x in fields_for(core, "dores_vehicle", "notify_owner", "P")}
    assert parse_answer(core, f["owner_document"], "529.982.247-25") == "52998224725"
    with pytest.raises(InvalidInput, match="CPF inválido"):
        parse_answer(core, f["owner_document"], "123.456.789-00")
    g = {x.fact: x for x in fields_for(core, "dores_vehicle", "start_removal", "P")}
    with pytest.raises(InvalidInput, match="ainda não chegaram"):
        parse_answer(core, g["removal_started_at"], "01/01/2099 10:00")
    assert parse_answer(core, g["removal_started_at"], "01/12/2026 09:15").startswith(
        "2026-12-01T09:15")


async def test_step_only_for_the_inspector_holding_the_case_and_refusal_writes_nothing(
        core, photo):
    protocol = await held_case(core, photo)
    with pytest.raises(Forbidden):
        await step_form(core, 999, protocol, "notify_owner")
    with pytest.raises(InvalidInput, match="não está disponível"):
        await step_form(core, 901, protocol, "start_removal")
    with pytest.raises(TransitionRefused, match="Art. 4º, I"):
        await perform_step(core, 901, protocol, "notify_owner",
                           {"abandonment_criteria": ["no_bumpers"], "owner_name": "José",
                            "owner_document": "52998224725", "notification_number": "1"})
    form = await step_form(core, 901, protocol, "notify_owner")
    assert form.task_status == "offered"  # nothing changed, not even the acceptance
