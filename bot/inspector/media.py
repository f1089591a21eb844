"""Photos and videos the inspector sends for a step form's photo field.

Dores Art. 6º, I, a: at the removal the object must "ser fotografado ou filmado na situação que
se encontram, para servir como prova do abandono" — so the removal's field takes a video
(sendVideo, a round video note, or a video sent as a file) as well as photos. Files are
downloaded through getFile (the Bot API lets a bot download at most 20 MB) into the evidence
store; the MIME type goes with the hash so the core keeps it with kind "video"."""
from __future__ import annotations

from telegram import Message
from telegram.error import BadRequest

from bot.citizen.media import MAX_DOWNLOAD, IMAGE_TYPES, Incoming, fetch, photo_of
from bot.citizen import texts as citizen_texts
from bot.inspector import texts
from core import media
from core.services.context import Core

VIDEO_TYPES = ("video/mp4", "video/quicktime", "video/webm", "video/3gpp", "video/x-matroska",
               "video/mpeg")


def media_of(message: Message, video: bool) -> tuple[Incoming | None, str | None]:
    """(the file to fetch, None) or (None, the Portuguese refusal). Videos only when the
    field takes them (`video`)."""
    if not video:
        if message.video is not None or message.video_note is not None or message.animation:
            return None, texts.PHOTO_ONLY
        return photo_of(message)
    if message.video is not None:
        v = message.video
        return Incoming(v.file_id, v.file_unique_id, v.file_size,
                        (v.mime_type or "video/mp4").lower()), None
    if message.video_note is not None:
        v = message.video_note
        return Incoming(v.file_id, v.file_unique_id, v.file_size, "video/mp4"), None
    if message.document is not None:
        d = message.document
        mime = (d.mime_type or "").lower()
        if mime in VIDEO_TYPES or mime in IMAGE_TYPES:
            return Incoming(d.file_id, d.file_unique_id, d.file_size, mime), None
        return None, texts.NOT_MEDIA
    if message.photo:
        return photo_of(message)
    return None, texts.NEED_MEDIA


async def fetch_media(bot, core: Core, item: Incoming) -> tuple[str | None, str | None]:
    """Download through getFile and store; (sha256, None) or (None, refusal). Above 20 MB the
    refusal says why and what to do instead."""
    too_big = item.size is not None and item.size > MAX_DOWNLOAD
    if too_big and item.mime.startswith("video/"):
        return None, texts.VIDEO_TOO_BIG
    try:
        kind = media.VIDEO if item.mime.startswith("video/") else media.IMAGE
        sha, refusal = await fetch(bot, core, item, (kind,))
    except BadRequest as exc:  # getFile: "file is too big" when the size was not announced
        if "too big" not in str(exc).lower():
            raise
        sha, refusal = None, texts.FILE_TOO_BIG
    if refusal == citizen_texts.TOO_BIG and item.mime.startswith("video/"):
        return None, texts.VIDEO_TOO_BIG
    return sha, refusal
