"""The photos of a report: one message or an album at a time, one acknowledgement per album,
the photos that start a report before /denunciar."""
from __future__ import annotations

import asyncio
import logging

from bot import attachments
from bot.citizen import texts
from bot.citizen.prompts import button, category_prompt, store
from core.services.citizens.conversation import words
from core.services.citizens.conversation.states import CATEGORY, LOCATION, PHOTOS
from bot.router import Turn, inline, location_keyboard, send_or_queue
from bot.state import BotState
from core.services.cases.evidence import EvidenceIn
from core.services.citizens.conversation.prompts import location_question
from core.services.citizens.reports import MAX_PHOTOS

log = logging.getLogger(__name__)

#: The report takes photos (or images sent as files), never videos or stickers.
PHOTOS_ONLY = attachments.Policy(not_taken=words.NOT_IMAGE, video=words.NO_VIDEO,
                                 sticker=words.NO_STICKER, nothing=words.NEED_PHOTO,
                                 too_big=texts.TOO_BIG)


async def on_photo(turn: Turn, d: dict | None = None) -> None:
    """A photo (or an image sent as a file) for the report: in the photos step, or before the
    category is chosen, when a photo sent before /denunciar starts the report (`d`, the new
    draft) and the category is asked after it. With several cities served the location comes
    before the category: a photo sent first, or while the location is asked, is kept and the
    location asked. Kept in the draft; the state stays."""
    msg = turn.message
    d = dict(turn.conv.draft) if d is None else d
    if turn.conv.state in (PHOTOS, CATEGORY, LOCATION):
        state = turn.conv.state
    else:
        state = LOCATION if turn.core.many_cities else CATEGORY
    item, refusal = attachments.read(msg, PHOTOS_ONLY)
    if refusal is None and len(d["photos"]) >= MAX_PHOTOS:
        refusal = words.PHOTO_MAX
    if refusal is None and any(p["unique_id"] == item.unique_id for p in d["photos"]):
        refusal = words.PHOTO_SEEN
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, PHOTOS_ONLY)
    if refusal is not None:
        await turn.reply(refusal, inline([[("✅ Pronto", button(d, "done"))]])
                         if state == PHOTOS else None)
        return
    d["photos"] = d["photos"] + [{"sha": sha, "mime": item.mime, "file_id": item.file_id,
                                  "unique_id": item.unique_id}]
    await store(turn, state, d)
    if msg.media_group_id:
        _ack_album_later(turn, msg.media_group_id)
    else:
        await ack_photos(turn.bot, turn.state, turn.chat_id, turn.core, state, d)


async def ack_photos(bot, out: BotState, chat_id: int, core, state: str, d: dict) -> None:
    n = len(d["photos"])
    if state == LOCATION:  # several cities: photos before the location, asked now
        await send_or_queue(bot, out, chat_id, f"📷 {words.photos_received(n)} para a sua "
                            f"denúncia. {location_question(core, d)}", location_keyboard())
        return
    if state == CATEGORY:  # photos before the category: ask it now
        question, markup = category_prompt(core, d)
        await send_or_queue(bot, out, chat_id,
                            f"📷 {words.photos_received(n)} para a sua denúncia. {question}",
                            markup)
        return
    more = (f"Pode enviar mais {MAX_PHOTOS - n} ou tocar em Pronto." if n < MAX_PHOTOS
            else "Esse é o máximo; toque em Pronto.")
    await send_or_queue(bot, out, chat_id, f"📷 {words.photos_received(n)}. {more}",
                        inline([[("✅ Pronto", button(d, "done"))]]))


def _ack_album_later(turn: Turn, group: str) -> None:
    """One acknowledgement per album: an album's photos arrive as separate updates with no
    count, so the answer waits until none has arrived for `album_delay_s` and none of the
    user's updates is running or waiting (the next photo may take longer than the delay to
    download on a busy machine; its own handling then sets the timer again)."""
    st = turn.state
    busy = getattr(turn.context.application.update_processor, "busy", lambda _user: False)
    timers = st.album_timers
    key = (turn.user_id, group)
    if (old := timers.get(key)) is not None:
        old.cancel()
    core, bot, chat, user = turn.core, turn.bot, turn.chat_id, turn.user_id

    async def later() -> None:
        try:
            await asyncio.sleep(st.album_delay_s)
            while busy(user):  # noqa: ASYNC110 (the user's turn is a lock held elsewhere)
                await asyncio.sleep(st.album_delay_s)
            from core.services.messaging.conversation import load
            conv = await load(core, user)
            if conv.state in (PHOTOS, CATEGORY, LOCATION):
                await ack_photos(bot, st, chat, core, conv.state, conv.draft)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("album acknowledgement failed")
        finally:
            if timers.get(key) is task:
                del timers[key]

    task = asyncio.get_running_loop().create_task(later())
    timers[key] = task


def evidence(d: dict) -> list[EvidenceIn]:
    return [EvidenceIn(p["sha"], p["mime"], "photo", p["file_id"], p["unique_id"])
            for p in d.get("photos", [])]

