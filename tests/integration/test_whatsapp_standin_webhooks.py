"""What the Cloud API stand-in sends a face: Meta's webhook envelope for each thing a user sends,
signed with the app secret, delivered again byte for byte on request; status webhooks; the verify
handshake; media uploaded and downloaded by id; bearer-token auth."""
from __future__ import annotations

import json

import aiohttp
import pytest

from sandbox.standin.whatsapp import WhatsAppStandIn
from tests.support.whatsapp import WebhookSink, graph, graph_error, send, signature_valid

ANA = "5511955551234"


@pytest.fixture
async def sink():
    s = await WebhookSink().start()
    yield s
    await s.stop()


@pytest.fixture
async def wa(sink):
    async with WhatsAppStandIn(webhook_url=sink.url, send_statuses=False) as stand_in:
        yield stand_in


def value_of(body: bytes) -> dict:
    payload = json.loads(body)
    assert payload["object"] == "whatsapp_business_account"
    change = payload["entry"][0]["changes"][0]
    assert change["field"] == "messages"
    return change["value"]


CHOICES = {"messaging_product": "whatsapp", "to": ANA, "type": "interactive", "interactive": {
    "type": "button", "body": {"text": "Qual é a categoria?"},
    "action": {"buttons": [{"type": "reply", "reply": {"id": "cat:veiculo", "title": "Veículo"}},
                           {"type": "reply", "reply": {"id": "cat:movel", "title": "Móvel"}}]}}}
COLOURS = {"messaging_product": "whatsapp", "to": ANA, "type": "interactive", "interactive": {
    "type": "list", "body": {"text": "Qual é a cor?"},
    "action": {"button": "Cores", "sections": [{"rows": [
        {"id": "cor:azul", "title": "Azul", "description": "Cor do veículo"},
        {"id": "cor:preto", "title": "Preto"}]}]}}}


async def test_each_inbound_kind_arrives_signed_in_metas_envelope(wa, sink):
    await wa.user_text(ANA, "Tem um carro abandonado", name="Ana")
    await wa.user_image(ANA, b"\xff\xd8\xff jpeg", caption="foto")
    await wa.user_location(ANA, -23.55, -46.63, place="Praça")
    _, answer = await send(wa, CHOICES)
    buttons_id = answer["messages"][0]["id"]
    await send(wa, COLOURS)
    await wa.user_button_reply(ANA, "cat:veiculo", context=buttons_id)
    await wa.user_list_reply(ANA, "cor:azul")
    assert len(sink.received) == 5
    values = [value_of(r.body) for r in sink.received]
    for r, v in zip(sink.received, values):
        assert signature_valid(r.body, r.signature, wa.app_secret)
        assert v["metadata"] == {"display_phone_number": wa.display_phone_number,
                                 "phone_number_id": wa.phone_number_id}
        assert v["contacts"][0]["wa_id"] == ANA
    messages = [v["messages"][0] for v in values]
    assert [m["type"] for m in messages] == ["text", "image", "location", "interactive",
                                             "interactive"]
    assert messages[0]["text"] == {"body": "Tem um carro abandonado"}
    assert values[0]["contacts"][0]["profile"] == {"name": "Ana"}
    assert messages[1]["image"]["id"] in wa.media
    assert messages[2]["location"] == {"latitude": -23.55, "longitude": -46.63, "name": "Praça"}
    assert messages[3]["interactive"] == {"type": "button_reply", "button_reply": {
        "id": "cat:veiculo", "title": "Veículo"}}
    assert messages[3]["context"] == {"from": wa.display_phone_number, "id": buttons_id}
    assert messages[4]["interactive"]["list_reply"] == {
        "id": "cor:azul", "title": "Azul", "description": "Cor do veículo"}
    assert messages[4]["context"]["id"] == wa.sent_to(ANA)[-1].id


async def test_a_user_taps_only_what_the_face_showed(wa):
    await wa.user_text(ANA, "oi")
    with pytest.raises(LookupError):
        await wa.user_button_reply(ANA, "cat:veiculo")  # no buttons were sent
    await send(wa, CHOICES)
    with pytest.raises(LookupError):
        await wa.user_button_reply(ANA, "cat:outro")
    with pytest.raises(LookupError):
        await wa.user_list_reply(ANA, "cor:azul")
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{wa.base_url}/_standin/users/{ANA}/button_reply",
                             json={"id": "cat:movel"}) as resp:
            assert resp.status == 200
        async with http.post(f"{wa.base_url}/_standin/users/{ANA}/button_reply",
                             json={"id": "cat:nada"}) as resp:
            assert resp.status == 404


async def test_the_signature_fails_with_another_secret_or_another_body(wa, sink):
    await wa.user_text(ANA, "oi")
    r = sink.received[0]
    assert signature_valid(r.body, r.signature, wa.app_secret)
    assert not signature_valid(r.body, r.signature, "outro-segredo")
    assert not signature_valid(r.body + b" ", r.signature, wa.app_secret)
    assert not signature_valid(r.body, None, wa.app_secret)


async def test_the_signature_holds_for_the_raw_body_only_as_metas_does(wa, sink):
    """Meta's JSON escapes non-ASCII and slashes: re-serializing the parsed body changes the
    bytes, so a face must check the signature of the body as received."""
    await wa.user_text(ANA, "Carro na calçada, ver https://exemplo.org/a")
    r = sink.received[0]
    assert b"\\u00e7" in r.body and b"\\/" in r.body
    assert json.loads(r.body)["entry"][0]["changes"][0]["value"]["messages"][0]["text"] == {
        "body": "Carro na calçada, ver https://exemplo.org/a"}
    again = json.dumps(json.loads(r.body), ensure_ascii=False).encode()
    assert signature_valid(r.body, r.signature, wa.app_secret)
    assert not signature_valid(again, r.signature, wa.app_secret)


async def test_a_redelivery_is_the_same_message_byte_for_byte(wa, sink):
    first = await wa.user_text(ANA, "oi")
    assert await wa.redeliver_message(first.message_id) == 200
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{wa.base_url}/_standin/redeliver",
                             json={"message_id": first.message_id}) as resp:
            assert (await resp.json()) == {"status": 200}
    assert len(sink.received) == 3
    assert sink.received[0].body == sink.received[1].body == sink.received[2].body
    ids = {value_of(r.body)["messages"][0]["id"] for r in sink.received}
    assert ids == {first.message_id}
    assert first.statuses == [200, 200, 200]
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{wa.base_url}/_standin/redeliver",
                             json={"message_id": "wamid.nenhum"}) as resp:
            assert resp.status == 404


async def test_statuses_follow_an_accepted_send(sink):
    async with WhatsAppStandIn(webhook_url=sink.url) as wa:
        await wa.user_text(ANA, "oi")
        _, answer = await send(wa, {"messaging_product": "whatsapp", "to": ANA, "type": "text",
                                    "text": {"body": "Olá, Ana"}})
        wamid = answer["messages"][0]["id"]
        await wa.drain()
        await wa.user_reads(wamid)
        statuses = [value_of(r.body)["statuses"][0] for r in sink.received[1:]]
        assert [(s["id"], s["status"]) for s in statuses] == [
            (wamid, "sent"), (wamid, "delivered"), (wamid, "read")]
        assert all(signature_valid(r.body, r.signature, wa.app_secret) for r in sink.received)


async def test_the_verify_handshake_is_checked_against_a_face(wa, sink):
    assert (await wa.verify(sink.url, sink.verify_token))["verified"] is True
    wrong = await wa.verify(sink.url, "outro")
    assert wrong["verified"] is False and wrong["status"] == 403
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{wa.base_url}/_standin/verify",
                             json={"url": sink.url, "verify_token": sink.verify_token}) as r:
            assert (await r.json())["verified"] is True


async def test_what_was_sent_to_a_user_is_read_over_http(wa):
    await wa.user_text(ANA, "oi")
    await send(wa, {"messaging_product": "whatsapp", "to": ANA, "type": "text",
                    "text": {"body": "Recebido"}})
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{wa.base_url}/_standin/users/{ANA}/sent") as resp:
            sent = await resp.json()
    assert [(s["type"], s["body"]["text"]["body"]) for s in sent] == [("text", "Recebido")]
    assert wa.sent_to(ANA)[0].text == "Recebido"


async def test_media_upload_then_url_then_download(wa):
    data = b"%PDF-1.4\n" + bytes(range(256)) * 40
    form = aiohttp.FormData()
    form.add_field("messaging_product", "whatsapp")
    form.add_field("file", data, filename="termo.pdf", content_type="application/pdf")
    status, answer = await graph(wa, "POST", f"{wa.phone_number_id}/media", data=form)
    assert status == 200
    media_id = answer["id"]
    status, info = await graph(wa, "GET", media_id)
    assert status == 200 and info["mime_type"] == "application/pdf"
    assert info["file_size"] == len(data) and info["id"] == media_id
    headers = {"Authorization": f"Bearer {wa.token}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(info["url"], headers=headers) as resp:
            assert resp.status == 200 and await resp.read() == data
        async with http.get(info["url"]) as resp:
            assert resp.status == 401
    import hashlib
    assert info["sha256"] == hashlib.sha256(data).hexdigest()


async def test_a_photo_a_user_sends_is_downloaded_by_its_id(wa, sink):
    delivery = await wa.user_image(ANA, b"\xff\xd8\xff foto da rua")
    media_id = delivery.payload["entry"][0]["changes"][0]["value"]["messages"][0]["image"]["id"]
    status, info = await graph(wa, "GET", media_id)
    assert status == 200 and info["mime_type"] == "image/jpeg"
    async with aiohttp.ClientSession() as http:
        async with http.get(info["url"], headers={"Authorization": f"Bearer {wa.token}"}) as r:
            assert await r.read() == b"\xff\xd8\xff foto da rua"


async def test_an_unknown_media_id_is_refused(wa):
    status, answer = await graph(wa, "GET", "999")
    graph_error(status, answer, 100)


@pytest.mark.parametrize("token, code", [(None, 104), ("EAAoutro", 190)])
async def test_without_the_right_token_everything_is_refused(wa, token, code):
    body = {"messaging_product": "whatsapp", "to": ANA, "type": "text", "text": {"body": "x"}}
    graph_error(*await send(wa, body, token=token), code, http_status=401)
    status, answer = await graph(wa, "GET", "123", token=token)
    graph_error(status, answer, code, http_status=401)
    form = aiohttp.FormData()
    form.add_field("messaging_product", "whatsapp")
    form.add_field("file", b"x", filename="a.jpg", content_type="image/jpeg")
    status, answer = await graph(wa, "POST", f"{wa.phone_number_id}/media", data=form,
                                 token=token)
    graph_error(status, answer, code, http_status=401)
    assert wa.sent == [] and wa.media == {}


async def test_another_phone_number_id_is_refused(wa):
    status, answer = await graph(wa, "POST", "1234/messages", json={})
    graph_error(status, answer, 100)


def shape(node, path=()) -> set[tuple]:
    """Every key path with its value's JSON type (list positions folded)."""
    if isinstance(node, dict):
        return set().union(*(shape(v, (*path, k)) for k, v in node.items())) if node else set()
    if isinstance(node, list):
        return set().union(*(shape(v, (*path, "[]")) for v in node)) if node else set()
    return {(path, type(node).__name__.replace("int", "float"))}


async def test_each_inbound_webhook_has_the_shape_of_the_published_example(wa, sink):
    from sandbox.standin.whatsapp.extract import find_yaml

    path = find_yaml()
    if path is None:
        pytest.skip("business-messaging-api_v23.0.yaml is not in a shared/whatsapp/ folder "
                    "beside the repository")
    import yaml

    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    examples = (doc["paths"]["/whatsapp/webhooks"]["post"]["requestBody"]["content"]
                ["application/json"]["examples"])
    await wa.user_text(ANA, "oi", name="Ana")
    await wa.user_image(ANA, b"\xff\xd8\xff foto", caption="foto")
    await wa.user_location(ANA, -23.55, -46.63, place="Praça", address="Rua A, 1")
    await send(wa, CHOICES)
    await wa.user_button_reply(ANA, "cat:veiculo")
    await send(wa, COLOURS)
    await wa.user_list_reply(ANA, "cor:azul")
    names = ["Text Message", "Image Message", "Location Message",
             "Interactive Button Reply Message", "Interactive List Reply Message"]
    for name, received in zip(names, sink.received):
        ours = shape(json.loads(received.body))
        published = shape(examples[name]["value"])
        assert ours <= published, (name, ours - published)
        missing = {p for p, _ in published - ours}
        assert missing <= {("entry", "[]", "changes", "[]", "value", "messages", "[]",
                            "location", "url")}, (name, missing)


async def test_a_media_url_expires_after_five_minutes(wa):
    media = wa.store_media(b"\xff\xd8\xff", "image/jpeg")
    _, info = await graph(wa, "GET", media.id)
    headers = {"Authorization": f"Bearer {wa.token}"}
    wa.advance(5 * 60 + 1)
    async with aiohttp.ClientSession() as http:
        async with http.get(info["url"], headers=headers) as resp:
            assert resp.status == 404
    _, info = await graph(wa, "GET", media.id)  # a fresh URL answers again
    async with aiohttp.ClientSession() as http:
        async with http.get(info["url"], headers=headers) as resp:
            assert resp.status == 200


@pytest.mark.parametrize("mime, size", [("application/x-msdownload", 10),
                                        ("image/jpeg", 5 * 1024 * 1024 + 1)])
async def test_an_upload_of_a_refused_type_or_size_stores_nothing(wa, mime, size):
    form = aiohttp.FormData()
    form.add_field("messaging_product", "whatsapp")
    form.add_field("file", b"x" * size, filename="f", content_type=mime)
    status, answer = await graph(wa, "POST", f"{wa.phone_number_id}/media", data=form)
    graph_error(status, answer, 131053)
    assert wa.media == {}
