"""What the inspector's photo fields take (read and fetched by bot/attachments.py).

Dores Art. 6º, I, a: at the removal the object must "ser fotografado ou filmado na situação que
se encontram, para servir como prova do abandono" — so a field that allows filming
(FormField.video) takes a video (sendVideo, a round video note, or a video sent as a file) as
well as photos; the MIME type goes with the hash so the core keeps it with kind "video".
Other fields, and the photo of the affixed notice (which must be legible), take photos only."""
from __future__ import annotations

from bot import attachments
from bot.citizen import texts as citizen_texts
from bot.inspector import texts
from core.services.citizens.conversation import words

PHOTOS = attachments.Policy(not_taken=words.NOT_IMAGE, video=texts.PHOTO_ONLY,
                            sticker=words.NO_STICKER, nothing=words.NEED_PHOTO,
                            too_big=citizen_texts.TOO_BIG, download_too_big=texts.FILE_TOO_BIG)
PHOTOS_OR_VIDEOS = attachments.Policy(
    not_taken=texts.NOT_MEDIA, video=texts.NEED_MEDIA, sticker=texts.NEED_MEDIA,
    nothing=texts.NEED_MEDIA, too_big=citizen_texts.TOO_BIG, videos=True,
    video_too_big=texts.VIDEO_TOO_BIG, download_too_big=texts.FILE_TOO_BIG)


def policy(video: bool) -> attachments.Policy:
    return PHOTOS_OR_VIDEOS if video else PHOTOS
