"""The owner's statement through the real bot (Dores Art. 6º, §3º–§4º): "Vou retirar" with a
date, "Já retirei", the request reaching the assigned inspector's chat; stale and forged
buttons change nothing."""
from __future__ import annotations

from sqlalchemy import func, select

from core.identifiers import format_case_code
from core.services.cases.transitions import apply_transition
from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.owners import NOT_LINKED
from core.services.inspectors.tasks import assign_case
from core.storage.models import ConversationState, Event
from tests.support.owner_chat import ANA, INTRUDER, JOSE, open_by_qr
from tests.support.bot_chat import press, said
from tests.support.owner_cases import FISCAL, STAFF, notified


async def events_count(core) -> int:
    async with core.db.read() as s:
        return await s.scalar(select(func.count()).select_from(Event))


async def test_will_remove_with_a_date_reaches_the_inspector_art_6_par_3(bot, core, photo):
    sub = await notified(core, photo)
    bot.api.add_user(ANA)
    code = await invite_inspector(core, "Ana Fiscal", "posturas", "staff")
    ana = await bind_inspector(core, ANA.id, code, "Ana")
    await assign_case(core, sub.protocol, ana.inspector_id, STAFF)
    await open_by_qr(bot, JOSE, sub.case_code)
    await press(bot, JOSE, "Vou retirar", expect="confirme que o objeto é seu")
    await bot.api.send_text(JOSE, "abc-1d23")  # the plate: more than the notice shows
    await said(bot, JOSE, "Até que dia")
    await bot.api.send_text(JOSE, "31/02/2026")
    await said(bot, JOSE, "dd/mm/aaaa")
    await bot.api.send_text(JOSE, "20/12/2026")  # beyond the deadline the agent set
    late = await said(bot, JOSE, "11/12/2026")
    assert "Art. 6º, §3º" in late.text
    await bot.restart()  # still waiting for the date after a restart
    await bot.api.send_text(JOSE, "05/12/2026")
    done = await said(bot, JOSE, "Registramos sua declaração")
    assert "05/12/2026" in done.text and "Art. 6º, §4º" in done.text  # towing can't be stopped
    view = await said(bot, JOSE, f"Seu caso {format_case_code(sub.case_code)}")
    # the law's deadline stays, shown first; the owner's date beside it (Art. 4º, I; 6º, §3º)
    legal = view.text.index("Prazo: retirar o veículo do espaço público até")
    assert "Retire até 11/12/2026" in view.text and "(11/12/2026)" in view.text
    assert legal < view.text.index("Sua data: você disse que vai retirar até 05/12/2026")
    asked = await bot.api.wait_for(method="sendMessage", chat_id=ANA,
                                   text="o proprietário declarou", timeout=5)
    assert "05/12/2026" in asked.text and sub.protocol in asked.text
    assert "Maria" not in asked.text
    async with core.db.read() as s:
        assert (await s.execute(select(ConversationState))).first() is None


async def test_already_removed_and_buttons_of_a_closed_case(bot, core, photo):
    sub = await notified(core, photo)
    await open_by_qr(bot, JOSE, sub.case_code)
    await press(bot, JOSE, "Já retirei", expect="confirme que o objeto é seu")
    await bot.api.send_text(JOSE, "ABC1D23")
    await said(bot, JOSE, "Registramos sua declaração")
    await said(bot, JOSE, "o fiscal vai conferir no local")
    await apply_transition(core, sub.protocol, "confirm_owner_removed", FISCAL,
                           {"verification_notes": "Veículo retirado"}, agency="posturas")
    before = await events_count(core)
    old = next(m for m in bot.api.messages(JOSE)
               if any(b.text == "Vou retirar" for b in m.flat_buttons()))
    await bot.api.press_button(JOSE, old, text="Vou retirar")  # a stale button
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert answer.params.get("show_alert") and "encerrado" in answer.params["text"].lower()
    await bot.api.press_button(JOSE, old, text="Já retirei")
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert "encerrado" in answer.params["text"]
    assert await events_count(core) == before


async def test_forged_button_for_someone_elses_case_changes_nothing(bot, core, photo):
    sub = await notified(core, photo)
    await open_by_qr(bot, JOSE, sub.case_code)
    await bot.api.send_command(INTRUDER, "ajuda")
    await said(bot, INTRUDER)
    help_msg = bot.api.last_message(INTRUDER)
    before = await events_count(core)
    for data in (f"owner:removed:{sub.case_code}", f"owner:pdf:{sub.case_code}",
                 f"owner:sit:attorney:{sub.case_code}", "owner:bogus"):
        await bot.api.press_button(INTRUDER, help_msg, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert answer.params.get("text") in (NOT_LINKED, "Este botão não vale mais. Use os "
                                             "botões da última mensagem.")
    assert await events_count(core) == before
    assert bot.api.sent(INTRUDER, "sendDocument") == []
