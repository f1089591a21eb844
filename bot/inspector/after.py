"""Photos asked right after a step, because they show the step's document: the notice is
sent as a printable PDF first, then the inspector photographs it affixed (Dores Art. 4º,
II, a: the step's Transition.photo_after; core.services.inspectors.step_forms
.record_after_step).

Buttons carry "insp:<draft id>:afterdone"; a photo or text in this state goes to on_message."""
from __future__ import annotations

import secrets

from bot import attachments, buttons
from bot.inspector import card, texts
from bot.inspector.media import PHOTOS
from bot.inspector.states import AFTER
from bot.router import Turn, inline
from bot.texts import STALE_BUTTON
from core.services.errors import ServiceError
from core.services.inspectors.accounts import require_inspector
from core.services.inspectors.notice_photo import pending_photo
from core.services.inspectors.step_forms import record_after_step


def done_button(d: dict):
    return inline([[(texts.DONE, buttons.step_form(d["id"], "afterdone"))]])


async def ask(turn: Turn, protocol: str, code: str, article: str) -> None:
    """After step `code` and its document: ask the photos it declares
    (Transition.photo_after, StepForm.photo_after)."""
    d = {"id": secrets.token_hex(3), "protocol": protocol, "code": code, "photos": [],
         "media": {}}
    await turn.save(AFTER, d)
    await turn.reply(texts.AFFIX_NOW.format(article=article), done_button(d))


async def resume(turn: Turn, protocol: str, code: str) -> None:
    """insp:photo:<protocol>:<code> (the reminder's button, or the card's): the photo asked
    again, if it is still missing and the case is still this inspector's."""
    inspector = await require_inspector(turn.core, turn.user_id)
    missing = await pending_photo(turn.core, protocol, inspector.id)
    await turn.answer()
    if missing is None or missing.code != code:
        await turn.reply(texts.NO_PHOTO_PENDING.format(protocol=protocol))
        return
    await ask(turn, missing.protocol, missing.code, missing.article)


async def on_message(turn: Turn) -> None:
    d = dict(turn.conv.draft)
    item, refusal = attachments.read(turn.message, PHOTOS) if turn.message \
        else (None, texts.NEED_PHOTO)
    if refusal is None and len(d["photos"]) >= 10:
        refusal = texts.MAX_MEDIA
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, PHOTOS)
    if refusal is not None:
        await turn.reply(refusal, done_button(d))
        return
    if sha not in d["photos"]:
        d = {**d, "photos": [*d["photos"], sha], "media": {**d["media"], sha: item.mime}}
    await turn.save(AFTER, d)
    await turn.reply(texts.photos_got(len(d["photos"])), done_button(d))


async def on_button(turn: Turn, data: list[str]) -> None:
    """insp:<draft id>:afterdone."""
    d = turn.conv.draft
    if len(data) < 3 or data[1] != d.get("id") or data[2] != "afterdone":
        await turn.answer(STALE_BUTTON)
        return
    await turn.answer()
    if not d["photos"]:
        await turn.reply(texts.NEED_PHOTO, done_button(d))
        return
    await record_after_step(turn.core, turn.user_id, d["protocol"], d["code"], d["photos"],
                            d["media"])
    await turn.clear()
    await turn.reply(texts.AFFIX_PHOTO_SAVED.format(protocol=d["protocol"]))
    try:
        await card.show(turn, d["protocol"])
    except ServiceError:
        pass  # no longer this inspector's case
