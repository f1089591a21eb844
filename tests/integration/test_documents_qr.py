"""The QR code on the documents carries the owner's link https://t.me/<bot username>?start=<case
code> (never the citizen's protocol): checked by decoding the QR image taken out of the PDF
(pypdf + zxing-cpp), not only its printed text. Documents issued from real cases by
core.services.papers.documents: Notificação (Dores Art. 4º, I, Anexo I), Termo de recolhimento
(Art. 6º, I, b, one QR per via) and the Dracena intimação (Art. 2º, §3º)."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from core.identifiers import format_case_code
from core.services.cases.transitions import apply_transition
from core.services.papers.documents import issue_intimacao, issue_notification, issue_removal_term
from core.services.cases.sweep import sweep_deadlines
from tests.support.paper_cases import ABANDONED, AUTO, FISCAL, OWNER, new_case

zxingcpp = pytest.importorskip(
    "zxingcpp", reason="QR decoder zxing-cpp not installed (pip install -e '.[test]')")

BOT = "ViaLivreDoresBot"


def qr_payloads(blob: bytes) -> list[str]:
    """Every QR code decoded from every image of every page."""
    out = []
    for page in PdfReader(io.BytesIO(blob)).pages:
        for image in page.images:
            out += [b.text for b in zxingcpp.read_barcodes(image.image)
                    if b.format == zxingcpp.BarcodeFormat.QRCode]
    return out


@pytest.fixture
async def core(make_core):
    return await make_core(telegram_bot_username=f"@{BOT}")


async def test_notification_qr_decodes_to_the_owner_link_not_the_protocol_art_4_I(
        core, photo):
    case = await new_case(core, photo, plate="ABC1D23")
    await apply_transition(core, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    _, _, blob = await issue_notification(core, case.protocol, FISCAL)
    assert qr_payloads(blob) == [f"https://t.me/{BOT}?start={format_case_code(case.case_code)}"]
    assert case.protocol not in qr_payloads(blob)[0]


async def test_removal_term_has_the_owner_qr_on_each_of_its_three_vias_art_6_I_b(
        core, photo, clock):
    case = await new_case(core, photo, plate="ABC1D23")
    await apply_transition(core, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    clock.advance(days=11)
    await sweep_deadlines(core)
    await apply_transition(core, case.protocol, "start_removal", FISCAL,
                           {"removal_photos": ["ab" * 32],
                            "removal_started_at": "2026-12-12T09:15:00-03:00"},
                           agency="posturas")
    await apply_transition(core, case.protocol, "depot_entry", FISCAL,
                           {"termo_number": "T-3/2026", "missing_parts": ["tyres"],
                            "odometer": "1 km", "depot": "Pátio Central"}, agency="posturas")
    _, _, blob = await issue_removal_term(core, case.protocol, FISCAL)
    assert qr_payloads(blob) == [f"https://t.me/{BOT}?start={format_case_code(case.case_code)}"] * 3


async def test_dracena_intimacao_qr_decodes_to_the_case_link_art_2_par_3(make_core, photo):
    core = await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")
    case = await new_case(core, photo, category="infraction")
    await apply_transition(core, case.protocol, "issue_auto_absent", FISCAL,
                           {**AUTO, "absence_reason": "Infrator ausente"}, agency="fiscalizacao")
    await apply_transition(core, case.protocol, "serve_intimacao", FISCAL,
                           {"intimacao_date": "2026-12-01"}, agency="fiscalizacao")
    _, _, blob = await issue_intimacao(core, case.protocol, FISCAL)
    assert qr_payloads(blob) == [f"https://t.me/ViaLivreDracenaBot?start={format_case_code(case.case_code)}"]


WHATSAPP = dict(whatsapp_phone_number_id="1055", whatsapp_access_token="token",
                whatsapp_app_secret="secret", whatsapp_number="+55 (37) 99999-0000")


async def test_affixed_notice_opens_the_case_on_whatsapp_too_art_4_II_a(make_core, photo):
    """Where the city's number takes WhatsApp, the notice on the object (Art. 4º, II, a)
    carries a second code: the chat with the city, the case code typed for the owner to send
    (whatsapp.owner takes exactly that text), printed under it as well."""
    from core.services.inspectors.day_notices import issue_affixed_notice
    core = await make_core(telegram_bot_username=BOT, **WHATSAPP)
    case = await new_case(core, photo, plate="ABC1D23")
    await apply_transition(core, case.protocol, "affix_notice", FISCAL,
                           {**ABANDONED, "notice_photo": "sha", "notification_number": "8/2026"},
                           agency="transito")
    _, _, blob = await issue_affixed_notice(core, case.protocol, FISCAL)
    code = format_case_code(case.case_code)
    wa = f"https://wa.me/5537999990000?text={code}"
    assert sorted(qr_payloads(blob)) == sorted([f"https://t.me/{BOT}?start={code}", wa])
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages)
    assert wa in text and "No WhatsApp" in text and len(PdfReader(io.BytesIO(blob)).pages) == 1


async def test_notification_prints_the_whatsapp_link_only_while_whatsapp_runs_art_4_I(
        make_core, photo):
    core = await make_core(telegram_bot_username=BOT, **WHATSAPP)
    case = await new_case(core, photo, plate="ABC1D23")
    await apply_transition(core, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    _, _, blob = await issue_notification(core, case.protocol, FISCAL)
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages)
    assert f"wa.me/5537999990000?text={format_case_code(case.case_code)}" in text
    # a number without the face running (no token): nothing printed that would not answer
    off = await make_core(telegram_bot_username=BOT, whatsapp_number="5537999990000")
    case = await new_case(off, photo, plate="ABC1D24")
    await apply_transition(off, case.protocol, "notify_owner", FISCAL, {**ABANDONED, **OWNER},
                           agency="posturas")
    _, _, blob = await issue_notification(off, case.protocol, FISCAL)
    assert "wa.me" not in "".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages)
