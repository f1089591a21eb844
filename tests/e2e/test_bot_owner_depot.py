"""The depot through the real bot (Dores Art. 3º, §3º): fees owed today on dated tariffs across a
weekend and a holiday, the auction date (Art. 3º, caput; CTB art. 328), the attorney's checklist
(§3º, I), a sold-but-not-transferred vehicle (§3º, III, a) and the summary PDF."""
from __future__ import annotations

import io

from pypdf import PdfReader

from core.formatting import fmt_date
from core.identifiers import format_case_code
from tests.support.owner_chat import JOSE, button_texts, depot_case, open_by_qr
from tests.support.bot_chat import press


async def test_depot_fees_across_a_weekend_and_a_holiday_art_3_par_3_II(bot, core, photo,
                                                                        clock):
    sub, auction = await depot_case(core, photo, clock)
    view = (await open_by_qr(bot, JOSE, sub.case_code)).text
    # towing 250 + 22–25/12 at 30 (Christmas counted like any day) + 26–27/12 at 35
    assert "Valores devidos hoje (28/12/2026)" in view
    assert "R$\xa0250,00" in view and "R$\xa0120,00" in view and "R$\xa070,00" in view
    # the towing value charged is still the seeded reference value (Art. 9º, II): estimate
    assert "Total (estimativa): R$\xa0440,00" in view
    assert "vigente desde 23/09/2022" in view and "vigente desde 26/12/2026" in view
    assert "Cada dia a mais custa R$\xa035,00" in view
    # Art. 6º, caput: 22/12 + 10 = 01/01/2027, a holiday before a weekend → Monday 04/01
    assert "Prazo para retirada: até 04/01/2027, 10 dias contados da remoção " \
           "(Art. 6º, caput)." in view
    assert f"ainda pode ser retirado até {fmt_date(auction)}" in view
    assert "só depois dessa data pode ir a leilão (Art. 3º, caput; CTB art. 328)" in view
    assert "poderá ir a leilão após" not in view
    assert "Pedir a retirada em até 60 dias" not in view  # the 60 days stated once
    # DEPOT_ADDRESS still its default: the owner is told it is missing, not the placeholder
    assert core.settings.depot_address not in view and core.settings.depot_hours in view
    assert "endereço do pátio ainda não definido" in view


async def test_attorney_checklist_art_3_par_3_I(bot, core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)
    view = await open_by_qr(bot, JOSE, sub.case_code)
    assert "Procuração pública" not in view.text
    assert "Sou procurador" in button_texts(view)
    edited = await press(bot, JOSE, "Sou procurador", expect="Procuração pública",
                         method="editMessageText")
    assert "✅ Sou procurador" in button_texts(edited)
    assert "procurador" in edited.text
    again = await press(bot, JOSE, "✅ Sou procurador", expect="Seu caso",
                        method="editMessageText")  # toggled off again
    assert "Procuração pública" not in again.text


async def test_sold_but_not_transferred_transfer_first_art_3_par_3_III_a(bot, core, photo,
                                                                         clock):
    sub, _ = await depot_case(core, photo, clock)
    await open_by_qr(bot, JOSE, sub.case_code)
    edited = await press(bot, JOSE, "Vendi, não transferi", expect="Art. 3º, §3º, III, a",
                         method="editMessageText")
    assert "depois da transferência" in edited.text
    await bot.restart()  # the owner's situation is kept
    view = await open_by_qr(bot, JOSE, sub.case_code)
    assert "depois da transferência" in view.text
    assert "✅ Vendi, não transferi" in button_texts(view)


async def test_summary_pdf_arrives_as_a_document_with_fees_and_deadline(bot, core, photo,
                                                                        clock):
    sub, auction = await depot_case(core, photo, clock)
    await open_by_qr(bot, JOSE, sub.case_code)
    doc = await press(bot, JOSE, "Resumo em PDF", expect=sub.case_code, method="sendDocument")
    pdf = doc.file("document")
    assert pdf.startswith(b"%PDF")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    flat = " ".join(text.split())
    assert "440,00" in flat and "35,00" in flat
    assert fmt_date(auction) in flat and format_case_code(sub.case_code) in flat
