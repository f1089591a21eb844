"""The inspector's screens through the real bot: binding with /fiscal (wrong code, cool-down),
automatic assignment reaching the inspector with photos and the map pin, acceptance, refusal
with a reason (reassigned), /tarefas, and refusals for non-inspectors, other inspectors' tasks
and steps the lifecycle does not allow in the case's state."""
from __future__ import annotations

from sqlalchemy import func, select

from core.services.inspectors.accounts import NOT_INSPECTOR, WRONG_CODE, inspector_for, invite_inspector
from core.services.inspectors.task_list import open_tasks
from core.storage.models import Event, Task
from tests.support.inspector import (ANA, BETO, CARLA, FAR, INTRUDER, NEAR, bind, open_card, report,
                                     tap, task_message)
from tests.support.bot_chat import said


async def events(core) -> int:
    async with core.db.read() as s:
        return await s.scalar(select(func.count()).select_from(Event))


async def test_fiscal_binds_wrong_code_refused_and_five_wrong_cool_down(bot, core):
    bot.api.add_user(INTRUDER)
    await bot.api.send_command(INTRUDER, "tarefas")
    assert "só para fiscais" in (await said(bot, INTRUDER)).text
    for _ in range(5):
        await bot.api.send_command(INTRUDER, "fiscal", "AAAA-BBBB-CCCC")
        await said(bot, INTRUDER, WRONG_CODE)
    code = await invite_inspector(core, "Intruso", "posturas", "staff")
    await bot.api.send_command(INTRUDER, "fiscal", code)  # even the right code waits
    assert "Muitas tentativas" in (await said(bot, INTRUDER)).text
    await bot.api.send_command(INTRUDER, "fiscal")
    await said(bot, INTRUDER, "/fiscal seguido do código")
    bound = await bind(bot, ANA, "Ana Fiscal", "posturas")
    assert "Ana Fiscal — Fiscalização de Posturas" in bound.text
    await bot.api.send_command(ANA, "fiscal", code)  # already bound
    assert "já está vinculada" in (await said(bot, ANA)).text
    await bot.api.send_command(ANA, "tarefas")
    await said(bot, ANA, "não tem tarefas abertas")


async def test_task_reaches_inspector_with_photo_and_pin_accept_art_4(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo, plate="ABC1D23")
    msg = await task_message(bot, ANA, protocol)
    assert "Etapa: Em vistoria (Art. 4º, caput)" in msg.text and "ABC1D23" in msg.text
    assert bot.api.sent(ANA, "sendPhoto") and bot.api.sent(ANA, "sendVenue")
    venue = bot.api.sent(ANA, "sendVenue")[-1]
    assert venue.params["address"] == "Rua Tiradentes, 120, Centro"
    card = await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
    assert "Tarefa aceita" in card.text
    labels = [b.text for row in card.buttons for b in row]
    assert "Notificar" in labels and "Afixar notificação" in labels  # short, for a phone
    # the text says what each button does and the article that allows it
    assert "• Notificar: Notificar o proprietário (Anexo I) (Art. 4º, I)" in card.text
    assert not any("Iniciar remoção" in t for t in labels)  # not in this state
    async with core.db.read() as s:
        assert (await s.execute(select(Task.status))).scalar_one() == "accepted"


async def test_refusal_asks_reason_and_reassigns_to_second_inspector(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    await bind(bot, BETO, "Beto Trânsito", "transito", FAR)
    protocol = await report(core, photo)
    first = await task_message(bot, ANA, protocol)
    await tap(bot, ANA, "Recusar", expect="Por que você recusa")
    await bot.api.send_text(ANA, "Estou de férias")
    await said(bot, ANA, "encaminhado a outro fiscal")
    await task_message(bot, BETO, protocol)
    assert [t.protocol for t in await open_tasks(core, BETO.id)] == [protocol]
    before = await events(core)
    await bot.api.press_button(ANA, first.message_id, text="Aceitar")  # stale: no longer hers
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert "não está com você" in answer.params["text"] and answer.params.get("show_alert")
    assert await events(core) == before
    await tap(bot, BETO, "Aceitar", expect="Tarefa aceita")


async def test_tarefas_lists_by_deadline_and_location_reorders(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas")
    far = await report(core, photo, where=FAR)
    near = await report(core, photo, where=NEAR)
    await task_message(bot, ANA, near)
    await bot.api.send_command(ANA, "tarefas")
    await said(bot, ANA, "Suas tarefas abertas")
    await said(bot, ANA, "envie sua localização")
    await bot.api.send_location(ANA, *NEAR)
    await said(bot, ANA, "Localização registrada")
    listing = await said(bot, ANA, "Suas tarefas abertas")
    assert listing.text.index(near) < listing.text.index(far)
    assert "a 0 m" in listing.text or " m\n" in listing.text
    card = await tap(bot, ANA, f"Abrir {far}", expect=f"Protocolo {far}")
    assert "Aceitar" in [b.text for row in card.buttons for b in row]


async def test_non_inspector_forged_and_wrong_state_buttons_change_nothing(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    [task] = await open_tasks(core, ANA.id)
    bot.api.add_user(INTRUDER)
    await bot.api.send_command(INTRUDER, "ajuda")
    await said(bot, INTRUDER)
    any_msg = bot.api.last_message(INTRUDER)
    before = await events(core)
    for data in (f"task:accept:{task.task_id}", f"task:refuse:{task.task_id}",
                 f"case:open:{protocol}", f"insp:do:{protocol}:notify_owner"):
        await bot.api.press_button(INTRUDER, any_msg, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert answer.params["text"] == NOT_INSPECTOR[:200]
    await bind(bot, BETO, "Beto Trânsito", "transito", FAR)
    other = bot.api.last_message(BETO)
    for data in (f"task:accept:{task.task_id}", f"case:open:{protocol}",
                 f"insp:do:{protocol}:notify_owner"):
        await bot.api.press_button(BETO, other, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert "não" in answer.params["text"] and "você" in answer.params["text"]
    await open_card(bot, ANA, protocol)
    card_msg = bot.api.last_message(ANA)
    for code in ("start_removal", "depot_entry", "record_publication", "bogus"):
        await bot.api.press_button(ANA, card_msg, f"insp:do:{protocol}:{code}", check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert "não está disponível nesta etapa" in answer.params["text"]
    await bot.api.press_button(ANA, card_msg, "insp:zzzzzz:ok", check=False)  # no form open
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert "não vale mais" in answer.params["text"]
    assert await events(core) == before
    assert (await open_tasks(core, ANA.id))[0].status == "offered"


async def test_waiting_case_is_pushed_to_the_inspector_who_binds_art_3_5(bot, core, photo):
    """A report nobody competent can take waits in the staff's queue; the moment a competent
    inspector binds (/fiscal) — or is bound again after a deactivation — it is theirs, and
    the "Nova tarefa" reaches them at once. Competence from the lifecycle: furniture is the
    Secretaria de Saúde's or the posturas' (Art. 5º, caput; Art. 10), vehicles are not the
    Saúde's (Art. 3º, §2º)."""
    from core.services.staff.queue import staff_queue
    from core.services.inspectors.tasks import deactivate_inspector
    from core.storage.timeline import ActorRef
    sofa = await report(core, photo, category="large_furniture")
    car = await report(core, photo, where=NEAR)
    assert [(i.protocol, i.reason) for i in (await staff_queue(core)).items] == [
        (sofa, "none"), (car, "none")]
    await bind(bot, CARLA, "Carla Saúde", "saude")
    await task_message(bot, CARLA, sofa)
    assert [t.protocol for t in await open_tasks(core, CARLA.id)] == [sofa]
    assert [i.protocol for i in (await staff_queue(core)).items] == [car]  # not hers to take
    await bind(bot, ANA, "Ana Fiscal", "posturas")
    await task_message(bot, ANA, car)
    assert (await staff_queue(core)).items == []
    # Ana is switched off: the car waits again (Carla may not take it), until Ana is back
    ana = (await inspector_for(core, ANA.id)).id
    await deactivate_inspector(core, ana, ActorRef("staff", 0, "seed"))
    assert [(i.protocol, i.reason) for i in (await staff_queue(core)).items] == [
        (car, "withdrawn")]
    before = len(bot.api.calls)
    await bot.api.send_command(ANA, "fiscal", await invite_inspector(core, "Ana Fiscal",
                                                                     "posturas", "staff"))
    await said(bot, ANA, "Conta vinculada")
    again = await bot.api.wait_for(method="sendMessage", chat_id=ANA,
                                   text=f"Nova tarefa — protocolo {car}", since=before)
    assert "Aceitar" in [b.text for row in again.buttons for b in row]
    assert (await staff_queue(core)).items == []

