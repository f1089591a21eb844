"""/denunciar: the report conversation (the table in
core/services/citizens/conversation/states.py): its entry, the dispatch of messages and
buttons, the category, the confirmation and "Corrigir". The prompts, photos, location and the
later questions live in the modules beside it.

Every handler follows one pattern: read the input, refuse it clearly (nothing written, the
question asked again) or store it with the next state in one transaction, then answer.
Buttons carry "rep:<draft id>.<question number>:<action>[:<arg>]"; one from another draft or
an earlier question is stale and gets a polite answer, and a message replayed from earlier in
the chat is taken once (core.services.citizens.conversation.steps)."""
from __future__ import annotations

import logging
import secrets

from telegram import ReplyKeyboardRemove

from core.services.citizens.conversation import guide as texts
from bot.citizen.answers import on_sign, on_signs_done, on_skip, on_text, on_time
from bot.citizen.location import on_address, on_duplicate, on_location
from bot.citizen.photos import evidence, on_photo
from bot.citizen.prompts import ask, go, here, render, show
from bot.router import Turn
from bot.texts import STALE_BUTTON
from core.services.citizens.conversation import receipt, report as conversation, steps, words
from core.services.citizens.conversation.answers import Refused
from core.services.citizens.conversation.states import (CATEGORY, COLOUR, DESCRIPTION, IDLE,
                                                        LOCATION, MAKE_MODEL, PHOTOS, PLATE,
                                                        PREFIX, TIME_THERE, button_allowed)
from core.services.citizens.reports import submit_report

log = logging.getLogger(__name__)


# ----------------------------------------------------------------------------- entry

async def start_report(turn: Turn) -> None:
    if turn.conv.state != IDLE and turn.conv.state.startswith(PREFIX):
        await ask(turn, turn.conv.state, texts.RESUMING)
        return
    # several cities: the location first, it decides the city and so the categories
    await go(turn, LOCATION if turn.core.many_cities else CATEGORY, _new_draft())


def _new_draft() -> dict:
    return {"id": secrets.token_hex(3), "photos": []}


def starts_report(msg) -> bool:
    """A photo, an image file or a pin sent outside any conversation starts a report."""
    return bool(msg is not None and (msg.photo or msg.document is not None
                                     or msg.location is not None or msg.venue is not None))


async def start_with(turn: Turn) -> None:
    """A photo or a pin sent before /denunciar: the report starts with it (the first photo,
    or the location), and the category is asked next (after a photo, with several cities
    served, the location first)."""
    msg = turn.message
    if msg.location is not None or msg.venue is not None:
        await on_location(turn, _new_draft())
    else:
        await on_photo(turn, _new_draft())


# ----------------------------------------------------------------------------- messages

async def on_message(turn: Turn) -> None:
    state, msg = turn.conv.state, turn.message
    if msg is None:
        return
    if steps.replayed(turn.conv.draft, msg.message_id):  # taken before: nothing to do again
        log.info("update %s replays message %s, already taken", turn.update_id, msg.message_id)
        await turn.mark()
        return
    handler = {PHOTOS: on_photo, LOCATION: on_location,
               PLATE: on_text, COLOUR: on_text, MAKE_MODEL: on_text,
               TIME_THERE: on_text, DESCRIPTION: on_text}.get(state)
    if state == CATEGORY and starts_report(msg):  # more photos, or the pin, before the type
        handler = on_location if msg.location is not None or msg.venue is not None else on_photo
    if (state == LOCATION and "category" not in turn.conv.draft
            and (msg.photo or msg.document is not None)):  # several cities: before the pin
        handler = on_photo
    if handler is not None:
        await handler(turn)
        return
    await ask(turn, state, words.NEED_BUTTON + "\n\n")


# ----------------------------------------------------------------------------- buttons

async def on_button(turn: Turn) -> None:
    """"rep:<draft>.<question>:<action>[:<arg>]"."""
    parts, state, d = turn.data, turn.conv.state, dict(turn.conv.draft)
    if len(parts) < 3 or not steps.current(d, parts[1]) or not button_allowed(state, parts[2]):
        await turn.answer(STALE_BUTTON)
        return
    action, arg = parts[2], ":".join(parts[3:])
    handler = _BUTTONS[action]
    await handler(turn, d, arg)


async def _category(turn: Turn, d: dict, code: str) -> None:
    taken = conversation.category_chosen(turn.core, d, code)
    if taken is None:  # not a category of the city's law (the pin decided it)
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    await show(turn, taken)


async def on_photos_done(turn: Turn, d: dict, _: str) -> None:
    outcome = conversation.photos_done(d)
    if isinstance(outcome, Refused):
        await turn.answer(outcome.text, alert=True)
        return
    await turn.answer()
    await show(turn, outcome)


async def _confirm(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    core = here(turn, d)  # the city of the pin, under its law
    done = await submit_report(core, turn.user_id, receipt.report(d, evidence(d)),
                               display_name=turn.display_name, also=turn.hook(clear=True))
    await turn.reply(receipt.receipt(core, d, done), ReplyKeyboardRemove())


async def _fix(turn: Turn, d: dict, field: str) -> None:
    await turn.answer()
    if not field:
        await turn.reply(*render(d, conversation.fix_menu(turn.core, d)))
        return
    taken = conversation.fix_chosen(turn.core, d, field)
    if taken is None:
        await turn.answer(STALE_BUTTON)
        return
    if taken.state == PHOTOS:
        await turn.reply(conversation.PHOTOS_DROPPED)
    await go(turn, taken.state, taken.draft)


_BUTTONS = {"cat": _category, "done": on_photos_done, "addr": on_address, "dup": on_duplicate,
            "skip": on_skip, "time": on_time, "sign": on_sign, "signs": on_signs_done,
            "ok": _confirm, "fix": _fix}
