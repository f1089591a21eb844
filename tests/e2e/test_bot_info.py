"""Greeting, privacy notice, /status, /minhas, notifications and the outbox, end to end."""
from __future__ import annotations

import asyncio

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.storage.models import OutboxMessage, Subscription
from core.storage.timeline import ActorRef
from tests.support.bot_chat import JOAO, MARIA, full_report, press, said

STAFF = ActorRef("staff", None, "Servidora")


async def test_start_greets_and_menu_is_portuguese(bot):
    await bot.api.send_command(MARIA, "start")
    hello = await said(bot, MARIA, "Olá, Maria!")
    assert "Dores do Indaiá" in hello.text and "/denunciar" in hello.text
    menu = {c["command"]: c["description"] for c in bot.api.my_commands()}
    assert menu["denunciar"] == "Fazer uma denúncia (fotos e local)"
    assert {"minhas", "status", "privacidade", "ajuda", "cancelar"} <= set(menu)


async def test_start_with_unknown_deep_link_is_answered_politely(bot):
    await bot.api.send_command(MARIA, "start", "own_XYZ123")
    await said(bot, MARIA, "Este link não foi reconhecido")


async def test_privacy_notice_lgpd_art_7_iii_and_23(bot, core):
    await bot.api.send_command(MARIA, "privacidade")
    text = (await said(bot, MARIA, "LGPD")).text
    assert "art. 7º, III, e art. 23" in text
    assert "Lei 13.460/2017, art. 10, §7º" in text
    assert core.settings.dpo_contact in text
    assert str(core.settings.evidence_retention_days) in text


async def test_status_shows_public_steps_and_next_step(bot):
    protocol = await full_report(bot, MARIA)
    await bot.api.send_command(JOAO, "status", protocol)
    text = (await said(bot, JOAO, f"Protocolo {protocol}")).text
    # plain words from the law (Law.state_texts), not the state's name
    assert "O veículo continua na rua, no local denunciado." in text
    assert "Denúncia recebida" not in text and "Situação:" not in text
    assert "01/12/2026 — Denúncia registrada" in text and "Próximo passo" in text
    assert "Maria" not in text  # the reporter is restricted (Lei 13.460/2017, art. 10, §7º)
    await bot.api.send_command(JOAO, "status", "2026-999999")
    await said(bot, JOAO)
    await bot.api.send_command(JOAO, "status", "abc")
    await said(bot, JOAO, "/status 2026-000123")


async def test_minhas_lists_cases_and_toggles_notifications(bot, core):
    protocol = await full_report(bot, MARIA)
    await bot.api.send_command(MARIA, "minhas")
    await said(bot, MARIA, f"Protocolo {protocol}")
    await press(bot, MARIA, "Parar avisos")
    assert not await _notify(core)
    edited = await bot.api.wait_for(method="editMessageText")
    assert "Avisos: desligados" in edited.text
    await press(bot, MARIA, "Retomar avisos")
    await bot.api.wait_for(method="editMessageText")
    assert await _notify(core)


async def test_case_update_is_delivered_from_the_outbox_after_a_429(bot, core):
    protocol = await full_report(bot, MARIA)
    bot.api.fail_next("sendMessage", 429, retry_after=1)
    mark = bot.api.mark()
    await apply_transition(core, protocol, "open_diligence", STAFF, {})
    update = await bot.api.wait_for(method="sendMessage", chat_id=MARIA,
                                    text=f"Atualização do protocolo {protocol}", since=mark,
                                    timeout=6)
    refused = [c for c in bot.api.sent(MARIA, ok=False) if c.error_code == 429]
    assert refused and update.time - refused[0].time >= 0.9  # retry_after honoured
    await _until_status(core, "sent")
    # the update's own button turns the case's notifications off
    await press(bot, MARIA, "Parar avisos deste caso")
    assert not await _notify(core)
    mark = bot.api.mark()
    await apply_transition(core, protocol, "close_unfounded", STAFF,
                           {"reason": "não encontrado", "public_reason": "não encontrado"})
    await asyncio.sleep(0.5)
    assert not [c for c in bot.api.sent(MARIA, "sendMessage")[mark:] if "Atualização" in c.text]


async def test_blocked_user_fails_permanently(bot, core):
    protocol = await full_report(bot, MARIA)
    bot.api.block(MARIA)
    await apply_transition(core, protocol, "open_diligence", STAFF, {})
    msg = await _until_status(core, "failed")
    assert msg.attempts == 1 and "403" in msg.last_error


async def _notify(core) -> bool:
    async with core.db.read() as s:
        return (await s.execute(select(Subscription.notify))).scalar_one()


async def _until_status(core, status: str, timeout: float = 5.0) -> OutboxMessage:
    for _ in range(int(timeout / 0.05)):
        async with core.db.read() as s:
            rows = (await s.execute(select(OutboxMessage).where(
                OutboxMessage.kind == "case_update"))).scalars().all()
        if rows and all(r.status == status for r in rows):
            return rows[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"outbox never reached {status}: {[(r.status, r.last_error) for r in rows]}")
