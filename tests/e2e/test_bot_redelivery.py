"""A redelivered update re-asks, never re-does (bot/redelivery.py): in
webhook mode Telegram delivers an update again when its webhook call was not answered (a
worker killed after the step committed, before its reply went out). The bot, through the
Bot API stand-in injecting the same update_id twice, asks the pending question again and
changes nothing; a redelivered button press only has its spinner stopped."""
from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from sandbox.harness import BotHarness
from core.storage.models import Case, ConversationState, Evidence
from tests.support.inspector import ANA, bind
from tests.support.bot_chat import (MARIA, jpeg, pin, press, said, send_photos, start_report,
                                    vehicle_questions, with_button)

SECRET = "segredo_do-webhook_123"


@pytest.fixture
async def hooked(core):
    async with BotHarness(core, webhook_secret=SECRET) as h:
        yield h


async def _stored(core) -> tuple[str, dict, int, int]:
    async with core.db.read() as s:
        row = (await s.execute(select(ConversationState))).scalar_one_or_none()
        cases = (await s.execute(select(func.count()).select_from(Case))).scalar_one()
        evidence = (await s.execute(select(func.count()).select_from(Evidence))).scalar_one()
    return (row.state if row else "idle", dict(row.draft) if row else {}, cases, evidence)


async def test_a_redelivered_message_mid_report_asks_the_question_again_and_changes_nothing(
        hooked, core):
    await start_report(hooked, MARIA)
    photo = await hooked.api.send_photo(MARIA, jpeg(0))
    await said(hooked, MARIA, "1 foto recebida")
    before = await _stored(core)
    assert before[0] == "report:photos" and len(before[1]["photos"]) == 1

    await hooked.api.inject(photo)  # the same update_id again
    assert hooked.api.webhook_deliveries[-1].update_id == photo["update_id"]
    assert hooked.api.webhook_deliveries[-1].status == 200
    again = await said(hooked, MARIA, "Continuando sua denúncia")
    assert "Envie de 1 a 10 fotos" in again.text and "Já recebi 1 foto." in again.text
    await asyncio.sleep(0.3)  # room for a (wrong) second handling to show
    assert [c.text for c in hooked.api.sent(MARIA, "sendMessage")
            if "2 fotos recebidas" in (c.text or "")] == []
    assert await _stored(core) == before  # same state, same draft, no new evidence

    # the conversation goes on from where it was
    await send_photos(hooked, MARIA, 1, start=1)
    assert len((await _stored(core))[1]["photos"]) == 2


async def test_a_redelivered_message_outside_a_conversation_says_nothing(hooked, core):
    start = await hooked.api.send_command(MARIA, "ajuda")
    await said(hooked, MARIA, "Como denunciar")
    n = len(hooked.api.sent(MARIA))
    await hooked.api.inject(start)
    assert hooked.api.webhook_deliveries[-1].status == 200
    await asyncio.sleep(0.3)
    assert hooked.api.sent(MARIA, ok=None)[n:] == []


async def test_a_redelivered_button_press_only_stops_the_spinner(hooked, core):
    await start_report(hooked, MARIA)
    await send_photos(hooked, MARIA, 1)
    await press(hooked, MARIA, "Pronto", expect="Onde fica")
    await pin(hooked, MARIA)
    await said(hooked, MARIA, "Qual é a placa")
    await vehicle_questions(hooked, MARIA)
    await hooked.api.send_text(MARIA, "Em frente à padaria")
    await said(hooked, MARIA, "Confira sua denúncia")
    confirm = await hooked.api.press_button(MARIA, with_button(hooked, MARIA, "Confirmar"),
                                            text="Confirmar")
    await said(hooked, MARIA, "Protocolo:")
    before = await _stored(core)
    assert before[0] == "idle" and before[2] == 1
    n = len(hooked.api.sent(ok=None))

    await hooked.api.inject(confirm)  # the same update_id (and callback query) again
    assert hooked.api.webhook_deliveries[-1].status == 200
    await asyncio.sleep(0.3)
    after = hooked.api.sent(ok=None)[n:]
    assert [c.method for c in after] == ["answerCallbackQuery"]  # nothing else at all
    assert after[0].params["callback_query_id"] == confirm["callback_query"]["id"]
    assert not after[0].params.get("text")  # no text: only the spinner stops
    assert await _stored(core) == before  # no second case, nothing changed


async def test_a_redelivered_owner_command_asks_for_the_code_again(hooked, core):
    """The owner's flow registers its own resume hook (bot/owner/resume.py)."""
    asked = await hooked.api.send_command(MARIA, "proprietario")
    first = await said(hooked, MARIA, "código")
    before = await _stored(core)
    assert before[0] == "owner:code"
    await hooked.api.inject(asked)
    again = await said(hooked, MARIA, "código")
    assert again.text == first.text
    assert await _stored(core) == before


async def test_a_redelivered_tarefas_asks_for_the_location_again(hooked, core):
    """The inspector's flow registers its own resume hook (bot/inspector/resume.py)."""
    await bind(hooked, ANA, "Ana Fiscal", "posturas")
    tarefas = await hooked.api.send_command(ANA, "tarefas")
    first = await said(hooked, ANA, "localização")
    before = await _stored(core)
    assert before[0] == "insp:tasks"
    n = len(hooked.api.sent(ANA))
    await hooked.api.inject(tarefas)
    again = await said(hooked, ANA, "localização")
    assert again.text == first.text and again.params["reply_markup"]
    await asyncio.sleep(0.3)
    assert len(hooked.api.sent(ANA)) == n + 1  # the question only, not the list again
    assert await _stored(core) == before
