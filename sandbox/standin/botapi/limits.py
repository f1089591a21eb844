"""Telegram's size limits, counted as Telegram counts them (see the field notes, "Telegram Bot
API limits"): message text 1–4096 and captions 0–1024 characters after entity parsing, in UTF-16
code units; callback_data 1–64 bytes; answerCallbackQuery text 0–200 characters; an album of
2–10 items; uploads of 10 MB (photos) and 50 MB, downloads of 20 MB."""
from __future__ import annotations

from sandbox.standin.botapi.errors import bad
from sandbox.standin.botapi.formatting import render, utf16_len

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_CALLBACK_ANSWER = 200
MIN_ALBUM, MAX_ALBUM = 2, 10
MAX_DOWNLOAD = 20 * 1024 * 1024
MAX_PHOTO_UPLOAD = 10 * 1024 * 1024
MAX_UPLOAD = 50 * 1024 * 1024


def check_limits(method: str, params: dict) -> None:
    """Telegram's 400 for a decoded call (see schema.check_call) past one of its limits."""
    if method in ("sendMessage", "editMessageText"):
        plain = render(str(params.get("text") or ""), params.get("parse_mode"))
        if not plain.strip():
            raise bad("message text is empty")
        if utf16_len(plain) > MAX_TEXT:
            raise bad("message is too long" if method == "sendMessage" else "MESSAGE_TOO_LONG")
    _check_caption(params)
    if method == "sendMediaGroup":
        media = params.get("media") or []
        if not media:
            raise bad("media to send are not specified")
        if len(media) > MAX_ALBUM:
            raise bad("too many messages to send as an album")
        if len(media) < MIN_ALBUM:
            raise bad("media group must include 2-10 items")
        for item in media:
            _check_caption(item)
    if (method == "answerCallbackQuery"
            and utf16_len(str(params.get("text") or "")) > MAX_CALLBACK_ANSWER):
        raise bad("MESSAGE_TOO_LONG")
    markup = params.get("reply_markup")
    if isinstance(markup, dict):
        for row in markup.get("inline_keyboard") or []:
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                    raise bad("BUTTON_DATA_INVALID")


def _check_caption(params: dict) -> None:
    caption = params.get("caption")
    if caption:
        plain = render(str(caption), params.get("parse_mode"))
        if utf16_len(plain) > MAX_CAPTION:
            raise bad("message caption is too long")
