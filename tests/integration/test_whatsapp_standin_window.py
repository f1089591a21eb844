"""The customer-service window as the platform keeps it: a free-form message only within 24 hours
of the user's last message, a template at any time; the stand-in's clock moves on request."""
from __future__ import annotations

import aiohttp
import pytest

from sandbox.standin.whatsapp import WhatsAppStandIn
from tests.support.whatsapp import WebhookSink, graph_error, send

JOAO = "5511912345678"
TEXT = {"messaging_product": "whatsapp", "to": JOAO, "type": "text",
        "text": {"body": "Sua denúncia foi atualizada."}}
TEMPLATE = {"messaging_product": "whatsapp", "to": JOAO, "type": "template",
            "template": {"name": "aviso_andamento", "language": {"code": "pt_BR"},
                         "components": [{"type": "body", "parameters": [
                             {"type": "text", "text": "VL-2026-1"}]}]}}


@pytest.fixture
async def wa():
    async with WhatsAppStandIn(templates={"aviso_andamento": 1}) as stand_in:
        yield stand_in


async def test_a_user_who_never_wrote_gets_templates_only(wa):
    error = graph_error(*await send(wa, TEXT), 131047)
    assert "24 hours" in error["error_data"]["details"]
    assert (await send(wa, TEMPLATE))[0] == 200


async def test_free_form_at_23h59_refused_at_24h01_templates_still_allowed(wa):
    await wa.user_text(JOAO, "Olá")
    wa.advance(23 * 3600 + 59 * 60)
    assert (await send(wa, TEXT))[0] == 200
    wa.advance(2 * 60)
    graph_error(*await send(wa, TEXT), 131047)
    interactive = {**TEXT, "type": "interactive", "interactive": {
        "type": "location_request_message", "body": {"text": "Onde?"},
        "action": {"name": "send_location"}}}
    del interactive["text"]
    graph_error(*await send(wa, interactive), 131047)
    assert (await send(wa, TEMPLATE))[0] == 200
    await wa.user_location(JOAO, -23.5, -46.6)  # any message of theirs opens it again
    assert (await send(wa, TEXT))[0] == 200


async def test_the_window_is_per_user(wa):
    await wa.user_text(JOAO, "Olá")
    other = {**TEXT, "to": "5521999990000"}
    graph_error(*await send(wa, other), 131047)
    assert (await send(wa, TEXT))[0] == 200


async def test_the_clock_moves_over_http(wa):
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{wa.base_url}/_standin/users/{JOAO}/text",
                             json={"body": "Olá"}) as resp:
            assert resp.status == 200 and (await resp.json())["message_id"].startswith("wamid.")
        async with http.post(f"{wa.base_url}/_standin/clock",
                             json={"advance": 24 * 3600 + 60}) as resp:
            assert resp.status == 200
    graph_error(*await send(wa, TEXT), 131047)


async def test_outside_the_window_the_failure_can_come_as_a_status_webhook():
    """As the platform often does: the send is accepted, then a ``failed`` status says why."""
    sink = await WebhookSink().start()
    try:
        async with WhatsAppStandIn(webhook_url=sink.url, window_errors="webhook") as wa:
            status, answer = await send(wa, TEXT)
            assert status == 200
            await wa.drain()
            statuses = [d.payload["entry"][0]["changes"][0]["value"]["statuses"][0]
                        for d in wa.deliveries]
            assert [(s["status"], s["errors"][0]["code"]) for s in statuses] == [
                ("failed", 131047)]
            assert statuses[0]["id"] == answer["messages"][0]["id"]
    finally:
        await sink.stop()


async def test_a_rate_limit_a_test_asks_for_refuses_the_next_sends_only(wa):
    await wa.user_text(JOAO, "Olá")
    wa.fail_next(130429, times=2)
    graph_error(*await send(wa, TEXT), 130429)
    graph_error(*await send(wa, TEMPLATE), 130429)
    assert (await send(wa, TEXT))[0] == 200
    wa.fail_next(131056)
    bad = {**TEXT, "text": {"body": "x", "bold": True}}
    graph_error(*await send(wa, bad), 100)  # what is invalid is refused as such first
    graph_error(*await send(wa, TEXT), 131056)


async def test_an_undeliverable_user_is_told_in_a_failed_status():
    sink = await WebhookSink().start()
    try:
        async with WhatsAppStandIn(webhook_url=sink.url, templates={"aviso_andamento": 1}) as wa:
            wa.undeliverable(JOAO)
            status, answer = await send(wa, TEMPLATE)
            assert status == 200
            await wa.drain()
            statuses = [d.payload["entry"][0]["changes"][0]["value"]["statuses"][0]
                        for d in wa.deliveries]
            assert [(s["status"], s["errors"][0]["code"]) for s in statuses] == [
                ("failed", 131026)]
    finally:
        await sink.stop()
