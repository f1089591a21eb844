"""/meusdados (LGPD, Lei 13.709/2018, art. 18): every personal datum kept about this Telegram
account, and a button to ask for the deletion of what the law does not oblige the city to keep
(shown first, then confirmed). The rules and the record of each request and its answer are
core.services.citizens.my_data."""
from __future__ import annotations

from bot import buttons
from bot.citizen.info import resume
from bot.router import Turn, inline
from bot.texts import STALE_BUTTON
from core.services.citizens import my_data
from core.services.messaging.conversation import Conversation


async def show(turn: Turn) -> None:
    messages = await my_data.my_data(turn.core, turn.user_id)
    for i, text in enumerate(messages):
        last = i == len(messages) - 1
        ask = inline([[(my_data.ASK_DELETION, buttons.my_data("ask"))]])
        await turn.reply(text, ask if last else None)
    await resume(turn)


async def on_button(turn: Turn) -> None:
    """"lgpd:ask" shows what would go and what stays; "lgpd:yes" deletes; "lgpd:no" not."""
    parts = turn.data
    action = parts[1] if len(parts) == 2 else ""
    if action == "ask":
        await turn.answer()
        text = await my_data.preview_deletion(turn.core, turn.user_id)
        await turn.reply(text + "\n\n" + my_data.CONFIRM_DELETION,
                         inline([[(my_data.CONFIRM, buttons.my_data("yes")),
                                   (my_data.KEEP, buttons.my_data("no"))]]))
    elif action == "yes":
        await turn.answer("Pedido registrado.")
        answer = await my_data.delete_my_data(turn.core, turn.user_id)
        turn.conv, turn.committed_conv = Conversation(turn.user_id), None  # draft deleted too
        await turn.mark()
        for i, text in enumerate(answer):
            if i == 0:
                await turn.edit(text)
            else:
                await turn.reply(text)
    elif action == "no":
        await turn.answer()
        await turn.edit(my_data.KEPT)
    else:
        await turn.answer(STALE_BUTTON)
