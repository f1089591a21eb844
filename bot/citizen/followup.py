"""The reporter's answer to "O objeto já saiu do local?" (core.services.citizens.followup):
"fup:gone:<protocol>" (Sim, saiu), "fup:there:<protocol>" (Não, continua lá: the case is
reopened at once, then photos of the place are asked, optional), "fup:nophoto:<protocol>" and
"fup:done:<protocol>" (no photo / no more photos). What is asked, for how long and how many
photos is the core's (core.services.citizens.conversation.afterwards); here the Telegram
update is read and the answer shown."""
from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot import attachments
from bot.buttons import button
from bot.citizen import info
from bot.citizen.photos import PHOTOS_ONLY
from bot.router import Turn
from bot.texts import STALE_BUTTON
from core.services.cases.evidence import EvidenceIn
from core.services.citizens import followup
from core.services.citizens.conversation import afterwards
from core.services.citizens.conversation.states import FOLLOWUP_PHOTO as PHOTO
from core.services.errors import InvalidInput


def _ask(protocol: str, n: int) -> tuple[str, InlineKeyboardMarkup]:
    text, label, intent = afterwards.request(n)
    return text, InlineKeyboardMarkup([[button({"text": label, "intent": intent,
                                                "case": protocol})]])


async def on_button(turn: Turn) -> None:
    parts = turn.data
    if len(parts) != 3 or parts[1] not in ("gone", "there", "nophoto", "done"):
        await turn.answer(STALE_BUTTON)
        return
    action, protocol = parts[1], parts[2]
    shown = turn.query.message.text if turn.query.message is not None else ""
    if action == "gone":
        await followup.answer_gone(turn.core, turn.user_id, protocol, also=turn.hook())
        await turn.answer("Resposta registrada.")
        await turn.edit(afterwards.answered(shown, gone=True))
    elif action == "there":
        await followup.answer_still_there(
            turn.core, turn.user_id, protocol,
            also=turn.hook(PHOTO, afterwards.waiting_draft(turn.core, protocol)))
        await turn.answer("Resposta registrada.")
        await turn.edit(afterwards.answered(shown, gone=False))
        await turn.reply(afterwards.ASK_PHOTO, _ask(protocol, 0)[1])
    elif not afterwards.waiting_for(turn.conv.state, turn.conv.draft, protocol):
        await turn.answer(STALE_BUTTON)
        await turn.edit(shown)  # the button goes away
    else:
        await turn.answer()
        await turn.clear()
        await turn.edit(shown)
        await turn.reply(afterwards.NO_PHOTO_OK if action == "nophoto" else afterwards.LAST)


async def on_message(turn: Turn) -> None:
    """A message while the photos are awaited."""
    draft = dict(turn.conv.draft)
    protocol = draft.get("case", "")
    if afterwards.too_late(turn.core, draft):
        await turn.clear()  # too late for this answer: the message is read as if idle
        await info.idle(turn)
        return
    msg = turn.message
    n = afterwards.photos(draft)
    if not (msg.photo or msg.document is not None):
        await turn.reply(*_ask(protocol, n))
        return
    item, refusal = attachments.read(msg, PHOTOS_ONLY)
    sha = None
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, PHOTOS_ONLY)
    if refusal is not None:
        await turn.reply(refusal, _ask(protocol, n)[1])
        return
    draft["photos"] = n + 1
    last = n + 1 >= afterwards.MAX_PHOTOS
    evidence = EvidenceIn(sha, item.mime, "photo", item.file_id, item.unique_id)
    try:
        told = await followup.add_photo(
            turn.core, turn.user_id, protocol, evidence,
            also=turn.hook(clear=True) if last else turn.hook(PHOTO, draft))
    except InvalidInput as exc:  # the case is no longer reopened by this answer
        await turn.clear()
        await turn.reply(exc.message)
        return
    said = afterwards.received(told, last)
    await turn.reply(said, None if last else _ask(protocol, n + 1)[1])


async def resume(turn: Turn) -> None:
    """A redelivered update while the photos are awaited: the request again."""
    await turn.reply(*_ask(turn.conv.draft.get("case", ""), afterwards.photos(turn.conv.draft)))
