"""The owner's pending question asked again, for a redelivered update (bot/redelivery.py):
the question of the state the owner is in, and nothing written."""
from __future__ import annotations

from bot.owner import proof, texts
from bot.owner.actions import appeal_question, appellant_question
from bot.owner.link import CANCEL_ROW, ask_answer
from bot.owner.states import ANSWER, APPEAL, APPEAL_DOC, APPEAL_NAME, CODE, DATE, PROOF
from bot.router import Turn, inline
from core.services.owners import check_appeal
from core.services.owners.proof import NEEDS_PROOF


async def resume(turn: Turn) -> None:
    state, code = turn.conv.state, turn.conv.draft.get("code", "")
    if state == CODE:
        await turn.reply(texts.ASK_CODE, inline([CANCEL_ROW]))
    elif state == ANSWER:
        await ask_answer(turn)
    elif state == PROOF:
        await turn.reply(NEEDS_PROOF, inline([CANCEL_ROW]))
    elif state == DATE:
        await turn.reply(*await proof.date_question(turn, code))
    elif state == APPEAL:
        await turn.reply(*appeal_question(await check_appeal(turn.core, turn.user_id, code),
                                          code))
    elif state in (APPEAL_NAME, APPEAL_DOC):
        await turn.reply(*appellant_question(
            await check_appeal(turn.core, turn.user_id, code), state, turn.conv.draft))
