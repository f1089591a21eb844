"""Reaching the case: the QR deep link `/start <case code>` and `/proprietario` (case code,
then the plate, the chassis tail or nothing — core.services.owners decides what matches).
A wrong answer and the cool-down are the service's own messages, so an unknown code and a
wrong plate read the same."""
from __future__ import annotations

from bot import buttons
from core.services.citizens.conversation.guide import DEEP_LINK_UNKNOWN
from bot.owner import texts
from bot.owner.states import ANSWER, CODE
from bot.owner.view import send_view
from bot.router import Turn, inline
from core.services.messaging.conversation import Conversation
from core.identifiers import case_code_keys
from core.services.errors import Forbidden, NotFound
from core.services.owners import link_by_code, link_by_code_and_plate

CANCEL_ROW = [(texts.CANCEL, buttons.owner("cancel"))]


async def on_deep_link(turn: Turn) -> None:
    """`/start <payload>`: registered as the default deep link (empty prefix), so payloads of
    other flows with their own prefixes still reach them; anything that is not a case code
    gets the citizen's "link not recognised" answer."""
    payload = turn.args[0] if turn.args else ""
    if not case_code_keys(payload):
        await turn.reply(f"{DEEP_LINK_UNKNOWN}\n{texts.DEEP_LINK_UNKNOWN_HINT}")
        return
    view = await link_by_code(turn.core, turn.user_id, payload, also=turn.hook())
    await send_view(turn, view)


async def start(turn: Turn) -> None:
    """`/proprietario [código [placa]]`."""
    args = turn.args
    # the code may be typed in two halves ("K7QM 42XD"), the plate after it
    used = next((n for n in (1, 2) if len(args) >= n and case_code_keys("".join(args[:n]))), 0)
    if used:
        await turn.save(ANSWER, {"code": "".join(args[:used])})
        if len(args) > used:
            await answer(turn, "".join(args[used:]))
        else:
            await ask_answer(turn)
        return
    await turn.save(CODE, {})
    await turn.reply(texts.ASK_CODE, inline([CANCEL_ROW]))


async def ask_answer(turn: Turn) -> None:
    await turn.reply(texts.ASK_ANSWER, inline([[(texts.NO_PLATE_BUTTON, buttons.owner("none"))],
                                               CANCEL_ROW]))


async def on_code(turn: Turn) -> None:
    code = (turn.text or "").strip()
    if not case_code_keys(code):
        await turn.reply(texts.BAD_CODE, inline([CANCEL_ROW]))
        return
    await turn.save(ANSWER, {"code": code})
    await ask_answer(turn)


async def answer(turn: Turn, given: str | None) -> None:
    """Check the code with the plate / chassis tail (None: "não tem placa nem chassi")."""
    code = turn.conv.draft.get("code", "")
    try:
        view = await link_by_code_and_plate(turn.core, turn.user_id, code, given,
                                            also=turn.hook(clear=True))
    except Forbidden as exc:  # cooled down: start again later
        await turn.clear()
        await turn.reply(exc.message)
        return
    except NotFound as exc:
        await turn.save(CODE, {})
        await turn.reply(f"{exc.message}\n\n{texts.TRY_AGAIN}", inline([CANCEL_ROW]))
        return
    turn.conv = Conversation(turn.user_id)
    await send_view(turn, view)
