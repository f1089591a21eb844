"""The WhatsApp webhook over real HTTP (whatsapp/webhook.py), refusing what Meta would never
send: the handshake answers only the verify token set; a POST without a signature is 401 and
with a wrong one 403, and neither reaches the conversation; a signed body that is not Meta's
envelope is 400, never a 500; a genuine one hands on every message, in order, with what the
conversation needs (who, which message, the text, the photo's media id, the pin, the button)."""
from __future__ import annotations

import json

import pytest
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

from whatsapp import webhook

SECRET, TOKEN = "app-secret-for-tests", "verify-token-for-tests"


def envelope(*messages: dict, statuses: tuple = ()) -> dict:
    return {"object": "whatsapp_business_account", "entry": [{"id": "419561257915477", "changes": [
        {"field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "553799990000", "phone_number_id": "1065"},
            "contacts": [{"profile": {"name": "Maria"}, "wa_id": "5537999990001"}],
            "messages": list(messages), "statuses": list(statuses)}}]}]}


def msg(mid: str, kind: str, **body) -> dict:
    return {"from": "5537999990001", "id": mid, "timestamp": "1765000000", "type": kind, **body}


@pytest.fixture
async def hook():
    got: list = []

    async def receive(messages, statuses):
        got.append((messages, statuses))

    app = web.Application()
    webhook.routes(app, app_secret=SECRET, verify_token=TOKEN, receive=receive)
    server = TestServer(app)
    await server.start_server()
    async with ClientSession(str(server.make_url(""))) as http:
        yield http, got
    await server.close()


async def post(http, body: bytes, signature: str | None):
    headers = {"Content-Type": "application/json"}
    if signature is not None:
        headers["X-Hub-Signature-256"] = signature
    async with http.post(webhook.PATH, data=body, headers=headers) as r:
        return r.status, await r.text()


async def test_the_handshake_answers_the_challenge_only_to_the_verify_token(hook):
    http, _ = hook
    q = {"hub.mode": "subscribe", "hub.verify_token": TOKEN, "hub.challenge": "1158201444"}
    async with http.get(webhook.PATH, params=q) as r:
        assert (r.status, await r.text()) == (200, "1158201444")
    async with http.get(webhook.PATH, params=dict(q, **{"hub.verify_token": "outro"})) as r:
        assert r.status == 403
    async with http.get(webhook.PATH, params=dict(q, **{"hub.mode": "unsubscribe"})) as r:
        assert r.status == 403


async def test_unsigned_or_badly_signed_deliveries_are_refused_and_reach_nothing(hook):
    http, got = hook
    body = json.dumps(envelope(msg("wamid.1", "text", text={"body": "oi"}))).encode()
    assert (await post(http, body, None))[0] == 401
    assert (await post(http, body, webhook.sign("outro-segredo", body)))[0] == 403
    assert (await post(http, body, "sha256=zz"))[0] == 403
    tampered = body.replace(b'"oi"', b'"ol"')
    assert (await post(http, tampered, webhook.sign(SECRET, body)))[0] == 403
    assert got == []


@pytest.mark.parametrize("body", [b"", b"{", b"[]", b'{"object": "page", "entry": []}',
                                  b'{"object": "whatsapp_business_account"}',
                                  b'{"object": "whatsapp_business_account", "entry": [{}]}',
                                  json.dumps(envelope({"type": "text"})).encode(),
                                  b"\xff\xfe"])
async def test_a_signed_body_that_is_not_an_envelope_is_400(hook, body):
    http, got = hook
    assert (await post(http, body, webhook.sign(SECRET, body)))[0] == 400
    assert got == []


async def test_an_oversized_body_is_413(hook):
    http, got = hook
    body = b" " * (webhook.MAX_BODY + 1)
    assert (await post(http, body, webhook.sign(SECRET, body)))[0] == 413
    assert got == []


async def test_every_message_reaches_the_conversation_in_order_with_what_it_carries(hook):
    http, got = hook
    body = json.dumps(envelope(
        msg("wamid.1", "text", text={"body": "Carro abandonado"}),
        msg("wamid.2", "image", image={"id": "media-77", "mime_type": "image/jpeg",
                                       "sha256": "x", "caption": "frente"}),
        msg("wamid.3", "location", location={"latitude": -19.4603, "longitude": -45.6022}),
        msg("wamid.4", "interactive", interactive={
            "type": "button_reply", "button_reply": {"id": "a1b2c3.4:skip", "title": "Pular"}}),
        msg("wamid.5", "interactive", interactive={
            "type": "list_reply", "list_reply": {"id": "a1b2c3.1:cat:motor_vehicle",
                                                 "title": "Veículo motorizado"}}),
        msg("wamid.6", "sticker", sticker={"id": "s1"}),
        statuses=({"id": "wamid.out1", "status": "failed", "recipient_id": "5537999990001",
                   "timestamp": "1765000001", "errors": [{"code": 131047}]},))).encode()
    assert await post(http, body, webhook.sign(SECRET, body)) == (200, "ok")
    [(messages, statuses)] = got
    assert [m.message_id for m in messages] == [f"wamid.{i}" for i in range(1, 7)]
    text, image, pin, button, row, sticker = messages
    assert (text.kind, text.text, text.wa_id, text.name) == (
        "text", "Carro abandonado", "5537999990001", "Maria")
    assert (image.kind, image.media_id, image.mime, image.text) == (
        "image", "media-77", "image/jpeg", "frente")
    assert (pin.kind, pin.lat, pin.lon) == ("location", -19.4603, -45.6022)
    assert (button.kind, button.reply_id) == ("reply", "a1b2c3.4:skip")
    assert (row.kind, row.reply_id) == ("reply", "a1b2c3.1:cat:motor_vehicle")
    assert (sticker.kind, sticker.raw_type) == ("other", "sticker")
    assert [(s.message_id, s.status, s.error_code) for s in statuses] == [
        ("wamid.out1", "failed", 131047)]
