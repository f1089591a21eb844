"""The affixed notice in the right order, end to end through the Bot API
stand-in: the inspector receives the printable notice (PDF with the owner's QR code) first,
and only then is asked for the photo of it affixed (Dores Art. 4º, II, a: "Afixada uma
notificação ... no vidro ou lataria do veículo"). The paper follows the law reading of the
settings (affixed_notice_lapses False): removal waits for the 10 days counted from the Diário
Oficial publication (Art. 4º, II, b), so no firm date is printed."""
from __future__ import annotations

import io
from dataclasses import replace

from pypdf import PdfReader

from sqlalchemy import select

from sandbox.harness import BotHarness
from core.documents import affixed_notice_pdf
from tests.support import document_samples as samples
from core.storage.models import Case, Event, Evidence
from tests.support.inspector import (ANA, NEAR, affix_notice_up_to_confirm, bind, open_card,
                                     pdf_text, report, send_photo, tap, task_message)
from tests.support.bot_chat import said


def _texts(bot, since: int) -> list[tuple[str, str]]:
    """(method, text or caption) of the bot's messages and documents to Ana since `since`."""
    return [(c.method, c.params.get("text") or c.params.get("caption") or "")
            for c in bot.api.calls[since:]
            if c.method in ("sendMessage", "sendDocument")
            and str(c.params.get("chat_id")) == str(ANA.id)]


async def test_the_printable_notice_comes_before_the_photo_of_it_affixed_art_4_II_a(
        core, photo):
    async with BotHarness(core) as bot:
        await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
        protocol = await report(core, photo)
        await task_message(bot, ANA, protocol)
        await open_card(bot, ANA, protocol)
        start = len(bot.api.calls)
        await affix_notice_up_to_confirm(bot, ANA, "N-77/2026")
        await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
        await said(bot, ANA, "envie aqui a foto da notificação afixada")
        sent = _texts(bot, start)
        document = next(i for i, (m, _) in enumerate(sent) if m == "sendDocument")
        asked = next(i for i, (_, t) in enumerate(sent)
                     if "foto da notificação afixada no vidro" in t)
        assert document < asked  # the PDF first, then the photo is asked
        assert not any("foto da notificação" in t for _, t in sent[:document])
        doc = next(c for c in bot.api.calls[start:] if c.method == "sendDocument")
        pdf = pdf_text(PdfReader(
            io.BytesIO(next(iter(doc.files.values())).data)))
        assert "Art. 4º, II, a" in pdf and "t.me/" in pdf.replace("\n", "")
        assert "contados da data dessa publicação" in " ".join(pdf.split())  # Art. 4º, II, b

        await tap(bot, ANA, "Pronto", expect="Envie ao menos uma foto")  # nothing sent yet
        await send_photo(bot, ANA, 7)
        await tap(bot, ANA, "Pronto", expect="Foto da notificação afixada registrada")
        # The card offers the document again, the same as first issued
        await said(bot, ANA, f"Protocolo {protocol}")
        again_from = len(bot.api.calls)
        await tap(bot, ANA, "📄 Notificação afixada")
        again = await bot.api.wait_for(method="sendDocument", chat_id=ANA, since=again_from)
        assert next(iter(again.files.values())).data == next(iter(doc.files.values())).data
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        kinds = (await s.execute(select(Evidence.kind).where(Evidence.case_id == case.id))
                 ).scalars().all()
        actions = (await s.execute(select(Event.action).where(Event.case_id == case.id)
                                   .order_by(Event.seq))).scalars().all()
    assert case.state == "notice_affixed" and len(case.details["facts"]["notice_photo"]) == 1
    assert kinds.count("photo") == 2 and "document" in kinds  # the citizen's and the notice's
    assert actions.index("document_issued") < actions.index("step_photos")


def test_without_the_publication_reading_the_notice_states_its_firm_date_art_4_II_a():
    data = samples.affixed()
    firm = pdf_text(PdfReader(io.BytesIO(
        affixed_notice_pdf(data))))
    waits = pdf_text(PdfReader(io.BytesIO(
        affixed_notice_pdf(replace(data, removal_after_publication=True)))))
    firm, waits = " ".join(firm.split()), " ".join(waits.split())
    assert data.deadline.due_date in firm and "dessa publicação" not in firm
    assert data.deadline.due_date not in waits and "Art. 4º, II, b" in waits
