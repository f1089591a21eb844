"""The owner-unknown path end to end with the staff's Diário Oficial steps (Dores Art. 4º, II;
Art. 6º; Art. 6º, §1º), and video as removal evidence (Art. 6º, I, a: "ser fotografado ou
filmado"). The inspector works in the bot over the stand-in Bot API; the staff act through
core.services (what the panel calls); PDFs are read back with pypdf."""
from __future__ import annotations

import io
from datetime import date

from pypdf import PdfReader
from sqlalchemy import select

from core.identifiers import format_case_code
from core.services.papers.documents import issue_notification
from core.services.staff.editais import edital_entries, issue_edital
from core.services.staff.accounts import create_user
from core.services.staff.edital_records import record_edital
from core.storage.models import Evidence, Event
from tests.support.inspector import (ANA, NEAR, answer, bind, case_row, document, open_card,
                                     pdf_text, report, send_photo, sweep, tap, task_message, tick)
from tests.support.bot_chat import jpeg, said

MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + bytes(4000)


def text_of(blob: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages).split())


async def affix_notice(bot, core, protocol):
    await open_card(bot, ANA, protocol)
    await tap(bot, ANA, "Afixar notificação", expect="Marque os sinais")
    await tick(bot, ["Há mais de 30 dias", "Faltam pneus", "Sem motor"])
    await tap(bot, ANA, "Continuar", expect="papel afixado")
    await tap(bot, ANA, "Preenchida à mão", expect="número da notificação")
    await answer(bot, ANA, "N-77/2026", "Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    _, pdf = await document(bot, ANA, "notificacao-afixada")
    assert "Art. 4º, II, a" in pdf_text(pdf)
    await said(bot, ANA, "envie aqui a foto da notificação afixada")  # Art. 4º, II, a
    await bot.api.send_video(ANA, MP4)  # the notice must be legible: a photo here
    await said(bot, ANA, "Aqui vale só foto")
    await send_photo(bot, ANA, 7)
    await tap(bot, ANA, "Pronto", expect="Foto da notificação afixada registrada")


async def test_owner_unknown_notice_publication_lapse_removal_edital_art_4_II_art_6_par_1(
        bot, core, photo, clock):
    """Notice affixed (photo) → the staff publish the notification edital in the Diário
    Oficial, whose date starts the 10 days (Art. 4º, II, b) → the sweep finds them lapsed →
    removal filmed → depot entry with the termo (Art. 6º, I, b) → the removal edital
    (Art. 6º, §1º: vehicle data, where it was abandoned, where it went) issued and recorded."""
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo, plate="ABC1D23")
    await task_message(bot, ANA, protocol)
    await affix_notice(bot, core, protocol)
    case = await case_row(core, protocol)
    maria = await create_user(core, "maria", "senha-muito-secreta", "staff")

    assert [e.case_code for e in await edital_entries(core, "notificacao")] == [format_case_code(case.case_code)]
    _, _, blob = await issue_edital(core, "notificacao", maria.actor(), "101/2026",
                                    "Carlos Souza", "Secretário de Administração")
    text = text_of(blob)
    assert "Art. 4º, II, b" in text and format_case_code(case.case_code) in text and "Rua Tiradentes" in text
    await record_edital(core, protocol, "notificacao", date(2026, 12, 1), "DOM nº 100, p. 3",
                        maria)
    case = await case_row(core, protocol)
    assert case.state == "published" and case.deadline_json["due"] == "2026-12-11"
    notice = text_of((await issue_notification(core, protocol, maria.actor()))[2])
    assert "NÃO IDENTIFICADO" in notice and "11/12/2026" in notice

    clock.advance(days=9)  # 10/12: not lapsed yet, the sweep leaves it
    await sweep(bot, core)
    assert (await case_row(core, protocol)).state == "published"
    clock.advance(days=2)  # 12/12: the 10 days from the publication lapsed
    await sweep(bot, core)
    await sweep(bot, core)  # idempotent
    assert (await case_row(core, protocol)).state == "removal_due"
    await task_message(bot, ANA, protocol, heading="Remoção devida")

    await open_card(bot, ANA, protocol)
    await tap(bot, ANA, "Iniciar remoção", expect="Envie fotos ou vídeos")
    await bot.api.send_video(ANA, MP4)
    await said(bot, ANA, "Recebidos: 0 fotos e 1 vídeo")
    await tap(bot, ANA, "Pronto", expect="início da remoção")
    await tap(bot, ANA, "Agora", expect="Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Iniciar a remoção")
    await said(bot, ANA, f"Protocolo {protocol} —")
    await tap(bot, ANA, "Entrada no pátio", expect="número do termo")
    await tap(bot, ANA, f"Usar: {protocol}", expect="itens faltantes")
    await tap(bot, ANA, "Nenhum item faltante", expect="hodômetro")
    await answer(bot, ANA, "98.765 km", "pátio de destino")
    await tap(bot, ANA, "Usar: Pátio municipal", expect="data e hora do recolhimento")
    await tap(bot, ANA, "Pular", expect="Confira antes de registrar")  # Art. 3º: the removal
    await tap(bot, ANA, "Confirmar", expect="Registrado: Registrar entrada no pátio")
    _, termo = await document(bot, ANA, "termo-de-recolhimento")
    assert "vídeo 1" in pdf_text(termo) and "98.765 km" in pdf_text(termo)

    entries = await edital_entries(core, "remocao")
    assert [e.case_code for e in entries] == [format_case_code(case.case_code)]
    assert entries[0].destination.startswith("Pátio municipal")
    sha, name, blob = await issue_edital(core, "remocao", maria.actor(), "102/2026",
                                         "Carlos Souza", "Secretário de Administração")
    text = text_of(blob)
    assert "EDITAL DE REMOÇÃO" in text and "Art. 6º, § 1º" in text
    assert format_case_code(case.case_code) in text and "ABC1D23" in text and "Rua Tiradentes, 120" in text
    assert "Pátio municipal" in text and "12/12/2026" in text  # where it went, and when
    await record_edital(core, protocol, "remocao", date(2026, 12, 12), "DOM nº 105, p. 2", maria)
    assert await edital_entries(core, "remocao") == []  # published once
    async with core.db.read() as s:
        kinds = (await s.execute(select(Evidence.kind, Evidence.mime).where(
            Evidence.case_id == case.id))).all()
        issued = (await s.execute(select(Event.data).where(
            Event.case_id == case.id, Event.action == "document_issued"))).scalars().all()
    assert ("video", "video/mp4") in kinds
    assert [d["document"] for d in issued] == ["notificacao_afixada", "edital_notificacao",
                                               "notificacao", "termo_recolhimento",
                                               "edital_remocao"]
    assert issued[-1]["sha256"] == sha and core.evidence.get(sha) == blob


async def test_removal_video_over_20_mb_refused_in_portuguese_art_6_I_a(bot, core, photo,
                                                                         clock):
    """The Bot API lets a bot download at most 20 MB: a longer video is refused with what to do
    instead, and nothing is stored; a photo still works."""
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    await affix_notice(bot, core, protocol)
    maria = await create_user(core, "maria", "senha-muito-secreta", "staff")
    await record_edital(core, protocol, "notificacao", date(2026, 12, 1), "DOM nº 100", maria)
    clock.advance(days=11)
    await sweep(bot, core)
    await task_message(bot, ANA, protocol, heading="Remoção devida")
    await open_card(bot, ANA, protocol)
    await tap(bot, ANA, "Iniciar remoção", expect="Envie fotos ou vídeos")
    stored = sorted(core.evidence.root.rglob("*"))
    mark = bot.api.mark()
    await bot.api.send_video(ANA, MP4 + bytes(21 * 1024 * 1024))
    refusal = await said(bot, ANA, "grande demais")
    assert "20 MB" in refusal.text and "vídeo mais curto" in refusal.text
    assert not [c for c in bot.api.calls[mark:] if c.method == "getFile"]
    assert sorted(core.evidence.root.rglob("*")) == stored  # nothing downloaded or kept
    await bot.api.send_document(ANA, b"%PDF-1.4", "laudo.pdf", "application/pdf")
    await said(bot, ANA, "não é foto nem vídeo")
    await bot.api.send_photo(ANA, jpeg(3))
    await said(bot, ANA, "Recebidos: 1 foto e 0 vídeos")
