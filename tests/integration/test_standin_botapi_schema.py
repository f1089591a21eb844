"""The Bot API stand-in refuses what Telegram refuses: every call is checked against the
published Bot API (sandbox/standin/spec/botapi-spec.json) and answered with Telegram's own error
shape, so a call that would fail in production fails in the tests too."""
from __future__ import annotations

import io
import json

import aiohttp
import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.error import BadRequest
from telegram.request import HTTPXRequest

from sandbox.standin.botapi import BotApiStandIn, User
from sandbox.standin.botapi.schema import SPEC_PATH, spec
from bot.transport import AiohttpRequest

MARIA = User(1001, "Maria")


def jpeg(colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(buf, "JPEG")
    return buf.getvalue()


@pytest.fixture
async def api():
    async with BotApiStandIn() as stand_in:
        stand_in.add_user(MARIA)
        yield stand_in


async def call(api: BotApiStandIn, method: str, params: dict | None = None, *,
               form: dict | None = None,
               files: dict[str, bytes] | None = None) -> tuple[int, dict]:
    """One raw HTTP call: a JSON body, or a form (multipart when there are files)."""
    url = f"{api.bot_base_url}{api.token}/{method}"
    async with aiohttp.ClientSession() as http:
        if form is not None or files:
            body = aiohttp.FormData()
            for key, value in (form or {}).items():
                body.add_field(key, value)
            for key, data in (files or {}).items():
                body.add_field(key, data, filename=f"{key}.jpg", content_type="image/jpeg")
            async with http.post(url, data=body) as resp:
                return resp.status, await resp.json()
        async with http.post(url, json=params or {}) as resp:
            return resp.status, await resp.json()


async def refused(api: BotApiStandIn, method: str, params: dict | None = None, **kw) -> str:
    """Telegram's exact 400 shape; returns the description."""
    status, body = await call(api, method, params, **kw)
    assert status == 400, body
    assert set(body) == {"ok", "error_code", "description"} and body["ok"] is False
    assert body["error_code"] == 400 and body["description"].startswith("Bad Request: ")
    assert api.calls[-1].ok is False  # recorded as refused, nothing was sent
    return body["description"]


def photo_item(media: str, **extra) -> dict:
    return {"type": "photo", "media": media, **extra}


# ------------------------------------------------------------ the album bug


@pytest.mark.parametrize("transport", ["httpx", "aiohttp"])
async def test_album_of_input_files_without_attach_names_is_refused_and_with_them_arrives(
        api, transport):
    request = AiohttpRequest() if transport == "aiohttp" else HTTPXRequest()
    bot = Bot(api.token, base_url=api.bot_base_url, base_file_url=api.file_base_url,
              request=request)
    async with bot:
        old = [InputMediaPhoto(InputFile(jpeg(c), filename=f"foto{i}.jpg"))
               for i, c in enumerate(("red", "blue"))]
        with pytest.raises(BadRequest, match="(?i)can't parse InputMedia: media not found"):
            await bot.send_media_group(MARIA.id, old)
        assert api.messages(MARIA) == []
        fixed = [InputMediaPhoto(InputFile(jpeg(c), filename=f"foto{i}.jpg", attach=True))
                 for i, c in enumerate(("red", "blue"))]
        sent = await bot.send_media_group(MARIA.id, fixed)
    assert len(sent) == 2 and sent[0].media_group_id == sent[1].media_group_id
    assert [api.file_bytes(m.photo[-1].file_id) for m in sent] == [jpeg("red"), jpeg("blue")]


# ------------------------------------------------------------ the reference


def test_the_check_uses_the_published_spec_kept_in_the_repository_with_its_licence():
    assert SPEC_PATH.parent.name == "spec" and SPEC_PATH.parent.parent.name == "standin"
    assert (SPEC_PATH.parent / "LICENSE-botapi-spec").read_text().startswith("MIT License")
    assert spec().version.startswith("Bot API ")
    assert {"sendmessage", "sendmediagroup", "answercallbackquery"} <= set(spec().methods)


# ------------------------------------------------------------ unknown methods


async def test_unknown_method_is_404_not_found_as_telegram_answers(api):
    status, body = await call(api, "sendTelegrama", {"chat_id": MARIA.id, "text": "oi"})
    assert status == 404
    assert body == {"ok": False, "error_code": 404, "description": "Not Found"}


async def test_method_names_are_case_insensitive_as_in_telegram(api):
    status, body = await call(api, "SENDMESSAGE", {"chat_id": MARIA.id, "text": "oi"})
    assert status == 200 and body["result"]["text"] == "oi"


# ------------------------------------------------------------ required fields, at any depth


@pytest.mark.parametrize("method, params, description", [
    ("sendMessage", {"text": "oi"}, "chat_id is empty"),
    ("sendMessage", {"chat_id": MARIA.id}, "message text is empty"),
    ("sendVenue", {"chat_id": MARIA.id, "latitude": -19.4, "longitude": -45.6, "title": "Local"},
     'parameter "address" is required'),
    ("sendMediaGroup", {"chat_id": MARIA.id, "media": [{"type": "photo"}, photo_item("x")]},
     "can't parse InputMedia: media not found"),
    ("sendMediaGroup", {"chat_id": MARIA.id, "media": [{"media": "x"}, photo_item("x")]},
     'can\'t parse InputMedia: Can\'t find field "type"'),
    ("sendMessage", {"chat_id": MARIA.id, "text": "oi",
                     "reply_markup": {"inline_keyboard": [[{"callback_data": "a"}]]}},
     'can\'t parse inline keyboard button: Can\'t find field "text"'),
    ("setMyCommands", {"commands": [{"command": "tarefas"}]},
     'can\'t parse BotCommand: Can\'t find field "description"'),
])
async def test_a_missing_required_field_is_refused(api, method, params, description):
    assert await refused(api, method, params) == f"Bad Request: {description}"


# ------------------------------------------------------------ types, as Telegram decodes them


@pytest.mark.parametrize("method, params, description", [
    ("sendMessage", {"chat_id": {"id": 1}, "text": "oi"},
     'parameter "chat_id" must be of type Integer or String'),
    ("sendMessage", {"chat_id": MARIA.id, "text": ["oi"]}, 'parameter "text" must be of type '
     "String"),
    ("sendMessage", {"chat_id": MARIA.id, "text": "oi", "reply_markup": "não é JSON"},
     "can't parse reply keyboard markup JSON object"),
    ("sendMessage", {"chat_id": MARIA.id, "text": "oi",
                     "reply_markup": {"inline_keyboard": [[{"text": "a",
                                                            "callback_data": ["a"]}]]}},
     'can\'t parse inline keyboard button: Field "callback_data" must be of type String'),
    ("sendMessage", {"chat_id": MARIA.id, "text": "oi",
                     "reply_markup": {"keyboard": [[{"text": "a", "request_location": "sim"}]]}},
     'can\'t parse keyboard button: Field "request_location" must be of type Boolean'),
    ("sendMediaGroup", {"chat_id": MARIA.id, "media": photo_item("x")},
     'parameter "media" must be of type Array of InputMediaAudio or Array of '
     "InputMediaDocument or Array of InputMediaLivePhoto or Array of InputMediaPhoto or Array "
     "of InputMediaVideo"),
    ("sendMediaGroup", {"chat_id": MARIA.id, "media": [{"type": "sticker", "media": "x"}] * 2},
     'can\'t parse InputMedia: type "sticker" is unsupported'),
    ("sendMediaGroup", {"chat_id": MARIA.id, "media": [photo_item("x", has_spoiler="yes")] * 2},
     'can\'t parse InputMedia: Field "has_spoiler" must be of type Boolean'),
])
async def test_a_value_of_the_wrong_type_is_refused(api, method, params, description):
    assert await refused(api, method, params) == f"Bad Request: {description}"


@pytest.mark.parametrize("form, description", [
    ({"chat_id": "1001", "latitude": "norte", "longitude": "-45.6"},
     'parameter "latitude" must be of type Float'),
    ({"chat_id": "1001", "latitude": "-19.4", "longitude": "-45.6", "live_period": "1.5"},
     'parameter "live_period" must be of type Integer'),
    ({"chat_id": "1001", "latitude": "-19.4", "longitude": "-45.6",
      "disable_notification": "talvez"}, 'parameter "disable_notification" must be of type '
     "Boolean"),
])
async def test_form_values_that_do_not_decode_to_their_type_are_refused(api, form, description):
    assert await refused(api, "sendLocation", form=form) == f"Bad Request: {description}"


async def test_form_values_are_decoded_as_telegram_decodes_them(api):
    markup = {"inline_keyboard": [[{"text": "Ver", "callback_data": "ver:1"}]]}
    status, body = await call(api, "sendLocation", form={
        "chat_id": "1001", "latitude": "-19.46", "longitude": "-45.6",
        "disable_notification": "true", "reply_markup": json.dumps(markup)})
    assert status == 200, body
    params = api.calls[-1].params
    assert params["chat_id"] == 1001 and params["latitude"] == -19.46
    assert params["disable_notification"] is True and params["reply_markup"] == markup
    status, body = await call(api, "sendMessage", form={"chat_id": "@canal", "text": "oi"})
    assert (status, body["description"]) == (400, "Bad Request: chat not found")
    # a number where text is expected is read as text, at any depth, as the Bot API server does
    markup = {"inline_keyboard": [[{"text": 1, "callback_data": 2}]]}
    status, body = await call(api, "sendMessage", {"chat_id": "1001", "text": 42,
                                                   "reply_markup": markup})
    assert status == 200 and body["result"]["text"] == "42"
    assert body["result"]["reply_markup"]["inline_keyboard"] == [[{"text": "1",
                                                                   "callback_data": "2"}]]


# ------------------------------------------------------------ attach:// names


async def test_attach_name_naming_no_uploaded_part_is_refused(api):
    description = await refused(api, "sendPhoto", form={
        "chat_id": "1001", "photo": "attach://foto"}, files={"outra": jpeg()})
    assert description == 'Bad Request: can\'t find attached file "attach://foto"'
    media = json.dumps([photo_item("attach://foto0"), photo_item("attach://foto9")])
    description = await refused(api, "sendMediaGroup", form={"chat_id": "1001", "media": media},
                                files={"foto0": jpeg(), "foto1": jpeg("blue")})
    assert description == "Bad Request: can't parse InputMedia: media not found"
    media = json.dumps([photo_item("attach://foto0"), photo_item("attach://foto1")])
    status, body = await call(api, "sendMediaGroup", form={"chat_id": "1001", "media": media},
                              files={"foto0": jpeg(), "foto1": jpeg("blue")})
    assert status == 200 and len(body["result"]) == 2


# ------------------------------------------------------------ Telegram's limits


async def test_text_limit_counts_utf16_units_after_entity_parsing(api):
    send = {"chat_id": MARIA.id}
    assert (await call(api, "sendMessage", {**send, "text": "x" * 4096}))[0] == 200
    assert await refused(api, "sendMessage", {**send, "text": "x" * 4097}) == (
        "Bad Request: message is too long")
    # 2,049 emoji are 4,098 UTF-16 units: too long, though only 2,049 code points
    assert await refused(api, "sendMessage", {**send, "text": "🚗" * 2049}) == (
        "Bad Request: message is too long")
    tagged = {**send, "text": "<b>" + "x" * 4096 + "</b>", "parse_mode": "HTML"}
    assert (await call(api, "sendMessage", tagged))[0] == 200  # tags are not text
    assert await refused(api, "sendMessage", {**send, "text": "  "}) == (
        "Bad Request: message text is empty")


async def test_caption_limit_on_a_photo_and_on_an_album_item(api):
    ok = await call(api, "sendPhoto", form={"chat_id": "1001", "caption": "ç" * 1024},
                    files={"photo": jpeg()})
    assert ok[0] == 200
    assert await refused(api, "sendPhoto", form={"chat_id": "1001", "caption": "ç" * 1025},
                         files={"photo": jpeg()}) == "Bad Request: message caption is too long"
    media = json.dumps([photo_item("attach://a", caption="x" * 1025), photo_item("attach://b")])
    assert await refused(api, "sendMediaGroup", form={"chat_id": "1001", "media": media},
                         files={"a": jpeg(), "b": jpeg()}) == (
        "Bad Request: message caption is too long")


@pytest.mark.parametrize("data", ["", "d" * 65, "ç" * 33], ids=["empty", "65-bytes", "66-utf8"])
async def test_callback_data_must_be_1_to_64_bytes(api, data):
    markup = {"inline_keyboard": [[{"text": "Ok", "callback_data": data}]]}
    assert await refused(api, "sendMessage", {"chat_id": MARIA.id, "text": "oi",
                                              "reply_markup": markup}) == (
        "Bad Request: BUTTON_DATA_INVALID")


async def test_callback_data_of_64_bytes_is_accepted(api):
    markup = {"inline_keyboard": [[{"text": "Ok", "callback_data": "ç" * 32}]]}
    status, _ = await call(api, "sendMessage", {"chat_id": MARIA.id, "text": "oi",
                                                "reply_markup": markup})
    assert status == 200


async def test_callback_answer_text_is_at_most_200_characters(api):
    markup = {"inline_keyboard": [[{"text": "Ok", "callback_data": "ok"}]]}
    _, sent = await call(api, "sendMessage", {"chat_id": MARIA.id, "text": "oi",
                                              "reply_markup": markup})
    update = await api.press_button(MARIA, sent["result"]["message_id"], "ok")
    query = update["callback_query"]["id"]
    assert await refused(api, "answerCallbackQuery", {
        "callback_query_id": query, "text": "x" * 201}) == "Bad Request: MESSAGE_TOO_LONG"
    status, _ = await call(api, "answerCallbackQuery", {"callback_query_id": query,
                                                        "text": "x" * 200})
    assert status == 200


@pytest.mark.parametrize("count, description", [
    (0, "media to send are not specified"),
    (1, "media group must include 2-10 items"),
    (11, "too many messages to send as an album"),
])
async def test_an_album_has_2_to_10_items(api, count, description):
    media = [photo_item("https://example.org/a.jpg")] * count
    assert await refused(api, "sendMediaGroup", {"chat_id": MARIA.id, "media": media}) == (
        f"Bad Request: {description}")
    media = [photo_item("https://example.org/a.jpg")] * 10
    assert (await call(api, "sendMediaGroup", {"chat_id": MARIA.id, "media": media}))[0] == 200


# ------------------------------------------------------------ inline keyboard buttons


@pytest.mark.parametrize("button, description", [
    ({"text": "Só texto"},
     "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"),
    ({"text": "Dois", "url": "https://example.org", "callback_data": "b"},
     "can't parse inline keyboard button: exactly one of the fields"),
])
async def test_an_inline_button_has_exactly_one_action(api, button, description):
    markup = {"inline_keyboard": [[button]]}
    got = await refused(api, "sendMessage", {"chat_id": MARIA.id, "text": "oi",
                                             "reply_markup": markup})
    assert got.startswith(f"Bad Request: {description}")


async def test_refusals_reach_python_telegram_bot_as_bad_request(api):
    async with Bot(api.token, base_url=api.bot_base_url) as bot:
        with pytest.raises(BadRequest, match="(?i)BUTTON_DATA_INVALID"):
            await bot.send_message(MARIA.id, "oi", reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Ok", callback_data="d" * 65)]]))
