"""An answer is stored only for the question the person was last shown. A message replayed
from earlier in the chat (the same message under a new update id) is taken once: it neither
answers the question asked now nor asks again one already answered; a button of an earlier
question ("Pular" on the plate once the colour is asked) is stale. On SQLite and PostgreSQL."""
from __future__ import annotations

import copy

from sqlalchemy import select

from core.storage.models import ConversationState
from tests.support.bot_chat import (MARIA, pin, press, said, send_photos, start_report,
                                    with_button)


async def _draft(core) -> tuple[str, dict]:
    async with core.db.read() as s:
        row = (await s.execute(select(ConversationState))).scalar_one()
        return row.state, dict(row.draft)


async def _at_plate(bot) -> None:
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA, 1)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await pin(bot, MARIA)
    await said(bot, MARIA, "Qual é a placa")


def _questions(bot) -> list[str]:
    return [m.text or "" for m in bot.api.messages(MARIA)]


async def test_a_replayed_answer_is_not_taken_for_the_next_question(bot, core):
    await _at_plate(bot)
    plate = await bot.api.send_text(MARIA, "ABC1D23")
    await said(bot, MARIA, "Qual é a cor")
    asked = len(_questions(bot))
    replay = copy.deepcopy(plate)
    del replay["update_id"]  # the same message, delivered again under a new update id
    await bot.api.inject(replay)
    await bot.api.send_text(MARIA, "prata")  # the genuine answer to the colour question
    await said(bot, MARIA, "marca e o modelo")
    state, d = await _draft(core)
    assert state == "report:make_model"
    assert d["plate"] == "ABC1D23" and d["colour"] == "prata"  # nothing shifted
    later = _questions(bot)[asked:]
    assert not any("placa" in t or "Qual é a cor" in t for t in later), later  # not re-asked


async def test_a_button_of_an_earlier_question_does_not_answer_the_current_one(bot, core):
    await _at_plate(bot)
    skip_plate = with_button(bot, MARIA, "Pular")  # the plate question's "Pular"
    await bot.api.send_text(MARIA, "ABC1D23")
    await said(bot, MARIA, "Qual é a cor")
    await bot.api.press_button(MARIA, skip_plate, text="Pular")
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert answer.params.get("text")  # told the button is old
    state, d = await _draft(core)
    assert state == "report:colour" and d["plate"] == "ABC1D23" and "colour" not in d
    await press(bot, MARIA, "Pular", expect="marca e o modelo")  # the colour's own "Pular"
    state, d = await _draft(core)
    assert state == "report:make_model" and "colour" not in d and d["plate"] == "ABC1D23"
