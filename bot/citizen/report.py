"""/denunciar: the report conversation (the table in
core/services/citizens/conversation/states.py) as Telegram takes it: its entry, and each
message or button read into the conversation's input, which the core takes
(core.services.citizens.conversation.step, the same for every face) and this module shows.
The prompts and the photos (albums, downloads) live in the modules beside it.

Every step follows one pattern: read the input, refuse it clearly (nothing written, the
question asked again) or store it with the next state in one transaction, then answer.
Buttons carry "rep:<draft id>.<question number>:<action>[:<arg>]"; one from another draft or
an earlier question is stale and gets a polite answer, and a message replayed from earlier in
the chat is taken once (core.services.citizens.conversation.steps)."""
from __future__ import annotations

import logging
import secrets

from telegram import ReplyKeyboardRemove

from core.services.citizens.conversation import guide as texts
from bot.citizen.photos import evidence, on_photo
from bot.citizen.prompts import ask, go, here, render, show, signs_keyboard, store
from bot.router import Turn
from bot.texts import STALE_BUTTON
from core.services.citizens.conversation import location, receipt, step, steps, words
from core.services.citizens.conversation.answers import Refused
from core.services.citizens.conversation.location import Support
from core.services.citizens.conversation.states import (CATEGORY, IDLE, LOCATION, PHOTOS,
                                                        PREFIX, SIGNS)
from core.services.citizens.reports import submit_report, support_case

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
        loc = msg.location or msg.venue.location
        await show(turn, await location.pinned(turn.core, _new_draft(), turn.conv.state,
                                               loc.latitude, loc.longitude,
                                               turn.service("geocoder")))
    else:
        await on_photo(turn, _new_draft())


# ----------------------------------------------------------------------------- messages

async def on_message(turn: Turn) -> None:
    """A message in the report: a photo (or an image file, or a video or sticker refused as
    one) where the state keeps photos goes to the photos step (albums, downloads); any other
    is read into the conversation's input and taken by the core (conversation.step)."""
    state, msg = turn.conv.state, turn.message
    if msg is None:
        return
    if steps.replayed(turn.conv.draft, msg.message_id):  # taken before: nothing to do again
        log.info("update %s replays message %s, already taken", turn.update_id, msg.message_id)
        await turn.mark()
        return
    pinned = msg.location is not None or msg.venue is not None
    if state == PHOTOS and not pinned and not msg.text or (
            step.takes_photo(turn.core, state, turn.conv.draft)
            and (msg.photo or msg.document is not None)):
        await on_photo(turn)
        return
    await take(turn, turn.conv.draft, said_in(msg))


def said_in(msg) -> step.Said:
    """What a Telegram message says, as the conversation reads it."""
    if msg.location is not None or msg.venue is not None:
        loc = msg.location or msg.venue.location
        return step.Said(step.PIN, lat=loc.latitude, lon=loc.longitude)
    if msg.text is not None:
        return step.Said(step.TEXT, text=msg.text)
    return step.Said(step.OTHER)


# ----------------------------------------------------------------------------- buttons

async def on_button(turn: Turn) -> None:
    """"rep:<draft>.<question>:<action>[:<arg>]"."""
    parts, d = turn.data, dict(turn.conv.draft)
    if len(parts) < 3 or not steps.current(d, parts[1]):
        await turn.answer(STALE_BUTTON)
        return
    await take(turn, d, step.Said(step.CHOICE, action=parts[2], value=":".join(parts[3:])))


# ----------------------------------------------------------------------------- outcomes

async def take(turn: Turn, d: dict, said: step.Said) -> None:
    """What the conversation makes of `said` (core: conversation.step), shown as Telegram
    shows it: a button answered first, a refusal of "Pronto" as an alert, a sign marked on
    the same message."""
    outcome = await step.take(turn.core, turn.conv.state, d, said, turn.service("geocoder"))
    tapped = said.kind == step.CHOICE
    if outcome is None:  # not a choice of the question shown now
        await turn.answer(STALE_BUTTON)
        return
    if tapped and said.action == "done" and isinstance(outcome, Refused):
        await turn.answer(outcome.text, alert=True)
        return
    if isinstance(outcome, step.Toggled):
        await store(turn, SIGNS, outcome.draft)
        await turn.answer("Marcado." if outcome.marked else "Desmarcado.")
        await turn.query.edit_message_reply_markup(signs_keyboard(turn))
        return
    await turn.answer()
    if isinstance(outcome, step.Menu):
        await turn.reply(*render(d, outcome.prompt))
    elif isinstance(outcome, step.Confirmed):
        await _confirm(turn, outcome.draft)
    elif isinstance(outcome, Support):
        protocol = await support_case(here(turn, d), outcome.protocol, turn.user_id,
                                      evidence(d), d.get("description"),
                                      display_name=turn.display_name,
                                      also=turn.hook(clear=True))
        await turn.reply(words.SUPPORTED.format(protocol=protocol), ReplyKeyboardRemove())
    elif isinstance(outcome, Refused) and not tapped and outcome.prompt is None \
            and outcome.text == words.NEED_BUTTON:
        await ask(turn, turn.conv.state, words.NEED_BUTTON + "\n\n")
    else:
        await show(turn, outcome)


async def _confirm(turn: Turn, d: dict) -> None:
    core = here(turn, d)  # the city of the pin, under its law
    done = await submit_report(core, turn.user_id, receipt.report(d, evidence(d)),
                               display_name=turn.display_name, also=turn.hook(clear=True))
    await turn.reply(receipt.receipt(core, d, done), ReplyKeyboardRemove())
