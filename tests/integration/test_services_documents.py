"""Documents issued from cases: the PDF text read back (deadline date, articles, owner link),
kept as evidence with its SHA-256 in the timeline."""
from __future__ import annotations

import hashlib
import io

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from core.identifiers import format_case_code
from core.services.cases.transitions import apply_transition
from core.services.inspectors.day_notices import issue_affixed_notice
from core.services.papers.documents import (issue_apprehension,
                                     issue_auto_infracao, issue_intimacao,
                                     issue_low_value_note, issue_notification,
                                     issue_removal_term)
from core.services.staff.editais import edital_entries, issue_edital
from core.services.errors import InvalidInput
from core.services.cases.sweep import sweep_deadlines
from core.storage.models import Event, Evidence
from tests.support.paper_cases import ABANDONED, AUTO, BOT, FISCAL, OWNER, STAFF, new_case, text_of


@pytest.fixture
async def dores(make_core):
    return await make_core(telegram_bot_username=BOT)


async def kept(core, case, sha):
    async with core.db.read() as s:
        ev = (await s.execute(select(Evidence).where(Evidence.case_id == case.id,
                                                     Evidence.sha256 == sha))).scalar_one()
        last = (await s.execute(select(Event).where(Event.case_id == case.id)
                                .order_by(Event.seq.desc()).limit(1))).scalar_one()
    return ev, last


async def test_notification_anexo_I_has_deadline_article_owner_and_link_art_4_I(dores, photo):
    case = await new_case(dores, photo, plate="ABC1D23")
    await apply_transition(dores, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    sha, name, blob = await issue_notification(dores, case.protocol, FISCAL)
    text = text_of(blob)
    assert "11/12/2026" in text and "sexta-feira, 11 de dezembro de 2026" in text
    assert "Art. 4º, I" in text and "José da Silva" in text and "ABC1D23" in text
    assert f"https://t.me/{BOT}?start={format_case_code(case.case_code)}" in text
    assert case.protocol not in f"https://t.me/{BOT}?start={format_case_code(case.case_code)}"
    assert name == f"notificacao-{case.protocol}.pdf" and sha == hashlib.sha256(blob).hexdigest()
    ev, last = await kept(dores, case, sha)
    assert ev.kind == "document" and ev.mime == "application/pdf"
    assert last.action == "document_issued" and last.data["sha256"] == sha
    assert last.public is False and dores.evidence.get(sha) == blob


async def test_affixed_notice_then_published_notification_art_4_II(dores, photo):
    case = await new_case(dores, photo)
    await apply_transition(dores, case.protocol, "affix_notice", FISCAL,
                           {**ABANDONED, "notice_photo": "sha", "notification_number": "8/2026"},
                           agency="transito")
    _, _, blob = await issue_affixed_notice(dores, case.protocol, FISCAL)
    text = text_of(blob)
    assert "Art. 4º, II, a" in text and format_case_code(case.case_code) in text
    # Setting affixed_notice_lapses (False): removal waits for the publication's 10 days
    # (Art. 4º, II, b), so the paper says so instead of printing a firm date.
    assert "11/12/2026" not in text and "contados da data dessa publicação" in text
    with pytest.raises(InvalidInput):
        await issue_notification(dores, case.protocol, FISCAL)  # not published yet
    # Published Friday 18/12/2026: 10 days → Monday 28/12/2026 (Art. 4º, II, b)
    await apply_transition(dores, case.protocol, "record_publication", STAFF,
                           {"publication_date": "2026-12-18", "publication_reference": "DOM 100"})
    _, _, blob = await issue_notification(dores, case.protocol, STAFF)
    text = text_of(blob)
    assert "Art. 4º, II, b" in text and "28/12/2026" in text and "NÃO IDENTIFICADO" in text


async def test_furniture_notification_art_5_I(dores, photo):
    case = await new_case(dores, photo, category="large_furniture",
                          description="Geladeira branca")
    await apply_transition(dores, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="saude")
    text = text_of((await issue_notification(dores, case.protocol, FISCAL))[2])
    assert "Art. 5º, I" in text and "11/12/2026" in text
    # the citizen's words, not reviewed by the inspector, stay off official paper
    assert "Geladeira branca" not in text


async def test_removal_term_three_vias_after_lapse_and_depot_entry_art_6_I_b(
        dores, photo, clock):
    case = await new_case(dores, photo, plate="ABC1D23")
    await apply_transition(dores, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    with pytest.raises(InvalidInput):
        await issue_removal_term(dores, case.protocol, FISCAL)
    clock.advance(days=11)  # Saturday 12/12: the 10 days lapsed
    await sweep_deadlines(dores)
    clock.advance(days=2)  # Monday 14/12
    await apply_transition(dores, case.protocol, "start_removal", FISCAL,
                           {"removal_photos": ["ab" * 32],
                            "removal_started_at": "2026-12-14T09:15:00-03:00"}, agency="posturas")
    await apply_transition(dores, case.protocol, "depot_entry", FISCAL,
                           {"termo_number": "T-3/2026", "missing_parts": ["tyres", "retrovisores"],
                            "odometer": "123.456 km", "depot": "Pátio Central"},
                           agency="posturas")
    _, _, blob = await issue_removal_term(dores, case.protocol, FISCAL)
    assert len(PdfReader(io.BytesIO(blob)).pages) == 3
    text = text_of(blob)
    assert "1ª via" in text and "2ª via" in text and "3ª via" in text
    assert "14/12/2026" in text and "123.456 km" in text and "retrovisores" in text
    assert "24/12/2026" in text  # Art. 6º, caput: 10 days to retrieve
    assert "12/02/2027" in text  # Art. 3º: 60 days from the depot entry (14/12 → 12/02)
    assert f"start={format_case_code(case.case_code)}" in text


async def test_edital_lists_unknown_owner_cases_without_personal_data_art_6_par_1(dores, photo):
    case = await new_case(dores, photo)
    await apply_transition(dores, case.protocol, "affix_notice", FISCAL,
                           {**ABANDONED, "notice_photo": "sha", "notification_number": "8/2026"},
                           agency="transito")
    entries = await edital_entries(dores, "notificacao")
    assert [e.case_code for e in entries] == [format_case_code(case.case_code)]
    assert await edital_entries(dores, "remocao") == []
    sha, name, blob = await issue_edital(dores, "notificacao", STAFF, "15/2026", "Carlos Souza",
                                         "Secretário de Administração")
    text = text_of(blob)
    assert format_case_code(case.case_code) in text and "Art. 4º, II, b" in text and "Rua Tiradentes" in text
    assert (await kept(dores, case, sha))[1].data["document"] == "edital_notificacao"


async def test_dracena_auto_with_refusal_to_sign_and_two_witnesses_art_2(make_core, photo):
    core = await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")
    case = await new_case(core, photo, category="infraction")
    res = await apply_transition(core, case.protocol, "issue_auto", FISCAL, {
        "offender_name": "José Ambulante", "infraction_fact": "Calçada obstruída por entulho",
        "place": "Rua São Paulo, 10", "occurred_at": "2026-12-01T10:20:00-03:00",
        "provision_violated": "Código de Posturas, art. 80", "fine_amount": "250.00",
        "agent_signature": True, "copy_delivered": True, "refusal_declaration": True,
        "witnesses": ["Pedro Lima", "Rita Alves"]}, agency="fiscalizacao")
    _, _, blob = await issue_auto_infracao(core, case.protocol, FISCAL)
    text = text_of(blob)
    due = res.deadline["due"]
    assert f"{due[8:10]}/{due[5:7]}/{due[:4]}" in text and "Art. 3º" in text
    assert "José Ambulante" in text and "Pedro Lima" in text and "Rita Alves" in text
    assert "recusou" in text.lower() and "250,00" in text


async def test_documents_need_the_bot_username_for_the_owner_link(core, photo):
    case = await new_case(core, photo)
    await apply_transition(core, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    with pytest.raises(InvalidInput, match="TELEGRAM_BOT_USERNAME"):
        await issue_notification(core, case.protocol, FISCAL)


def br(iso: str) -> str:
    return f"{iso[8:10]}/{iso[5:7]}/{iso[:4]}"


@pytest.fixture
async def dracena(make_core):
    return await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")


async def test_dracena_intimacao_of_absent_offender_counts_appeal_from_it_art_2_par_3(
        dracena, photo):
    """Art. 2º, §3º: auto not drawn up in the offender's presence → intimação in writing of its
    whole content; Art. 3º: the 5 days to appeal run from the intimação."""
    case = await new_case(dracena, photo, category="infraction")
    await apply_transition(dracena, case.protocol, "issue_auto_absent", FISCAL,
                           {**AUTO, "absence_reason": "Infrator não encontrado no local"},
                           agency="fiscalizacao")
    with pytest.raises(InvalidInput, match="intimação"):
        await issue_intimacao(dracena, case.protocol, FISCAL)  # not served yet
    res = await apply_transition(dracena, case.protocol, "serve_intimacao", FISCAL,
                                 {"intimacao_date": "2026-12-01",
                                  "offender_address": "Rua Bahia, 10"}, agency="fiscalizacao")
    sha, name, blob = await issue_intimacao(dracena, case.protocol, FISCAL)
    text = text_of(blob)
    assert "INTIMAÇÃO" in text and "Art. 2º, § 3º" in text and "Art. 3º" in text
    assert "José Ambulante" in text and "Rua Bahia, 10" in text
    assert "Calçada obstruída por entulho" in text and "250,00" in text  # the auto's content
    assert br(res.deadline["due"]) in text and res.deadline["due"] > "2026-12-01"
    assert name == f"intimacao-{case.protocol}.pdf"
    ev, last = await kept(dracena, case, sha)
    assert ev.kind == "document" and {k: last.data[k] for k in ("document", "sha256",
                                                                "filename")} == {
        "document": "intimacao", "sha256": sha, "filename": name}
    assert last.data["basis"]["deadline"]["due"] == res.deadline["due"]  # for a re-issue


async def test_dracena_low_value_note_lists_goods_fine_and_law_art_4_par_1(dracena, photo):
    """Art. 4º, §1º: a signed note listing the goods, the fine and the law transgressed; the
    appeal in 48 hours (§2º)."""
    case = await new_case(dracena, photo, category="street_vendor_goods")
    res = await apply_transition(dracena, case.protocol, "low_value_note", FISCAL, {
        "goods_list": "12 óculos de sol; 30 capinhas de celular", "fine_amount": "80.00",
        "provision_violated": "Código de Posturas, art. 80", "note_signed": True,
        "apprehended_at": "2026-12-01T12:30:00-03:00", "depot_register_entry": "L1-044",
        "vendor_name": "Vendedor X"}, agency="fiscalizacao")
    sha, name, blob = await issue_low_value_note(dracena, case.protocol, FISCAL)
    text = text_of(blob)
    assert "NOTA DE APREENSÃO" in text and "L1-044" in text and "Vendedor X" in text
    assert "1. 12 óculos de sol" in text and "2. 30 capinhas de celular" in text
    assert "80,00" in text and "Código de Posturas, art. 80" in text
    assert "Art. 4º, § 2º" in text and br(res.deadline["due"]) in text
    assert (await kept(dracena, case, sha))[1].data["document"] == "nota_apreensao"


async def test_dracena_apprehension_depot_register_entry_art_6(dracena, photo):
    """Art. 4º: only the depot entry and the sale are kept among the formalities; Art. 6º: the
    object is registered in the depot's book with the Art. 2º specifications."""
    case = await new_case(dracena, photo, category="abandoned_thing")
    await apply_transition(dracena, case.protocol, "apprehend", FISCAL, {
        "goods_description": "Sofá de três lugares; geladeira branca", "place": "Rua Bahia, 5",
        "apprehended_at": "2026-12-01T11:00:00-03:00", "provision_violated": "Lei 56/1951",
        "fine_amount": "100.00", "depot_register_entry": "L1-045"}, agency="fiscalizacao")
    sha, name, blob = await issue_apprehension(dracena, case.protocol, FISCAL)
    text = text_of(blob)
    assert "L1-045" in text and "Sofá de três lugares" in text and "geladeira branca" in text
    assert "NÃO IDENTIFICADO" in text and "Art. 6º" in text and "01/12/2026" in text
    assert name == f"auto-de-infracao-e-apreensao-{case.protocol}.pdf"
    assert (await kept(dracena, case, sha))[1].data["document"] == "registro_apreensao"
