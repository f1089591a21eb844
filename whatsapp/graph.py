"""Sending through the WhatsApp Cloud API (the Graph API): a thin aiohttp client rather than
a library such as pywa — the API is JSON over HTTPS with a bearer token, the face needs five
calls (send a message, mark one read, upload a file, look a media id up, download it), and
its errors must map onto the outbox's own outcomes, which a library would wrap in its own.

`base` is the Graph API's address with its version (WHATSAPP_GRAPH_URL, by default
https://graph.facebook.com/v23.0), so the sandbox's stand-in can take its place. Every
refusal becomes a `GraphError` saying what to do with the message (`outcome`):
- RETRY_LATER: rate limits (130429, 131056, 80007, 4), Meta's own trouble (1, 2, 131000,
  131016, 5xx) and the network: the outbox tries again after a backoff;
- TEMPLATE: outside the 24-hour customer-service window (131047), the update must go as an
  approved template (or by e-mail; else the panel lists the person to tell);
- DEAD: the person cannot receive it (131026), or the message itself is wrong (132xxx
  template problems, 100 bad parameter, 131051 unsupported type…): a dead letter with the
  error in words."""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import aiohttp

DEFAULT_BASE = "https://graph.facebook.com/v23.0"
RETRY_LATER, TEMPLATE, DEAD = "retry_later", "template", "dead"
RATE_LIMITS = {4, 80007, 130429, 131056}
TRANSIENT = {1, 2, 131000, 131016}
OUTSIDE_WINDOW = 131047
UNDELIVERABLE = 131026
MAX_MEDIA = 16 * 1024 * 1024  # an image or document a person sends is at most this here

#: The error in words for the panel's dead letters (/entregas).
IN_WORDS = {
    OUTSIDE_WINDOW: "Fora da janela de 24 horas do WhatsApp: só um modelo aprovado pode ir.",
    UNDELIVERABLE: "O WhatsApp não conseguiu entregar a esta pessoa (número sem WhatsApp ou "
                   "que não aceitou os termos).",
    130429: "Limite de envio do WhatsApp atingido; nova tentativa mais tarde.",
    131056: "Mensagens demais para esta pessoa em pouco tempo; nova tentativa mais tarde.",
    132000: "O número de parâmetros não confere com o modelo aprovado.",
    132001: "O modelo não existe (ou não foi aprovado) neste idioma.",
    190: "O token de acesso do WhatsApp é inválido ou expirou (WHATSAPP_ACCESS_TOKEN).",
}


@dataclass
class GraphError(Exception):
    status: int
    code: int | None
    message: str
    outcome: str

    def __str__(self) -> str:
        return f"{self.code or self.status}: {self.message}"

    @property
    def in_words(self) -> str:
        return IN_WORDS.get(self.code or 0, f"O WhatsApp recusou a mensagem ({self}).")


def outcome_of(status: int, code: int | None) -> str:
    """What to do with a message the Graph API refused with HTTP `status` and error `code`."""
    if code == OUTSIDE_WINDOW:
        return TEMPLATE
    if code in RATE_LIMITS or code in TRANSIENT or status == 429 or status >= 500:
        return RETRY_LATER
    return DEAD


class Graph:
    """The Cloud API for one business phone number."""

    def __init__(self, session: aiohttp.ClientSession, phone_number_id: str, token: str,
                 base: str = DEFAULT_BASE) -> None:
        self.session, self.number, self.base = session, phone_number_id, base.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"}

    async def _call(self, method: str, url: str, **kw: Any) -> dict[str, Any]:
        try:
            async with self.session.request(method, url, headers=self.headers, **kw) as r:
                raw = await r.read()
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            raise GraphError(0, None, f"rede: {exc!r}", RETRY_LATER) from None
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        if r.status < 400:
            return body
        error: dict[str, Any] = body["error"] if isinstance(body.get("error"), dict) else {}
        code = error.get("code") if isinstance(error.get("code"), int) else None
        raise GraphError(r.status, code, str(error.get("message") or r.reason),
                         outcome_of(r.status, code))

    async def send(self, message: dict[str, Any]) -> str:
        """POST /{phone-number-id}/messages: the message's id ("wamid.…")."""
        out = await self._call("POST", f"{self.base}/{self.number}/messages", json=message)
        return str(out["messages"][0]["id"])

    async def mark_read(self, message_id: str) -> None:
        await self._call("POST", f"{self.base}/{self.number}/messages",
                         json={"messaging_product": "whatsapp", "status": "read",
                               "message_id": message_id})

    async def upload(self, data: bytes, mime: str, filename: str) -> str:
        """POST /{phone-number-id}/media: the media id to send a PDF or a photo by."""
        form = aiohttp.FormData()
        form.add_field("messaging_product", "whatsapp")
        form.add_field("type", mime)
        form.add_field("file", data, content_type=mime, filename=filename)
        out = await self._call("POST", f"{self.base}/{self.number}/media", data=form)
        return str(out["id"])

    async def download(self, media_id: str, limit: int = MAX_MEDIA) -> tuple[bytes, str]:
        """A file a person sent, by its media id: GET /{media-id} gives a short-lived URL,
        fetched with the same token; refused (DEAD) beyond `limit` bytes."""
        info = await self._call("GET", f"{self.base}/{media_id}")
        if int(info.get("file_size") or 0) > limit:
            raise GraphError(413, None, "arquivo grande demais", DEAD)
        try:
            async with self.session.get(str(info["url"]), headers=self.headers) as r:
                if r.status >= 400:
                    raise GraphError(r.status, None, r.reason or "download",
                                     outcome_of(r.status, None))
                data = await r.content.read(limit + 1)
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            raise GraphError(0, None, f"rede: {exc!r}", RETRY_LATER) from None
        if len(data) > limit:
            raise GraphError(413, None, "arquivo grande demais", DEAD)
        return data, str(info.get("mime_type") or "application/octet-stream")
