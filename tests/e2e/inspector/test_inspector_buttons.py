"""Buttons that fit a phone: every step of every track of both laws has a
short button label (Transition.button), the card's text names the action in full with its
article, and the abandonment checklist is the category's (no hood, no Detran/BIN record for a
sofa or a machine: Dores Art. 1º, VI with Art. 5º, § único)."""
from __future__ import annotations

from datetime import datetime

import pytest

from bot.inspector.card import buttons as card_buttons
from bot.inspector.form import field_buttons, fix_buttons
from bot.inspector.texts import LOCATION_BUTTON
from core.laws import get_law
from core.laws.dores_do_indaia.assessment import assess
from core.lifecycle import BUTTON_MAX
from core.services.inspectors.notice_photo import MissingPhoto
from core.services.papers.kinds import SHARED
from core.services.papers.reissue import IssuedDocument
from core.services.inspectors.step_forms import REVIEWED, TEXT, FormField, StepForm, fields_for, wanted
from core.services.inspectors.task_list import CaseCard
from tests.support.inspector import ANA, CARLA, NEAR, bind, report, tap, task_message

LAWS = ("dores-do-indaia", "dracena")
VEHICLE_ONLY = {"missing_doors", "no_bumpers", "no_seats", "no_identification",
                "no_chassis_engine_number", "sale_communicated", "tax_debts"}


@pytest.mark.parametrize("slug", LAWS)
def test_every_step_of_every_track_has_a_short_button(slug):
    law = get_law(slug)
    seen = 0
    for track in law.tracks.values():
        for t in track.transitions.values():
            assert t.button, f"{track.track}.{t.code} has no button label"
            assert len(t.button) <= BUTTON_MAX, f"{t.button!r} is too long for a phone"
            assert t.button != t.label or len(t.label) <= BUTTON_MAX
            assert t.article.startswith("Art."), t.code  # the message text names it
            if t.undo is not None:  # the owner's "Desfazer declaração" (Transition.undo)
                assert 0 < len(t.undo.button) <= BUTTON_MAX, t.undo.code
                assert t.undo.article.startswith("Art."), t.undo.code
            seen += 1
    assert seen > 10


def test_a_sofa_and_a_machine_are_not_asked_about_a_hood_or_the_detran():
    law = get_law("dores-do-indaia")
    for category in ("large_furniture", "machinery"):
        codes = {c.code for c in law.checklist(category)}
        assert not codes & VEHICLE_ONLY, category
        assert "days_in_place" in codes and "poor_conservation" in codes
        assert not any("capô" in c.label or "Detran" in c.label
                       for c in law.checklist(category))
    assert "no_engine" in {c.code for c in law.checklist("machinery")}
    assert {c.code for c in law.checklist("motor_vehicle")} == {c.code for c in law.criteria}


@pytest.mark.parametrize("category", ["motor_vehicle", "chassis_body", "trailer",
                                      "human_animal_vehicle", "large_furniture", "machinery"])
def test_every_checklist_item_counts_in_the_assessment_art_3_par_4(category):
    """Nothing offered to tick is then ignored by the assessment (Art. 3º, §4º, I)."""
    law = get_law("dores-do-indaia")
    ticked = [c.code for c in law.checklist(category)]
    result = assess(category, ticked)
    assert result.qualifies and {c.code for c in result.met} == set(ticked)


async def test_the_inspectors_form_offers_the_categorys_checklist(core):
    sofa = fields_for(core, "dores_furniture", "remove_immediately", "P",
                      category="large_furniture")
    offered = {v for v, _ in next(f for f in sofa if f.fact == "abandonment_criteria").options}
    assert offered and not offered & VEHICLE_ONLY
    car = fields_for(core, "dores_vehicle", "notify_owner", "P", category="motor_vehicle")
    offered = {v for v, _ in next(f for f in car if f.fact == "abandonment_criteria").options}
    assert {"missing_doors", "tax_debts"} <= offered


async def test_card_buttons_are_short_and_the_text_names_the_article(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo, plate="ABC1D23")
    await task_message(bot, ANA, protocol)
    card = await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    actions = [b.text for row in card.buttons for b in row if b.text not in ("Aceitar",
                                                                             "Recusar")]
    assert actions and all(len(t) <= BUTTON_MAX for t in actions)
    lifecycle = core.law.tracks["dores_vehicle"]
    for t in lifecycle.available("diligence"):
        if t.button in actions:
            assert f"• {t.button}: {t.label} ({t.article})" in card.text


async def test_a_sofa_checklist_on_the_phone_has_no_hood_nor_detran(bot, core, photo):
    await bind(bot, CARLA, "Carla Saúde", "saude", NEAR)
    protocol = await report(core, photo, category="large_furniture")
    await task_message(bot, CARLA, protocol)
    await tap(bot, CARLA, "Aceitar", expect=f"Protocolo {protocol}")
    form = await tap(bot, CARLA, "Remover agora", expect="Marque os sinais")
    labels = " ".join(b.text for row in form.buttons for b in row)
    assert "capô" not in labels and "Detran" not in labels and "placa" not in labels
    assert "Mau estado geral" in labels and all(len(b.text) <= BUTTON_MAX
                                                for row in form.buttons for b in row)
    # the button is short; the text names the sign in full with its article
    assert "• Mau estado geral: Em mau estado de conservação (Art. 3º, §4º, I, h)" in form.text
    assert "capô" not in form.text and "Detran" not in form.text


def _labels(rows) -> list[str]:
    return [text for row in rows for text, _ in row]


def _every_form(core):
    """Every field of every step of every track, for every category of the track."""
    for category, cat in core.law.categories.items():
        lifecycle = core.law.tracks[cat.track]
        for code in lifecycle.transitions:
            fields = fields_for(core, cat.track, code, "2026-000001", ["2025-000123"], category)
            yield category, code, fields


@pytest.mark.parametrize("slug", LAWS)
async def test_every_button_the_inspectors_form_can_show_is_short(make_core, slug):
    """Every field of every step, for every category of both laws (checklists per category
    included), every "Corrigir n", and a long suggestion such as the citizen's words: each
    button says an action in a few words; the message text names the sign with its article."""
    core = await make_core(slug)
    seen = 0
    words = "Fiat Uno Mille Fire Economy 2008, vermelho; com pneu murcho e capô amassado"
    for category, code, fields in _every_form(core):
        long = FormField(REVIEWED, "marca, modelo, cor e descrição", TEXT, suggestion=words)
        fields = (long, *fields)
        d = {"id": "abc123", "facts": {f.fact: [v for v, _ in f.options] or None
                                       for f in fields}}
        for f in fields:
            more, rows = field_buttons(f, d)
            for label in _labels(rows):
                assert len(label) <= BUTTON_MAX, (slug, category, code, f.fact, label)
                seen += 1
            for k, (_, full) in enumerate(f.options):  # the sign in full, in the text
                assert full in more or f.button(k) == full
            if f.suggestion and len(f.suggestion) > BUTTON_MAX:
                assert f.suggestion in more
        form = StepForm("2026-000001", code, "Passo", "Art. 1º", fields, False, "t", 1, "")
        text, rows = fix_buttons(form, d)
        assert all(len(label) <= BUTTON_MAX for label in _labels(rows))
        assert all(f.label in text for f in fields if wanted(f, d["facts"]))  # n, in the text
    assert seen > 100


def test_the_case_card_buttons_are_short_with_every_document_to_issue_again():
    card = CaseCard("2026-000001", 1, "accepted", "motor_vehicle", "Veículo", "diligence",
                    "Em diligência", None, None, -19.46, -45.6, None, None, None, {}, [], None,
                    None)
    docs = [IssuedDocument(k.code, k.label, "0" * 64, k.button) for k in SHARED.values()]
    missing = MissingPhoto(1, "2026-000001", "affix_notice", "notice_photo", "Art. 4º, II, a",
                           "foto da notificação afixada no objeto", 3, datetime.now(), 1, 1)
    labels = [b.text for row in card_buttons(card, docs, missing).inline_keyboard for b in row]
    assert len(labels) == len(SHARED) + 1
    assert all(len(label) <= BUTTON_MAX for label in labels), labels
    assert len(LOCATION_BUTTON) <= BUTTON_MAX
