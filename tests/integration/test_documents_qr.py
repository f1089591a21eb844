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
