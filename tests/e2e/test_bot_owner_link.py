"""The owner reaches their case through the real bot: the QR deep link, /proprietario with
the code and the plate (or the chassis tail, or nothing), wrong answers and the cool-down."""
from __future__ import annotations

from sqlalchemy import select

from core.identifiers import format_case_code
from core.services.owners import WRONG_ANSWER
from core.storage.models import ConversationState, OwnerLink
from tests.support.owner_chat import INTRUDER, JOSE, button_data, button_texts, open_by_qr
from tests.support.bot_chat import press, said
from tests.support.owner_cases import notified, report


async def test_qr_deep_link_opens_the_view_with_the_deadline_art_4_I(bot, core, photo):
    sub = await notified(core, photo)
    view = await open_by_qr(bot, JOSE, sub.case_code)
    # Art. 4º, I: the deadline counted by the core, in full, with the article and what follows
    assert "sexta-feira, 11 de dezembro de 2026" in view.text and "Art. 4º, I" in view.text
    assert "Retire até 11/12/2026" in view.text and "Art. 6º, §4º" in view.text
    assert "Maria Denunciante" not in view.text and "José da Silva" not in view.text
    assert button_texts(view) == ["Já retirei", "Vou retirar", "Resumo em PDF"]
    assert all(len(d.encode()) <= 64 for d in button_data(view))
    async with core.db.read() as s:
        link = (await s.execute(select(OwnerLink))).scalar_one()
    assert link.via == "deep_link"


async def test_unknown_deep_link_payloads(bot, core, photo):
    await bot.api.send_command(JOSE, "start", "x")  # not a case code
    assert "não foi reconhecido" in (await said(bot, JOSE)).text
    await bot.api.send_command(JOSE, "start", "nao-existe1")  # looks like one: the service
    assert (await said(bot, JOSE)).text == WRONG_ANSWER


async def test_code_and_plate_same_message_for_unknown_code_and_wrong_plate_durable(
        bot, core, photo):
    sub = await notified(core, photo)
    await bot.api.send_command(JOSE, "proprietario")
    await said(bot, JOSE, "Envie o código do caso")
    await bot.api.send_text(JOSE, "curto")
    await said(bot, JOSE, "não parece um código")
    await bot.api.send_text(JOSE, sub.case_code)
    await said(bot, JOSE, "Agora envie a placa")
    await bot.api.send_text(JOSE, "XYZ9999")
    wrong_plate = await said(bot, JOSE, "Não conseguimos")
    await bot.api.send_text(JOSE, "nao-existe1")
    await said(bot, JOSE, "Agora envie a placa")
    await bot.api.send_text(JOSE, "ABC1D23")
    unknown = await said(bot, JOSE, "Não conseguimos")
    assert wrong_plate.text == unknown.text and WRONG_ANSWER in unknown.text
    await bot.restart()  # the conversation is in the database: it continues
    await bot.api.send_text(JOSE, sub.case_code)
    await said(bot, JOSE, "Agora envie a placa")
    await bot.restart()
    await bot.api.send_text(JOSE, "abc-1d23")
    view = await said(bot, JOSE, f"Seu caso {format_case_code(sub.case_code)}")
    assert "Retire até 11/12/2026" in view.text
    async with core.db.read() as s:
        assert (await s.execute(select(ConversationState))).first() is None
        assert (await s.execute(select(OwnerLink.via))).scalar_one() == "code_plate"


async def test_chassis_tail_or_nothing_where_there_is_no_plate(bot, core, photo):
    body = await report(core, photo, category="chassis_body", chassis="9BWZZZ377VT004251")
    await bot.api.send_command(JOSE, "proprietario", body.case_code)
    await said(bot, JOSE, "Agora envie a placa")
    await bot.api.send_text(JOSE, "4251")
    await said(bot, JOSE, f"Seu caso {format_case_code(body.case_code)}")
    fridge = await report(core, photo, category="large_furniture")
    await bot.api.send_command(JOSE, "proprietario")
    await said(bot, JOSE, "Envie o código do caso")
    await bot.api.send_text(JOSE, fridge.case_code)
    await said(bot, JOSE, "Agora envie a placa")
    await press(bot, JOSE, "Não tem placa nem chassi", expect=f"Seu caso {format_case_code(fridge.case_code)}")


async def test_five_wrong_answers_cool_down_for_an_hour(bot, core, photo, clock):
    sub = await notified(core, photo)
    for i in range(5):
        await bot.api.send_command(JOSE, "proprietario", [sub.case_code, "XYZ9999"])
        reply = await said(bot, JOSE)
        assert ("Muitas tentativas" in reply.text) == (i == 4)
    await bot.api.send_command(JOSE, "proprietario", [sub.case_code, "ABC1D23"])
    assert "Muitas tentativas" in (await said(bot, JOSE)).text  # even the right answer waits
    await bot.api.send_command(JOSE, "start", sub.case_code)  # and the QR link
    assert "Muitas tentativas" in (await said(bot, JOSE)).text
    await bot.api.send_command(INTRUDER, "start", sub.case_code)  # others are not affected
    await said(bot, INTRUDER, f"Seu caso {format_case_code(sub.case_code)}")
    clock.advance(hours=1, minutes=1)
    await bot.api.send_command(JOSE, "proprietario", [sub.case_code, "ABC1D23"])
    await said(bot, JOSE, f"Seu caso {format_case_code(sub.case_code)}")


async def test_cancel_in_the_owner_conversation_does_not_speak_of_a_report(bot):
    await bot.api.send_command(JOSE, "proprietario")
    await said(bot, JOSE, "Envie o código do caso")
    await bot.api.send_command(JOSE, "cancelar")
    answer = await said(bot, JOSE, "Cancelado")
    assert "Denúncia" not in answer.text
