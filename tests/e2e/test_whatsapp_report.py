"""A citizen's whole report over WhatsApp: the real webhook (whatsapp.app) over HTTP, signed
by the strict Cloud API stand-in, beside the real Telegram bot where the inspector works —
category, photo, pin, the category's questions, confirmation and protocol (Dores Lei
3.043/2022, Art. 4º caput); the inspector's task in Telegram; four days later the update as
an approved template (outside the 24 hours no free text may go); a redelivered webhook takes
nothing twice; a badly signed one is refused and stores nothing."""
from __future__ import annotations

import asyncio

import aiohttp
import pytest
from sqlalchemy import func, select

from core.identifiers import format_case_code
from core.storage.timeline import ActorRef
from core.services.cases.transitions import apply_transition
from core.storage.models import Case, Evidence, OutboxMessage, Person, Subscription
from core.storage.models_whatsapp import WhatsAppChat
from tests.support.bot_chat import CENTRE, jpeg
from tests.support.inspector import ANA, bind, task_message
from tests.support.whatsapp import MARIA, drained, last_text, report, tap, texts_since, whatsapp_world
from whatsapp.webhook import sign

TEMPLATE = "atualizacao_caso"
STAFF = ActorRef("staff", None, "Servidora")


@pytest.fixture
async def world(make_core):
    async with whatsapp_world(make_core, templates={TEMPLATE: 2},
                              whatsapp_template_update=TEMPLATE) as w:
        yield w


async def test_whole_report_over_whatsapp_reaches_the_inspector_and_updates_as_template(world):
    core, bot, wa, face = world
    await bind(bot, ANA, "Ana Souza", "posturas", where=CENTRE)
    protocol = await report(wa)
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        assert (case.protocol, case.plate, case.category) == (protocol, "ABC1D23",
                                                             "motor_vehicle")
        assert case.details["report"]["colour"] == "Prata"
        assert case.description == "Em frente à padaria"
        assert await s.scalar(select(func.count()).select_from(Evidence)) == 1
        person = (await s.execute(select(Person).where(Person.whatsapp_id == MARIA))
                  ).scalar_one()
        assert (person.telegram_id, person.display_name) == (None, "Maria")
        assert case.reporter_id == person.id
        assert await s.scalar(select(func.count()).select_from(Subscription)) == 1
        chat = await s.get(WhatsAppChat, MARIA)
        assert chat is not None and chat.state == "idle" and chat.draft == {}
    await task_message(bot, ANA, protocol)  # the inspector's task, in Telegram

    # what the report itself queued for Maria goes first, inside the 24 hours
    face.wake.set()
    assert await drained(core)
    # four days later the case moves: outside the 24 hours only the template may go
    core.clock.advance(days=4)
    wa.advance(4 * 24 * 3600)
    before = len(wa.sent_to(MARIA))
    await apply_transition(core, protocol, "refer_to_police", STAFF,
                           {"theft_suspicion_reason": "Placa com registro de furto"})
    face.wake.set()
    for _ in range(100):
        if len(wa.sent_to(MARIA)) > before:
            break
        await asyncio.sleep(0.05)
    [update] = wa.sent_to(MARIA)[before:]
    assert update.type == "template"
    assert update.body["template"]["name"] == TEMPLATE
    params = [p["text"] for p in update.body["template"]["components"][0]["parameters"]]
    assert params[0] == protocol and params[1]
    assert await drained(core)
    async with core.db.read() as s:
        statuses = set((await s.execute(select(OutboxMessage.status).where(
            OutboxMessage.channel == "whatsapp"))).scalars())
    assert statuses == {"sent"}


async def test_a_redelivered_webhook_takes_nothing_twice(world):
    core, _bot, wa, _face = world
    await wa.user_text(MARIA, "Oi")
    await tap(wa, MARIA, "Veículo motorizado")
    photo = await wa.user_image(MARIA, jpeg(2))
    sent = len(wa.sent_to(MARIA))
    assert await wa.redeliver_message(photo.message_id) == 200
    assert len(wa.sent_to(MARIA)) == sent  # not acknowledged again
    async with core.db.read() as s:
        chat = await s.get(WhatsAppChat, MARIA)
    assert len(chat.draft["photos"]) == 1


async def test_a_tap_on_an_earlier_question_is_stale_and_stores_nothing(world):
    core, _bot, wa, _face = world
    await wa.user_text(MARIA, "Oi")
    await tap(wa, MARIA, "Veículo motorizado")
    await wa.user_image(MARIA, jpeg(3))
    await tap(wa, MARIA, "Pronto")
    await wa.user_location(MARIA, *CENTRE)
    await wa.user_text(MARIA, "ABC1D23")  # the plate: now the colour is asked
    pronto = next(s for s in reversed(wa.sent_to(MARIA)) if "Pronto" in str(s.body))
    await tap(wa, MARIA, "Pular")  # the colour's "Pular": fine
    async with core.db.read() as s:
        state = (await s.get(WhatsAppChat, MARIA)).state
    [(reply_id, _)] = [(b["reply"]["id"], b) for b in
                       pronto.body["interactive"]["action"]["buttons"]]
    await wa.user_button_reply(MARIA, reply_id, context=pronto.id)
    assert "pergunta anterior" in texts_since(wa, MARIA, -2)
    async with core.db.read() as s:
        chat = await s.get(WhatsAppChat, MARIA)
    assert chat.state == state and chat.draft["plate"] == "ABC1D23"


async def test_a_badly_signed_webhook_is_refused_and_stores_nothing(world):
    core, _bot, wa, face = world
    delivery = await wa.user_text(MARIA, "Oi")
    body = delivery.body.replace(b"Oi", b"Ol")
    async with aiohttp.ClientSession() as http:
        async with http.post(face.url, data=body, headers={
                "X-Hub-Signature-256": sign("outro-segredo", body),
                "Content-Type": "application/json"}) as r:
            assert r.status == 403
        async with http.post(face.url, data=body,
                             headers={"Content-Type": "application/json"}) as r:
            assert r.status == 401
    async with core.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(WhatsAppChat)) == 1


async def test_the_handshake_answers_only_the_verify_token(world):
    _core, _bot, wa, face = world
    assert (await wa.verify(face.url, "verifica"))["status"] == 200
    assert (await wa.verify(face.url, "errado"))["status"] == 403




async def test_words_typed_instead_of_commands_and_nothing_public_carries_the_person(world):
    core, _bot, wa, _face = world
    protocol = await report(wa)
    await wa.user_text(MARIA, "minhas")
    assert f"Protocolo {protocol}" in last_text(wa, MARIA)
    await wa.user_text(MARIA, protocol)  # a protocol typed alone is its status
    status = last_text(wa, MARIA)
    assert f"Protocolo {protocol}" in status
    await wa.user_text(MARIA, "Ajuda")
    assert "Como denunciar" in last_text(wa, MARIA)
    await wa.user_text(MARIA, "privacidade")
    notice = last_text(wa, MARIA)
    assert "seu número de WhatsApp" in notice and "WhatsApp LLC (Meta Platforms)" in notice
    await wa.user_text(MARIA, "denunciar")  # a new report, then given up
    await wa.user_text(MARIA, "cancelar")
    assert "Denúncia cancelada" in last_text(wa, MARIA)
    # the public projection of a WhatsApp report: neither the number nor the profile's name
    from core.services.public.case import load_public
    async with core.db.read() as s:
        public = await load_public(core, s, protocol)
    shown = repr(public) + status
    assert MARIA not in shown and "Maria" not in shown


async def test_bad_input_is_answered_in_portuguese_and_loses_nothing(world):
    core, _bot, wa, _face = world
    await wa.user_text(MARIA, "Oi")
    await tap(wa, MARIA, "Veículo motorizado")
    await wa.user_image(MARIA, b"not an image at all", mime_type="image/jpeg")
    refusal = last_text(wa, MARIA)
    assert "foto" in refusal.lower() or "imagem" in refusal.lower()
    await wa.user_image(MARIA, jpeg(4))
    await tap(wa, MARIA, "Pronto")
    await wa.user_text(MARIA, "Rua que não existe em lugar nenhum 99999")
    await wa.user_location(MARIA, *CENTRE)
    await wa.user_text(MARIA, "placa?? não sei!!")  # not a plate: said so, asked again
    assert "Pular" in str(wa.sent_to(MARIA)[-1].body)
    async with core.db.read() as s:
        chat = await s.get(WhatsAppChat, MARIA)
    assert chat.state == "report:plate" and len(chat.draft["photos"]) == 1
    assert "lat" in chat.draft


async def _outbox_settled(core) -> str | None:
    for _ in range(100):
        async with core.db.read() as s:
            status = await s.scalar(select(OutboxMessage.status).where(
                OutboxMessage.channel == "whatsapp").order_by(OutboxMessage.id.desc()))
        if status in ("sent", "failed"):
            return status
        await asyncio.sleep(0.05)
    return status


async def test_an_update_the_person_cannot_receive_is_a_dead_letter_with_a_masked_number(world):
    core, _bot, wa, face = world
    from core.services.messaging.delivery import dead_letters  # the panel's /entregas
    protocol = await report(wa)
    wa.fail_next(131026)  # the person cannot receive messages
    await apply_transition(core, protocol, "open_diligence", STAFF, {})
    face.wake.set()
    assert await _outbox_settled(core) == "failed"
    [dead] = await dead_letters(core)
    assert dead.protocol == protocol and "não conseguiu entregar" in dead.error
    assert dead.role.endswith(" — WhatsApp +55 37 •••••-0001") and MARIA not in dead.role


async def test_a_rate_limit_waits_and_the_update_goes_after(world):
    core, _bot, wa, face = world
    protocol = await report(wa)
    wa.fail_next(130429)
    before = len(wa.sent_to(MARIA))
    await apply_transition(core, protocol, "open_diligence", STAFF, {})
    face.wake.set()
    for _ in range(100):
        async with core.db.read() as s:
            error = await s.scalar(select(OutboxMessage.last_error).where(
                OutboxMessage.channel == "whatsapp"))
        if error:
            break
        await asyncio.sleep(0.05)
    assert "Limite de envio" in error
    async with core.db.read() as s:
        status = await s.scalar(select(OutboxMessage.status).where(
            OutboxMessage.channel == "whatsapp"))
    assert status == "pending" and len(wa.sent_to(MARIA)) == before  # waits, not dead


async def test_meus_dados_shows_what_is_kept_and_deletes_what_the_law_allows(world):
    """LGPD art. 18, II (access) and VI (deletion), art. 16, I (an open case's report kept)."""
    core, _bot, wa, _face = world
    from core.services.citizens.my_data import requests_list
    protocol = await report(wa)
    await wa.user_text(MARIA, "meus dados")
    shown = texts_since(wa, MARIA, -3)
    assert f"número de WhatsApp: {MARIA}" in shown and protocol in shown
    assert "nome do seu perfil do WhatsApp: Maria" in shown
    await tap(wa, MARIA, "Pedir a eliminação")
    assert "Confirma a eliminação?" in last_text(wa, MARIA)
    await tap(wa, MARIA, "Sim, eliminar")
    answer = last_text(wa, MARIA)
    assert "Pedido de eliminação atendido" in answer and protocol in answer  # kept: open
    async with core.db.read() as s:
        person = (await s.execute(select(Person).where(Person.whatsapp_id == MARIA))
                  ).scalar_one()
    assert person.display_name is None  # the profile's name is gone; the number stays
    rows = await requests_list(core)
    assert [r.kind for r in rows] == ["deletion", "access"]
    assert all(r.who == "WhatsApp +55 37 •••••-0001" for r in rows)


async def test_the_owner_reaches_the_case_by_its_code_and_the_plate(world):
    """The owner's view with the same proof as the web owner page (Dores Art. 4º: the owner
    told the deadline); a wrong answer tells nothing about the case."""
    core, _bot, wa, _face = world
    await report(wa)
    async with core.db.read() as s:
        code = (await s.execute(select(Case.case_code))).scalar_one()
    OWNER = "5537988880002"
    await wa.user_text(OWNER, format_case_code(code), name="Dono")  # as wa.me writes it
    assert "confirme que o objeto é seu" in last_text(wa, OWNER)
    await wa.user_text(OWNER, "XYZ9Z99")
    wrong = last_text(wa, OWNER)
    assert "ABC1D23" not in wrong and "Em frente" not in wrong
    await wa.user_text(OWNER, "abc-1d23")
    view = last_text(wa, OWNER)
    assert "protocolo 2026-000001" in view and "placa ABC1D23" in view
    assert "vistoriar o veículo (Art. 4º, caput)" in view  # what comes next, with its article
    assert "Maria" not in view and MARIA not in view  # never who reported it
    async with core.db.read() as s:
        assert (await s.get(WhatsAppChat, OWNER)).state == "idle"


async def test_one_persons_messages_are_taken_in_order_and_others_are_not_held_up(make_core):
    """While Maria's typed address waits on the geocoder (held by the stand-in), her next
    message ("Sim, é aqui") waits behind it — taken after it, as the answer to the question it
    brings — and João, who writes meanwhile, is answered at once (the same per-person order
    and fairness as the Telegram bot)."""
    async with whatsapp_world(make_core, harness={"geocoding_timeout_s": 60}) as world:
        core, bot, wa, _face = world
        joao = "5537999990002"
        await wa.user_text(MARIA, "Oi", name="Maria")
        await tap(wa, MARIA, "Veículo motorizado")
        await wa.user_image(MARIA, jpeg(4))
        await tap(wa, MARIA, "Pronto")
        bot.osm.hold = asyncio.Event()
        asked = len(bot.osm.requests)
        address = asyncio.create_task(wa.user_text(MARIA, "Rua Getúlio Vargas, 100"))
        for _ in range(1000):  # the geocoder has her address: her first message is taken
            if len(bot.osm.requests) > asked:
                break
            await asyncio.sleep(0.01)
        confirm = asyncio.create_task(wa.user_text(MARIA, "Sim, é aqui"))
        await wa.user_text(joao, "Oi", name="João")
        assert "Olá, João!" in texts_since(wa, joao, 0)
        assert not address.done() and not confirm.done()  # João was not held up
        bot.osm.hold.set()
        await address
        await confirm
        assert "placa" in last_text(wa, MARIA).lower()  # the address, then its confirmation
        async with core.db.read() as s:
            chat = await s.get(WhatsAppChat, MARIA)
        assert chat.state == "report:plate" and "Getúlio Vargas" in chat.draft["address"]


async def test_the_owner_of_a_car_in_the_depot_pays_by_pix_on_whatsapp(make_core, photo, clock):
    """In the depot, the owner's view on WhatsApp carries today's fees (Dores Art. 3º, §3º
    and Art. 9º, II: the daily storage counted by the city's tariff) and the PIX copy-and-
    paste code of that total, with its QR code as an image: the same code an independent
    decoder reads, whose amount is the view's total and whose txid is the case."""
    import io
    from decimal import Decimal

    import zxingcpp
    from brcode.utils.brcodeId import jsonFromBrcode
    from PIL import Image

    from tests.support.owner_chat import depot_case
    from tests.support.payments import PIX, official_tariffs, total_in
    async with whatsapp_world(make_core, **PIX) as world:
        core, _bot, wa, _face = world
        sub, _ = await depot_case(core, photo, clock)
        await official_tariffs(core)
        owner = "5537988880003"
        await wa.user_text(owner, format_case_code(sub.case_code), name="José")
        await wa.user_text(owner, "ABC1D23")
        sent = wa.sent_to(owner)
        texts = [m.body.get("text", {}).get("body", "") for m in sent]
        view = next(t for t in texts if "Pagar por PIX" in t)
        code = next(t for t in texts if t.startswith("000201") and "br.gov.bcb.pix" in t)
        fields = jsonFromBrcode(code)
        assert Decimal(fields["54"]) == total_in(view) == Decimal("440.00")
        assert fields["62"]["05"] == sub.case_code.replace("-", "")
        [image] = [m for m in sent if m.type == "image"]
        png = wa.media[image.body["image"]["id"]].data
        assert zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))[0].text == code
        assert "R$\xa0440,00" in image.body["image"]["caption"]
