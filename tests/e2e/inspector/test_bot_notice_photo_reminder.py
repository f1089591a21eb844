"""The photo of the notice affixed, asked again (Dores Art. 4º, II, a), end to end through the
Bot API stand-in: the inspector got the printable notice but left the photo for later; the next
business day the reminder's button asks for it again, and the case card offers it too."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.state import state_of
from core.lifecycle import BUTTON_MAX
from core.services.inspectors.notice_photo import BUTTON, notice_photo_reminders
from tests.support.inspector import (ANA, NEAR, affix_notice_up_to_confirm, bind, open_card, report,
                                     send_photo, tap, task_message)
from tests.support.bot_chat import said

SP = ZoneInfo("America/Sao_Paulo")


async def test_the_reminder_and_the_card_ask_for_the_missing_photo_art_4_II_a(
        bot, core, photo, clock):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    await open_card(bot, ANA, protocol)
    await affix_notice_up_to_confirm(bot, ANA, "N-8/2026")
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    await said(bot, ANA, "envie aqui a foto da notificação afixada")
    # Ana leaves it for later: the card says the photo is missing and offers it
    card = await open_card(bot, ANA, protocol)
    assert "Falta a foto da notificação afixada no objeto (Art. 4º, II, a)" in card.text
    assert BUTTON in [b.text for row in card.buttons for b in row] and len(BUTTON) <= BUTTON_MAX
    clock.now = datetime(2026, 12, 2, 9, tzinfo=SP)  # the next business day
    assert (await notice_photo_reminders(core)).queued
    state_of(bot.app).outbox_wake.set()
    reminder = await said(bot, ANA, f"Lembrete — protocolo {protocol}")
    assert "Art. 4º, II, a" in reminder.text
    await tap(bot, ANA, BUTTON, expect="envie aqui a foto da notificação afixada")
    await send_photo(bot, ANA, 9)
    await tap(bot, ANA, "Pronto", expect="Foto da notificação afixada registrada")
    card = await said(bot, ANA, f"Protocolo {protocol} —")
    assert "Falta a foto" not in card.text
    assert BUTTON not in [b.text for row in card.buttons for b in row]
    # the reminder's button, pressed again, says there is nothing left to send
    await tap(bot, ANA, BUTTON, expect="Não há foto pendente")
    clock.now = datetime(2026, 12, 3, 9, tzinfo=SP)
    assert (await notice_photo_reminders(core)).queued == []
