"""Hostile values from Telegram: impossible coordinates, file_ids Telegram
does not know, files above the 20 MB a bot may download, text with characters PostgreSQL
refuses (U+0000, lone surrogates). Each gets its own clear Portuguese answer (never the
generic apology) and nothing given before is lost. On SQLite and PostgreSQL."""
from __future__ import annotations

import math

import pytest
from sqlalchemy import select

from bot.texts import FILE_TOO_BIG, FILE_UNKNOWN
from core.services.citizens.conversation.words import INVALID_LOCATION
from sandbox.standin.botapi import User
from core.storage.models import Case, ConversationState, Person
from core.text import clean_data, clean_text
from tests.support.bot_chat import CENTRE, MARIA, jpeg, pin, press, said, send_photos, start_report


async def _draft(core) -> tuple[str, dict]:
    async with core.db.read() as s:
        row = (await s.execute(select(ConversationState))).scalar_one()
        return row.state, row.draft


def test_clean_text_drops_nul_and_replaces_lone_surrogates_only():
    assert clean_text("pra\x00ta") == "prata"
    assert clean_text("a\ud800b\udfffc") == "a\ufffdb\ufffdc"
    kept = "Ôlá, João 🚗 ção\tfim\n"
    assert clean_text(kept) is kept
    assert clean_data({"k\x00": ["x\x00", 1, None, {"y": "\ud83d"}]}) == {
        "k": ["x", 1, None, {"y": "\ufffd"}]}


@pytest.mark.parametrize("lat,lon", [(math.nan, CENTRE[1]), (CENTRE[0], math.inf),
                                     (-math.inf, math.nan), (91.0, CENTRE[1]),
                                     (CENTRE[0], -180.5)],
                         ids=["nan", "inf", "both", "lat>90", "lon<-180"])
async def test_impossible_coordinates_get_their_own_answer_and_keep_the_report(
        bot, core, lat, lon):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA, 2)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await bot.api.send_location(MARIA, lat, lon)
    answer = await said(bot, MARIA)
    assert answer.text == INVALID_LOCATION
    state, draft = await _draft(core)
    assert state == "report:location" and len(draft["photos"]) == 2  # nothing lost
    await pin(bot, MARIA)  # the right pin goes on with the report
    await said(bot, MARIA, "Qual é a placa")


async def test_unknown_file_id_gets_its_own_answer_and_keeps_the_photos(bot, core):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA, 1)
    photo = {"file_id": "AgACAgEAAxkBAAINaoExiste", "file_unique_id": "AQADnao",
             "width": 800, "height": 600}
    await bot.api.inject({"message": {"message_id": 901, "from": MARIA.to_dict(),
                                      "chat": MARIA.chat(), "date": 1, "photo": [photo]}})
    assert (await said(bot, MARIA)).text == FILE_UNKNOWN
    state, draft = await _draft(core)
    assert state == "report:photos" and len(draft["photos"]) == 1
    await send_photos(bot, MARIA, 1, start=1)  # the next photo is taken as the second


async def test_file_over_20_mb_without_announced_size_gets_its_own_answer(bot, core):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA, 1)
    big = jpeg(5) + b"\x00" * (21 * 1024 * 1024)
    sent = await bot.api.send_document(MARIA, big, "enorme.jpg", "image/jpeg")
    await said(bot, MARIA, "grande demais")  # announced size: refused before getFile
    doc = dict(sent["message"]["document"])
    doc.pop("file_size")  # Telegram does not always say: getFile refuses the download
    await bot.api.inject({"message": {"message_id": 902, "from": MARIA.to_dict(),
                                      "chat": MARIA.chat(), "date": 1, "document": doc}})
    assert (await said(bot, MARIA)).text == FILE_TOO_BIG
    state, draft = await _draft(core)
    assert state == "report:photos" and len(draft["photos"]) == 1


async def test_nul_and_lone_surrogates_in_answers_and_names_are_stored_cleaned(
        bot, core):
    """U+0000 in a typed answer or in the Telegram first name used to fail the step (or every
    report of that person) on PostgreSQL forever."""
    bad = User(1077, "Ma\x00ria\ud800", username="ma\x00ria")
    await start_report(bot, bad)
    await send_photos(bot, bad, 1)
    await press(bot, bad, "Pronto", expect="Onde fica")
    await pin(bot, bad)
    await said(bot, bad, "Qual é a placa")
    await bot.api.send_text(bad, "ABC1D23")
    await said(bot, bad, "Qual é a cor")
    await bot.api.send_text(bad, "pra\x00ta")
    await said(bot, bad, "marca e o modelo")
    state, draft = await _draft(core)
    assert draft["colour"] == "prata"
    await bot.api.send_text(bad, "VW\ud83d Gol")
    await said(bot, bad, "Há quanto tempo")
    await press(bot, bad, "Mais de 30 dias", expect="sinais de abandono")
    await press(bot, bad, "Continuar", expect="acrescentar alguma informação")
    await bot.api.send_text(bad, "perto\x00 da escola")
    await said(bot, bad, "Confira sua denúncia")
    await press(bot, bad, "Confirmar", expect="Protocolo:")
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        person = (await s.execute(select(Person).where(Person.telegram_id == 1077))
                  ).scalar_one()
    assert person.display_name == "Maria\ufffd"
    assert "\x00" not in repr(case.__dict__)


async def test_inspector_location_with_nan_gets_a_clear_answer(bot, core):
    from tests.support.inspector import ANA, bind
    await bind(bot, ANA, "Ana Fiscal", "posturas")
    await bot.api.send_command(ANA, "tarefas")
    await said(bot, ANA, "envie sua localização")
    await bot.api.send_location(ANA, math.nan, math.inf)
    answer = await said(bot, ANA)
    assert "Localização inválida" in answer.text and "Desculpe" not in answer.text
