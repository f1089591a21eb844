"""The affixed notice in the street (Dores Art. 4º, II, a: "Afixada uma notificação ... no
vidro ou lataria do veículo"), end to end through the Bot API stand-in and the panel: a fiscal
in the street has no printer, so he prints the day's notices before going out (/notificacoes,
or the panel's button) and the affixing step records that very document — the same number and
SHA-256 — or he fills a blank form by hand and the system's copy carries the number written on
it. No message asks to print after the fact."""
from __future__ import annotations

import hashlib
import html
import io

from pypdf import PdfReader
from sqlalchemy import select

from core.services.inspectors.day_notices import PREPARED_EVENT, prepare_day_notices
from core.services.inspectors.accounts import actor_ref
from core.storage.models import Case, Event, Inspector
from tests.support.panel import Panel, post_form
from tests.support.inspector import (ANA, NEAR, answer, bind, open_card, report, send_photo, tap,
                                     task_message)
from tests.support.bot_chat import said


def _text(blob: bytes, pages: slice = slice(None)) -> str:
    reader = PdfReader(io.BytesIO(blob))
    return " ".join(" ".join((p.extract_text() or "") for p in reader.pages[pages]).split())


def _sent_texts(bot, since: int) -> list[str]:
    return [c.params.get("text") or c.params.get("caption") or "" for c in bot.api.calls[since:]
            if c.method in ("sendMessage", "sendDocument")
            and str(c.params.get("chat_id")) == str(ANA.id)]


async def _prepared(core, protocol: str) -> list[dict]:
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        return [ev.data for ev in (await s.execute(select(Event).where(
            Event.case_id == case.id, Event.action == PREPARED_EVENT))).scalars()]


async def _issued(core, protocol: str) -> list[dict]:
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        return [ev.data for ev in (await s.execute(select(Event).where(
            Event.case_id == case.id, Event.action == "document_issued"))).scalars()]


async def _affix(bot, protocol: str, paper: str) -> None:
    await open_card(bot, ANA, protocol)
    await tap(bot, ANA, "Afixar notificação", expect="Marque os sinais")
    for label in ("Há mais de 30 dias", "Faltam pneus", "Sem motor"):
        await tap(bot, ANA, label)
    await tap(bot, ANA, "Continuar", expect="papel afixado no objeto")
    await tap(bot, ANA, paper)


async def test_the_days_notices_are_printed_before_and_the_step_records_the_same_art_4_II_a(
        bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    first, second = await report(core, photo), await report(core, photo, plate="ABC1D23")
    for protocol in (first, second):
        await task_message(bot, ANA, protocol)
    # In the morning, at the office: one PDF, a cover then one notice per case
    start = len(bot.api.calls)
    await bot.api.send_command(ANA, "notificacoes")
    listing = await said(bot, ANA, "Notificações do dia 01/12/2026: 2")
    assert f"Nº {first}" in listing.text and f"Nº {second}" in listing.text
    doc = await bot.api.wait_for(method="sendDocument", chat_id=ANA, since=start)
    bundle = next(iter(doc.files.values())).data
    assert len(PdfReader(io.BytesIO(bundle)).pages) == 3
    cover = _text(bundle, slice(0, 1))
    assert "NOTIFICAÇÕES A AFIXAR — 01/12/2026" in cover and "Ana Fiscal" in cover
    page = _text(bundle, slice(1, 2))
    assert f"Nº {first}" in page and "t.me/ViaLivreDoresBot?start=" in page.replace(" ", "")
    assert "às ____:____" in page  # the hour of affixing is written by hand
    prepared = (await _prepared(core, first))[0]
    assert prepared["number"] == first and prepared["sha256"] in cover
    # Asked again the same day: the same documents (whichever copy is affixed, it is recorded)
    await bot.api.send_command(ANA, "notificacoes")
    await said(bot, ANA, "Notificações do dia 01/12/2026: 2", since=start + 3)
    assert len(await _prepared(core, first)) == 1

    # In the street: the printed notice is affixed; its number is not asked again
    await _affix(bot, first, "Impressa do dia")
    summary = await said(bot, ANA, "Confira antes de registrar")
    assert "número da notificação" not in summary.text
    assert "papel afixado no objeto: Impressa do dia" in summary.text
    step_from = len(bot.api.calls)
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    copy = await bot.api.wait_for(method="sendDocument", chat_id=ANA, since=step_from)
    blob = next(iter(copy.files.values())).data
    assert hashlib.sha256(blob).hexdigest() == prepared["sha256"]  # the very paper affixed
    assert _text(blob) == page
    issued = (await _issued(core, first))[-1]
    assert issued["sha256"] == prepared["sha256"]
    await said(bot, ANA, "envie aqui a foto da notificação afixada")
    assert not any("Imprima" in t for t in _sent_texts(bot, step_from))  # never after the fact
    await send_photo(bot, ANA, 3)
    await tap(bot, ANA, "Pronto", expect="Foto da notificação afixada registrada")
    await said(bot, ANA, f"Protocolo {first}")
    again_from = len(bot.api.calls)
    await tap(bot, ANA, "📄 Notificação afixada")
    again = await bot.api.wait_for(method="sendDocument", chat_id=ANA, since=again_from)
    assert next(iter(again.files.values())).data == blob  # "Emitir de novo": the same bytes

    # The other case: a blank form filled by hand, its number typed; the system's copy says so
    await _affix(bot, second, "Preenchida à mão")
    await said(bot, ANA, "número da notificação (o escrito no formulário")
    await answer(bot, ANA, "N-5/2026", "Confira antes de registrar")
    step_from = len(bot.api.calls)
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    copy = await bot.api.wait_for(method="sendDocument", chat_id=ANA, since=step_from)
    text = _text(next(iter(copy.files.values())).data)
    assert "Nº N-5/2026" in text and "preenchida à mão" in text and "____" not in text
    async with core.db.read() as s:
        facts = {c.protocol: c.details["facts"] for c in (await s.execute(select(Case))).scalars()}
    assert facts[first]["notification_number"] == first
    assert facts[first]["notice_paper"] == "prepared"
    assert facts[second]["notification_number"] == "N-5/2026"


async def test_a_notice_printed_another_day_is_not_offered_art_4_II_a(bot, core, photo, clock):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    async with core.db.read() as s:
        ana = (await s.execute(select(Inspector))).scalar_one()
    day = await prepare_day_notices(core, ana.id, actor_ref(ana))
    assert [n.protocol for n in day.notices] == [protocol]
    clock.advance(days=1)  # printed yesterday: its date is yesterday's
    await _affix(bot, protocol, "Preenchida à mão")
    asked = [c for c in bot.api.calls if c.method == "sendMessage"
             and "papel afixado no objeto" in (c.params.get("text") or "")][-1]
    assert "nenhuma notificação deste caso foi impressa hoje" in asked.params["text"]
    assert "Impressa do dia" not in str(asked.params.get("reply_markup"))


async def test_nothing_to_affix_is_said_plainly(bot, core):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    await bot.api.send_command(ANA, "notificacoes")
    await said(bot, ANA, "Nenhuma notificação a afixar hoje")


async def test_the_panel_prints_an_inspectors_notices_of_the_day(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    from core.services.staff.accounts import create_user
    from tests.support.panel import PASSWORD
    await create_user(core, "ana", PASSWORD, "admin")
    await create_user(core, "bruno", PASSWORD, "staff")
    panel = Panel(core)
    async with core.db.read() as s:
        ana = (await s.execute(select(Inspector))).scalar_one()
    async with panel.client("ana") as c:
        page = html.unescape(await (await c.get("/fiscais")).text())
        assert "Notificações do dia" in page and f"/fiscais/{ana.id}/notificacoes-do-dia" in page
        r = await post_form(c, "/fiscais", f"/fiscais/{ana.id}/notificacoes-do-dia", {})
        assert r.status == 200 and r.content_type == "application/pdf"
        blob = await r.read()
    assert f"Nº {protocol}" in _text(blob)
    # the same document the inspector gets in the chat (the same day, the same notices)
    assert (await _prepared(core, protocol))[0]["sha256"] in _text(blob, slice(0, 1))
    async with panel.client("bruno") as c:  # a staff member prints them too
        r = await post_form(c, "/", f"/fiscais/{ana.id}/notificacoes-do-dia", {})
        assert r.status == 200
    assert len(await _prepared(core, protocol)) == 1
