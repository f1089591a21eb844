"""The Telegram Bot API stand-in, driven by a REAL python-telegram-bot Application."""

from __future__ import annotations

import asyncio
import contextlib
import io
import time

import aiohttp
import pytest
from aiohttp import web
from PIL import Image
from telegram import (
    BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, KeyboardButton,
    ReplyKeyboardMarkup, Update,
)
from telegram.error import BadRequest, EndPointNotFound, Forbidden
from telegram.ext import (
    AIORateLimiter, ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes,
    MessageHandler, filters,
)

from sandbox.standin.botapi import BotApiStandIn, User

MARIA = User(1001, "Maria", username="maria_dores")
JOAO = User(1002, "João")


def png(width: int, height: int, colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.message.reply_text(update.message.text)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    keyboard = InlineKeyboardMarkup(
        [[InlineKeyboardButton("Sim", callback_data="yes"),
          InlineKeyboardButton("Não", callback_data="no")]]
    )
    await update.message.reply_text(
        f"Olá, {update.effective_user.first_name}! args={' '.join(context.args)}",
        reply_markup=keyboard,
    )


async def two_messages(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.message.reply_text("primeira")
    await update.message.reply_text("segunda")


async def ask_location(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.message.reply_text(
        "Envie a localização",
        reply_markup=ReplyKeyboardMarkup(
            [[KeyboardButton("📍 Enviar localização", request_location=True)], ["Cancelar"]],
            one_time_keyboard=True,
        ),
    )


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    await query.answer("Ok!")
    await query.edit_message_text(f"Escolheu: {query.data}")


async def on_photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    photo = update.message.photo[-1]
    file = await photo.get_file()
    buf = io.BytesIO()
    await file.download_to_memory(buf)
    context.bot_data.setdefault("photos", []).append(
        (buf.getvalue(), update.update_id, update.message.media_group_id)
    )
    await update.message.reply_text(f"Foto recebida: {len(buf.getvalue())} bytes")


async def on_location(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    loc = update.message.location
    await update.message.reply_venue(
        latitude=loc.latitude, longitude=loc.longitude,
        title="Local do objeto", address="Rua Getúlio Vargas, 100",
    )


@contextlib.asynccontextmanager
async def running_bot(api: BotApiStandIn, *, rate_limiter: AIORateLimiter | None = None):
    builder = (ApplicationBuilder().token(api.token)
               .base_url(api.bot_base_url).base_file_url(api.file_base_url))
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    app = builder.build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("duas", two_messages))
    app.add_handler(CommandHandler("local", ask_location))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    app.add_handler(MessageHandler(filters.PHOTO, on_photo))
    app.add_handler(MessageHandler(filters.LOCATION, on_location))
    app.add_handler(CallbackQueryHandler(on_button))
    await app.initialize()
    await app.start()
    await app.updater.start_polling(poll_interval=0)
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()


@pytest.fixture
async def api():
    async with BotApiStandIn() as stand_in:
        yield stand_in


async def test_text_message_is_echoed_to_the_same_private_chat(api):
    async with running_bot(api):
        await api.send_text(MARIA, "Tem um carro abandonado aqui")
        call = await api.wait_for(method="sendMessage", chat_id=MARIA)
    assert call.text == "Tem um carro abandonado aqui"
    assert api.last_message(MARIA).text == "Tem um carro abandonado aqui"
    assert api.last_message(JOAO) is None
    assert api.sent(method="getMe"), "PTB initialize() calls getMe"


async def test_start_command_receives_deep_link_payload_and_shows_inline_buttons(api):
    async with running_bot(api):
        await api.send_command(MARIA, "/start", "denuncia-42")
        await api.wait_for(method="sendMessage", text="args=denuncia-42")
    msg = api.last_message(MARIA)
    assert msg.text == "Olá, Maria! args=denuncia-42"
    assert msg.keyboard == "inline"
    assert [(b.text, b.callback_data) for b in msg.buttons[0]] == [("Sim", "yes"), ("Não", "no")]


async def test_pressing_a_button_answers_the_query_and_edits_the_message(api):
    async with running_bot(api):
        await api.send_command(MARIA, "/start")
        await api.wait_for(method="sendMessage")
        question = api.last_message(MARIA)
        await api.press_button(MARIA, question, text="Não")
        answer = await api.wait_for(method="answerCallbackQuery")
        await api.wait_for(method="editMessageText")
    assert answer.params["text"] == "Ok!"
    edited = api.last_message(MARIA)
    assert edited.message_id == question.message_id
    assert edited.text == "Escolheu: no"
    assert edited.buttons == [], "editing text without reply_markup drops the inline keyboard"
    with pytest.raises(LookupError):
        await api.press_button(MARIA, edited, "yes")


async def test_photo_is_downloadable_with_exact_bytes_and_realistic_sizes(api):
    image = png(1600, 1200)
    async with running_bot(api) as app:
        update = await api.send_photo(MARIA, image, caption="Sofá na calçada")
        await api.wait_for(method="sendMessage", text="Foto recebida")
    sizes = update["message"]["photo"]
    assert [s["width"] for s in sizes] == [90, 320, 800, 1600]
    assert sizes[-1]["height"] == 1200
    assert len({s["file_id"] for s in sizes}) == 4
    data, _, group = app.bot_data["photos"][0]
    assert data == image
    assert group is None


async def test_album_arrives_as_separate_updates_sharing_media_group_id(api):
    images = [png(400, 300, c) for c in ("red", "green", "blue")]
    async with running_bot(api) as app:
        updates = await api.send_album(MARIA, images, caption="Entulho")
        await api.wait_for(method="sendMessage", text="Foto recebida", count=3)
    received = app.bot_data["photos"]
    assert [r[0] for r in received] == images
    assert len({r[1] for r in received}) == 3, "one update per photo"
    assert len({r[2] for r in received}) == 1 and received[0][2] is not None
    assert "caption" in updates[0]["message"] and "caption" not in updates[1]["message"]


async def test_redelivered_update_id_reaches_the_bot_again(api):
    async with running_bot(api):
        update = await api.send_text(MARIA, "duplicado", update_id=555)
        await api.wait_for(method="sendMessage", text="duplicado")
        await api.inject(update)
        await api.wait_for(method="sendMessage", text="duplicado")
        assert len(api.sent(MARIA, "sendMessage")) == 2


async def test_429_with_retry_after_is_honoured_by_the_rate_limiter(api):
    api.fail_next("sendMessage", 429, retry_after=1)
    async with running_bot(api, rate_limiter=AIORateLimiter(max_retries=2)):
        await api.send_text(MARIA, "oi")
        ok = await api.wait_for(method="sendMessage", text="oi", timeout=5)
    refused = api.sent(MARIA, "sendMessage", ok=False)
    assert len(refused) == 1 and refused[0].error_code == 429
    assert ok.time - refused[0].time >= 1.0, "the bot waited retry_after before retrying"


async def test_per_chat_rate_rule_refuses_a_burst_and_the_bot_retries(api):
    """Telegram allows about one message per second per chat; a burst gets 429."""
    api.add_rate_rule(1, per_seconds=1.0, methods=("sendMessage",))
    async with running_bot(api, rate_limiter=AIORateLimiter(max_retries=1)):
        await api.send_command(MARIA, "/duas")
        calls = await api.wait_for(method="sendMessage", chat_id=MARIA, count=2, timeout=5)
    assert [c.text for c in calls] == ["primeira", "segunda"]
    refused = api.sent(MARIA, "sendMessage", ok=False)
    assert refused and refused[0].description.startswith("Too Many Requests: retry after")
    assert calls[1].time - calls[0].time >= 1.0


async def test_location_reply_keyboard_and_venue(api):
    async with running_bot(api):
        await api.send_command(MARIA, "/local")
        await api.wait_for(method="sendMessage")
        keyboard = api.reply_keyboard(MARIA)
        assert keyboard[0][0].request_location and keyboard[1][0].text == "Cancelar"
        assert api.last_message(MARIA).keyboard == "reply"
        await api.send_location(MARIA, -19.4628, -45.6003)
        venue = await api.wait_for(method="sendVenue")
    assert venue.result["venue"]["location"] == {"latitude": -19.4628, "longitude": -45.6003}
    assert venue.result["venue"]["title"] == "Local do objeto"


async def test_set_my_commands_is_recorded_and_readable(api):
    async with running_bot(api) as app:
        commands = [BotCommand("start", "Começar"), BotCommand("denunciar", "Nova denúncia")]
        assert await app.bot.set_my_commands(commands)
        assert await app.bot.get_my_commands() == tuple(commands)
    assert api.my_commands() == [{"command": "start", "description": "Começar"},
                                 {"command": "denunciar", "description": "Nova denúncia"}]
    assert api.sent(method="setMyCommands")


async def test_bot_uploads_are_kept_with_their_bytes(api):
    api.add_user(JOAO)
    async with running_bot(api) as app:
        await app.bot.send_document(JOAO.id, document=b"%PDF-1.4 notificacao",
                                    filename="notificacao.pdf", caption="Notificação")
        await app.bot.send_media_group(
            JOAO.id, [InputMediaPhoto(png(50, 50)), InputMediaPhoto(png(60, 40))])
        await app.bot.send_location(JOAO.id, -19.46, -45.60)
        await app.bot.send_chat_action(JOAO.id, "upload_photo")
    doc = api.sent(JOAO, "sendDocument")[0]
    assert doc.file("document") == b"%PDF-1.4 notificacao"
    assert doc.result["document"]["file_name"] == "notificacao.pdf"
    assert api.file_bytes(doc.result["document"]["file_id"]) == b"%PDF-1.4 notificacao"
    album = api.sent(JOAO, "sendMediaGroup")[0].result
    assert len(album) == 2 and album[0]["media_group_id"] == album[1]["media_group_id"]
    assert api.sent(JOAO, "sendLocation")[0].result["location"]["latitude"] == -19.46


async def test_telegram_errors_for_bad_requests(api):
    api.add_user(MARIA)
    async with running_bot(api) as app:
        with pytest.raises(BadRequest, match="(?i)unsupported start tag"):
            await app.bot.send_message(MARIA.id, "<div>oi</div>", parse_mode="HTML")
        msg = await app.bot.send_message(MARIA.id, "<b>Protocolo</b> 12", parse_mode="HTML")
        assert msg.text == "Protocolo 12"
        with pytest.raises(BadRequest, match="(?i)message is not modified"):
            await msg.edit_text("Protocolo 12")
        with pytest.raises(BadRequest, match="(?i)chat not found"):
            await app.bot.send_message(999, "oi")
        with pytest.raises(BadRequest, match="(?i)message is too long"):
            await app.bot.send_message(MARIA.id, "x" * 4097)
        with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
            await app.bot.send_message(MARIA.id, "oi", reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("x", callback_data="d" * 65)]]))
        with pytest.raises(EndPointNotFound):
            await app.bot.do_api_request("notARealMethod")
        api.block(MARIA)
        with pytest.raises(Forbidden, match="(?i)blocked"):
            await app.bot.send_message(MARIA.id, "oi")
        assert await msg.delete()
        assert api.last_message(MARIA) is None


async def test_get_updates_honours_timeout_and_returns_promptly_on_injection(api):
    url = f"{api.bot_base_url}{api.token}/getUpdates"
    async with aiohttp.ClientSession() as http:
        t0 = time.monotonic()
        async with http.post(url, json={"timeout": 1}) as resp:  # seconds: an Integer
            assert (await resp.json()) == {"ok": True, "result": []}
        assert time.monotonic() - t0 >= 1

        async def inject_later():
            await asyncio.sleep(0.1)
            await api.send_text(MARIA, "acorda")

        task = asyncio.create_task(inject_later())
        t0 = time.monotonic()
        async with http.post(url, data={"timeout": "10"}) as resp:
            body = await resp.json()
        await task
        assert time.monotonic() - t0 < 2
        [update] = body["result"]
        assert update["message"]["text"] == "acorda"
        async with http.post(url, json={"offset": update["update_id"] + 1}) as resp:
            assert (await resp.json())["result"] == [], "offset confirmed the update"
        async with http.get(f"{api.bot_base_url}{api.token}/nope") as resp:
            assert resp.status == 404
            assert await resp.json() == {"ok": False, "error_code": 404,
                                         "description": "Not Found"}


async def test_webhook_mode_posts_updates_with_the_secret_header(api):
    app = (ApplicationBuilder().token(api.token).base_url(api.bot_base_url)
           .base_file_url(api.file_base_url).updater(None).build())
    app.add_handler(MessageHandler(filters.TEXT, echo))
    seen_secrets = []

    async def receive(request: web.Request) -> web.Response:
        seen_secrets.append(request.headers.get("X-Telegram-Bot-Api-Secret-Token"))
        await app.update_queue.put(Update.de_json(await request.json(), app.bot))
        return web.Response()

    web_app = web.Application()
    web_app.router.add_post("/tg", receive)
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    await app.initialize()
    await app.start()
    try:
        await app.bot.set_webhook(f"http://127.0.0.1:{port}/tg", secret_token="s3gr3do")
        assert (await app.bot.get_webhook_info()).url.endswith("/tg")
        await api.send_text(MARIA, "via webhook")
        await api.wait_for(method="sendMessage", text="via webhook")
        assert seen_secrets == ["s3gr3do"]
        assert api.webhook_deliveries[0].status == 200
        with pytest.raises(Exception, match="webhook is active"):
            await app.bot.get_updates()
    finally:
        await app.stop()
        await app.shutdown()
        await runner.cleanup()


async def test_polling_survives_a_bad_gateway_from_telegram(api):
    api.fail_next("getUpdates", 502)
    async with running_bot(api):
        await api.send_text(MARIA, "ainda funciona")
        await api.wait_for(method="sendMessage", text="ainda funciona", timeout=5)
    assert api.sent(method="getUpdates", ok=False)[0].error_code == 502


async def test_malformed_parameters_get_a_bad_request_not_a_crash(api):
    url = f"{api.bot_base_url}{api.token}/getUpdates"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, data={"offset": "abc"}) as resp:
            body = await resp.json()
    assert resp.status == 400 and body["ok"] is False
    assert body["description"].startswith("Bad Request")


async def test_wait_for_times_out_with_a_readable_summary(api):
    with pytest.raises(AssertionError, match="timed out waiting"):
        await api.wait_for(method="sendMessage", timeout=0.05)


async def test_webhook_answer_body_with_a_method_is_executed_like_telegram_does(api):
    async def receive(request: web.Request) -> web.Response:
        update = await request.json()
        chat = update["message"]["chat"]["id"]
        return web.json_response({"method": "sendMessage", "chat_id": chat, "text": "recebido"})

    web_app = web.Application()
    web_app.router.add_post("/tg", receive)
    runner = web.AppRunner(web_app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        api.use_webhook(f"http://127.0.0.1:{runner.addresses[0][1]}/tg")
        await api.send_text(MARIA, "oi")
        call = await api.wait_for(method="sendMessage", chat_id=MARIA, timeout=2)
    finally:
        await runner.cleanup()
    assert call.via_webhook_reply and call.text == "recebido"


async def test_a_call_still_being_answered_is_not_counted_as_sent(api):
    """A call is logged on arrival, but `sent()` (ok=True) counts it only once answered: a
    send held by an injected delay and then refused (429) was never delivered (the delivery
    fault figures read `sent()`, tests/support/fault_figures.py)."""
    api.add_user(MARIA)
    api.add_rate_rule(1, per_seconds=60.0, methods=("sendMessage",))
    api.fail_next("sendMessage", None, delay=0.3, times=2)
    url = f"{api.bot_base_url}{api.token}/sendMessage"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"chat_id": MARIA.id, "text": "primeira"}) as resp:
            assert resp.status == 200
        second = asyncio.create_task(http.post(url, json={"chat_id": MARIA.id,
                                                          "text": "segunda"}))
        while len(api.sent(MARIA, "sendMessage", ok=None)) < 2:
            await asyncio.sleep(0.01)
        assert [c.text for c in api.sent(MARIA, "sendMessage")] == ["primeira"]  # in flight
        async with await second as resp:
            assert resp.status == 429
    assert [c.text for c in api.sent(MARIA, "sendMessage")] == ["primeira"]
    assert [c.text for c in api.sent(MARIA, "sendMessage", ok=False)] == ["segunda"]
