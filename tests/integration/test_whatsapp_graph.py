"""The Graph API client (whatsapp/graph.py) over real HTTP: what it sends is what the Cloud
API takes (the bearer token, the phone number's path), and each refusal maps to what the
outbox must do — 131047 (outside the 24 hours) to a template, rate limits and Meta's 5xx to
a retry, an undeliverable person or a bad template to a dead letter with the error in words;
a media download larger than allowed is refused before it is read whole."""
from __future__ import annotations

import pytest
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

from whatsapp import graph

TOKEN, NUMBER = "token-for-tests", "106540352242922"


def _error(status: int, code: int, message: str) -> web.Response:
    return web.json_response({"error": {"message": message, "type": "OAuthException",
                                        "code": code, "fbtrace_id": "Az"}}, status=status)


@pytest.fixture
async def api():
    seen: list = []
    answers: list = []  # what the next call answers (default: accepted)

    async def messages(request: web.Request):
        assert request.headers["Authorization"] == f"Bearer {TOKEN}"
        seen.append(await request.json())
        if answers:
            return answers.pop(0)
        return web.json_response({"messaging_product": "whatsapp",
                                  "messages": [{"id": f"wamid.out{len(seen)}"}]})

    async def media(request: web.Request):
        size = int(request.query.get("size", "5"))
        return web.json_response({"url": str(request.url.with_path("/blob")), "file_size": size,
                                  "mime_type": "image/jpeg", "id": request.match_info["id"]})

    async def blob(request: web.Request):
        assert request.headers["Authorization"] == f"Bearer {TOKEN}"
        return web.Response(body=b"\xff\xd8jpeg")

    app = web.Application()
    app.router.add_post(f"/v23.0/{NUMBER}/messages", messages)
    app.router.add_get("/v23.0/{id}", media)
    app.router.add_get("/blob", blob)
    server = TestServer(app)
    await server.start_server()
    async with ClientSession() as http:
        yield graph.Graph(http, NUMBER, TOKEN, str(server.make_url("/v23.0"))), seen, answers
    await server.close()


async def test_a_message_is_sent_to_the_numbers_path_and_its_id_returned(api):
    client, seen, _ = api
    body = {"messaging_product": "whatsapp", "to": "5537999990001", "type": "text",
            "text": {"body": "Oi"}}
    assert await client.send(body) == "wamid.out1"
    await client.mark_read("wamid.in9")
    assert seen == [body, {"messaging_product": "whatsapp", "status": "read",
                           "message_id": "wamid.in9"}]


@pytest.mark.parametrize(("status", "code", "outcome"), [
    (400, 131047, graph.TEMPLATE), (400, 130429, graph.RETRY_LATER),
    (400, 131056, graph.RETRY_LATER), (500, 131000, graph.RETRY_LATER),
    (503, 2, graph.RETRY_LATER), (400, 131026, graph.DEAD), (400, 132001, graph.DEAD),
    (400, 132000, graph.DEAD), (401, 190, graph.DEAD), (400, 100, graph.DEAD)])
async def test_each_refusal_maps_to_what_the_outbox_does(api, status, code, outcome):
    client, _, answers = api
    answers.append(_error(status, code, "refused"))
    with pytest.raises(graph.GraphError) as e:
        await client.send({"messaging_product": "whatsapp", "to": "1", "type": "text",
                           "text": {"body": "x"}})
    assert (e.value.status, e.value.code, e.value.outcome) == (status, code, outcome)
    assert e.value.in_words and "Traceback" not in e.value.in_words


async def test_a_refusal_without_a_json_body_is_still_classified(api):
    client, _, answers = api
    answers.append(web.Response(status=502, text="<html>Bad gateway</html>"))
    with pytest.raises(graph.GraphError) as e:
        await client.send({"messaging_product": "whatsapp", "to": "1", "type": "text",
                           "text": {"body": "x"}})
    assert (e.value.status, e.value.outcome) == (502, graph.RETRY_LATER)


async def test_media_is_fetched_by_id_then_url_and_refused_when_too_big(api):
    client, _, _ = api
    assert await client.download("media-77") == (b"\xff\xd8jpeg", "image/jpeg")
    with pytest.raises(graph.GraphError) as e:
        await client.download("media-77", limit=4)
    assert e.value.outcome == graph.DEAD


async def test_an_unreachable_graph_is_a_retry_not_a_crash():
    async with ClientSession() as http:
        client = graph.Graph(http, NUMBER, TOKEN, "http://127.0.0.1:9/v23.0")
        with pytest.raises(graph.GraphError) as e:
            await client.send({"messaging_product": "whatsapp"})
    assert e.value.outcome == graph.RETRY_LATER
