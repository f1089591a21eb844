"""Helpers for the WhatsApp Cloud API stand-in's tests: a signature check as a face must do it,
a webhook endpoint that records what it receives, and raw Graph API calls."""
from __future__ import annotations

import asyncio
import hashlib
import hmac
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web
from sqlalchemy import func, select

from bot.state import state_of
from core.storage.models import OutboxMessage
from sandbox.harness import BotHarness
from sandbox.standin.whatsapp import WhatsAppStandIn
from tests.support.bot_chat import CENTRE, jpeg

MARIA = "5537999990001"


@asynccontextmanager
async def whatsapp_world(make_core, templates: dict | None = None,
                         harness: dict | None = None, **settings):
    """The Cloud API stand-in with `templates` approved, a core with `settings` on it and the
    bot, which starts the WhatsApp face beside Telegram: (core, bot, stand-in, face)."""
    async with WhatsAppStandIn(templates=templates or {}) as wa:
        core = await make_core(whatsapp_phone_number_id=wa.phone_number_id,
                               whatsapp_access_token=wa.token,
                               whatsapp_app_secret=wa.app_secret,
                               whatsapp_verify_token="verifica",
                               whatsapp_graph_url=wa.graph_url, whatsapp_webhook_port=0,
                               **settings)
        async with BotHarness(core, **(harness or {})) as bot:
            face = state_of(bot.app).whatsapp
            wa.webhook_url = face.url
            yield core, bot, wa, face


async def report(wa: WhatsAppStandIn) -> str:
    await wa.user_text(MARIA, "Oi", name="Maria")
    assert "Olá, Maria!" in texts_since(wa, MARIA, 0)
    await tap(wa, MARIA, "Veículo motorizado")
    assert "fotos" in last_text(wa, MARIA)
    await wa.user_image(MARIA, jpeg(1))
    assert "1 foto recebida" in last_text(wa, MARIA)
    await tap(wa, MARIA, "Pronto")
    assert wa.sent_to(MARIA)[-1].body["interactive"]["type"] == "location_request_message"
    await wa.user_location(MARIA, *CENTRE)
    assert "placa" in last_text(wa, MARIA).lower()
    await wa.user_text(MARIA, "abc1d23")
    assert "cor" in last_text(wa, MARIA).lower()
    await wa.user_text(MARIA, "Prata")
    await tap(wa, MARIA, "Pular")  # make and model
    await tap(wa, MARIA, "Mais de 30 dias")
    await tap(wa, MARIA, "pneu")  # a sign of abandonment, marked
    assert "Marcado." in last_text(wa, MARIA)
    await tap(wa, MARIA, "Continuar")
    await wa.user_text(MARIA, "Em frente à padaria")
    summary = last_text(wa, MARIA)
    assert "ABC1D23" in summary and "Prata" in summary
    await tap(wa, MARIA, "Confirmar")
    done = last_text(wa, MARIA)
    assert "Protocolo: 2026-000001" in done and "Art. 4º" in done
    assert "/status" not in done and "*status* 2026-000001" in done  # words to type here
    return "2026-000001"




async def drained(core) -> bool:
    """Every WhatsApp message queued so far was sent (or is a dead letter)."""
    for _ in range(200):
        async with core.db.read() as s:
            waiting = await s.scalar(select(func.count()).select_from(OutboxMessage).where(
                OutboxMessage.channel == "whatsapp",
                OutboxMessage.status.in_(("pending", "sending"))))
        if not waiting:
            return True
        await asyncio.sleep(0.05)
    return False




def signature_valid(body: bytes, header: str | None, app_secret: str) -> bool:
    """``X-Hub-Signature-256: sha256=<hex>`` checked against the raw body, in constant time."""
    if not header or not header.startswith("sha256="):
        return False
    expected = hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header[len("sha256="):])


@dataclass
class Received:
    body: bytes
    signature: str | None


@dataclass
class WebhookSink:
    """A face's webhook as far as the platform sees it: it answers the verify handshake for its
    token and records each POST (raw body and signature)."""

    verify_token: str = "token-de-verificacao"
    received: list[Received] = field(default_factory=list)
    url: str = ""
    runner: web.AppRunner | None = None

    async def start(self) -> "WebhookSink":
        app = web.Application()
        app.router.add_get("/whatsapp/webhook", self._verify)
        app.router.add_post("/whatsapp/webhook", self._post)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.url = f"http://{host}:{port}/whatsapp/webhook"
        return self

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def _verify(self, request: web.Request) -> web.Response:
        q = request.query
        if q.get("hub.mode") == "subscribe" and q.get("hub.verify_token") == self.verify_token:
            return web.Response(text=q.get("hub.challenge", ""))
        return web.Response(status=403)

    async def _post(self, request: web.Request) -> web.Response:
        self.received.append(Received(await request.read(),
                                      request.headers.get("X-Hub-Signature-256")))
        return web.Response(text="ok")


async def graph(wa: WhatsAppStandIn, method: str, path: str, *, json: object = None,
                token: str | None = "default", data: object = None) -> tuple[int, object]:
    """One raw call to the stand-in's Graph API (``path`` after the version)."""
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {wa.token if token == 'default' else token}"
    async with aiohttp.ClientSession() as http:
        async with http.request(method, f"{wa.graph_url}/{path}", json=json, data=data,
                                headers=headers) as resp:
            if resp.content_type == "application/json":
                return resp.status, await resp.json()
            return resp.status, await resp.read()


async def send(wa: WhatsAppStandIn, body: dict, **kw) -> tuple[int, dict]:
    status, answer = await graph(wa, "POST", f"{wa.phone_number_id}/messages", json=body, **kw)
    assert isinstance(answer, dict)
    return status, answer


def graph_error(status: int, answer: dict, code: int, http_status: int = 400) -> dict:
    """Graph's error shape; returns the error object."""
    assert status == http_status, answer
    assert set(answer) == {"error"}, answer
    error = answer["error"]
    assert {"message", "type", "code", "error_subcode", "fbtrace_id"} <= set(error), error
    assert error["code"] == code, error
    if code >= 131000:  # the Cloud API's own codes carry their title: "(#131009) Parameter..."
        assert error["message"].startswith(f"(#{code})"), error
    return error


# -- a person's side of the report over WhatsApp (tests/e2e/test_whatsapp_report.py) ---------

def options(sent) -> dict[str, str]:
    """A sent interactive message's choices: reply id → title (its description after)."""
    inter = sent.body.get("interactive", {}) if sent.type == "interactive" else {}
    action = inter.get("action", {})
    out = {b["reply"]["id"]: b["reply"]["title"] for b in action.get("buttons", [])}
    for section in action.get("sections", []):
        for row in section["rows"]:
            out[row["id"]] = " ".join(filter(None, [row["title"], row.get("description")]))
    return out


def last_text(wa: WhatsAppStandIn, wa_id: str) -> str:
    return wa.sent_to(wa_id)[-1].text or ""


def texts_since(wa: WhatsAppStandIn, wa_id: str, since: int) -> str:
    return "\n---\n".join(s.text or "" for s in wa.sent_to(wa_id)[since:])


async def tap(wa: WhatsAppStandIn, wa_id: str, label: str):
    """Tap the choice whose words contain `label` on the newest message that has one."""
    for sent in reversed(wa.sent_to(wa_id)):
        for reply_id, title in options(sent).items():
            if label in title:
                kind = sent.body["interactive"]["type"]
                if kind == "button":
                    return await wa.user_button_reply(wa_id, reply_id, context=sent.id)
                return await wa.user_list_reply(wa_id, reply_id, context=sent.id)
    raise AssertionError(f"no choice {label!r}; last: {[s.body for s in wa.sent_to(wa_id)[-2:]]}")
