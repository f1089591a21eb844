"""The questions after the location: plate, colour, make/model, time in place, the
abandonment signs and the description (typed, skipped or chosen with a button)."""
from __future__ import annotations

from bot.citizen.prompts import after, ask, button, go, here, signs_keyboard, store, unfix
from core.services.citizens.conversation import words
from core.services.citizens.conversation.states import (COLOUR, DESCRIPTION, MAKE_MODEL, PLATE, SIGNS, TIME_THERE)
from bot.router import Turn, inline
from bot.texts import STALE_BUTTON
from core.identifiers import InvalidIdentifier, normalize_plate
from core.services.citizens.guidance import citizen_signs
from core.services.citizens.reports import MAX_TEXT

SHORT_TEXT = 120  # colour, make/model, how long


async def on_plate(turn: Turn) -> None:
    text = (turn.text or "").strip()
    if not text:
        await turn.reply(words.NEED_TEXT)
        await ask(turn, PLATE)
        return
    try:
        plate = normalize_plate(text)
    except InvalidIdentifier as exc:
        await turn.reply(f"{exc} Confira e envie de novo, ou toque em Pular.",
                         inline([[("Pular", button(turn.conv.draft, "skip"))]]))
        return
    d = dict(turn.conv.draft, plate=plate.value)
    await go(turn, after(turn, PLATE), unfix(d))


_FIELD = {COLOUR: "colour", MAKE_MODEL: "make_model", TIME_THERE: "time_there",
          DESCRIPTION: "description"}


async def on_text(turn: Turn) -> None:
    state = turn.conv.state
    text = (turn.text or "").strip()
    limit = MAX_TEXT if state == DESCRIPTION else SHORT_TEXT
    if not text:
        await turn.reply(words.NEED_TEXT)
        await ask(turn, state)
        return
    if len(text) > limit:
        await turn.reply(words.TOO_LONG.format(n=limit))
        return
    d = dict(turn.conv.draft, **{_FIELD[state]: text})
    await go(turn, after(turn, state), unfix(d))



async def on_skip(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    state = turn.conv.state
    d.pop({PLATE: "plate", **_FIELD}[state], None)
    await go(turn, after(turn, state), unfix(d))


async def on_time(turn: Turn, d: dict, arg: str) -> None:
    options = words.time_options(here(turn, d))
    if not arg.isdigit() or int(arg) >= len(options):
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    d["time_there"] = options[int(arg)]
    await go(turn, after(turn, TIME_THERE), unfix(d))


async def on_sign(turn: Turn, d: dict, code: str) -> None:
    law = here(turn, d).law
    codes = {c.code for c in citizen_signs(law, d["category"])}
    if code not in codes:
        await turn.answer(STALE_BUTTON)
        return
    signs = list(d.get("signs", []))
    signs.remove(code) if code in signs else signs.append(code)
    d["signs"] = [c.code for c in law.criteria if c.code in signs]
    await store(turn, SIGNS, d)
    await turn.answer("Marcado." if code in signs else "Desmarcado.")
    await turn.query.edit_message_reply_markup(signs_keyboard(turn))


async def on_signs_done(turn: Turn, d: dict, _: str) -> None:
    await turn.answer()
    await go(turn, after(turn, SIGNS), unfix(d))

