"""The inspector's step forms: questions from Transition.requires (Portuguese labels), the
facts the Dracena guard reads (Art. 2º, d; §2º), typed answers validated, and a step taken
only as the inspector holding the case."""
from __future__ import annotations

import io
from dataclasses import replace

import pytest
from pypdf import PdfReader

from core.services.errors import Forbidden, InvalidInput
from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.inspectors.step_forms import (photo_after, VIDEO_FACTS, CPF, CRITERIA, GOODS, PARTS, PHOTOS, fields_for,
                                      parse_answer, perform_step, show_value, step_form, wanted)
from core.storage.models import Evidence
from core.storage.timeline import ActorRef
from core.lifecycle import TransitionRefused
from tests.support.step_cases import held_case


async def test_notification_form_follows_requires_with_labels_art_4_I(core, photo):
    protocol = await held_case(core, photo)
    form = await step_form(core, 901, protocol, "notify_owner")
    facts = [f.fact for f in form.fields if not f.on_request]
    assert facts == ["abandonment_criteria", "owner_name", "owner_document", "owner_contact",
                     "notification_number"]
    # Anexo I's boxes only the inspector can fill, asked when he adds them ("➕ Mais dados")
    assert [f.fact for f in form.fields if f.on_request] == [
        "vehicle_make", "vehicle_model", "vehicle_colour", "vehicle_chassis", "vehicle_renavam",
        "plate_municipality", "plate_uf"]
    form = replace(form, fields=tuple(f for f in form.fields if not f.on_request))
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


def test_owner_document_takes_a_cpf_or_a_cnpj_art_4_I(core):
    """Art. 4º, I: "nome, CPF/CNPJ e contato" — a company may own the vehicle."""
    f = {x.fact: x for x in fields_for(core, "dores_vehicle", "notify_owner", "P")}
    doc = f["owner_document"]
    assert parse_answer(core, doc, "11.222.333/0001-81") == "11222333000181"
    assert show_value(doc, "11222333000181") == "11.222.333/0001-81"
    with pytest.raises(InvalidInput, match="CNPJ inválido: os dígitos verificadores"):
        parse_answer(core, doc, "11.222.333/0001-82")
    with pytest.raises(InvalidInput, match="CPF/CNPJ inválido"):
        parse_answer(core, doc, "1234567")


def test_removal_evidence_takes_videos_the_notice_only_photos_art_6_I_a(core):
    """Art. 6º, I, a: "ser fotografado ou filmado"."""
    removal = fields_for(core, "dores_vehicle", "start_removal", "P")[0]
    # the notice's photo is asked after the printed notice (photo_after), photos only
    assert photo_after(core.law.tracks["dores_vehicle"], "affix_notice") == "notice_photo" and "notice_photo" not in VIDEO_FACTS
    assert not any(f.kind == PHOTOS for f in fields_for(core, "dores_vehicle", "affix_notice",
                                                        "P"))
    assert removal.video


async def test_dracena_note_and_intimacao_forms_ask_what_the_law_requires_art_4_par_1(
        make_core):
    core = await make_core("dracena")
    note = fields_for(core, "dracena_apprehension", "low_value_note", "P")
    facts = [f.fact for f in note]
    assert facts[:2] == ["goods_list", "vendor_name"] and {"fine_amount", "provision_violated",
                                                           "note_signed"} <= set(facts)
    assert note[0].kind == GOODS and not note[1].required
    goods = parse_answer(core, note[0], "12 óculos de sol\n30 capinhas;  ")
    assert goods == "12 óculos de sol; 30 capinhas"
    intimacao = fields_for(core, "dracena_infraction", "serve_intimacao", "P")
    assert [f.fact for f in intimacao] == ["intimacao_date", "offender_address"]


async def test_removal_video_kept_as_video_evidence_art_6_I_a(make_core, photo, clock):
    core = await make_core(telegram_bot_username="ViaLivreTesteBot")
    protocol = await held_case(core, photo)
    await perform_step(core, 901, protocol, "notify_owner",
                       {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_engine"],
                        "owner_name": "José", "owner_document": "11222333000181",
                        "notification_number": "1"})
    clock.advance(days=11)
    await apply_transition(core, protocol, "lapse_deadline", ActorRef("system", None, "sweep"))
    video = core.evidence.put(b"\x00\x00\x00\x18ftypmp42" + bytes(500))
    still = core.evidence.put(b"\xff\xd8" + bytes(300))
    done = await perform_step(core, 901, protocol, "start_removal",
                              {"removal_photos": [video, still],
                               "removal_started_at": "2026-12-12T09:00:00-03:00"},
                              media={video: "video/mp4"})
    assert done.result.state == "removal_started"
    async with core.db.read() as s:
        rows = dict((await s.execute(select(Evidence.sha256, Evidence.kind).where(
            Evidence.sha256.in_([video, still])))).all())
        mimes = dict((await s.execute(select(Evidence.sha256, Evidence.mime).where(
            Evidence.sha256.in_([video, still])))).all())
    assert rows == {video: "video", still: "photo"}
    assert mimes == {video: "video/mp4", still: "image/jpeg"}
    entry = await perform_step(core, 901, protocol, "depot_entry",
                               {"termo_number": "T-1", "missing_parts": ["tyres"],
                                "odometer": "sem hodômetro", "depot": "Pátio municipal"})
    (_, name, blob), = entry.documents
    termo = " ".join(PdfReader(io.BytesIO(blob)).pages[0].extract_text().split())
    assert name.startswith("termo-de-recolhimento") and "vídeo 1" in termo and "foto 1" in termo


@pytest.mark.parametrize("typed, stored", [("1.500,00", "1500.00"), ("1500,00", "1500.00"),
                                           ("1500", "1500.00"), ("R$ 1.500", "1500.00"),
                                           ("R$ 1.500,5", "1500.50"), ("1500.00", None),
                                           ("150.5", None), ("1.500.00", None)])
async def test_the_fine_of_art_2_reads_the_same_in_the_bot_and_the_panel(make_core, typed,
                                                                         stored):
    """Dracena Art. 2º: the auto states the fine. The inspector's form and the panel's form read
    the typed amount with one parser: once the bot read "1500.00" as R$ 150.000,00 and the
    panel as R$ 1.500,00. What cannot be read unambiguously is refused by both."""
    from admin.forms import fields_for as panel_fields, parse_fact

    core = await make_core("dracena")
    bot_field = next(f for f in fields_for(core, "dracena_infraction", "issue_auto", "P")
                     if f.fact == "fine_amount")
    lifecycle = core.law.tracks["dracena_infraction"]
    panel_field = next(f for f in panel_fields(lifecycle,
                                               lifecycle.transitions["issue_auto"].requires)
                       if f.name == "fine_amount")
    if stored is None:
        with pytest.raises(InvalidInput, match="1.500,00") as bot:
            parse_answer(core, bot_field, typed)
        with pytest.raises(InvalidInput, match="1.500,00") as panel:
            parse_fact(panel_field, {"fine_amount": typed}, core.settings.timezone)
        assert panel.value.message.endswith(bot.value.message)
        return
    assert parse_answer(core, bot_field, typed) == stored
    assert parse_fact(panel_field, {"fine_amount": typed}, core.settings.timezone) == stored
    reais, centavos = stored.split(".")
    assert show_value(bot_field, stored) == f"R$\xa01.{reais[1:]},{centavos}"


async def test_dates_and_moments_read_the_same_in_the_bot_and_the_panel(core):
    """Dores Art. 6º: the removal's moment; one reading of dd/mm/aaaa hh:mm for both faces."""
    from admin.forms import fields_for as panel_fields, parse_fact

    lifecycle = core.law.tracks["dores_vehicle"]
    bot = {f.fact: f for f in fields_for(core, "dores_vehicle", "start_removal", "P")}
    panel = {f.name: f for f in panel_fields(lifecycle,
                                             lifecycle.transitions["start_removal"].requires)}
    tz = core.settings.timezone
    for typed in ("01/12/2026 09:15", "1/12/2026 às 9h15"):
        assert parse_answer(core, bot["removal_started_at"], typed) == parse_fact(
            panel["removal_started_at"], {"removal_started_at": typed}, tz)
    for typed in ("01/12/2026", "2026-12-01 09:15", "01/12 09:15"):
        with pytest.raises(InvalidInput, match="dd/mm/aaaa"):
            parse_answer(core, bot["removal_started_at"], typed)
        with pytest.raises(InvalidInput, match="dd/mm/aaaa"):
            parse_fact(panel["removal_started_at"], {"removal_started_at": typed}, tz)
