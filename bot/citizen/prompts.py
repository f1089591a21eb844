"""The report conversation's questions as Telegram shows them: the core decides each state's
question (core.services.citizens.conversation.prompts); here it becomes a message with an
inline keyboard or the location button (`render`). Also `go` (store the next state, then ask
its question) and the cases nearby, each with its photo."""
from __future__ import annotations

from typing import Any

from telegram import InputFile

from bot import buttons
from bot.router import Turn, inline, location_keyboard
from core.services.cases.evidence import public_photo
from core.services.citizens.conversation import steps, words
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.location import settle
from core.services.citizens.conversation.prompts import (DUPLICATES_INTRO, Prompt,
                                                         candidate_caption, category,
                                                         city_core, duplicates, question,
                                                         signs)
from core.services.citizens.conversation.states import DUPLICATES
from core.services.context import Core

__all__ = ["city_core"]  # the draft's city, for the modules beside this one


def button(draft: dict, action: str, value: object | None = None) -> str:
    """A button of the question shown now: it carries the draft and the question's number
    (core.services.citizens.conversation.steps), so a button of an earlier question is stale."""
    return buttons.report(steps.key(draft), action, value)


def render(d: dict, prompt: Prompt) -> tuple[str, Any]:
    """A question of the conversation (core) as Telegram shows it: its choices as an inline
    keyboard (each button carrying the draft and the question's number), or the location
    button."""
    if prompt.location:
        return prompt.text, location_keyboard()
    if not prompt.rows:
        return prompt.text, None
    return prompt.text, inline([[(c.label, button(d, c.action, c.value)) for c in row]
                                for row in prompt.rows])


def here(turn: Turn, d: dict | None = None) -> Core:
    """The Core of the city this report is in: its law, categories and questions."""
    return city_core(turn.core, turn.conv.draft if d is None else d)


async def ask(turn: Turn, state: str, before: str = "") -> None:
    """Send the question of `state` (also used to repeat it after bad input), with `before`
    (e.g. the acknowledgement of the previous answer) at the top."""
    d = turn.conv.draft
    if state == DUPLICATES:
        await show_candidates(turn, before)
        return
    await turn.reply(*render(d, question(turn.core, d, state).before(before)))


def category_prompt(core: Core, d: dict, text: str = words.ASK_CATEGORY):
    """The category question: the city's law's categories as buttons."""
    return render(d, category(core, d, text))


def signs_keyboard(turn: Turn):
    return render(turn.conv.draft, signs(turn.core, turn.conv.draft))[1]


async def store(turn: Turn, state: str, draft: dict) -> None:
    """Store `draft` in `state` (durable from here on), with the number of the question it
    is at and the person's message taken (steps.advance)."""
    order = turn.message.message_id if turn.message is not None else None
    await turn.save(state, steps.advance(draft, turn.conv.state, state, order))


async def go(turn: Turn, state: str, draft: dict) -> None:
    """Store `draft` in `state` (durable from here on), then ask its question."""
    await store(turn, state, draft)
    await ask(turn, state)


async def show(turn: Turn, outcome: Taken | Refused) -> None:
    """What the conversation understood (Taken: stored with its next state, then that state's
    question, or the wording `outcome.prompt` gives it now, under `outcome.said`), or why not
    (Refused: its text or prompt, then the question asked again where it says so)."""
    if isinstance(outcome, Taken):
        outcome = await settle(turn.core, outcome)  # the location known: what follows it
        await store(turn, outcome.state, outcome.draft)
        if outcome.prompt is not None:
            await turn.reply(*render(turn.conv.draft, outcome.prompt.before(outcome.said)))
        else:
            await ask(turn, outcome.state, outcome.said)
        return
    if outcome.prompt is not None:
        await turn.reply(*render(turn.conv.draft, outcome.prompt))
    else:
        await turn.reply(outcome.text)
    if outcome.again:
        await ask(turn, turn.conv.state)


async def show_candidates(turn: Turn, before: str = "") -> None:
    d = turn.conv.draft
    await turn.reply(before + DUPLICATES_INTRO)
    for c in d["candidates"]:
        caption = candidate_caption(c)[:1024]
        data = await public_photo(here(turn), c["photo"]) if c.get("photo") else None
        if data is not None:  # another citizen's photo: the copy without EXIF/GPS
            await turn.bot.send_photo(turn.chat_id, InputFile(data, filename="caso.jpg"),
                                      caption=caption)
        else:
            await turn.reply(caption)
    await turn.reply(*render(d, duplicates(d)))
