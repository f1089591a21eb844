"""The Cloud API stand-in's server: the Graph API paths a face uses, bearer-token auth, the
customer-service window kept per user on a clock a test moves, approved templates, media."""
from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientSession, web

from sandbox.standin.whatsapp.check import check_message
from sandbox.standin.whatsapp.control import ControlMixin
from sandbox.standin.whatsapp.errors import CODES, GraphError, unauthorized
from sandbox.standin.whatsapp.webhooks import Delivery, envelope, new_wamid, post

DEFAULT_TOKEN = "EAAStandInAccessTokenForLocalTests0123456789"
DEFAULT_APP_SECRET = "standin-app-secret-0123456789abcdef"
DEFAULT_PHONE_NUMBER_ID = "106540352242922"
WINDOW_SECONDS = 24 * 3600
MAX_MEDIA = 100 * 1024 * 1024  # documents; images are refused above 5 MB
MAX_IMAGE = 5 * 1024 * 1024
_FREE_FORM_EXEMPT = {"template"}
URL_LIFETIME = 5 * 60  # a media URL answers for five minutes, then ask for a new one
# what a face of this product uploads: photos and PDFs (the platform takes more kinds)
UPLOAD_TYPES = frozenset({"image/jpeg", "image/png", "application/pdf", "text/plain"})


@dataclass
class Media:
    id: str
    data: bytes
    mime_type: str
    filename: str | None = None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class Sent:
    """A message the face sent (accepted), as sent, with the id the platform gave it."""

    id: str
    to: str
    body: dict
    at: float
    statuses: list[str] = field(default_factory=list)

    @property
    def type(self) -> str:
        return str(self.body.get("type", "text"))

    @property
    def text(self) -> str | None:
        b = self.body
        if self.type == "text":
            return b["text"].get("body")
        if self.type == "interactive":
            return b["interactive"].get("body", {}).get("text")
        media = b.get(self.type)
        return media.get("caption") if isinstance(media, dict) else None


class WhatsAppStandIn(ControlMixin):
    """WhatsApp Cloud API stand-in on 127.0.0.1. Use as ``async with WhatsAppStandIn() as wa``.

    ``templates`` maps an approved template's name to its body's number of parameters (per
    language code, or one number for ``pt_BR``). ``window_errors="sync"`` refuses a free-form
    message outside the 24 hours with 131047 at once; ``"webhook"`` accepts it and reports the
    failure in a ``failed`` status, as the platform often does."""

    def __init__(self, *, token: str = DEFAULT_TOKEN, app_secret: str = DEFAULT_APP_SECRET,
                 phone_number_id: str = DEFAULT_PHONE_NUMBER_ID,
                 display_phone_number: str = "5511955550000", waba_id: str = "102290129340398",
                 templates: dict[str, int | dict[str, int]] | None = None,
                 webhook_url: str | None = None, window_errors: str = "sync",
                 send_statuses: bool = True, host: str = "127.0.0.1", port: int = 0) -> None:
        self.token, self.app_secret = token, app_secret
        self.phone_number_id, self.display_phone_number = phone_number_id, display_phone_number
        self.waba_id = waba_id
        self.templates: dict[str, dict[str, int]] = {
            name: (n if isinstance(n, dict) else {"pt_BR": n})
            for name, n in (templates or {}).items()
        }
        self.webhook_url = webhook_url
        self.window_errors, self.send_statuses = window_errors, send_statuses
        self.host, self.port = host, port
        self.base_url = ""
        self.clock_offset = 0.0
        self.last_inbound: dict[str, float] = {}
        self.profiles: dict[str, str] = {}
        self.sent: list[Sent] = []
        self.refused: list[tuple[dict, dict]] = []
        self.read: list[str] = []
        self.media: dict[str, Media] = {}
        self.deliveries: list[Delivery] = []
        self._ids = itertools.count(1)
        self._faults: list[GraphError] = []
        self._undeliverable: set[str] = set()
        self._tasks: set[asyncio.Task] = set()
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> "WhatsAppStandIn":
        app = web.Application(client_max_size=MAX_MEDIA + 1024 * 1024)
        self.add_control_routes(app)
        app.router.add_post("/{version}/{phone_number_id}/messages", self._handle_messages)
        app.router.add_post("/{version}/{phone_number_id}/media", self._handle_upload)
        app.router.add_get("/whatsapp_business/attachments/", self._handle_download)
        app.router.add_get("/{version}/{media_id}", self._handle_media_url)
        app.router.add_delete("/{version}/{media_id}", self._handle_media_delete)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.port, self.base_url = port, f"http://{host}:{port}"
        return self

    async def stop(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "WhatsAppStandIn":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def graph_url(self) -> str:
        """For ``WHATSAPP_GRAPH_URL``: the Graph API's base with its version."""
        return f"{self.base_url}/v23.0"

    # ------------------------------------------------------------ the clock and the window

    def now(self) -> float:
        return time.time() + self.clock_offset

    def advance(self, seconds: float) -> float:
        self.clock_offset += seconds
        return self.now()

    def in_window(self, wa_id: str) -> bool:
        last = self.last_inbound.get(wa_id)
        return last is not None and self.now() - last <= WINDOW_SECONDS

    # ------------------------------------------------------------ HTTP handlers

    def _authorize(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        if not header:
            raise GraphError(104, status=401, message="An access token is required to request "
                             "this resource.")
        if header != f"Bearer {self.token}":
            raise unauthorized()

    def _check_phone(self, request: web.Request) -> None:
        if request.match_info["phone_number_id"] != self.phone_number_id:
            raise GraphError(100, status=400, message=(
                f"Unsupported post request. Object with ID "
                f"'{request.match_info['phone_number_id']}' does not exist, cannot be loaded "
                "due to missing permissions, or does not support this operation."), subcode=33)

    async def _handle_messages(self, request: web.Request) -> web.Response:
        raw = await request.read()
        try:
            self._authorize(request)
            self._check_phone(request)
            try:
                body = json.loads(raw or b"null")
            except ValueError:
                raise GraphError(100, message="(#100) Invalid JSON in request body") from None
            result = self.accept(body)
        except GraphError as e:
            self.refused.append((_json_or_raw(raw), e.body()))
            return web.json_response(e.body(), status=e.status)
        return web.json_response(result)

    # ------------------------------------------------------------ faults a test asks for

    def fail_next(self, code: int = 130429, *, times: int = 1,
                  details: str | None = None) -> None:
        """The next `times` valid sends are refused with `code` (130429 throughput, 131056 pair
        rate limit, 131000 the platform's own failure...), after the checks a send must pass."""
        self._faults.extend([GraphError(code, details or CODES.get(code, (400, "Error"))[1])]
                            * times)

    def undeliverable(self, wa_id: str) -> None:
        """Sends to this user are accepted, then fail in a status webhook with 131026 (not on
        WhatsApp, blocked the business, an old app)."""
        self._undeliverable.add(wa_id)

    def accept(self, body: Any) -> dict:
        """A send checked as the platform checks it: its answer, or the GraphError."""
        body = check_message(body)
        if self._faults:
            raise self._faults.pop(0)
        if body.get("status") == "read":
            self.read.append(body["message_id"])
            return {"success": True}
        to = _digits(body["to"])
        if not 8 <= len(to) <= 15:
            raise GraphError(100, message="(#100) Invalid parameter", details=(
                f"Param to ({body['to']}) is not a valid WhatsApp phone number"))
        if body["type"] == "template":
            self._check_template(body["template"])
        window_error = None
        if body["type"] not in _FREE_FORM_EXEMPT and not self.in_window(to):
            window_error = GraphError(131047, "Message failed to send because more than 24 "
                                      "hours have passed since the customer last replied to "
                                      "this number.")
            if self.window_errors == "sync":
                raise window_error
        self._check_media(body)
        sent = Sent(new_wamid(), to, body, self.now())
        self.sent.append(sent)
        if window_error is None and to in self._undeliverable:
            window_error = GraphError(131026, "Message Undeliverable.")
        if window_error is not None:
            self._status_later(sent, "failed", window_error)
        elif self.send_statuses:
            self._status_later(sent, "sent")
            self._status_later(sent, "delivered")
        return {"messaging_product": "whatsapp",
                "contacts": [{"input": body["to"], "wa_id": to}],
                "messages": [{"id": sent.id, "message_status": "accepted"}]}

    def _check_template(self, template: dict) -> None:
        name, language = template["name"], template["language"]["code"]
        counts = self.templates.get(name)
        if counts is None or language not in counts:
            raise GraphError(132001, f"template name ({name}) does not exist in {language}")
        expected = counts[language]
        given = sum(len(c.get("parameters", [])) for c in template.get("components", [])
                    if c.get("type") == "body")
        if given != expected:
            raise GraphError(132000, f"body: number of localizable_params ({given}) does not "
                             f"match the expected number of params ({expected})")

    def _check_media(self, body: dict) -> None:
        media = body.get(body["type"])
        if isinstance(media, dict) and "id" in media and media["id"] not in self.media:
            raise GraphError(100, message=f"(#100) Param {body['type']}['id'] is not a valid "
                             "whatsapp business account media attachment ID")

    async def _handle_upload(self, request: web.Request) -> web.Response:
        try:
            self._authorize(request)
            self._check_phone(request)
            form = await request.post()
            if form.get("messaging_product") != "whatsapp":
                raise GraphError(100, message="(#100) The parameter messaging_product is "
                                 "required.")
            upload = form.get("file")
            if not isinstance(upload, web.FileField):
                raise GraphError(100, message="(#100) The parameter file is required.")
            data = upload.file.read()
            mime = str(form.get("type") or upload.content_type or "application/octet-stream")
            if mime not in UPLOAD_TYPES:
                raise GraphError(131053, f"Param file must be a file with one of the following "
                                 f"types: {', '.join(sorted(UPLOAD_TYPES))}. Received file of "
                                 f"type '{mime}'.")
            if mime.startswith("image/") and len(data) > MAX_IMAGE:
                raise GraphError(131053, "Image file size exceeds the limit of 5 MB")
            if len(data) > MAX_MEDIA:
                raise GraphError(131053, "File size exceeds the limit of 100 MB")
            media = self.store_media(data, mime, upload.filename)
        except GraphError as e:
            return web.json_response(e.body(), status=e.status)
        return web.json_response({"id": media.id})

    def store_media(self, data: bytes, mime_type: str, filename: str | None = None) -> Media:
        media = Media(str(1_000_000_000_000_000 + next(self._ids) * 7919), data, mime_type,
                      filename)
        self.media[media.id] = media
        return media

    async def _handle_media_url(self, request: web.Request) -> web.Response:
        try:
            self._authorize(request)
            media = self._media(request.match_info["media_id"])
        except GraphError as e:
            return web.json_response(e.body(), status=e.status)
        url = (f"{self.base_url}/whatsapp_business/attachments/?mid={media.id}"
               f"&ext={int(self.now())}&hash={secrets.token_urlsafe(8)}")
        return web.json_response({"messaging_product": "whatsapp", "url": url,
                                  "mime_type": media.mime_type, "sha256": media.sha256,
                                  "file_size": len(media.data), "id": media.id})

    async def _handle_media_delete(self, request: web.Request) -> web.Response:
        try:
            self._authorize(request)
            self.media.pop(self._media(request.match_info["media_id"]).id)
        except GraphError as e:
            return web.json_response(e.body(), status=e.status)
        return web.json_response({"success": True})

    async def _handle_download(self, request: web.Request) -> web.Response:
        try:
            self._authorize(request)
            media = self._media(request.query.get("mid", ""))
        except GraphError as e:
            return web.json_response(e.body(), status=e.status)
        issued = request.query.get("ext", "")
        if not issued.isdigit() or self.now() - int(issued) > URL_LIFETIME:
            return web.Response(status=404, text="URL signature expired")
        return web.Response(body=media.data, content_type=media.mime_type)

    def _media(self, media_id: str) -> Media:
        media = self.media.get(media_id)
        if media is None:
            raise GraphError(100, status=400, message=(
                f"Unsupported get request. Object with ID '{media_id}' does not exist, cannot "
                "be loaded due to missing permissions, or does not support this operation."),
                subcode=33)
        return media

    # ------------------------------------------------------------ webhooks

    def _status_later(self, sent: Sent, status: str, error: GraphError | None = None) -> None:
        sent.statuses.append(status)
        item: dict[str, Any] = {"id": sent.id, "status": status,
                                "timestamp": str(int(self.now())), "recipient_id": sent.to}
        if error is not None:
            item["errors"] = [error.as_status_error()]
        self._spawn(self.deliver({"statuses": [item]}))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def deliver(self, value: dict, message_id: str | None = None) -> Delivery:
        """Sign and POST one webhook (kept in ``deliveries``; not sent without a webhook URL)."""
        payload = envelope(self.waba_id, self.phone_number_id, self.display_phone_number, value)
        delivery = Delivery(meta_json(payload), message_id)
        self.deliveries.append(delivery)
        await self.redeliver(delivery)
        return delivery

    async def redeliver(self, delivery: Delivery) -> int | None:
        """POST the same bytes again, with the same signature: what at-least-once means."""
        if self.webhook_url is None:
            return None
        if self._session is None:
            self._session = ClientSession()
        return await post(self._session, self.webhook_url, delivery, self.app_secret)

    async def drain(self) -> None:
        """Wait until the status webhooks already scheduled are delivered."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def meta_json(payload: dict) -> bytes:
    """JSON as Meta writes its webhooks: compact, non-ASCII escaped (``\\u00e7``), slashes
    escaped (``\\/``). A face that checks the signature of re-serialized JSON instead of the raw
    body fails here as it would in production."""
    text = json.dumps(payload, ensure_ascii=True, separators=(",", ":"))
    return text.replace("/", "\\/").encode()


def _digits(number: str) -> str:
    return "".join(ch for ch in number if ch.isdigit())


def _json_or_raw(raw: bytes) -> dict:
    try:
        body = json.loads(raw)
    except ValueError:
        return {"raw": raw.decode(errors="replace")}
    return body if isinstance(body, dict) else {"raw": body}
