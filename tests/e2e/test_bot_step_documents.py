"""The inspector's chat face of the step documents: with no TELEGRAM_BOT_USERNAME configured the
bot learns its username from getMe at start-up, so the notice affixed on the object (Dores
Art. 4º, II, a) carries the owner's QR link; and when the document cannot be produced the
step is refused in the chat and the deadline does not start."""
from __future__ import annotations

from sqlalchemy import delete, select

from sandbox.harness import BotHarness
from core.identifiers import format_case_code
from core.services.messaging.bot_identity import bot_username
from core.storage.models import AppSetting, Case, Event
from tests.support.inspector import (ANA, NEAR, answer, bind, document, open_card, pdf_text, report,
                                     tap, task_message)


async def affix_notice_form(bot, protocol):
    await task_message(bot, ANA, protocol)
    await open_card(bot, ANA, protocol)
    await tap(bot, ANA, "Afixar notificação", expect="Marque os sinais")
    for label in ("Há mais de 30 dias", "Faltam pneus", "Sem motor"):
        await tap(bot, ANA, label)
    await tap(bot, ANA, "Continuar", expect="papel afixado")
    await tap(bot, ANA, "Preenchida à mão", expect="número da notificação")
    await answer(bot, ANA, "N-77/2026", "Confira antes de registrar")


async def case_row(core, protocol) -> tuple[Case, list[str]]:
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()
        actions = (await s.execute(select(Event.action).where(Event.case_id == case.id))
                   ).scalars().all()
    return case, actions


async def test_unconfigured_username_is_learnt_and_the_notice_carries_the_link_art_4_II_a(
        core, photo):
    assert core.settings.telegram_bot_username == ""
    async with BotHarness(core) as bot:
        assert await bot_username(core) == "ViaLivreTesteBot"  # the stand-in's getMe
        await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
        protocol = await report(core, photo)
        await affix_notice_form(bot, protocol)
        await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
        _, pdf = await document(bot, ANA, "notificacao-afixada")
    case, _ = await case_row(core, protocol)
    assert case.state == "notice_affixed"
    assert f"t.me/ViaLivreTesteBot?start={format_case_code(case.case_code)}" in pdf_text(pdf).replace("\n", "")


async def test_step_whose_document_cannot_be_made_is_refused_in_the_chat_art_4_II_a(
        core, photo):
    async with BotHarness(core) as bot:
        await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
        protocol = await report(core, photo)
        before, _ = await case_row(core, protocol)
        await affix_notice_form(bot, protocol)
        async with core.db.unit_of_work() as s:  # the username is lost (e.g. a restored
            await s.execute(delete(AppSetting))  # database) while the form is open
        refused = await tap(bot, ANA, "Confirmar", expect="Nada foi registrado")
        case, actions = await case_row(core, protocol)
        await bot.restart()  # getMe again: the username is recorded at every start-up
        await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
        await document(bot, ANA, "notificacao-afixada")
    assert "nome do bot no Telegram ainda não é conhecido" in refused.text
    assert "suas respostas foram mantidas" in refused.text  # Confirmar again once fixed
    assert "affix_notice" not in actions and "document_issued" not in actions
    assert (case.state, case.next_deadline_at) == (before.state, before.next_deadline_at)
