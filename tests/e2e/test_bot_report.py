"""The citizen's report, end to end through the real python-telegram-bot and the stand-ins."""
from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from core.storage.models import (Case, ConversationState, Evidence, Subscription,
                                 SupportingReport)
from tests.support.lgpd_fixtures import approve_photos
from tests.support.bot_chat import (BELO_HORIZONTE, CENTRE, JOAO, MARIA, full_report, jpeg, pin,
                                    press, said, send_photos, start_report, with_button)

#: Every move the bot makes in these walks is an edge of core/services/citizens/conversation/states.py (the diagram
#: in docs/flows/citizen.md): tests/support/conversation_walk.py.
pytestmark = pytest.mark.usefixtures("conversation_walk")


async def test_full_report_gives_protocol_and_next_steps_art_4_caput(bot, core):
    protocol = await full_report(bot, MARIA, photos=2)
    assert protocol == "2026-000001"
    done = bot.api.last_message(MARIA).text
    assert "O que acontece agora" in done and "Art. 4º" in done
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        assert (case.plate, case.category) == ("ABC1D23", "motor_vehicle")
        assert case.details["report"]["signs"] == ["missing_tyres"]
        assert case.details["report"]["time_there"] == "Mais de 30 dias"
        assert case.description == "Em frente à padaria"
        assert case.address and "Getúlio Vargas" in case.address
        assert await s.scalar(select(func.count()).select_from(Evidence)) == 2
        assert await s.scalar(select(func.count()).select_from(Subscription)) == 1
        assert await s.scalar(select(func.count()).select_from(ConversationState)) == 0


async def test_album_is_stored_whole_and_acknowledged_once(bot, core):
    await start_report(bot, MARIA)
    await bot.api.send_album(MARIA, [jpeg(1), jpeg(2), jpeg(3)])
    ack = await said(bot, MARIA, "3 fotos recebidas")
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    acks = [c for c in bot.api.sent(MARIA, "sendMessage") if "recebida" in c.text and "📷" in c.text]
    assert acks == [ack]
    async with core.db.read() as s:
        draft = (await s.execute(select(ConversationState))).scalar_one().draft
    assert len(draft["photos"]) == 3
    assert all(core.evidence.exists(p["sha"]) for p in draft["photos"])


async def test_typed_address_is_geocoded_shown_and_confirmed(bot, core):
    await start_report(bot, MARIA, "Móvel de grande porte")
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await bot.api.send_text(MARIA, "Rua Sete de Setembro, 45")
    shown = await said(bot, MARIA, "Entendi este endereço")
    assert "Rua Sete de Setembro, 45 — Centro" in shown.text
    await press(bot, MARIA, "Sim, é aqui", expect="Há quanto tempo")
    assert all("viewbox" in r.params and r.params.get("bounded") == "1"
               for r in bot.osm.requests if r.path.startswith("/search"))
    async with core.db.read() as s:
        draft = (await s.execute(select(ConversationState))).scalar_one().draft
    assert draft["address"].startswith("Rua Sete de Setembro") and draft["lat"] == -19.46452


async def test_address_refused_then_pin(bot):
    await start_report(bot, MARIA, "Maquinário")
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await bot.api.send_text(MARIA, "Rua Getúlio Vargas, 250")
    await said(bot, MARIA, "Entendi este endereço")
    await press(bot, MARIA, "Não", expect="Envie a localização pelo botão")
    await bot.api.send_text(MARIA, "Rua Inexistente, 9")
    await said(bot, MARIA, "Não encontrei esse endereço em Dores do Indaiá")


async def test_location_outside_the_city_is_refused_with_explanation(bot, core):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    refusal = await pin(bot, MARIA, *BELO_HORIZONTE, expect="fora da área de Dores do Indaiá")
    assert "Lei 3.043/2022" in refusal.text
    async with core.db.read() as s:
        row = (await s.execute(select(ConversationState))).scalar_one()
    assert row.state == "report:location" and "lat" not in row.draft
    await pin(bot, MARIA)  # the right place is still accepted


async def test_geocoder_slow_or_down_asks_for_the_pin_without_hanging(bot):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    bot.osm.delay = 5.0  # the bot's timeout is 1 s
    t0 = asyncio.get_running_loop().time()
    await bot.api.send_text(MARIA, "Rua Padre Marinho, 33")
    await said(bot, MARIA, "não respondeu", timeout=4.5)
    assert asyncio.get_running_loop().time() - t0 < 4.5  # before the geocoder's 5 s
    bot.osm.delay, bot.osm.down = 0.0, True
    await bot.api.send_text(MARIA, "Praça do Rosário")
    await said(bot, MARIA, "não respondeu")
    bot.osm.down = False
    await pin(bot, MARIA)  # a pin still works (reverse geocoding is best effort)


async def test_duplicate_nearby_is_this_one_supports_the_case(bot, core):
    protocol = await full_report(bot, MARIA)
    await approve_photos(core)  # MARIA's photo, reviewed by staff: JOÃO may see it (LGPD)
    await start_report(bot, JOAO)
    await send_photos(bot, JOAO)
    await press(bot, JOAO, "Pronto", expect="Onde fica")
    await bot.api.send_location(JOAO, CENTRE[0] + 0.0002, CENTRE[1])
    await said(bot, JOAO, "É algum destes")
    shown = bot.api.sent(JOAO, "sendPhoto")[-1]
    # another citizen's case as the public sees it: the neighbourhood, not their address
    assert protocol in shown.text and "Local: Centro (a 22 m)" in shown.text
    assert "Getúlio Vargas" not in shown.text
    # plain words for where it stands and what comes next, not the state's name
    reported = core.law.state_text("dores_vehicle", "reported")
    assert reported.for_citizen() in shown.text and "Art. " in shown.text
    state_name = core.law.tracks["dores_vehicle"].state("reported").label
    assert "Situação:" not in shown.text and state_name not in shown.text
    await press(bot, JOAO, f"É este: {protocol}", expect="juntadas ao caso")
    async with core.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Case)) == 1
        support = (await s.execute(select(SupportingReport))).scalar_one()
        assert len(support.photos) == 1
        assert await s.scalar(select(func.count()).select_from(Subscription)) == 2


async def test_duplicate_nearby_is_another_one_goes_on(bot, core):
    await full_report(bot, MARIA)
    await start_report(bot, JOAO)
    await send_photos(bot, JOAO)
    await press(bot, JOAO, "Pronto", expect="Onde fica")
    await pin(bot, JOAO, CENTRE[0] + 0.0002, CENTRE[1], expect="É algum destes")
    await press(bot, JOAO, "é outro caso", expect="Qual é a placa")


async def test_cancel_drops_the_draft_and_its_buttons_go_stale(bot, core):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA)
    await bot.api.send_command(MARIA, "cancelar")
    await said(bot, MARIA, "Denúncia cancelada")
    msg = with_button(bot, MARIA, "Pronto")
    await bot.api.press_button(MARIA, msg, text="Pronto")
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert "não vale mais" in answer.params["text"]
    async with core.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(ConversationState)) == 0


async def test_restart_mid_conversation_continues_without_asking_again(bot, core):
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA, 2)
    await bot.restart()  # a new Application on the same database (as after kill -9)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await pin(bot, MARIA)
    await said(bot, MARIA, "Qual é a placa")
    await bot.restart()
    await bot.api.send_text(MARIA, "ABC1234")
    await said(bot, MARIA, "Qual é a cor")
    async with core.db.read() as s:
        draft = (await s.execute(select(ConversationState))).scalar_one().draft
    assert len(draft["photos"]) == 2 and draft["plate"] == "ABC1234"
    asked = [c.text for c in bot.api.sent(MARIA, "sendMessage")]
    assert sum("Envie de 1 a 10 fotos" in t for t in asked) == 1


async def test_same_update_twice_stores_one_photo_and_answers_once(bot, core):
    await start_report(bot, MARIA)
    update = await bot.api.send_photo(MARIA, jpeg(7))
    await said(bot, MARIA, "1 foto recebida")
    await bot.api.inject(update)  # Telegram delivers the same update_id again
    await bot.api.send_photo(MARIA, jpeg(8))
    await said(bot, MARIA, "2 fotos recebidas")
    async with core.db.read() as s:
        draft = (await s.execute(select(ConversationState))).scalar_one().draft
    assert len(draft["photos"]) == 2
    assert sum("recebida" in c.text and "📷" in c.text for c in bot.api.sent(MARIA, "sendMessage")) == 2


async def test_correct_a_field_from_the_summary(bot, core):
    await start_report(bot, MARIA, "Móvel de grande porte")
    await send_photos(bot, MARIA)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await pin(bot, MARIA, expect="Há quanto tempo")
    await press(bot, MARIA, "Não sei", expect="sinais de abandono")
    await press(bot, MARIA, "Continuar", expect="acrescentar")
    await press(bot, MARIA, "Pular", expect="Confira sua denúncia")
    await press(bot, MARIA, "Corrigir", expect="O que você quer corrigir")
    await press(bot, MARIA, "Descrição", expect="acrescentar")
    await bot.api.send_text(MARIA, "Geladeira branca na calçada")
    summary = await said(bot, MARIA, "Confira sua denúncia")
    assert "Geladeira branca na calçada" in summary.text
    await press(bot, MARIA, "Confirmar", expect="Protocolo:")


async def test_duplicate_photo_shown_to_another_citizen_has_no_gps_lgpd(bot, core):
    """A reporter's photo shown to someone else is the copy without EXIF (position, camera)."""
    import io

    from PIL import Image

    from tests.support.bot_chat import pin, press, said, start_report, vehicle_questions
    img, exif = Image.new("RGB", (64, 48), (200, 30, 30)), Image.Exif()
    exif[0x010F] = "CameraMaker"
    exif[0x8825] = {1: "S", 2: (19.0, 27.0, 38.0), 3: "W", 4: (45.0, 36.0, 1.0)}
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif.tobytes())
    await start_report(bot, MARIA)
    await bot.api.send_photo(MARIA, buf.getvalue())
    await said(bot, MARIA, "1 foto recebida")
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await pin(bot, MARIA)
    await said(bot, MARIA, "Qual é a placa")
    await vehicle_questions(bot, MARIA)
    await bot.api.send_text(MARIA, "Pular")
    await said(bot, MARIA, "Confira sua denúncia")
    await press(bot, MARIA, "Confirmar", expect="Protocolo:")
    await approve_photos(core)
    await start_report(bot, JOAO)
    await send_photos(bot, JOAO)
    await press(bot, JOAO, "Pronto", expect="Onde fica")
    await bot.api.send_location(JOAO, CENTRE[0] + 0.0002, CENTRE[1])
    await said(bot, JOAO, "É algum destes")
    shown = Image.open(io.BytesIO(bot.api.sent(JOAO, "sendPhoto")[-1].file("photo")))
    assert not shown.getexif(), "GPS/EXIF leaked to another citizen"
