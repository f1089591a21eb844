"""The inspector's pending question asked again, for a redelivered update (bot/redelivery.py):
the question of the state the inspector is in, and nothing written."""
from __future__ import annotations

from bot.inspector import after, form, texts
from bot.inspector.states import AFTER, FORM, REFUSE, TASKS
from bot.router import Turn, location_keyboard
from core.services.inspectors.accounts import require_inspector
from core.services.inspectors.notice_photo import pending_photo
from core.services.inspectors.step_forms import step_form

async def resume(turn: Turn) -> None:
    state, d = turn.conv.state, dict(turn.conv.draft)
    if state == TASKS:
        await turn.reply(texts.SHARE_LOCATION, location_keyboard(texts.LOCATION_BUTTON))
    elif state == REFUSE:
        await turn.reply(texts.ASK_REFUSAL.format(protocol=d["protocol"]))
    elif state == FORM:
        await form.ask(turn, await step_form(turn.core, turn.user_id, d["protocol"], d["code"]),
                       d)
    elif state == AFTER:
        inspector = await require_inspector(turn.core, turn.user_id)
        missing = await pending_photo(turn.core, d["protocol"], inspector.id)
        if missing is not None and missing.code == d["code"]:
            await turn.reply(texts.AFFIX_NOW.format(article=missing.article),
                             after.done_button(d))
