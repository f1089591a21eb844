"""Bad input: each gets a clear Portuguese answer and loses nothing; no stack trace reaches a
user."""
from __future__ import annotations

from sqlalchemy import select

from bot.citizen import register as citizen
from bot.flood import FloodLimit
from sandbox.harness import BotHarness
from core.storage.db import Database
from core.storage.models import ConversationState
from tests.support.bot_chat import MARIA, jpeg, press, said, send_photos, start_report, with_button


async def _photos(core) -> list:
    async with core.db.read() as s:
        return (await s.execute(select(ConversationState))).scalar_one().draft["photos"]


async def test_non_photos_where_photos_are_expected(bot, core):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA)
    await bot.api.send_text(MARIA, "olha o carro aí")
    await said(bot, MARIA, "Aqui preciso de fotos")
    await bot.api.send_video(MARIA, b"\x00" * 100)
    await said(bot, MARIA, "Vídeos não são aceitos")
    await bot.api.send_sticker(MARIA)
    await said(bot, MARIA, "Figurinhas não valem")
    await bot.api.send_document(MARIA, b"%PDF-1.4", "laudo.pdf", "application/pdf")
    await said(bot, MARIA, "não é uma imagem")
    assert len(await _photos(core)) == 1  # nothing lost


async def test_image_sent_as_file_is_accepted(bot, core):
    await start_report(bot, MARIA)
    await bot.api.send_document(MARIA, jpeg(3), "carro.jpg", "image/jpeg")
    await said(bot, MARIA, "1 foto recebida")
    assert (await _photos(core))[0]["mime"] == "image/jpeg"


async def test_oversized_file_is_refused_before_download(bot, core):
    await start_report(bot, MARIA)
    msg = {"message_id": 900, "from": MARIA.to_dict(), "chat": MARIA.chat(), "date": 1,
           "document": {"file_id": "BIGFILE", "file_unique_id": "BIGU", "file_name": "x.jpg",
                        "mime_type": "image/jpeg", "file_size": 25 * 1024 * 1024}}
    await bot.api.inject({"message": msg})
    await said(bot, MARIA, "grande demais (máximo de 20 MB)")
    assert not bot.api.sent(method="getFile", ok=None)


async def test_stale_and_forged_buttons_are_answered_politely(bot, core):
    await start_report(bot, MARIA)
    menu = with_button(bot, MARIA, "Maquinário")  # the category menu, already answered
    for data in ("rep:zzzzzz:done", "rep:%s:cat:motor_vehicle" % _draft_id(menu),
                 "hack:me", "notif:off:2026-999999"):
        await bot.api.press_button(MARIA, menu, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert answer.params.get("text"), data
    assert (await _state(core)) == "report:photos"


async def test_text_over_the_limit_is_refused_and_kept_asking(bot, core):
    await start_report(bot, MARIA, "Maquinário")
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await bot.api.send_location(MARIA, -19.4628, -45.6003)
    await said(bot, MARIA, "Há quanto tempo")
    await bot.api.send_text(MARIA, "x" * 2000)
    await said(bot, MARIA, "Texto longo demais")
    assert (await _state(core)) == "report:time_there"


async def test_flood_gets_one_polite_answer(core):
    async with BotHarness(core, flood=FloodLimit(capacity=3, rate=0.01)) as h:
        for i in range(8):
            await h.api.send_text(MARIA, f"oi {i}")
        await h.api.wait_for(method="sendMessage", chat_id=MARIA, text="Muitas mensagens",
                             since=0)
        await h.api.send_text(MARIA, "mais uma")
        await h.api.send_text(MARIA, "e outra")
        texts = [c.text for c in h.api.sent(MARIA, "sendMessage")]
        assert sum("Muitas mensagens" in t for t in texts) == 1
        assert len(texts) == 4


async def _inspector_only(turn) -> None:
    await turn.reply("tarefas do fiscal")


def _inspector_flow(router) -> None:
    router.command("tarefas", _inspector_only, "Minhas tarefas", role="inspector")


async def test_command_from_the_wrong_role(core):
    async with BotHarness(core, flows=[citizen, _inspector_flow]) as h:
        await h.api.send_command(MARIA, "tarefas")
        await h.api.wait_for(method="sendMessage", chat_id=MARIA, text="só para fiscais")
        await h.api.send_command(MARIA, "naoexiste")
        await h.api.wait_for(method="sendMessage", chat_id=MARIA, text="Não conheço")


async def test_database_unavailable_says_try_again(bot, core):
    real = core.db
    core.db = Database.from_url("postgresql+asyncpg://nobody@127.0.0.1:9/none")
    try:
        await bot.api.send_command(MARIA, "minhas")
        await said(bot, MARIA, "Tente novamente")
    finally:
        await core.db.dispose()
        core.db = real


async def test_telegram_error_gets_an_apology_never_a_trace(bot, core, caplog):
    await start_report(bot, MARIA)
    bot.api.fail_next("getFile", 500, description="Internal Server Error")
    await bot.api.send_photo(MARIA, jpeg(1))
    apology = await said(bot, MARIA, "Desculpe, algo deu errado")
    assert "Traceback" not in apology.text and "Error" not in apology.text
    assert "error handling update" in caplog.text
    await bot.api.send_photo(MARIA, jpeg(1))  # the citizen tries again: it works
    await said(bot, MARIA, "1 foto recebida")


def _draft_id(menu) -> str:
    return menu.flat_buttons()[0].callback_data.split(":")[1]


async def _state(core) -> str:
    async with core.db.read() as s:
        return (await s.execute(select(ConversationState))).scalar_one().state
