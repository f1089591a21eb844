"""The one reader of Telegram attachments, for the three flows that take files: the citizen's
photos (bot/citizen/photos.py), the inspector's photos and videos of a step
(bot/inspector/form.py, after.py) and the owner's appeal attachments (bot/owner/actions.py).

Each flow says what it takes and how it refuses the rest in a `Policy`; `read` picks the file
out of a message (or the refusal), `fetch` downloads it through getFile (the Bot API lets a bot
download at most 20 MB) and stores it through the core's one upload check
(core.services.cases.evidence.store_upload: the type decided from the bytes). Nothing is
written on a refusal, and what the person gave before stays.

Telegram refuses two downloads itself, both as "400 Bad Request": a file above 20 MB whose
size the update did not announce, and a file_id it does not know (made up, expired, from
another bot). The Bot API tells them apart only by their description, so `_get_file` reads it
once, here, and raises `DownloadTooBig` or `UnknownFile`; the flows see types, never text.
"""
from __future__ import annotations

from dataclasses import dataclass

from telegram import Message
from telegram.error import BadRequest

from bot import texts
from core import media
from core.services.cases.evidence import store_upload
from core.services.context import Core

MAX_DOWNLOAD = 20 * 1024 * 1024  # Bot API getFile limit
IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp", "image/heic", "image/heif")
VIDEO_TYPES = ("video/mp4", "video/quicktime", "video/webm", "video/3gpp", "video/x-matroska",
               "video/mpeg")


@dataclass(frozen=True)
class Attachment:
    file_id: str
    unique_id: str
    size: int | None
    mime: str

    @property
    def kind(self) -> str:
        """"video", "photo" (an image, sent as a photo or as a file) or "document"."""
        if self.mime.startswith("video/"):
            return "video"
        return "photo" if self.mime in IMAGE_TYPES else "document"


@dataclass(frozen=True)
class Policy:
    """What one flow takes, and its answers to the rest (Portuguese, shown as they are)."""
    not_taken: str          # a file of a type the flow does not take
    video: str              # a video, a round video or a GIF where only photos go
    sticker: str
    nothing: str            # a message with no file at all
    too_big: str            # above 20 MB, announced by the update or by getFile
    videos: bool = False    # videos (sendVideo, a round video, a video sent as a file) taken
    documents: tuple[str, ...] = ()  # core media kinds taken from other files (e.g. PDF)
    video_too_big: str | None = None
    download_too_big: str = texts.FILE_TOO_BIG  # getFile refused it for its size
    unknown: str = texts.FILE_UNKNOWN           # getFile does not know the file

    def takes(self, item: Attachment) -> bool:
        return item.kind == "photo" or (self.videos and item.mime in VIDEO_TYPES) \
            or bool(self.documents)

    def stored_as(self, item: Attachment) -> tuple[str, ...]:
        """The core media kinds the bytes may turn out to be."""
        if item.kind == "photo":
            return (media.IMAGE,)
        return (media.VIDEO,) if self.videos and item.kind == "video" else self.documents


def read(message: Message, policy: Policy) -> tuple[Attachment | None, str | None]:
    """(the file to fetch, None) or (None, the policy's refusal)."""
    if message.photo:
        p = message.photo[-1]  # the largest size
        return Attachment(p.file_id, p.file_unique_id, p.file_size, "image/jpeg"), None
    if policy.videos and message.video is not None:
        v = message.video
        return Attachment(v.file_id, v.file_unique_id, v.file_size,
                          (v.mime_type or "video/mp4").lower()), None
    if policy.videos and message.video_note is not None:
        v = message.video_note
        return Attachment(v.file_id, v.file_unique_id, v.file_size, "video/mp4"), None
    if message.video is not None or message.video_note is not None or message.animation:
        return None, policy.video
    if message.document is not None:
        d = message.document
        item = Attachment(d.file_id, d.file_unique_id, d.file_size,
                          (d.mime_type or "application/octet-stream").lower())
        return (item, None) if policy.takes(item) else (None, policy.not_taken)
    if message.sticker is not None:
        return None, policy.sticker
    return None, policy.nothing


class DownloadTooBig(Exception):
    """getFile: above the 20 MB a bot may download."""


class UnknownFile(Exception):
    """getFile: no such file (made up, expired, another bot's)."""


#: Telegram's descriptions of its two getFile refusals (both error_code 400)
_TOO_BIG = ("too big", "too large")
_UNKNOWN = ("file_id", "file not found", "temporarily unavailable", "file reference")


async def _get_file(bot, file_id: str):
    try:
        return await bot.get_file(file_id)
    except BadRequest as exc:
        description = exc.message.lower()
        if any(m in description for m in _TOO_BIG):
            raise DownloadTooBig(exc.message) from exc
        if any(m in description for m in _UNKNOWN):
            raise UnknownFile(exc.message) from exc
        raise


async def fetch(bot, core: Core, item: Attachment, policy: Policy
                ) -> tuple[str | None, str | None]:
    """Download and store; (sha256, None) or (None, the policy's refusal)."""
    too_big = policy.video_too_big if item.kind == "video" and policy.video_too_big \
        and policy.videos else policy.too_big
    if item.size is not None and item.size > MAX_DOWNLOAD:
        return None, too_big
    try:
        file = await _get_file(bot, item.file_id)
    except DownloadTooBig:
        return None, policy.download_too_big
    except UnknownFile:
        return None, policy.unknown
    if file.file_size is not None and file.file_size > MAX_DOWNLOAD:
        return None, too_big
    data = bytes(await file.download_as_bytearray())
    try:
        return (await store_upload(core, data, policy.stored_as(item))).sha256, None
    except media.MediaRefused as exc:
        return None, exc.message
