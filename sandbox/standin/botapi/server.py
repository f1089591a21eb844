"""The stand-in's server: lifecycle, faults a test asks for, the HTTP handlers and the dispatch
of each call (checked against the published Bot API first) to its method."""
from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import deque
from typing import Any

from aiohttp import ClientSession, web

from sandbox.standin.botapi.errors import ApiError, bad
from sandbox.standin.botapi.files import FilesMixin
from sandbox.standin.botapi.inject import InjectMixin
from sandbox.standin.botapi.limits import MAX_UPLOAD, check_limits
from sandbox.standin.botapi.messages import MessagesMixin
from sandbox.standin.botapi.observe import ObserveMixin
from sandbox.standin.botapi.schema import check_call
from sandbox.standin.botapi.updates import UpdatesMixin
from sandbox.standin.botapi.values import (BotMessage, Call, Fault, Pending, RateRule, StoredFile,
                                       UploadedFile, User, WebhookDelivery, chat_id_of)

DEFAULT_TOKEN = "7000000001:AAFStandInTokenForLocalTests_0123456"

SEND_METHODS = frozenset(
    m.lower()
    for m in (
        "sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup", "sendLocation",
        "sendVenue", "sendVideo", "sendAnimation", "sendAudio", "sendVoice", "sendSticker",
        "sendContact", "copyMessage", "forwardMessage",
    )
)
# Valid Bot API methods the stand-in accepts and ignores (their effect is not observable here).
_NO_OP_METHODS = frozenset(
    m.lower()
    for m in (
        "setChatMenuButton", "setMyDescription", "setMyShortDescription", "setMyName",
        "setMyDefaultAdministratorRights", "pinChatMessage", "unpinChatMessage", "logOut",
        "close",
    )
)


class BotApiStandIn(InjectMixin, ObserveMixin, UpdatesMixin, MessagesMixin, FilesMixin):
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
        self._pending: list[Pending] = []
        self._last_batch: list[Pending] = []
        self._next_update_id = 100_000_001
        self._ids = itertools.count(1)
        self._faults: dict[str, deque[Fault]] = {}
        self._rate_rules: list[RateRule] = []
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
                Fault(error_code, description, retry_after, delay)
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
        self._rate_rules.append(RateRule(max_calls, per_seconds, ms, per_chat, retry_after))

    def clear_faults(self) -> None:
        self._faults.clear()
        self._rate_rules.clear()

    def block(self, user: User | int) -> None:
        """The user blocked the bot: sends to them answer 403."""
        self.blocked.add(chat_id_of(user))

    def use_webhook(self, url: str, secret_token: str | None = None) -> None:
        """Test-side equivalent of the bot calling setWebhook."""
        self.webhook = {"url": url, "secret_token": secret_token, "allowed_updates": None}

    # ------------------------------------------------------------ HTTP handlers

    async def _handle_api(self, request: web.Request) -> web.StreamResponse:
        try:
            params, files = await read_params(request)
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
        try:
            # What Telegram refuses is refused first, exactly as Telegram would (schema.py).
            name, call.params = check_call(method, params, files)
            check_limits(name, call.params)
            key = name.lower()
            fault = self._take_fault(key)
            if fault is not None:
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.error_code is not None:
                    raise ApiError(fault.error_code, fault.description
                                   or default_description(fault), fault.retry_after)
            self._check_rate(key, call.params)
            handler = getattr(self, f"_m_{key}", None)
            if handler is not None:
                call.result = await handler(call.params, files)
            elif key in _NO_OP_METHODS:
                call.result = True
            else:
                raise bad(f"{name} is a valid Bot API method the stand-in does not implement")
        except ApiError as e:
            call.ok, call.error_code, call.description = False, e.error_code, e.description
            call.result = e.retry_after
        except (ValueError, TypeError, KeyError, AttributeError) as e:  # a stand-in gap, not a crash
            call.ok, call.error_code = False, 400
            call.description = f"Bad Request: stand-in could not read the parameters: {e!r}"
        finally:
            call.finished = True
            self._calls_event.set()
            self._calls_event = asyncio.Event()
        return call

    def _take_fault(self, key: str) -> Fault | None:
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


def default_description(fault: Fault) -> str:
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


async def read_params(request: web.Request) -> tuple[dict, dict[str, UploadedFile]]:
    """The call's parameters as sent (query string, JSON body or form fields; form values stay
    strings, as Telegram receives them) and its uploaded multipart parts."""
    params: dict[str, Any] = dict(request.query)
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
                    params[key] = str(value)
    return params, files
