"""One reader of Telegram attachments (bot/attachments.py) for the citizen's photos, the
inspector's photos and videos (Dores Art. 6º, I, a: "fotografado ou filmado") and the owner's
appeal files: each flow's policy decides what it takes and how it refuses the rest; Telegram's
own getFile refusals reach the flows as types, and the flows never read an error's text."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from telegram import Message
from telegram.error import BadRequest

from bot import attachments
from bot.citizen.photos import PHOTOS_ONLY
from bot.inspector import texts as inspector_texts
from bot.inspector.media import PHOTOS, PHOTOS_OR_VIDEOS
from bot.owner import texts as owner_texts
from bot.owner.actions import APPEAL_FILES
from core.services.citizens.conversation import words
from bot.texts import FILE_TOO_BIG, FILE_UNKNOWN

BOT = Path(__file__).resolve().parents[2] / "bot"


def _message(**media) -> Message:
    return Message.de_json({"message_id": 1, "date": 1, "chat": {"id": 5, "type": "private"},
                            **media}, None)


PHOTO = {"photo": [{"file_id": "small", "file_unique_id": "s", "width": 90, "height": 60},
                   {"file_id": "big", "file_unique_id": "b", "width": 800, "height": 600,
                    "file_size": 1000}]}
VIDEO = {"video": {"file_id": "v", "file_unique_id": "v", "width": 1, "height": 1,
                   "duration": 1, "mime_type": "video/mp4"}}
ROUND = {"video_note": {"file_id": "r", "file_unique_id": "r", "length": 1, "duration": 1}}
STICKER = {"sticker": {"file_id": "st", "file_unique_id": "st", "width": 1, "height": 1,
                       "is_animated": False, "is_video": False, "type": "regular"}}


def _document(mime: str) -> dict:
    return {"document": {"file_id": "d", "file_unique_id": "d", "mime_type": mime}}


def test_the_largest_size_of_a_photo_is_fetched_in_every_flow():
    for policy in (PHOTOS_ONLY, PHOTOS, PHOTOS_OR_VIDEOS, APPEAL_FILES):
        item, refusal = attachments.read(_message(**PHOTO), policy)
        assert refusal is None and item.file_id == "big" and item.kind == "photo"


@pytest.mark.parametrize("media, policy, refusal", [
    (VIDEO, PHOTOS_ONLY, words.NO_VIDEO),
    (ROUND, PHOTOS_ONLY, words.NO_VIDEO),
    (STICKER, PHOTOS_ONLY, words.NO_STICKER),
    (_document("application/pdf"), PHOTOS_ONLY, words.NOT_IMAGE),
    (_document("video/mp4"), PHOTOS_ONLY, words.NOT_IMAGE),
    ({"text": "oi"}, PHOTOS_ONLY, words.NEED_PHOTO),
    (VIDEO, PHOTOS, inspector_texts.PHOTO_ONLY),  # the affixed notice must be legible
    (_document("application/pdf"), PHOTOS_OR_VIDEOS, inspector_texts.NOT_MEDIA),
    ({"text": "oi"}, PHOTOS_OR_VIDEOS, inspector_texts.NEED_MEDIA),
    (VIDEO, APPEAL_FILES, owner_texts.APPEAL_NO_VIDEO),
    (STICKER, APPEAL_FILES, owner_texts.APPEAL_NO_VIDEO),
    ({"text": "/start"}, APPEAL_FILES, owner_texts.APPEAL_NEED),
])
def test_each_flow_refuses_what_it_does_not_take_in_its_own_words(media, policy, refusal):
    assert attachments.read(_message(**media), policy) == (None, refusal)


@pytest.mark.parametrize("media, kind", [
    (VIDEO, "video"), (ROUND, "video"), (_document("video/quicktime"), "video"),
    (_document("image/png"), "photo")])
def test_a_field_that_allows_filming_takes_videos_art_6_I_a(media, kind):
    item, refusal = attachments.read(_message(**media), PHOTOS_OR_VIDEOS)
    assert refusal is None and item.kind == kind
    assert PHOTOS_OR_VIDEOS.stored_as(item) == (("video",) if kind == "video" else ("image",))


def test_an_appeal_takes_a_document_checked_as_image_or_pdf_from_its_bytes():
    item, refusal = attachments.read(_message(**_document("application/pdf")), APPEAL_FILES)
    assert refusal is None and APPEAL_FILES.stored_as(item) == ("image", "pdf")


class _Telegram:
    """getFile as Telegram answers it: a 400 with a description, nothing else."""

    def __init__(self, description: str) -> None:
        self.description = description

    async def get_file(self, file_id: str):
        raise BadRequest(self.description)


@pytest.mark.parametrize("description, policy, refusal", [
    ("Bad Request: file is too big", PHOTOS_ONLY, FILE_TOO_BIG),
    ("Bad Request: invalid file_id", PHOTOS_ONLY, FILE_UNKNOWN),
    ("Bad Request: file is too big", PHOTOS_OR_VIDEOS, inspector_texts.FILE_TOO_BIG),
    ("Bad Request: wrong file_id or the file is temporarily unavailable", APPEAL_FILES,
     FILE_UNKNOWN),
])
async def test_telegrams_own_refusals_of_a_download_become_answers(description, policy, refusal):
    item = attachments.Attachment("x", "x", None, "image/jpeg")
    assert await attachments.fetch(_Telegram(description), None, item, policy) == (None, refusal)


async def test_any_other_bad_request_still_reaches_the_error_handler():
    item = attachments.Attachment("x", "x", None, "image/jpeg")
    with pytest.raises(BadRequest):
        await attachments.fetch(_Telegram("Bad Request: chat not found"), None, item, PHOTOS)


async def test_an_announced_size_over_20_mb_is_refused_before_any_download():
    big = attachments.Attachment("x", "x", attachments.MAX_DOWNLOAD + 1, "video/mp4")
    assert await attachments.fetch(None, None, big, PHOTOS_OR_VIDEOS) == (
        None, inspector_texts.VIDEO_TOO_BIG)


def test_no_flow_reads_an_errors_text():
    """Only bot/attachments.py turns getFile's descriptions into types; elsewhere in bot/,
    no `str(exc)` nor `exc.message` is compared."""
    found = []
    for path in sorted(BOT.rglob("*.py")):
        if path.name == "attachments.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Compare) and any(
                    "str(exc)" in ast.unparse(n) or "exc.message" in ast.unparse(n)
                    for n in (node.left, *node.comparators)):
                found.append(f"{path.relative_to(BOT)}:{node.lineno} {ast.unparse(node)}")
    assert found == []
