"""A local stand-in for the Telegram Bot API, for end-to-end tests and a local sandbox.

It speaks the real HTTP protocol, so the real python-telegram-bot runs against it unchanged::

    from telegram.ext import ApplicationBuilder, MessageHandler, filters
    from bot.standin.botapi import BotApiStandIn, User

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

Fidelity notes: HTML ``parse_mode`` is validated (unsupported/unclosed tags give Telegram's 400)
and stripped to plain text as Telegram does; MarkdownV2 is checked only for unescaped reserved
characters; no message entities are produced for bot messages.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import math
import re
import time
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Callable

from aiohttp import ClientError, ClientSession, ClientTimeout, web

DEFAULT_TOKEN = "7000000001:AAFStandInTokenForLocalTests_0123456"

# Telegram Bot API limits (see /work/shared/NOTES.md, "Telegram Bot API limits").
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_DOWNLOAD = 20 * 1024 * 1024
MAX_PHOTO_UPLOAD = 10 * 1024 * 1024
MAX_UPLOAD = 50 * 1024 * 1024

SEND_METHODS = frozenset(
    m.lower()
    for m in (
        "sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup", "sendLocation",
        "sendVenue", "sendVideo", "sendAnimation", "sendAudio", "sendVoice", "sendSticker",
        "sendContact", "copyMessage", "forwardMessage",
    )
)
# Parameters that are strings in the Bot API: never JSON-decode these form values.
_STRING_PARAMS = frozenset(
    {
        "text", "caption", "parse_mode", "callback_query_id", "url", "secret_token", "file_id",
        "title", "address", "description", "short_description", "name", "emoji",
        "language_code", "photo", "document", "video", "audio", "voice", "animation",
        "sticker", "inline_message_id", "foursquare_id", "foursquare_type", "google_place_id",
        "google_place_type", "phone_number", "first_name", "last_name", "action",
        "message_effect_id", "business_connection_id", "ip_address", "vcard", "thumbnail",
    }
)
_NO_OP_METHODS = frozenset(
    m.lower()
    for m in (
        "setChatMenuButton", "setMyDescription", "setMyShortDescription", "setMyName",
        "setMyDefaultAdministratorRights", "pinChatMessage", "unpinChatMessage", "logOut",
        "close",
    )
)


class ApiError(Exception):
    """A Bot API error answered as {"ok": false, "error_code": ..., "description": ...}."""

    def __init__(self, error_code: int, description: str, retry_after: int | None = None):
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def body(self) -> dict:
        body: dict[str, Any] = {
            "ok": False, "error_code": self.error_code, "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


# ---------------------------------------------------------------- test-facing value types


@dataclass(frozen=True)
class User:
    """A Telegram user in a private chat with the bot (chat id == user id)."""

    id: int
    first_name: str = "Maria"
    username: str | None = None
    language_code: str | None = "pt-br"
    last_name: str | None = None

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d

    def chat(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "type": "private", "first_name": self.first_name}
        for key in ("last_name", "username"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d


@dataclass(frozen=True)
class Button:
    """One keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    request_location: bool = False
    request_contact: bool = False


def parse_keyboard(reply_markup: dict | None) -> tuple[str | None, list[list[Button]]]:
    """(kind, rows): kind is "inline", "reply", "remove", "force_reply" or None."""
    if not reply_markup:
        return None, []
    if "inline_keyboard" in reply_markup:
        kind, rows = "inline", reply_markup["inline_keyboard"]
    elif "keyboard" in reply_markup:
        kind, rows = "reply", reply_markup["keyboard"]
    elif reply_markup.get("remove_keyboard"):
        return "remove", []
    elif reply_markup.get("force_reply"):
        return "force_reply", []
    else:
        return None, []
    parsed = []
    for row in rows:
        out = []
        for b in row:
            if isinstance(b, str):
                b = {"text": b}
            out.append(
                Button(
                    text=b.get("text", ""),
                    callback_data=b.get("callback_data"),
                    url=b.get("url"),
                    request_location=bool(b.get("request_location")),
                    request_contact=bool(b.get("request_contact")),
                )
            )
        parsed.append(out)
    return kind, parsed


@dataclass
class UploadedFile:
    """A multipart file part the bot uploaded."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class Call:
    """One Bot API request as the stand-in received it, and its answer."""

    method: str
    params: dict[str, Any]
    files: dict[str, UploadedFile]
    time: float
    ok: bool = True
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    via_webhook_reply: bool = False
    finished: bool = False

    @property
    def chat_id(self) -> Any:
        return self.params.get("chat_id")

    @property
    def text(self) -> str | None:
        """Plain text (or caption) as the user sees it (HTML tags stripped)."""
        raw = self.params.get("text", self.params.get("caption"))
        if raw is None:
            return None
        try:
            return _render(str(raw), self.params.get("parse_mode"))
        except ApiError:
            return str(raw)

    @property
    def reply_markup(self) -> dict | None:
        return self.params.get("reply_markup")

    @property
    def keyboard(self) -> str | None:
        return parse_keyboard(self.reply_markup)[0]

    @property
    def buttons(self) -> list[list[Button]]:
        return parse_keyboard(self.reply_markup)[1]

    @property
    def message_id(self) -> int | None:
        if isinstance(self.result, dict):
            return self.result.get("message_id")
        return self.params.get("message_id")

    def file(self, name: str) -> bytes | None:
        """Bytes of an uploaded multipart part (e.g. "photo", "document", "file0")."""
        f = self.files.get(name)
        return f.data if f else None


@dataclass
class BotMessage:
    """A message the bot sent, in its current state (edits applied)."""

    chat_id: int
    message_id: int
    method: str
    raw: dict
    reply_markup: dict | None
    deleted: bool = False
    edits: int = 0

    @property
    def text(self) -> str | None:
        return self.raw.get("text", self.raw.get("caption"))

    @property
    def caption(self) -> str | None:
        return self.raw.get("caption")

    @property
    def keyboard(self) -> str | None:
        return parse_keyboard(self.reply_markup)[0]

    @property
    def buttons(self) -> list[list[Button]]:
        return parse_keyboard(self.reply_markup)[1]

    def flat_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]

    def button(self, text_contains: str) -> Button:
        for b in self.flat_buttons():
            if text_contains in b.text:
                return b
        raise LookupError(f"no button containing {text_contains!r} in {self.flat_buttons()}")


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    data: bytes
    file_path: str
    mime_type: str | None = None
    file_name: str | None = None
    source_url: str | None = None


@dataclass
class WebhookDelivery:
    update_id: int
    status: int | None
    error: str | None
    time: float


@dataclass
class _Pending:
    update: dict
    delivered: bool = False

    @property
    def update_id(self) -> int:
        return self.update["update_id"]


@dataclass
class _Fault:
    error_code: int | None
    description: str | None
    retry_after: int | None
    delay: float


@dataclass
class _RateRule:
    max_calls: int
    per_seconds: float
    methods: frozenset[str]
    per_chat: bool
    retry_after: int | None
    history: dict[Any, deque] = field(default_factory=dict)


# ---------------------------------------------------------------- parse_mode handling

_HTML_TAGS = frozenset(
    {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
     "code", "pre", "blockquote", "tg-emoji"}
)


class _TelegramHtml(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in _HTML_TAGS:
            raise _bad(f'can\'t parse entities: Unsupported start tag "{tag}"')
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        raise _bad(f'can\'t parse entities: Unsupported start tag "{tag}"')

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise _bad(f'can\'t parse entities: Unmatched end tag "{tag}"')
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.out.append(data)


_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")


def _render(text: str, parse_mode: str | None) -> str:
    """The plain text Telegram shows for `text` in `parse_mode`; 400 if it cannot parse."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        parser = _TelegramHtml()
        parser.feed(text)
        parser.close()
        if parser.stack:
            raise _bad(
                f'can\'t parse entities: Can\'t find end tag corresponding to start tag '
                f'"{parser.stack[-1]}"'
            )
        return "".join(parser.out)
    if mode == "markdownv2":
        out, i, in_code, in_url = [], 0, False, False
        while i < len(text):
            ch = text[i]
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 2
                continue
            if ch == "`":
                in_code = not in_code
            elif in_code:
                out.append(ch)
            elif ch == "]" and text[i + 1 : i + 2] == "(":
                in_url = True
                i += 1
            elif in_url:
                in_url = ch != ")"
            elif ch in "#+-={}.!":
                raise _bad(
                    f"can't parse entities: Character '{ch}' is reserved and must be escaped "
                    f"with the preceding '\\'"
                )
            elif ch not in _MDV2_RESERVED:
                out.append(ch)
            i += 1
        return "".join(out)
    return text


def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


_COMMAND_RE = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{5,32})?")


def _command_entities(text: str) -> list[dict]:
    return [
        {"type": "bot_command", "offset": _utf16_len(text[: m.start()]),
         "length": _utf16_len(m.group())}
        for m in _COMMAND_RE.finditer(text)
    ]


def _decode_form_value(key: str, value: str) -> Any:
    if key in _STRING_PARAMS:
        return value
    try:
        decoded = json.loads(value)
    except ValueError:
        return value
    return decoded if isinstance(decoded, (int, float, bool, list, dict)) else value


# ---------------------------------------------------------------- the stand-in


class BotApiStandIn:
    """Telegram Bot API stand-in on 127.0.0.1. Use as ``async with BotApiStandIn() as api``."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "ViaLivreTesteBot",
        bot_first_name: str = "Via Livre (teste)",
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.host, self.port = host, port
        self.me = {
            "id": int(token.split(":", 1)[0]), "is_bot": True, "first_name": bot_first_name,
            "username": bot_username, "can_join_groups": False,
            "can_read_all_group_messages": False, "supports_inline_queries": False,
            "can_connect_to_business": False, "has_main_web_app": False,
        }
        self.calls: list[Call] = []
        self.commands: dict[tuple[str, str], list[dict]] = {}
        self.webhook: dict | None = None
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.files: dict[str, StoredFile] = {}
        self.blocked: set[int] = set()
        self._users: dict[int, User] = {}
        self._messages: dict[tuple[int, int], BotMessage] = {}
        self._user_messages: dict[tuple[int, int], dict] = {}
        self._next_message_id: dict[int, int] = {}
        self._reply_keyboard: dict[int, dict | None] = {}
        self._callback_queries: dict[str, bool] = {}
        self._pending: list[_Pending] = []
        self._last_batch: list[_Pending] = []
        self._next_update_id = 100_000_001
        self._ids = itertools.count(1)
        self._faults: dict[str, deque[_Fault]] = {}
        self._rate_rules: list[_RateRule] = []
        self._updates_event = asyncio.Event()
        self._calls_event = asyncio.Event()
        self._poll_generation = 0
        self._mark = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self._webhook_error: tuple[int, str] | None = None
        self.base_url = ""

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> "BotApiStandIn":
        app = web.Application(client_max_size=MAX_UPLOAD + 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.port = port
        self.base_url = f"http://{host}:{port}"
        return self

    async def stop(self) -> None:
        self._closing = True
        self._wake_pollers()
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "BotApiStandIn":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def bot_base_url(self) -> str:
        """For ``ApplicationBuilder().base_url(...)``."""
        return f"{self.base_url}/bot"

    @property
    def file_base_url(self) -> str:
        """For ``ApplicationBuilder().base_file_url(...)``."""
        return f"{self.base_url}/file/bot"

    # ------------------------------------------------------------ faults

    def fail_next(
        self,
        method: str,
        error_code: int | None = 429,
        *,
        retry_after: int | None = None,
        description: str | None = None,
        delay: float = 0.0,
        times: int = 1,
    ) -> None:
        """Make the next `times` calls of `method` ("*" = any) fail with `error_code`.

        error_code=None with a delay only slows the call down (to provoke client timeouts).
        """
        if error_code == 429 and retry_after is None:
            retry_after = 1
        for _ in range(times):
            self._faults.setdefault(method.lower(), deque()).append(
                _Fault(error_code, description, retry_after, delay)
            )

    def add_rate_rule(
        self,
        max_calls: int,
        per_seconds: float = 1.0,
        *,
        methods: tuple[str, ...] | None = None,
        per_chat: bool = True,
        retry_after: int | None = None,
    ) -> None:
        """More than `max_calls` of `methods` (default: all send methods) per chat (or overall)
        within `per_seconds` answers 429 with retry_after (default: seconds until a slot frees)."""
        ms = frozenset(m.lower() for m in methods) if methods else SEND_METHODS
        self._rate_rules.append(_RateRule(max_calls, per_seconds, ms, per_chat, retry_after))

    def clear_faults(self) -> None:
        self._faults.clear()
        self._rate_rules.clear()

    def block(self, user: User | int) -> None:
        """The user blocked the bot: sends to them answer 403."""
        self.blocked.add(_chat_id(user))

    def use_webhook(self, url: str, secret_token: str | None = None) -> None:
        """Test-side equivalent of the bot calling setWebhook."""
        self.webhook = {"url": url, "secret_token": secret_token, "allowed_updates": None}

    # ------------------------------------------------------------ injecting updates

    def add_user(self, user: User) -> None:
        """Make a user known (as if they had started the bot earlier) without an update."""
        self._users[user.id] = user

    async def inject(self, update: dict) -> dict:
        """Deliver a raw update dict (kept as is; an update_id is added if missing).

        Injecting the same dict twice re-delivers the same update_id."""
        if "update_id" not in update:
            update["update_id"] = self._next_update_id
        self._next_update_id = max(self._next_update_id, update["update_id"] + 1)
        self._mark = len(self.calls)
        if self.webhook is not None:
            await self._deliver_webhook(update)
        else:
            self._pending.append(_Pending(update))
            self._wake_pollers()
        return update

    async def send_text(self, user: User, text: str, *, update_id: int | None = None,
                        reply_to: int | None = None) -> dict:
        content: dict[str, Any] = {"text": text}
        entities = _command_entities(text)
        if entities:
            content["entities"] = entities
        if reply_to is not None:
            content["reply_to_message"] = self._find_raw(user.id, reply_to)
        return await self._inject_message(user, content, update_id)

    async def send_command(self, user: User, command: str, args: str | list[str] | None = None,
                           *, update_id: int | None = None) -> dict:
        command = command if command.startswith("/") else f"/{command}"
        if isinstance(args, (list, tuple)):
            args = " ".join(args)
        text = f"{command} {args}" if args else command
        content = {
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}],
        }
        return await self._inject_message(user, content, update_id)

    async def send_photo(self, user: User, image: bytes, caption: str | None = None,
                         media_group_id: str | None = None, *,
                         update_id: int | None = None) -> dict:
        content: dict[str, Any] = {"photo": self._photo_sizes(image)}
        if caption is not None:
            content["caption"] = caption
        if media_group_id is not None:
            content["media_group_id"] = media_group_id
        return await self._inject_message(user, content, update_id)

    async def send_album(self, user: User, images: list[bytes],
                         caption: str | None = None) -> list[dict]:
        """2–10 photos sharing one media_group_id, each its own update (caption on the first)."""
        group = str(13_000_000_000_000_000 + next(self._ids))
        return [
            await self.send_photo(user, img, caption if i == 0 else None, media_group_id=group)
            for i, img in enumerate(images)
        ]

    async def send_document(self, user: User, data: bytes, file_name: str,
                            mime_type: str = "application/octet-stream",
                            caption: str | None = None, *,
                            update_id: int | None = None) -> dict:
        f = self._register_file(data, "documents", _ext(file_name), mime_type, file_name)
        doc = {"file_name": file_name, "mime_type": mime_type, **_file_fields(f)}
        content: dict[str, Any] = {"document": doc}
        if caption is not None:
            content["caption"] = caption
        return await self._inject_message(user, content, update_id)

    async def send_video(self, user: User, data: bytes, *, duration: int = 5,
                         width: int = 1280, height: int = 720, caption: str | None = None,
                         update_id: int | None = None) -> dict:
        f = self._register_file(data, "videos", ".mp4", "video/mp4", "video.mp4")
        video = {"duration": duration, "width": width, "height": height,
                 "file_name": "video.mp4", "mime_type": "video/mp4", **_file_fields(f)}
        content: dict[str, Any] = {"video": video}
        if caption is not None:
            content["caption"] = caption
        return await self._inject_message(user, content, update_id)

    async def send_sticker(self, user: User, data: bytes = b"RIFF\x00\x00\x00\x00WEBP",
                           emoji: str = "👍", *, update_id: int | None = None) -> dict:
        f = self._register_file(data, "stickers", ".webp", "image/webp")
        sticker = {"width": 512, "height": 512, "emoji": emoji, "set_name": "StandInStickers",
                   "is_animated": False, "is_video": False, "type": "regular", **_file_fields(f)}
        return await self._inject_message(user, {"sticker": sticker}, update_id)

    async def send_location(self, user: User, latitude: float, longitude: float, *,
                            horizontal_accuracy: float | None = None,
                            update_id: int | None = None) -> dict:
        loc: dict[str, Any] = {"latitude": latitude, "longitude": longitude}
        if horizontal_accuracy is not None:
            loc["horizontal_accuracy"] = horizontal_accuracy
        return await self._inject_message(user, {"location": loc}, update_id)

    async def press_button(self, user: User, message: BotMessage | Call | dict | int,
                           callback_data: str | None = None, *, text: str | None = None,
                           update_id: int | None = None, check: bool = True) -> dict:
        """The user taps an inline button of a bot message (by callback_data or button text).

        With check=True the button must exist on the message's current keyboard."""
        msg = self._resolve_message(user.id, message)
        buttons = [b for b in msg.flat_buttons() if b.callback_data is not None]
        if text is not None:
            found = [b for b in buttons if text in b.text]
            if not found:
                raise LookupError(f"no inline button with text {text!r}: {buttons}")
            callback_data = found[0].callback_data
        if check and not any(b.callback_data == callback_data for b in buttons):
            raise LookupError(f"no inline button with callback_data {callback_data!r}: {buttons}")
        query_id = str(4_000_000_000_000_000_000 + next(self._ids))
        self._callback_queries[query_id] = False
        update = {
            "callback_query": {
                "id": query_id, "from": user.to_dict(), "message": dict(msg.raw),
                "chat_instance": str(-(user.id * 7919 % 10**18)), "data": callback_data,
            }
        }
        if update_id is not None:
            update["update_id"] = update_id
        self._users.setdefault(user.id, user)
        return await self.inject(update)

    # ------------------------------------------------------------ reading what the bot did

    def mark(self) -> int:
        """A position in the call log, for ``wait_for(since=...)``."""
        return len(self.calls)

    def sent(self, chat_id: User | int | None = None, method: str | None = None, *,
             ok: bool | None = True) -> list[Call]:
        """Recorded calls (getUpdates excluded unless asked for), oldest first."""
        return [c for c in self.calls if self._matches(c, None, method, chat_id, None, ok)]

    async def wait_for(
        self,
        predicate: Callable[[Call], bool] | None = None,
        *,
        method: str | None = None,
        chat_id: User | int | None = None,
        text: str | None = None,
        count: int = 1,
        timeout: float = 5.0,
        since: int | None = None,
        ok: bool | None = True,
    ) -> Any:
        """Wait for `count` matching calls made since the last injected update (or `since`).

        `text` matches as a substring of the text/caption. Returns the first matching Call
        (count == 1) or a list of `count` calls; raises AssertionError on timeout."""
        pos = self._mark if since is None else since
        deadline = asyncio.get_running_loop().time() + timeout
        found: list[tuple[int, Call]] = []
        unfinished: list[int] = []  # calls are logged on arrival, matched once answered
        while True:
            unfinished.extend(range(pos, len(self.calls)))
            pos = len(self.calls)
            still = []
            for i in unfinished:
                c = self.calls[i]
                if not c.finished:
                    still.append(i)
                elif self._matches(c, predicate, method, chat_id, text, ok):
                    found.append((i, c))
            unfinished = still
            if len(found) >= count:
                calls = [c for _, c in sorted(found, key=lambda f: f[0])]
                return calls[0] if count == 1 else calls[:count]
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                recent = [(c.method, c.chat_id, c.text, c.ok) for c in self.sent(ok=None)[-8:]]
                raise AssertionError(
                    f"timed out waiting for {count} call(s) method={method} chat={chat_id} "
                    f"text={text!r}; got {len(found)}; recent calls: {recent}"
                )
            event = self._calls_event
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass

    def messages(self, chat_id: User | int) -> list[BotMessage]:
        """Bot messages in a chat, current state, deleted ones left out."""
        cid = _chat_id(chat_id)
        return [m for (c, _), m in sorted(self._messages.items()) if c == cid and not m.deleted]

    def last_message(self, chat_id: User | int) -> BotMessage | None:
        msgs = self.messages(chat_id)
        return msgs[-1] if msgs else None

    def reply_keyboard(self, chat_id: User | int) -> list[list[Button]]:
        """The reply keyboard the user currently sees (until removed), as button rows."""
        return parse_keyboard(self._reply_keyboard.get(_chat_id(chat_id)))[1]

    def file_bytes(self, file_id: str) -> bytes:
        return self.files[file_id].data

    def my_commands(self, scope: dict | None = None, language_code: str = "") -> list[dict]:
        return self.commands.get(_commands_key(scope, language_code), [])

    # ------------------------------------------------------------ HTTP handlers

    async def _handle_api(self, request: web.Request) -> web.StreamResponse:
        try:
            params, files = await _read_params(request)
        except ConnectionResetError:  # the client gave up while sending (e.g. PTB stopping)
            return web.Response(status=499)
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        call = await self._execute(request.match_info["method"], params, files)
        if call.ok:
            return web.json_response({"ok": True, "result": call.result})
        err = ApiError(call.error_code or 400, call.description or "", None)
        body = err.body()
        if call.error_code == 429 and isinstance(call.result, int):
            body["parameters"] = {"retry_after": call.result}
        return web.json_response(body, status=err.error_code)

    async def _handle_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.Response(status=401, text="Unauthorized")
        path = request.match_info["path"]
        for f in self.files.values():
            if f.file_path == path:
                return web.Response(body=f.data, content_type="application/octet-stream")
        return web.Response(status=404, text="Not Found")

    async def _execute(self, method: str, params: dict, files: dict[str, UploadedFile],
                       via_webhook_reply: bool = False) -> Call:
        call = Call(method, params, files, time.time(), via_webhook_reply=via_webhook_reply)
        self.calls.append(call)
        key = method.lower()
        try:
            fault = self._take_fault(key)
            if fault is not None:
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.error_code is not None:
                    raise ApiError(fault.error_code, fault.description
                                   or _default_description(fault), fault.retry_after)
            self._check_rate(key, params)
            handler = getattr(self, f"_m_{key}", None)
            if handler is None:
                if key not in _NO_OP_METHODS:
                    raise ApiError(404, "Not Found: method not found")
                call.result = True
            else:
                call.result = await handler(params, files)
        except ApiError as e:
            call.ok, call.error_code, call.description = False, e.error_code, e.description
            call.result = e.retry_after
        except (ValueError, TypeError, KeyError, AttributeError) as e:  # malformed parameters
            call.ok, call.error_code = False, 400
            call.description = f"Bad Request: stand-in could not read the parameters: {e!r}"
        finally:
            call.finished = True
            self._calls_event.set()
            self._calls_event = asyncio.Event()
        return call

    def _take_fault(self, key: str) -> _Fault | None:
        for k in (key, "*"):
            q = self._faults.get(k)
            if q:
                return q.popleft()
        return None

    def _check_rate(self, key: str, params: dict) -> None:
        now = asyncio.get_running_loop().time()
        rules = [r for r in self._rate_rules if key in r.methods]
        for r in rules:
            hist = r.history.setdefault(params.get("chat_id") if r.per_chat else None, deque())
            while hist and hist[0] <= now - r.per_seconds:
                hist.popleft()
            if len(hist) >= r.max_calls:
                wait = r.retry_after or max(1, math.ceil(hist[0] + r.per_seconds - now))
                raise ApiError(429, f"Too Many Requests: retry after {wait}", wait)
        for r in rules:
            r.history[params.get("chat_id") if r.per_chat else None].append(now)

    # ------------------------------------------------------------ updates / webhook

    def _wake_pollers(self) -> None:
        self._updates_event.set()
        self._updates_event = asyncio.Event()

    async def _m_getupdates(self, params: dict, files: dict) -> list[dict]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake_pollers()  # an older concurrent poll gets its 409 below
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(float(params.get("timeout") or 0), 0.0)
        allowed = params.get("allowed_updates") or None
        self._confirm(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if generation != self._poll_generation:
                raise ApiError(409, "Conflict: terminated by other getUpdates request; make sure "
                                    "that only one bot instance is running")
            if allowed:
                self._pending = [p for p in self._pending
                                 if next(k for k in p.update if k != "update_id") in allowed]
            batch = self._pending[:limit]
            remaining = deadline - loop.time()
            if batch or self._closing or remaining <= 0:
                for p in batch:
                    p.delivered = True
                self._last_batch = batch
                return [p.update for p in batch]
            event = self._updates_event
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass

    def _confirm(self, offset: int) -> None:
        if offset < 0:
            self._pending = self._pending[offset:]
            return
        if not offset:
            return
        confirmed = set()
        if self._last_batch and self._last_batch[-1].update_id + 1 == offset:
            confirmed = {id(p) for p in self._last_batch}
        self._pending = [p for p in self._pending
                         if not (id(p) in confirmed or (p.delivered and p.update_id < offset))]

    async def _deliver_webhook(self, update: dict) -> None:
        assert self.webhook is not None
        if self._session is None:
            self._session = ClientSession()
        headers = {}
        if self.webhook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
        status, error, reply = None, None, None
        try:
            async with self._session.post(self.webhook["url"], json=update, headers=headers,
                                          timeout=ClientTimeout(total=10)) as resp:
                status = resp.status
                if 200 <= status < 300:
                    try:
                        reply = await resp.json(content_type=None)
                    except ValueError:
                        reply = None
                else:
                    error = f"Wrong response from the webhook: {status} {resp.reason}"
        except (ClientError, asyncio.TimeoutError) as e:
            error = f"Connection failed: {e!r}"
        self.webhook_deliveries.append(
            WebhookDelivery(update["update_id"], status, error, time.time()))
        if error:
            self._webhook_error = (int(time.time()), error)
        if isinstance(reply, dict) and isinstance(reply.get("method"), str):
            params = {k: v for k, v in reply.items() if k != "method"}
            await self._execute(reply["method"], params, {}, via_webhook_reply=True)

    async def _m_setwebhook(self, params: dict, files: dict) -> bool:
        url = params.get("url") or ""
        if not url:
            self.webhook = None
            return True
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise _bad("secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook = {"url": url, "secret_token": secret,
                        "allowed_updates": params.get("allowed_updates")}
        pending, self._pending = self._pending, []
        for p in pending:
            asyncio.get_running_loop().create_task(self._deliver_webhook(p.update))
        return True

    async def _m_deletewebhook(self, params: dict, files: dict) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def _m_getwebhookinfo(self, params: dict, files: dict) -> dict:
        info: dict[str, Any] = {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook and self.webhook.get("allowed_updates"):
            info["allowed_updates"] = self.webhook["allowed_updates"]
        if self._webhook_error:
            info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    # ------------------------------------------------------------ bot-level methods

    async def _m_getme(self, params: dict, files: dict) -> dict:
        return self.me

    async def _m_setmycommands(self, params: dict, files: dict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise _bad("parameter \"commands\" must be an array of BotCommand")
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(c.get("command", ""))):
                raise _bad("BOT_COMMAND_INVALID")
            if not 1 <= len(str(c.get("description", ""))) <= 256:
                raise _bad("command description is empty")
        key = _commands_key(params.get("scope"), params.get("language_code") or "")
        self.commands[key] = commands
        return True

    async def _m_getmycommands(self, params: dict, files: dict) -> list[dict]:
        return self.my_commands(params.get("scope"), params.get("language_code") or "")

    async def _m_deletemycommands(self, params: dict, files: dict) -> bool:
        self.commands.pop(_commands_key(params.get("scope"), params.get("language_code") or ""),
                          None)
        return True

    async def _m_getchat(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        return {**user.chat(), "accent_color_id": 0, "max_reaction_count": 11}

    async def _m_sendchataction(self, params: dict, files: dict) -> bool:
        self._user_for(params)
        return True

    async def _m_answercallbackquery(self, params: dict, files: dict) -> bool:
        qid = str(params.get("callback_query_id"))
        if self._callback_queries.get(qid) is not False:
            raise _bad("query is too old and response timeout expired or query ID is invalid")
        if len(str(params.get("text") or "")) > 200:
            raise _bad("MESSAGE_TOO_LONG")
        self._callback_queries[qid] = True
        return True

    # ------------------------------------------------------------ sending

    async def _m_sendmessage(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        text = str(params.get("text") or "")
        plain = _render(text, params.get("parse_mode"))
        if not plain.strip():
            raise _bad("message text is empty")
        if len(plain) > MAX_TEXT:
            raise _bad("message is too long")
        return self._store_sent(user, "sendMessage", params, {"text": plain})

    async def _m_sendphoto(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        content = self._caption(params)
        content["photo"] = self._media_param(params, files, "photo")
        return self._store_sent(user, "sendPhoto", params, content)

    async def _m_senddocument(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "document")

    async def _m_sendvideo(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "video")

    async def _m_sendanimation(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "animation")

    async def _m_sendaudio(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "audio")

    async def _m_sendvoice(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "voice")

    async def _m_sendsticker(self, params: dict, files: dict) -> dict:
        return await self._send_file_kind(params, files, "sticker")

    async def _send_file_kind(self, params: dict, files: dict, kind: str) -> dict:
        user = self._user_for(params)
        content = self._caption(params) if kind != "sticker" else {}
        content[kind] = self._media_param(params, files, kind)
        return self._store_sent(user, f"send{kind.capitalize()}", params, content)

    async def _m_sendmediagroup(self, params: dict, files: dict) -> list[dict]:
        user = self._user_for(params)
        media = params.get("media")
        if not isinstance(media, list) or not 2 <= len(media) <= 10:
            raise _bad("wrong number of media items: an album has 2 to 10 items")
        group = str(13_500_000_000_000_000 + next(self._ids))
        results = []
        for item in media:
            kind = item.get("type", "photo")
            ref = item.get("media", "")
            part = {"media": ref}
            content = self._caption(item)
            content[kind] = self._media_param(part, files, "media", kind=kind)
            content["media_group_id"] = group
            item_params = {"chat_id": params.get("chat_id"), **item}
            results.append(self._store_sent(user, "sendMediaGroup", item_params, content))
        return results

    async def _m_sendlocation(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        loc = _location(params)
        return self._store_sent(user, "sendLocation", params, {"location": loc})

    async def _m_sendvenue(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        loc = _location(params)
        venue = {"location": loc, "title": str(params.get("title") or ""),
                 "address": str(params.get("address") or "")}
        if not venue["title"] or not venue["address"]:
            raise _bad("title and address must be non-empty")
        return self._store_sent(user, "sendVenue", params, {"venue": venue, "location": loc})

    async def _m_sendcontact(self, params: dict, files: dict) -> dict:
        user = self._user_for(params)
        contact = {"phone_number": str(params.get("phone_number") or ""),
                   "first_name": str(params.get("first_name") or "")}
        return self._store_sent(user, "sendContact", params, {"contact": contact})

    # ------------------------------------------------------------ editing / deleting

    async def _m_editmessagetext(self, params: dict, files: dict) -> Any:
        msg = self._editable(params)
        if "text" not in msg.raw:
            raise _bad("there is no text in the message to edit")
        plain = _render(str(params.get("text") or ""), params.get("parse_mode"))
        if not plain.strip():
            raise _bad("message text is empty")
        if len(plain) > MAX_TEXT:
            raise _bad("MESSAGE_TOO_LONG")
        return self._apply_edit(msg, "text", plain, params)

    async def _m_editmessagecaption(self, params: dict, files: dict) -> Any:
        msg = self._editable(params)
        caption = self._caption(params).get("caption")
        return self._apply_edit(msg, "caption", caption, params)

    async def _m_editmessagereplymarkup(self, params: dict, files: dict) -> Any:
        msg = self._editable(params)
        return self._apply_edit(msg, None, None, params)

    async def _m_deletemessage(self, params: dict, files: dict) -> bool:
        key = (_chat_id(params.get("chat_id")), int(params.get("message_id") or 0))
        msg = self._messages.get(key)
        if key in self._user_messages:
            del self._user_messages[key]
            return True
        if msg is None or msg.deleted:
            raise _bad("message to delete not found")
        msg.deleted = True
        return True

    def _editable(self, params: dict) -> BotMessage:
        if params.get("inline_message_id"):
            raise _bad("inline messages are not supported by the stand-in")
        key = (_chat_id(params.get("chat_id")), int(params.get("message_id") or 0))
        msg = self._messages.get(key)
        if msg is None or msg.deleted:
            raise _bad("message to edit not found")
        return msg

    def _apply_edit(self, msg: BotMessage, key: str | None, value: Any, params: dict) -> dict:
        markup = params.get("reply_markup")
        if markup is not None and "inline_keyboard" not in markup:
            raise _bad("inline keyboard expected")
        _validate_markup(markup)
        same_content = key is None or msg.raw.get(key) == value
        if same_content and msg.raw.get("reply_markup") == (markup or None):
            raise _bad("message is not modified: specified new message content and reply "
                       "markup are exactly the same as a current content and reply markup "
                       "of the message")
        if key is not None:
            if value is None:
                msg.raw.pop(key, None)
            else:
                msg.raw[key] = value
        msg.reply_markup = markup
        if markup:
            msg.raw["reply_markup"] = markup
        else:
            msg.raw.pop("reply_markup", None)
        msg.raw["edit_date"] = int(time.time())
        msg.edits += 1
        return dict(msg.raw)

    # ------------------------------------------------------------ files

    async def _m_getfile(self, params: dict, files: dict) -> dict:
        f = self.files.get(str(params.get("file_id") or ""))
        if f is None:
            raise _bad("invalid file_id")
        if len(f.data) > MAX_DOWNLOAD:
            raise _bad("file is too big")
        return {"file_id": f.file_id, "file_unique_id": f.file_unique_id,
                "file_size": len(f.data), "file_path": f.file_path}

    def _register_file(self, data: bytes, folder: str, ext: str, mime: str | None = None,
                       name: str | None = None, source_url: str | None = None) -> StoredFile:
        n = next(self._ids)
        prefix = {"photos": "AgACAgEAAxkBAAI", "documents": "BQACAgEAAxkBAAI",
                  "videos": "BAACAgEAAxkBAAI", "stickers": "CAACAgEAAxkBAAI"}.get(
            folder, "CQACAgEAAxkBAAI")
        f = StoredFile(file_id=f"{prefix}{n:07d}StandIn", file_unique_id=f"AQAD{n:07d}",
                       data=data, file_path=f"{folder}/file_{n}{ext}", mime_type=mime,
                       file_name=name, source_url=source_url)
        self.files[f.file_id] = f
        return f

    def _photo_sizes(self, data: bytes) -> list[dict]:
        """Telegram-like PhotoSize array, smallest first; the last one holds the exact bytes."""
        image, (w, h) = None, (1280, 960)
        try:
            from PIL import Image

            image = Image.open(io.BytesIO(data))
            w, h = image.size
        except Exception:  # not an image Pillow can read: keep plausible sizes
            image = None
        sizes = []
        for side in (90, 320, 800):
            if max(w, h) <= side:
                break
            scale = side / max(w, h)
            tw, th = max(1, round(w * scale)), max(1, round(h * scale))
            thumb = data
            if image is not None:
                try:
                    buf = io.BytesIO()
                    image.convert("RGB").resize((tw, th)).save(buf, "JPEG", quality=80)
                    thumb = buf.getvalue()
                except Exception:
                    thumb = data
            f = self._register_file(thumb, "photos", ".jpg", "image/jpeg")
            sizes.append({**_file_fields(f), "width": tw, "height": th})
        f = self._register_file(data, "photos", ".jpg", "image/jpeg")
        sizes.append({**_file_fields(f), "width": w, "height": h})
        return sizes

    def _media_param(self, params: dict, files: dict, name: str, kind: str | None = None) -> Any:
        kind = kind or name
        ref = params.get(name)
        upload = files.get(name)
        if isinstance(ref, str) and ref.startswith("attach://"):
            upload = files.get(ref[len("attach://"):])
            if upload is None:
                raise _bad(f"can't find attached file \"{ref}\"")
        limit = MAX_PHOTO_UPLOAD if kind == "photo" else MAX_UPLOAD
        if upload is not None:
            if len(upload.data) > limit:
                raise ApiError(413, "Request Entity Too Large")
            if kind == "photo":
                return self._photo_sizes(upload.data)
            folder = {"video": "videos", "sticker": "stickers"}.get(kind, "documents")
            f = self._register_file(upload.data, folder, _ext(upload.filename or ""),
                                    upload.content_type, upload.filename)
        elif isinstance(ref, str) and ref in self.files:
            f = self.files[ref]
        elif isinstance(ref, str) and ref.startswith(("http://", "https://")):
            f = self._register_file(b"", "documents", _ext(ref), None, None, source_url=ref)
        else:
            raise _bad("wrong file identifier/HTTP URL specified")
        if kind == "photo":
            return [{**_file_fields(f), "width": 1280, "height": 960}]
        out = _file_fields(f)
        if f.file_name:
            out["file_name"] = f.file_name
        if f.mime_type:
            out["mime_type"] = f.mime_type
        return out

    # ------------------------------------------------------------ helpers

    def _user_for(self, params: dict) -> User:
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise _bad("chat_id is empty")
        cid = _chat_id(raw)
        if cid in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        user = self._users.get(cid)
        if user is None:
            raise _bad("chat not found")
        return user

    def _caption(self, params: dict) -> dict:
        caption = params.get("caption")
        if caption is None or caption == "":
            return {}
        plain = _render(str(caption), params.get("parse_mode"))
        if len(plain) > MAX_CAPTION:
            raise _bad("message caption is too long")
        return {"caption": plain}

    def _new_message_id(self, chat_id: int) -> int:
        n = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = n + 1
        return n

    def _store_sent(self, user: User, method: str, params: dict, content: dict) -> dict:
        markup = params.get("reply_markup")
        _validate_markup(markup)
        mid = self._new_message_id(user.id)
        raw: dict[str, Any] = {"message_id": mid, "from": self.me, "chat": user.chat(),
                               "date": int(time.time()), **content}
        reply_to = params.get("reply_to_message_id") or (
            (params.get("reply_parameters") or {}).get("message_id"))
        if reply_to:
            raw["reply_to_message"] = self._find_raw(user.id, int(reply_to))
        if markup and "inline_keyboard" in markup:
            raw["reply_markup"] = markup
        if markup and ("keyboard" in markup or markup.get("remove_keyboard")):
            self._reply_keyboard[user.id] = markup if "keyboard" in markup else None
        self._messages[(user.id, mid)] = BotMessage(user.id, mid, method, raw, markup)
        return dict(raw)

    def _find_raw(self, chat_id: int, message_id: int) -> dict:
        if (chat_id, message_id) in self._user_messages:
            return self._user_messages[(chat_id, message_id)]
        msg = self._messages.get((chat_id, message_id))
        if msg is None:
            raise _bad("message to be replied not found")
        return dict(msg.raw)

    def _resolve_message(self, chat_id: int, message: Any) -> BotMessage:
        if isinstance(message, BotMessage):
            mid = message.message_id
        elif isinstance(message, Call):
            mid = message.message_id
        elif isinstance(message, dict):
            mid = message.get("message_id")
        else:
            mid = int(message)
        msg = self._messages.get((chat_id, mid))
        if msg is None or msg.deleted:
            raise LookupError(f"bot message {mid} not found (or deleted) in chat {chat_id}")
        return msg

    async def _inject_message(self, user: User, content: dict, update_id: int | None) -> dict:
        self._users.setdefault(user.id, user)
        if user.id in self.blocked:
            self.blocked.discard(user.id)  # writing to the bot again unblocks it
        mid = self._new_message_id(user.id)
        message = {"message_id": mid, "from": user.to_dict(), "chat": user.chat(),
                   "date": int(time.time()), **content}
        self._user_messages[(user.id, mid)] = message
        update: dict[str, Any] = {"message": message}
        if update_id is not None:
            update["update_id"] = update_id
        return await self.inject(update)

    def _matches(self, c: Call, predicate: Callable[[Call], bool] | None, method: str | None,
                 chat_id: Any, text: str | None, ok: bool | None) -> bool:
        if method is None and c.method.lower() == "getupdates":
            return False
        if method is not None and c.method.lower() != method.lower():
            return False
        if ok is not None and c.ok != ok:
            return False
        if chat_id is not None and c.chat_id != _chat_id(chat_id):
            return False
        if text is not None and text not in (c.text or ""):
            return False
        return predicate is None or bool(predicate(c))


def _chat_id(value: Any) -> Any:
    if isinstance(value, User):
        return value.id
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def _commands_key(scope: dict | None, language_code: str) -> tuple[str, str]:
    return json.dumps(scope or {"type": "default"}, sort_keys=True), language_code


def _file_fields(f: StoredFile) -> dict:
    return {"file_id": f.file_id, "file_unique_id": f.file_unique_id, "file_size": len(f.data)}


def _ext(name: str) -> str:
    m = re.search(r"(\.[A-Za-z0-9]{1,5})$", name.split("?")[0])
    return m.group(1).lower() if m else ""


def _location(params: dict) -> dict:
    try:
        lat, lon = float(params["latitude"]), float(params["longitude"])
    except (KeyError, TypeError, ValueError):
        raise _bad("latitude and longitude are required") from None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise _bad("wrong latitude/longitude")
    return {"latitude": lat, "longitude": lon}


def _validate_markup(markup: Any) -> None:
    if markup is None:
        return
    if not isinstance(markup, dict):
        raise _bad("can't parse reply keyboard markup JSON object")
    for row in markup.get("inline_keyboard", []):
        for b in row:
            optional = [k for k in b if k != "text"]
            if not b.get("text"):
                raise _bad("can't parse inline keyboard button: Text must be non-empty")
            if not optional:
                raise _bad("can't parse inline keyboard button: Text buttons are unallowed "
                           "in the inline keyboard")
            data = b.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= MAX_CALLBACK_DATA:
                raise _bad("BUTTON_DATA_INVALID")


def _default_description(fault: _Fault) -> str:
    return {
        429: f"Too Many Requests: retry after {fault.retry_after}",
        400: "Bad Request: injected failure",
        401: "Unauthorized",
        403: "Forbidden: bot was blocked by the user",
        404: "Not Found",
        409: "Conflict: terminated by other getUpdates request",
        500: "Internal Server Error",
        502: "Bad Gateway",
    }.get(fault.error_code or 0, "Injected failure")


async def _read_params(request: web.Request) -> tuple[dict, dict[str, UploadedFile]]:
    raw: dict[str, str] = dict(request.query)
    params: dict[str, Any] = {}
    files: dict[str, UploadedFile] = {}
    if request.can_read_body:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                body = None
            if isinstance(body, dict):
                params.update(body)
        else:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = UploadedFile(key, value.filename, value.content_type,
                                              value.file.read())
                else:
                    raw[key] = str(value)
    for key, value in raw.items():
        params.setdefault(key, _decode_form_value(key, value))
    return params, files
