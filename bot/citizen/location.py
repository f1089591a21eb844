"""Where the object is, as Telegram takes it: a pin (or a venue), a typed address, the "Sim, é
aqui" / "Não" buttons of the address found and the choice among the open cases nearby. What
each means (the city of the pin, the refusals, the category asked again) is the core's
(core.services.citizens.conversation.location); here it is read from the update and shown."""
from __future__ import annotations

from telegram import ReplyKeyboardRemove

from bot.citizen.photos import evidence
from bot.citizen.prompts import here, show
from bot.router import Turn
from bot.texts import STALE_BUTTON
from core.services.citizens.conversation import location, words
from core.services.citizens.reports import support_case


async def on_location(turn: Turn, d: dict | None = None) -> None:
    """A pin or a typed address in the location step; a pin before the category is chosen
    (also one sent before /denunciar: `d`, the new draft) is kept and the category asked."""
    msg, core = turn.message, turn.core
    d = dict(turn.conv.draft) if d is None else d
    geocoder = turn.service("geocoder")
    if msg.location is not None or msg.venue is not None:
        loc = msg.location or msg.venue.location
        await show(turn, await location.pinned(core, d, turn.conv.state, loc.latitude,
                                               loc.longitude, geocoder))
        return
    await show(turn, await location.address_typed(core, d, msg.text, geocoder))


async def on_address(turn: Turn, d: dict, arg: str) -> None:
    await turn.answer()
    await show(turn, location.address_answered(turn.core, d, turn.conv.state, arg == "yes"))


async def on_duplicate(turn: Turn, d: dict, arg: str) -> None:
    chosen = location.duplicate_chosen(turn.core, d, arg)
    if chosen is None:
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    if not isinstance(chosen, location.Support):
        await show(turn, chosen)
        return
    protocol = await support_case(here(turn, d), chosen.protocol, turn.user_id, evidence(d),
                                  d.get("description"), display_name=turn.display_name,
                                  also=turn.hook(clear=True))
    await turn.reply(words.SUPPORTED.format(protocol=protocol), ReplyKeyboardRemove())
