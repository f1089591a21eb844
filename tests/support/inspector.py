"""Helpers for the inspector's end-to-end tests: the real bot over the stand-in Bot API (the
`bot` fixture of tests.support.bot_chat), inspectors invited through the core and bound with
/fiscal, reports submitted through the core. tests/e2e/inspector/conftest.py gives those tests
a Core that knows the bot's username (BOT_NAME), so documents carry the owner's link."""
from __future__ import annotations

import io

from pypdf import PdfReader
from sqlalchemy import select

from bot.state import state_of
from sandbox.harness import BotHarness
from sandbox.standin.botapi import Call, User
from core.services.cases.sweep import sweep_deadlines
from core.services.citizens.reports import ReportIn, submit_report
from core.services.inspectors.accounts import invite_inspector, update_location
from core.services.inspectors.warnings import inspector_warnings
from core.storage.models import Case
from tests.support.bot_chat import jpeg, press, said

BOT_NAME = "ViaLivreDoresBot"
ANA = User(901, "Ana")  # fiscal de posturas
BETO = User(902, "Beto")  # trânsito
CARLA = User(903, "Carla")  # Secretaria de Saúde
INTRUDER = User(888, "Intruso")
DORES = (-19.4628, -45.6003)
NEAR = (-19.4630, -45.6005)
FAR = (-19.4800, -45.6200)
DRACENA = (-21.4843, -51.5353)
REPORTER = 555


async def bind(h: BotHarness, user: User, name: str, agency: str, where=None) -> Call:
    code = await invite_inspector(h.core, name, agency, "staff")
    h.api.add_user(user)
    await h.api.send_command(user, "fiscal", code)
    call = await said(h, user, "Conta vinculada")
    if where:
        await update_location(h.core, user.id, *where)
    return call


async def report(core, photo, category="motor_vehicle", where=DORES, **kw) -> str:
    r = ReportIn(category=category, lat=where[0], lon=where[1], photos=[photo(1)],
                 address="Rua Tiradentes, 120, Centro", **kw)
    return (await submit_report(core, REPORTER, r, display_name="Maria")).protocol


async def task_message(h: BotHarness, user: User, protocol: str, heading="Nova tarefa") -> Call:
    return await h.api.wait_for(method="sendMessage", chat_id=user,
                                text=f"{heading} — protocolo {protocol}", since=0)


tap = press  # the inspector tests' name: press the newest button, wait for `expect`


async def answer(h: BotHarness, user: User, text: str, expect: str) -> Call:
    await h.api.send_text(user, text)
    return await said(h, user, expect)


async def send_photo(h: BotHarness, user: User, i: int = 0) -> None:
    await h.api.send_photo(user, jpeg(i))
    await said(h, user, "foto")


async def open_card(h: BotHarness, user: User, protocol: str) -> Call:
    await h.api.send_command(user, "tarefas")
    await said(h, user, protocol)
    return await tap(h, user, f"Abrir {protocol}", expect=f"Protocolo {protocol}")


async def document(h: BotHarness, user: User, name: str) -> tuple[Call, PdfReader]:
    call = await h.api.wait_for(method="sendDocument", chat_id=user,
                                predicate=lambda c: name in (c.params.get("caption") or ""))
    data = next(f.data for f in call.files.values())
    return call, PdfReader(io.BytesIO(data))


def pdf_text(reader: PdfReader) -> str:
    return "\n".join(p.extract_text() or "" for p in reader.pages)


async def affix_notice_up_to_confirm(h: BotHarness, user: User, number: str) -> None:
    """The "Afixar notificação" step walked to its confirmation (Dores Art. 4º, II, a): three
    signs of abandonment, a blank form filled by hand, the number written on it; the caller
    presses "Confirmar"."""
    await tap(h, user, "Afixar notificação", expect="Marque os sinais")
    for label in ("Há mais de 30 dias", "Faltam pneus", "Sem motor"):
        await tap(h, user, label)
    await tap(h, user, "Continuar", expect="papel afixado no objeto")
    await tap(h, user, "Preenchida à mão", expect="número da notificação")
    await answer(h, user, number, "Confira antes de registrar")


async def case_row(core, protocol) -> Case:
    async with core.db.read() as s:
        return (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()


async def tick(bot, labels):
    for label in labels:
        await tap(bot, ANA, label)


async def sweep(bot, core):
    """One pass of the sweep loop's work: lapses, then the inspectors' warnings."""
    await sweep_deadlines(core)
    await inspector_warnings(core)
    state_of(bot.app).outbox_wake.set()


async def remove_and_termo(bot, core, protocol):
    await tap(bot, ANA, "Iniciar remoção", expect="fotos ou vídeo")
    await send_photo(bot, ANA, 3)
    await tap(bot, ANA, "Pronto", expect="início da remoção")
    await tap(bot, ANA, "Agora", expect="Confira antes de registrar")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Iniciar a remoção")
    await said(bot, ANA, f"Protocolo {protocol} —")  # the card again, next step offered
    await tap(bot, ANA, "Entrada no pátio", expect="número do termo")
    await tap(bot, ANA, f"Usar: {protocol}", expect="itens faltantes")
    await tick(bot, ["PNEUS/RODAS", "BANCOS"])
    await tap(bot, ANA, "Continuar", expect="hodômetro")
    await tap(bot, ANA, "Sem hodômetro", expect="pátio de destino")
    await tap(bot, ANA, "Usar: Pátio municipal", expect="data e hora do recolhimento")
    await tap(bot, ANA, "Pular", expect="Confira antes de registrar")  # Art. 3º: the removal
    await tap(bot, ANA, "Confirmar", expect="Registrado: Registrar entrada no pátio")
    _, termo = await document(bot, ANA, "termo-de-recolhimento")
    assert len(termo.pages) == 3  # Art. 6º, I, b: three copies
    text = pdf_text(termo)
    assert "PNEUS" in text and "sem hodômetro" in text.lower()
    assert (await case_row(core, protocol)).state == "in_depot"
