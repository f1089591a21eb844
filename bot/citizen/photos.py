"""The photos of a report: one message or an album at a time, one acknowledgement per album,
the photos that start a report before /denunciar."""
from __future__ import annotations

import asyncio
import logging

from bot import attachments
from bot.citizen import texts
from bot.citizen.prompts import render, store
from core.services.citizens.conversation import photos, words
from bot.router import Turn, send_or_queue
from bot.state import BotState
from core.services.cases.evidence import EvidenceIn

log = logging.getLogger(__name__)

#: The report takes photos (or images sent as files), never videos or stickers.
PHOTOS_ONLY = attachments.Policy(not_taken=words.NOT_IMAGE, video=words.NO_VIDEO,
                                 sticker=words.NO_STICKER, nothing=words.NEED_PHOTO,
                                 too_big=texts.TOO_BIG)


async def on_photo(turn: Turn, d: dict | None = None) -> None:
    """A photo (or an image sent as a file) for the report: in the photos step, or one that
    starts the report (`d`, the new draft); where it lands and what is said after is the
    core's (core.services.citizens.conversation.photos). Kept in the draft; the state stays."""
    msg = turn.message
    d = dict(turn.conv.draft) if d is None else d
    state = photos.landing(turn.core, turn.conv.state)
    item, refusal = attachments.read(msg, PHOTOS_ONLY)
    if refusal is None:
        refusal = photos.refused(d, item.unique_id)
    if refusal is None:
        sha, refusal = await attachments.fetch(turn.bot, turn.core, item, PHOTOS_ONLY)
    if refusal is not None:
        await turn.reply(*render(d, photos.refusal(state, refusal)))
        return
    d["photos"] = d["photos"] + [{"sha": sha, "mime": item.mime, "file_id": item.file_id,
                                  "unique_id": item.unique_id}]
    await store(turn, state, d)
    if msg.media_group_id:
        _ack_album_later(turn, msg.media_group_id)
    else:
        await ack_photos(turn.bot, turn.state, turn.chat_id, turn.core, state, turn.conv.draft)


async def ack_photos(bot, out: BotState, chat_id: int, core, state: str, d: dict) -> None:
    await send_or_queue(bot, out, chat_id, *render(d, photos.kept(core, state, d)))


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
            if conv.state in photos.TAKING:
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

