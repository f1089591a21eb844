"""The citizen's flow, smoothed, end to end through the Bot API stand-in: a
protocol typed alone is /status, commands in the middle of a report give the pending question
back, a photo or a pin sent before /denunciar starts the report, the time-in-place options
leave no gap around the law's "mais de 30 (trinta) dias" (Dores Art. 1º, caput), counts read
"1 foto recebida" / "2 fotos recebidas", no sentence is said twice in one message, and what
happens next is told in the law's plain words (Law.state_texts), not by a state's name."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from core.services.citizens.conversation.words import time_options
from core.storage.models import Case, ConversationState, Evidence
from tests.support.bot_chat import (MARIA, full_report, jpeg, pin, press, said, send_photos,
                                    start_report, vehicle_questions)

#: Every move in these walks is an edge of core/services/citizens/conversation/states.py (the diagram in docs/flows/citizen.md).
pytestmark = pytest.mark.usefixtures("conversation_walk")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?:])\s+|\n", text) if len(s.strip()) > 3]


def _texts(h, user, since: int = 0) -> list[str]:
    return [c.text for c in h.api.sent(user, "sendMessage")[since:] if c.text]


async def _draft(core) -> tuple[str, dict]:
    async with core.db.read() as s:
        row = (await s.execute(select(ConversationState))).scalar_one()
        return row.state, row.draft


async def test_a_protocol_typed_alone_is_understood_as_status(bot):
    protocol = await full_report(bot, MARIA)
    await bot.api.send_text(MARIA, f"  {protocol} ")
    shown = await said(bot, MARIA, f"Protocolo {protocol}")
    assert "Próximo passo" in shown.text
    await bot.api.send_text(MARIA, "2026-999999")
    await said(bot, MARIA, "Não encontramos esse caso")


async def test_a_protocol_typed_in_the_middle_of_a_report_then_the_question_again(bot, core):
    protocol = await full_report(bot, MARIA)
    await start_report(bot, MARIA)
    await bot.api.send_text(MARIA, protocol)
    await said(bot, MARIA, f"Protocolo {protocol}")
    again = await said(bot, MARIA, "Continuando sua denúncia")
    assert "Envie de 1 a 10 fotos" in again.text
    assert (await _draft(core))[0] == "report:photos"


@pytest.mark.parametrize("command,answer", [("ajuda", "Como denunciar"),
                                            ("minhas", "Suas denúncias"),
                                            ("privacidade", "LGPD")])
async def test_commands_mid_report_answer_then_repeat_the_pending_question(bot, core, command,
                                                                          answer):
    await full_report(bot, MARIA)  # so that /minhas has something to list
    await start_report(bot, MARIA)
    await send_photos(bot, MARIA, 2)
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await bot.api.send_command(MARIA, command)
    await said(bot, MARIA, answer)
    again = await said(bot, MARIA, "Continuando sua denúncia")
    assert "Onde fica" in again.text and again.keyboard == "reply"  # the 📍 button is back
    state, draft = await _draft(core)
    assert state == "report:location" and len(draft["photos"]) == 2  # nothing lost
    await pin(bot, MARIA, expect="É algum destes")  # the first report is nearby
    await press(bot, MARIA, "é outro caso", expect="Qual é a placa")


async def test_a_photo_before_denunciar_starts_a_report_with_it(bot, core):
    await bot.api.send_photo(MARIA, jpeg(7))
    asked = await said(bot, MARIA, "1 foto recebida para a sua denúncia")
    assert "O que você quer denunciar" in asked.text
    await press(bot, MARIA, "Veículo motorizado", expect="Já recebi 1 foto.")
    await send_photos(bot, MARIA, 1, start=1)  # the second: "2 fotos recebidas"
    await press(bot, MARIA, "Pronto", expect="Onde fica")
    await pin(bot, MARIA)
    await said(bot, MARIA, "Qual é a placa")
    await vehicle_questions(bot, MARIA)
    await press(bot, MARIA, "Pular", expect="Fotos: 2")
    await press(bot, MARIA, "Confirmar", expect="Protocolo:")
    async with core.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Case)) == 1
        assert await s.scalar(select(func.count()).select_from(Evidence)) == 2


async def test_an_album_before_denunciar_is_acknowledged_once(bot, core):
    await bot.api.send_album(MARIA, [jpeg(1), jpeg(2)])
    await said(bot, MARIA, "2 fotos recebidas para a sua denúncia")
    acks = [t for t in _texts(bot, MARIA) if "recebida" in t]
    assert len(acks) == 1
    state, draft = await _draft(core)
    assert state == "report:category" and len(draft["photos"]) == 2


async def test_a_pin_before_denunciar_is_the_report_s_location(bot, core):
    await pin(bot, MARIA, expect="Local registrado")
    assert "O que você quer denunciar" in bot.api.last_message(MARIA).text
    await press(bot, MARIA, "Móvel de grande porte", expect="Envie de 1 a 10 fotos")
    await send_photos(bot, MARIA)
    # the location is already known: no location question, straight to the next one
    await press(bot, MARIA, "Pronto", expect="Há quanto tempo")
    assert not [t for t in _texts(bot, MARIA) if "Onde fica" in t]
    state, draft = await _draft(core)
    assert state == "report:time_there" and draft["location_source"] == "pin"


async def test_a_document_that_is_not_an_image_starts_nothing(bot, core):
    await bot.api.send_document(MARIA, b"%PDF-1.4 not a photo", "a.pdf",
                                mime_type="application/pdf")
    await said(bot, MARIA, "não é uma imagem")
    async with core.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(ConversationState)) == 0


def test_time_in_place_options_leave_no_gap_at_the_30_days_art_1_caput(core):
    """Dores Art. 1º, caput: "por mais de 30 (trinta) dias no local". The options split every
    duration in whole days into exactly one of them, the threshold where the law puts it."""
    n = core.law.setting("minimum_days_in_place")
    options = time_options(core)
    assert options == ("Menos de 1 semana", f"De 1 semana a {n} dias", f"Mais de {n} dias",
                       "Não sei")
    covers = [lambda d: d < 7, lambda d: 7 <= d <= n, lambda d: d > n]
    for days in range(0, 400):
        assert sum(c(days) for c in covers) == 1, days


async def test_time_option_button_stores_the_law_s_threshold(bot, core):
    await full_report(bot, MARIA)
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
    assert case.details["report"]["time_there"] == "Mais de 30 dias"
    offered = [b.text for m in bot.api.messages(MARIA) if "Há quanto tempo" in (m.text or "")
               for b in m.flat_buttons()]
    assert "De 1 semana a 30 dias" in offered and "De 1 a 4 semanas" not in offered


async def test_counts_singular_and_plural_and_no_sentence_twice(bot):
    """Every message of a whole report, /status and /minhas: "1 foto recebida", "2 fotos
    recebidas", never "foto(s)"; no message says the same sentence twice."""
    protocol = await full_report(bot, MARIA, photos=2)
    await bot.api.send_command(MARIA, "status", protocol)
    await said(bot, MARIA, f"Protocolo {protocol}")
    await bot.api.send_command(MARIA, "minhas")
    await said(bot, MARIA, f"Protocolo {protocol}")
    texts = _texts(bot, MARIA)
    assert any("📷 1 foto recebida." in t for t in texts)
    assert any("📷 2 fotos recebidas." in t for t in texts)
    assert not [t for t in texts if "(s)" in t]
    for t in texts:
        said_ = _sentences(t)
        assert len(said_) == len(set(said_)), t
    done = next(t for t in texts if "Denúncia registrada!" in t)
    assert done.count("a cada etapa") == 1


async def test_what_happens_next_is_said_in_plain_words_not_a_state_name(bot, core):
    """The confirmation and /status say where the object is in the law's words
    (Law.state_texts for the track's first state), not "Situação: Denúncia recebida"."""
    protocol = await full_report(bot, MARIA)
    done = bot.api.last_message(MARIA).text
    law = core.law
    track = law.categories["motor_vehicle"].track
    where = law.state_text(track, law.tracks[track].initial).where
    assert where in done and "Denúncia recebida" not in done
    await bot.api.send_text(MARIA, protocol)
    shown = (await said(bot, MARIA, f"Protocolo {protocol}")).text
    assert where in shown and "Situação:" not in shown


# -- /meusdados: the citizen's rights over their data (LGPD, Lei 13.709/2018, arts. 18 e 16) --

@pytest.mark.serial  # a real bot process, started within 30 s: alone on the machine
async def test_meusdados_in_the_real_bot_process_shows_the_data_and_deletes_what_the_law_allows(
        tmp_path):
    """The real `python -m bot`: /meusdados is in the command menu; it lists the report (with its
    protocol, place, plate and photos) and the messages sent; asking for deletion first says
    what goes and what stays, then, confirmed, keeps the open case (an administrative process:
    art. 16, I) and says why; both requests are recorded with their answers."""
    from types import SimpleNamespace

    from sqlalchemy import create_engine, text

    from tests.support.bot_process import BotProcess
    async with BotProcess.around(tmp_path) as proc:
        h = SimpleNamespace(api=proc.api)
        await proc.start()
        assert "meusdados" in [c["command"] for c in proc.api.my_commands()]
        await proc.api.send_command(MARIA, "meusdados")
        empty = await said(h, MARIA, "Seus dados guardados")
        assert "Nenhum dado pessoal seu está guardado" in empty.text
        protocol = await full_report(h, MARIA)
        await proc.api.send_command(MARIA, "meusdados")
        shown = await said(h, MARIA, "Suas denúncias")
        assert protocol in shown.text and "em andamento" in shown.text
        assert "1 foto" in shown.text and str(MARIA.id) in shown.text
        preview = await press(h, MARIA, "Pedir a eliminação", expect="Confirma a eliminação")
        assert f"sua denúncia {protocol}, em andamento" in preview.text
        assert "art. 16, I" in preview.text
        done = await press(h, MARIA, "Sim, eliminar", expect="Pedido de eliminação atendido",
                           method="editMessageText")
        assert "Mantido, porque a lei manda guardar" in done.text and protocol in done.text
        await proc.stop()
    db = create_engine(f"sqlite:///{proc.database}")
    with db.connect() as conn:
        requests = conn.execute(text("SELECT kind, status, answer FROM data_requests "
                                     "ORDER BY id")).all()
        reporter = conn.execute(text("SELECT reporter_id FROM cases")).scalar_one()
    db.dispose()
    assert [(k, s) for k, s, _ in requests] == [("access", "answered"), ("access", "answered"),
                                                ("deletion", "partial")]
    assert requests[-1].answer == done.text
    assert reporter is not None  # the open case keeps its reporter


async def test_meusdados_deletion_after_the_case_closed_unlinks_the_citizen(bot, core):
    """Art. 16: once the case is over, the citizen's tie to it, the text of the messages sent
    and their profile name go; the case record stays in the archive, without them."""
    from sqlalchemy import select as select_

    from core.services.cases.transitions import apply_transition
    from core.storage.models import OutboxMessage, Person
    from core.storage.models_lgpd import DataRequest
    from core.storage.timeline import ActorRef, verify_chain
    protocol = await full_report(bot, MARIA)
    await apply_transition(core, protocol, "close_unfounded", ActorRef("staff", "u1", "Ana"),
                           {"reason": "não há nada no local"})
    await said(bot, MARIA, f"Atualização do protocolo {protocol}")  # delivered (outbox)
    await bot.api.send_command(MARIA, "meusdados")
    shown = await said(bot, MARIA, "Suas denúncias")
    assert "encerrado" in shown.text and "Mensagens que o sistema enviou" in shown.text
    await press(bot, MARIA, "Pedir a eliminação", expect="Será apagado")
    async with core.db.read() as s:  # the preview changed nothing
        assert (await s.execute(select_(Case.reporter_id))).scalar_one() is not None
    done = await press(bot, MARIA, "Sim, eliminar", expect="Pedido de eliminação atendido",
                       method="editMessageText")
    assert "o seu vínculo, como denunciante, com 1 caso encerrado" in done.text
    assert "(s)" not in done.text
    assert "o registro da sua conta" in done.text
    assert f"o registro do caso {protocol}" in done.text  # kept, and said why
    async with core.db.read() as s:
        case = (await s.execute(select_(Case))).scalar_one()
        assert case.reporter_id is None and case.description  # the record stays
        assert (await s.execute(select_(Person).where(Person.telegram_id == MARIA.id))
                ).scalar_one_or_none() is None
        sent = (await s.execute(select_(OutboxMessage.payload).where(
            OutboxMessage.chat_id == MARIA.id, OutboxMessage.status == "sent"))).scalars().all()
        assert all("text" not in p for p in sent)
        assert (await verify_chain(s, case.id)).ok  # the history is intact
        request = (await s.execute(select_(DataRequest).where(
            DataRequest.kind == "deletion"))).scalar_one()
        assert request.status == "answered" and request.telegram_id == MARIA.id
    # pressed again (a stale button): answered again, nothing left to delete, no error
    await bot.api.send_command(MARIA, "meusdados")
    again = await said(bot, MARIA, "Seus dados guardados")
    assert protocol not in again.text
