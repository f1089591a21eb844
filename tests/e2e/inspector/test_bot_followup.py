"""The reporter asked afterwards, end to end through the Bot API stand-in: Maria reports in the
bot, the inspector closes the case ("abandono não caracterizado"); three days later the periodic
job asks Maria whether the object is gone; she taps "Não, continua lá" and sends a photo: the
diligence is open again (Dores Art. 4º, caput) and Ana, the inspector, gets the task and the
photo at once. "Sim, saiu" only thanks and closes the loop."""
from __future__ import annotations

from sqlalchemy import func, select

from bot.state import state_of
from core.services.cases.transitions import apply_transition
from core.services.citizens import followup
from core.services.inspectors.accounts import inspector_for
from core.services.periodic import run_periodic
from core.storage.models import Case, Evidence, Event
from core.storage.timeline import ActorRef
from tests.support.inspector import ANA, NEAR, bind, task_message
from tests.support.bot_chat import MARIA, full_report, jpeg, press, said


async def _closed_and_asked(bot, core, clock) -> str:
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await full_report(bot, MARIA)
    await task_message(bot, ANA, protocol)
    ana = await inspector_for(core, ANA.id)
    await apply_transition(core, protocol, "inspect_not_abandoned",
                           ActorRef("inspector", ana.id, ana.name),
                           {"inspection_notes": "veículo em uso pelo morador"},
                           agency="posturas")
    state_of(bot.app).outbox_wake.set()
    await said(bot, MARIA, "Encerrado: abandono não caracterizado")
    clock.advance(days=3, minutes=1)
    assert (await run_periodic(core)).followups.asked == [protocol]
    state_of(bot.app).outbox_wake.set()
    question = await said(bot, MARIA, "O objeto já saiu do local?")
    assert question.text.startswith(f"Protocolo {protocol}: seu caso foi encerrado em "
                                    "01/12/2026 (Encerrado: abandono não caracterizado).")
    return protocol


async def test_nao_continua_la_with_a_photo_reopens_and_the_inspector_gets_it_art_4_caput(
        bot, core, clock):
    protocol = await _closed_and_asked(bot, core, clock)
    asked = await press(bot, MARIA, followup.NO, expect="envie agora uma foto")
    assert "O caso foi reaberto e um fiscal vai voltar ao local" in asked.text
    offer = await task_message(bot, ANA, protocol, heading=followup.REOPENED)
    assert "Etapa: Em vistoria (Art. 4º, caput; Art. 6º, §2º)" in offer.text
    # the question keeps the answer given, without its buttons
    answered = next(m for m in bot.api.messages(MARIA) if "O objeto já saiu" in (m.text or ""))
    assert answered.text.endswith("Sua resposta: Não, continua lá.")
    assert answered.flat_buttons() == []
    await bot.api.send_photo(MARIA, jpeg(5))
    got = await said(bot, MARIA, "Foto recebida e enviada ao fiscal")
    assert "Pode enviar outra" in got.text
    await bot.api.wait_for(method="sendPhoto", chat_id=ANA)
    await said(bot, ANA, f"Protocolo {protocol}: foto enviada pelo cidadão")
    await press(bot, MARIA, "Pronto", expect="Você será avisado do andamento")
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        photos = await s.scalar(select(func.count()).select_from(Evidence).where(
            Evidence.case_id == case.id))
    assert (case.state, case.is_open) == ("diligence", True) and photos == 2
    # a later photo is a new report's, not this answer's
    await bot.api.send_photo(MARIA, jpeg(6))
    await said(bot, MARIA, "1 foto recebida para a sua denúncia")


async def test_cancelar_after_the_answer_keeps_it(bot, core, clock):
    protocol = await _closed_and_asked(bot, core, clock)
    await press(bot, MARIA, followup.NO, expect="envie agora uma foto")
    await bot.api.send_command(MARIA, "cancelar")
    await said(bot, MARIA, "Sua resposta já está registrada")
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
    assert case.state == "diligence"


async def test_sim_saiu_thanks_and_the_case_stays_closed(bot, core, clock):
    protocol = await _closed_and_asked(bot, core, clock)
    await press(bot, MARIA, followup.YES, expect=None)
    await bot.api.wait_for(method="editMessageText", chat_id=MARIA,
                           text="Obrigado por confirmar")
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        last = (await s.execute(select(Event.action).where(Event.case_id == case.id)
                                .order_by(Event.seq.desc()).limit(1))).scalar_one()
    assert case.state == "closed_not_abandoned" and last == followup.GONE
    # the same button again: already answered, nothing changes
    answered = next(m for m in bot.api.messages(MARIA) if "O objeto já saiu" in (m.text or ""))
    assert answered.flat_buttons() == []


async def test_in_the_real_bot_process_the_answer_and_the_photo_reach_the_inspector(tmp_path):
    """The real `python -m bot` (its own process, its SQLite file): Ana binds, Maria reports,
    the case is closed; the question (asked by the periodic job three days later, run here
    with that date) reaches Maria; "Não, continua lá" and a photo reach Ana at once."""
    from datetime import timedelta
    from types import SimpleNamespace

    from core.services.context import Core
    from core.services.inspectors.accounts import invite_inspector
    from core.settings import Settings
    from core.storage.types import utcnow
    from tests.support.bot_process import BotProcess

    async with BotProcess.around(tmp_path / "data") as proc:
        h = SimpleNamespace(api=proc.api)
        await proc.start()
        core = await Core.open(Settings(_env_file=None, municipality="dores-do-indaia",
                                        data_dir=proc.data_dir))
        try:
            code = await invite_inspector(core, "Ana Fiscal", "posturas", "clara")
            proc.api.add_user(ANA)
            await proc.api.send_command(ANA, "fiscal", code)
            await said(h, ANA, "Conta vinculada")
            protocol = await full_report(h, MARIA)
            await proc.api.wait_for(method="sendMessage", chat_id=ANA, since=0, timeout=30,
                                    text=f"Nova tarefa — protocolo {protocol}")
            ana = await inspector_for(core, ANA.id)
            await apply_transition(core, protocol, "inspect_not_abandoned",
                                   ActorRef("inspector", ana.id, ana.name),
                                   {"inspection_notes": "veículo em uso pelo morador"},
                                   agency="posturas")
            done = await followup.ask_due(core, utcnow() + timedelta(days=3, minutes=1))
            assert done.asked == [protocol]
            await proc.api.wait_for(method="sendMessage", chat_id=MARIA, since=0, timeout=30,
                                    text="O objeto já saiu do local?")
            await press(h, MARIA, followup.NO, expect="envie agora uma foto")
            await proc.api.wait_for(method="sendMessage", chat_id=ANA, since=0, timeout=30,
                                    text=f"{followup.REOPENED} — protocolo {protocol}")
            await proc.api.send_photo(MARIA, jpeg(5))
            await said(h, MARIA, "Foto recebida e enviada ao fiscal")
            # the report's photo with each task message, then Maria's new one
            await proc.api.wait_for(method="sendPhoto", chat_id=ANA, since=0, count=3,
                                    timeout=30)
            await proc.api.wait_for(method="sendMessage", chat_id=ANA, since=0, timeout=30,
                                    text="foto enviada pelo cidadão")
        finally:
            await core.close()
