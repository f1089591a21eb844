"""The Cloud API stand-in refuses what the platform refuses: every send is checked against the
request schemas of Meta's published OpenAPI description (extracted into
sandbox/standin/whatsapp/cloudapi-schemas.json) and answered with Graph's error shape and the
platform's code, over real HTTP."""
from __future__ import annotations

import json

import pytest

from sandbox.standin.whatsapp import WhatsAppStandIn
from sandbox.standin.whatsapp.check import check_message
from sandbox.standin.whatsapp.extract import EXTRACT_PATH, extract, find_yaml, render
from tests.support.whatsapp import graph_error, send

MARIA = "5511987654321"


@pytest.fixture
async def wa():
    async with WhatsAppStandIn(templates={"aviso_andamento": 3}) as stand_in:
        await stand_in.user_text(MARIA, "oi")  # her 24 hours are open
        yield stand_in


def message(kind: str, content: dict, to: str = MARIA) -> dict:
    return {"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
            "type": kind, kind: content}


def buttons(*titles: str) -> dict:
    return message("interactive", {
        "type": "button", "body": {"text": "Qual é a categoria?"},
        "action": {"buttons": [{"type": "reply", "reply": {"id": f"b{i}", "title": t}}
                               for i, t in enumerate(titles)]},
    })


def listing(rows: list[tuple[str, str]], sections: int = 1) -> dict:
    per = -(-len(rows) // sections)
    return message("interactive", {
        "type": "list", "body": {"text": "Escolha a categoria"},
        "action": {"button": "Categorias", "sections": [
            {"title": f"Parte {s + 1}", "rows": [{"id": i, "title": t}
                                                for i, t in rows[s * per:(s + 1) * per]]}
            for s in range(sections)
        ]},
    })


# ---------------------------------------------------------------- the extract


def test_the_extract_is_what_the_published_yaml_gives():
    path = find_yaml()
    if path is None:
        pytest.skip("business-messaging-api_v23.0.yaml is not in a shared/whatsapp/ folder "
                    "beside the repository: the committed extract is used as it is")
    assert EXTRACT_PATH.read_text(encoding="utf-8") == render(extract(path)), (
        "cloudapi-schemas.json is stale: run python -m sandbox.standin.whatsapp.extract")


def test_the_extract_keeps_its_licence_and_names_its_amendments():
    data = json.loads(EXTRACT_PATH.read_text(encoding="utf-8"))
    assert data["amendments"] and "TextMessage" in data["$defs"]
    assert (EXTRACT_PATH.parent / "LICENSE-openapi").read_text().startswith("MIT License")


# The published examples a citizen intake does not use, and why they are refused.
NOT_OURS = {
    "Send Catalog Template Message": "index given as a number; the schema wants a string",
    "Send Sample Issue Resolution Template": "index given as a number",
    "Send Flow Template Message": "a flow button sub_type the schema does not list",
    "Send Multi-Product Message": "a product header type the schema does not list",
    "Send Order Details Message": "order_details, absent from the schema",
    "Send Order Status Message": "order_status, absent from the schema",
    "Send Reply to List Message": "omits type: interactive, so the platform reads it as text",
}


def test_the_published_examples_pass_the_check():
    """The description's own request examples are accepted: the amendments only mend the
    places where the schemas contradict them."""
    path = find_yaml()
    if path is None:
        pytest.skip("business-messaging-api_v23.0.yaml is not in a shared/whatsapp/ folder "
                    "beside the repository")
    import yaml

    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    examples = (doc["paths"]["/{Version}/{Phone-Number-ID}/messages"]["post"]["requestBody"]
                ["content"]["application/json"]["examples"])
    checked = 0
    for name, example in examples.items():
        if name in NOT_OURS:
            continue
        check_message(example["value"])
        checked += 1
    assert checked >= 40


# ---------------------------------------------------------------- what is accepted


async def test_every_kind_a_face_sends_is_accepted(wa):
    upload = wa.store_media(b"%PDF-1.4 termo", "application/pdf", "termo.pdf")
    bodies = [
        message("text", {"body": "Recebemos sua denúncia.", "preview_url": False}),
        buttons("Veículo", "Móvel", "Outro"),
        listing([(f"c{i}", f"Categoria {i}") for i in range(10)], sections=2),
        message("interactive", {"type": "location_request_message",
                                "body": {"text": "Envie a localização"},
                                "action": {"name": "send_location"}}),
        message("image", {"link": "https://example.org/foto.jpg", "caption": "Foto"}),
        message("document", {"id": upload.id, "filename": "termo.pdf", "caption": "Termo"}),
        message("template", {"name": "aviso_andamento", "language": {"code": "pt_BR"},
                             "components": [{"type": "body", "parameters": [
                                 {"type": "text", "text": v} for v in ("VL-1", "Notificado",
                                                                       "https://x")]}]}),
    ]
    for body in bodies:
        status, answer = await send(wa, body)
        assert status == 200, answer
        assert answer["messages"][0]["id"].startswith("wamid.")
        assert answer["contacts"] == [{"input": MARIA, "wa_id": MARIA}]
    assert [s.type for s in wa.sent_to(MARIA)] == [
        "text", "interactive", "interactive", "interactive", "image", "document", "template"]


async def test_a_read_receipt_is_accepted(wa):
    inbound = wa.deliveries[0].message_id
    status, answer = await send(wa, {"messaging_product": "whatsapp", "status": "read",
                                     "message_id": inbound})
    assert (status, answer) == (200, {"success": True})
    assert wa.read == [inbound]


# ---------------------------------------------------------------- what is refused


async def test_a_fourth_reply_button_is_refused(wa):
    error = graph_error(*await send(wa, buttons("Um", "Dois", "Três", "Quatro")), 131009)
    assert "Max allowed buttons: 3" in error["error_data"]["details"]
    assert wa.sent_to(MARIA) == [] and len(wa.refused) == 1


async def test_a_button_title_over_20_characters_is_refused(wa):
    assert (await send(wa, buttons("x" * 20)))[0] == 200
    error = graph_error(*await send(wa, buttons("x" * 21)), 131009)
    assert error["error_data"]["details"] == (
        "Button title length invalid. Min length: 1, Max length: 20")


async def test_duplicate_button_titles_are_refused(wa):
    graph_error(*await send(wa, buttons("Sim", "Sim")), 131009)


async def test_more_than_10_list_rows_are_refused_even_across_sections(wa):
    rows = [(f"r{i}", f"Linha {i}") for i in range(11)]
    error = graph_error(*await send(wa, listing(rows)), 131009)
    assert "Max allowed rows: 10" in error["error_data"]["details"]
    error = graph_error(*await send(wa, listing(rows, sections=2)), 131009)
    assert "max allowed count: 10" in error["error_data"]["details"]


async def test_a_row_title_over_24_characters_is_refused(wa):
    assert (await send(wa, listing([("r", "y" * 24)])))[0] == 200
    error = graph_error(*await send(wa, listing([("r", "y" * 25)])), 131009)
    assert error["error_data"]["details"] == (
        "Row title length invalid. Min length: 1, Max length: 24")


@pytest.mark.parametrize("body, key", [
    ({**message("text", {"body": "oi"}), "colour": "azul"}, "colour"),
    (message("text", {"body": "oi", "bold": True}), "bold"),
])
async def test_an_unknown_field_is_refused(wa, body, key):
    error = graph_error(*await send(wa, body), 100)
    assert f'Unexpected key "{key}"' in error["error_data"]["details"]


async def test_a_missing_field_is_refused(wa):
    body = message("text", {"body": "oi"})
    del body["to"]
    error = graph_error(*await send(wa, body), 131008)
    assert "to" in error["error_data"]["details"]
    del body["messaging_product"]
    graph_error(*await send(wa, body), 100)


async def test_a_body_that_is_not_json_is_refused(wa):
    from tests.support.whatsapp import graph

    status, answer = await graph(wa, "POST", f"{wa.phone_number_id}/messages", data=b"{nope")
    graph_error(status, answer, 100)


async def test_an_unknown_template_is_refused(wa):
    body = message("template", {"name": "nao_aprovado", "language": {"code": "pt_BR"}})
    error = graph_error(*await send(wa, body), 132001, http_status=404)
    assert "nao_aprovado" in error["error_data"]["details"]


async def test_a_template_in_a_language_not_approved_is_refused(wa):
    body = message("template", {"name": "aviso_andamento", "language": {"code": "en_US"}})
    graph_error(*await send(wa, body), 132001, http_status=404)


async def test_a_template_with_the_wrong_parameter_count_is_refused(wa):
    body = message("template", {"name": "aviso_andamento", "language": {"code": "pt_BR"},
                                "components": [{"type": "body", "parameters": [
                                    {"type": "text", "text": "VL-1"}]}]})
    error = graph_error(*await send(wa, body), 132000)
    assert "(1)" in error["error_data"]["details"] and "(3)" in error["error_data"]["details"]


async def test_a_text_over_4096_characters_or_a_long_caption_is_refused(wa):
    assert (await send(wa, message("text", {"body": "a" * 4096})))[0] == 200
    error = graph_error(*await send(wa, message("text", {"body": "a" * 4097})), 100)
    assert "4096" in error["error_data"]["details"]
    graph_error(*await send(wa, message("text", {"body": "  "})), 131008)
    image = message("image", {"link": "https://example.org/a.jpg", "caption": "c" * 1025})
    graph_error(*await send(wa, image), 100)


async def test_a_recipient_that_is_not_a_phone_number_is_refused(wa):
    error = graph_error(*await send(wa, message("text", {"body": "oi"}, to="abc")), 100)
    assert "abc" in error["error_data"]["details"]
