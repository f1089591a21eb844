"""The WhatsApp webhook (Cloud API), as Meta delivers it: the subscription handshake (GET:
`hub.mode=subscribe`, `hub.verify_token`, answered with `hub.challenge`) and the POSTs, each
signed in `X-Hub-Signature-256` (`sha256=` and the hex HMAC-SHA256 of the raw body with the
app secret). A POST whose signature is missing (401) or wrong (403) is refused before its
body is read as JSON, and nothing of it reaches the conversation; a signed body that is not
Meta's envelope is a 400. Every message in it is handed on as an `Inbound`, in order; statuses
(sent, delivered, read, failed) as `Status`. Delivery is at least once: the receiver
deduplicates on the message id."""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

PATH = "/whatsapp/webhook"
MAX_BODY = 1024 * 1024  # a webhook carries ids, never media: 1 MiB is far above any


@dataclass(frozen=True)
class Inbound:
    """One message a person sent, as the conversation reads it."""
    wa_id: str  # the sender's WhatsApp id (their number, personal data)
    message_id: str  # "wamid.…": the same on every redelivery
    timestamp: int  # seconds since the epoch, as WhatsApp dated it
    kind: str  # text, image, document, location, reply (a button or a list row), other
    name: str | None = None  # the name on the person's WhatsApp profile
    text: str | None = None  # a text's body, an image's caption
    media_id: str | None = None  # an image or a document: fetched by id (GET /{media-id})
    mime: str | None = None
    lat: float | None = None
    lon: float | None = None
    reply_id: str | None = None  # the id of the button or list row tapped (whatsapp.render)
    raw_type: str = ""  # WhatsApp's own type ("sticker", "audio"…), for "other"


@dataclass(frozen=True)
class Status:
    """What became of a message we sent: sent, delivered, read or failed (with its code)."""
    message_id: str
    wa_id: str
    status: str
    error_code: int | None = None


def signature_valid(secret: str, body: bytes, header: str | None) -> bool:
    """`X-Hub-Signature-256` is the HMAC-SHA256 of exactly these bytes with the app secret
    (compared in constant time)."""
    if not header or not header.startswith("sha256="):
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header.removeprefix("sha256=").strip().lower())


def sign(secret: str, body: bytes) -> str:
    """The header value Meta sends with `body` (for the stand-in and the tests)."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class NotAnEnvelope(ValueError):
    """A signed body that is not Meta's webhook envelope."""


def _message(m: dict[str, Any], names: dict[str, str]) -> Inbound:
    kind = m.get("type")
    wa_id, mid = str(m["from"]), str(m["id"])
    base = Inbound(wa_id=wa_id, message_id=mid, timestamp=int(m.get("timestamp") or 0),
                   kind="other", name=names.get(wa_id), raw_type=str(kind))
    if kind == "text":
        return replace(base, kind="text", text=str(m["text"]["body"]))
    if kind in ("image", "document"):
        media = m[kind]
        return replace(base, kind=kind, media_id=str(media["id"]),
                       mime=media.get("mime_type"), text=media.get("caption"))
    if kind == "location":
        loc = m["location"]
        return replace(base, kind="location", lat=float(loc["latitude"]),
                       lon=float(loc["longitude"]))
    if kind == "interactive":
        inter = m["interactive"]
        tapped = inter.get(inter.get("type", ""), {})
        return replace(base, kind="reply", reply_id=str(tapped["id"]),
                       text=tapped.get("title"))
    if kind == "button":  # a template's quick-reply button
        return replace(base, kind="reply", reply_id=str(m["button"].get("payload", "")),
                       text=m["button"].get("text"))
    return base


def parse(payload: Any) -> tuple[list[Inbound], list[Status]]:
    """The messages and statuses of one webhook body, in the order they came."""
    try:
        if payload.get("object") != "whatsapp_business_account":
            raise NotAnEnvelope("object")
        messages: list[Inbound] = []
        statuses: list[Status] = []
        for entry in payload["entry"]:
            for change in entry["changes"]:
                value = change["value"]
                if change.get("field") != "messages":
                    continue
                names = {str(c["wa_id"]): c.get("profile", {}).get("name")
                         for c in value.get("contacts", []) if "wa_id" in c}
                messages += [_message(m, names) for m in value.get("messages", [])]
                for s in value.get("statuses", []):
                    errors = s.get("errors") or [{}]
                    statuses.append(Status(str(s["id"]), str(s.get("recipient_id", "")),
                                           str(s["status"]), errors[0].get("code")))
        return messages, statuses
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise NotAnEnvelope(str(exc)) from None


Receiver = Callable[[list[Inbound], list[Status]], Awaitable[None]]


def routes(app: web.Application, *, app_secret: str, verify_token: str,
           receive: Receiver) -> None:
    """Serve the webhook at PATH on `app`; `receive` gets each signed delivery's messages
    and statuses (and must be idempotent on the message id)."""

    async def handshake(request: web.Request) -> web.StreamResponse:
        q = request.query
        if (q.get("hub.mode") == "subscribe" and verify_token
                and hmac.compare_digest(q.get("hub.verify_token", ""), verify_token)):
            return web.Response(text=q.get("hub.challenge", ""))
        return web.Response(status=403, text="Token de verificação inválido.")

    async def delivery(request: web.Request) -> web.StreamResponse:
        if request.content_length is not None and request.content_length > MAX_BODY:
            return web.Response(status=413, text="Corpo grande demais.")
        body = await request.content.read(MAX_BODY + 1)
        if len(body) > MAX_BODY:
            return web.Response(status=413, text="Corpo grande demais.")
        header = request.headers.get("X-Hub-Signature-256")
        if not header:
            return web.Response(status=401, text="Assinatura ausente.")
        if not signature_valid(app_secret, body, header):
            log.warning("whatsapp webhook refused: bad signature")
            return web.Response(status=403, text="Assinatura inválida.")
        try:
            messages, statuses = parse(json.loads(body))
        except (ValueError, NotAnEnvelope):
            return web.Response(status=400, text="Corpo inválido.")
        try:
            await receive(messages, statuses)
        except Exception:  # ours, not the sender's: Meta delivers it again later
            log.exception("whatsapp webhook: a delivery could not be taken")
            return web.Response(status=503, text="Tente novamente mais tarde.")
        return web.Response(text="ok")

    app.router.add_get(PATH, handshake)
    app.router.add_post(PATH, delivery)
