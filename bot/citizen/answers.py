"""The questions after the location, as Telegram takes them: plate, colour, make/model, time
in place, the abandonment signs and the description (typed, skipped or chosen with a button).
What each answer means is the core's (core.services.citizens.conversation.answers); here it is
read from the update and the outcome shown."""
from __future__ import annotations

from bot.citizen.prompts import show, signs_keyboard, store
from bot.router import Turn
from bot.texts import STALE_BUTTON
from core.services.citizens.conversation import answers
from core.services.citizens.conversation.states import SIGNS


async def on_text(turn: Turn) -> None:
    """A text typed for the plate, colour, make/model, time in place or description."""
    await show(turn, answers.typed(turn.core, turn.conv.draft, turn.conv.state, turn.text))


async def on_skip(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    await show(turn, answers.skipped(turn.core, d, turn.conv.state))


async def on_time(turn: Turn, d: dict, arg: str) -> None:
    taken = answers.time_chosen(turn.core, d, arg)
    if taken is None:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    await show(turn, taken)


async def on_sign(turn: Turn, d: dict, code: str) -> None:
    toggled = answers.sign_toggled(turn.core, d, code)
    if toggled is None:
        await turn.answer(STALE_BUTTON)
        return
    d, marked = toggled
    await store(turn, SIGNS, d)
    await turn.answer("Marcado." if marked else "Desmarcado.")
    await turn.query.edit_message_reply_markup(signs_keyboard(turn))


async def on_signs_done(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    await show(turn, answers.signs_done(turn.core, d))


