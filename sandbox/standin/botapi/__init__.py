"""A local stand-in for the Telegram Bot API, for end-to-end tests and a local sandbox.

It speaks the real HTTP protocol, so the real python-telegram-bot runs against it unchanged::

    from telegram.ext import ApplicationBuilder, MessageHandler, filters
    from sandbox.standin.botapi import BotApiStandIn, User

    async def test_echo():
        async with BotApiStandIn() as api:
            app = (ApplicationBuilder().token(api.token)
                   .base_url(api.bot_base_url)            # f"{api.base_url}/bot"
                   .base_file_url(api.file_base_url)      # f"{api.base_url}/file/bot"
                   .build())
            app.add_handler(MessageHandler(filters.TEXT, echo))
            await app.initialize(); await app.start()
            await app.updater.start_polling(poll_interval=0)   # never run_polling in tests
            try:
                maria = User(1001, "Maria")
                await api.send_text(maria, "oi")               # injected like Telegram would
                call = await api.wait_for(method="sendMessage", chat_id=maria, text="oi")
                assert api.last_message(maria).text == "oi"
            finally:
                await app.updater.stop(); await app.stop(); await app.shutdown()

Requests arrive at ``{base_url}/bot{token}/{method}`` (JSON, form or multipart bodies) and file
downloads at ``{base_url}/file/bot{token}/{file_path}``. Every call is recorded as a ``Call``;
``wait_for`` by default only looks at calls made after the most recent injected update.
Faults: ``fail_next`` (one-shot errors such as 429 with retry_after) and ``add_rate_rule``
(Telegram-like 429 when a chat gets more than N messages per window). When the bot calls
``setWebhook`` (or the test calls ``use_webhook``) injected updates are POSTed to that URL with
the ``X-Telegram-Bot-Api-Secret-Token`` header instead of being queued for ``getUpdates``.

Every call is first checked against Telegram's published Bot API (``sandbox/standin/spec/``, see
``schema.py`` and ``limits.py``): an unknown method answers 404 "Not Found"; a missing required
field (at any depth), a wrong type, an ``attach://`` naming no uploaded part, text/caption/
callback_data past Telegram's limits or an album outside 2–10 items answer Telegram's 400.

Fidelity notes: HTML ``parse_mode`` is validated (unsupported/unclosed tags give Telegram's 400)
and stripped to plain text as Telegram does; MarkdownV2 is checked only for unescaped reserved
characters; no message entities are produced for bot messages.
"""

from sandbox.standin.botapi.errors import ApiError
from sandbox.standin.botapi.formatting import render, utf16_len
from sandbox.standin.botapi.limits import (MAX_CALLBACK_DATA, MAX_CAPTION, MAX_DOWNLOAD,
                                       MAX_PHOTO_UPLOAD, MAX_TEXT, MAX_UPLOAD)
from sandbox.standin.botapi.server import DEFAULT_TOKEN, SEND_METHODS, BotApiStandIn
from sandbox.standin.botapi.values import (BotMessage, Button, Call, StoredFile, UploadedFile, User,
                                       WebhookDelivery, parse_keyboard)

__all__ = [
    "ApiError", "BotApiStandIn", "BotMessage", "Button", "Call", "DEFAULT_TOKEN",
    "MAX_CALLBACK_DATA", "MAX_CAPTION", "MAX_DOWNLOAD", "MAX_PHOTO_UPLOAD", "MAX_TEXT",
    "MAX_UPLOAD", "SEND_METHODS", "StoredFile", "UploadedFile", "User", "WebhookDelivery",
    "parse_keyboard", "render", "utf16_len",
]
