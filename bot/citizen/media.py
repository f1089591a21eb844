"""Photos in a message: which file to fetch, refusals for what is not a photo, and the
download (getFile) straight into the evidence store."""
from __future__ import annotations

from dataclasses import dataclass

from telegram import Message

from bot.citizen import texts
from core import media
from core.services.context import Core
from core.services.cases.evidence import store_upload

MAX_DOWNLOAD = 20 * 1024 * 1024  # Bot API getFile limit
IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp", "image/heic", "image/heif")


@dataclass(frozen=True)
class Incoming:
    file_id: str
    unique_id: str
    size: int | None
    mime: str


def photo_of(message: Message) -> tuple[Incoming | None, str | None]:
    """(the file to fetch, None) or (None, the Portuguese refusal)."""
    if message.photo:
        p = message.photo[-1]  # largest size
        return Incoming(p.file_id, p.file_unique_id, p.file_size, "image/jpeg"), None
    if message.document is not None:
        d = message.document
        mime = (d.mime_type or "").lower()
        if mime not in IMAGE_TYPES:
            return None, texts.NOT_IMAGE
        return Incoming(d.file_id, d.file_unique_id, d.file_size, mime), None
    if message.video is not None or message.video_note is not None or message.animation:
        return None, texts.NO_VIDEO
    if message.sticker is not None:
        return None, texts.NO_STICKER
    return None, texts.NEED_PHOTO


async def fetch(bot, core: Core, item: Incoming, allowed: tuple[str, ...] = (media.IMAGE,)
                ) -> tuple[str | None, str | None]:
    """Download through getFile and store through the core's one upload check (the type
    decided from the bytes must be in `allowed`; images within the pixel limit, their public
    copy made now); (sha256, None) or (None, refusal)."""
    if item.size is not None and item.size > MAX_DOWNLOAD:
        return None, texts.TOO_BIG
    file = await bot.get_file(item.file_id)
    if file.file_size is not None and file.file_size > MAX_DOWNLOAD:
        return None, texts.TOO_BIG
    data = bytes(await file.download_as_bytearray())
    try:
        return (await store_upload(core, data, allowed)).sha256, None
    except media.MediaRefused as exc:
        return None, exc.message
