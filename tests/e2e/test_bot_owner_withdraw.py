"""The owner takes back "Vou retirar" through the real bot (Dores Art. 6º, §3º): "Desfazer
declaração", "Tem certeza?" (Não loses nothing, Sim withdraws), the inspector asked to verify is
told the request no longer stands, the view shows the legal deadline again; stale and forged
buttons change nothing. End to end through the Bot API stand-in."""
from __future__ import annotations

from datetime import date

from sqlalchemy import func, select

from core.identifiers import format_case_code
from core.services.owners.view import STATEMENT_NOTED
from core.services.owners import NOT_LINKED, owner_view
from core.storage.models import Event
from bot.texts import STALE_BUTTON
from tests.support.owner_chat import (ANA, INTRUDER, OWNER_USER, PASSER_BY, assign_ana,
                                      button_texts, open_by_qr)
from tests.support.bot_chat import press, said
from tests.support.owner_cases import OWNER, notified


async def _events(core) -> int:
    async with core.db.read() as s:
        return await s.scalar(select(func.count()).select_from(Event))


async def test_declare_then_withdraw_with_confirmation_art_6_par_3(bot, core, photo, clock):
    sub = await notified(core, photo)  # Art. 4º, I: until 11/12/2026
    await assign_ana(bot, core, sub)
    await open_by_qr(bot, OWNER_USER, sub.case_code)
    await press(bot, OWNER_USER, "Vou retirar", expect="confirme que o objeto é seu")
    await bot.api.send_text(OWNER_USER, "ABC1D23")
    await said(bot, OWNER_USER, "Até que dia")
    await bot.api.send_text(OWNER_USER, "05/12/2026")
    await said(bot, OWNER_USER, "Registramos sua declaração")
    view = await said(bot, OWNER_USER, "Sua data: você disse que vai retirar até 05/12/2026")
    assert "Desfazer declaração" in button_texts(view)
    await bot.api.wait_for(method="sendMessage", chat_id=ANA, text="o proprietário declarou",
                           timeout=5)
    # a slip of the thumb: "Não" loses nothing
    ask = await press(bot, OWNER_USER, "Desfazer declaração", expect="Tem certeza?")
    assert button_texts(ask) == ["Sim", "Não"] and "Art. 6º, §3º" in ask.text
    assert "Vou retirar o objeto do espaço público até 05/12/2026." in ask.text
    await press(bot, OWNER_USER, "Não", expect="nada foi alterado")
    assert (await owner_view(core, OWNER, sub.case_code)).promise == date(2026, 12, 5)
    # "Sim": withdrawn; the legal deadline is back, as it was
    await press(bot, OWNER_USER, "Desfazer declaração", expect="Tem certeza?")
    done = await press(bot, OWNER_USER, "Sim", expect="foi desfeita")
    assert "O prazo legal continua valendo: retirar o veículo do espaço público até 11/12/2026 " \
           "(Art. 4º, I)." in done.text
    view = await said(bot, OWNER_USER, f"Seu caso {format_case_code(sub.case_code)}")
    assert "Sua data" not in view.text and "Retire até 11/12/2026" in view.text
    assert "Prazo: retirar o veículo do espaço público até" in view.text
    assert "Proprietário notificado" in view.text
    assert "Desfazer declaração" not in button_texts(view)
    assert "Vou retirar" in button_texts(view)  # may declare again
    notice = await bot.api.wait_for(method="sendMessage", chat_id=ANA,
                                    text="desfez a declaração", timeout=5)
    assert "Não é mais preciso conferir" in notice.text and "11/12/2026" in notice.text
    assert "Desfeito por: José da Silva (Telegram @jose_dono, id 777)" in notice.text
    # the first "Sim" pressed again: a clear answer, nothing changes
    before = await _events(core)
    await bot.api.press_button(OWNER_USER, ask, text="Sim")
    answer = await bot.api.wait_for(method="answerCallbackQuery")
    assert answer.params["text"] == "Não há declaração sua para desfazer neste caso."
    assert await _events(core) == before
    # declared again: "Já retirei" stands, and may be taken back in turn
    await press(bot, OWNER_USER, "Já retirei", expect="Registramos sua declaração")
    view = await said(bot, OWNER_USER, f"Seu caso {format_case_code(sub.case_code)}")
    assert "Desfazer declaração" in button_texts(view)


async def test_forged_or_stale_withdraw_buttons_change_nothing(bot, core, photo):
    sub = await notified(core, photo)
    await open_by_qr(bot, OWNER_USER, sub.case_code)
    await bot.api.send_command(INTRUDER, "ajuda")
    await said(bot, INTRUDER)
    help_msg = bot.api.last_message(INTRUDER)
    before = await _events(core)
    for data in (f"owner:undo:{sub.case_code}", f"owner:undo_yes:1:{sub.case_code}"):
        await bot.api.press_button(INTRUDER, help_msg, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert answer.params.get("text") == NOT_LINKED
    own = bot.api.last_message(OWNER_USER)
    for data in (f"owner:undo_yes:x:{sub.case_code}", "owner:undo_yes"):
        await bot.api.press_button(OWNER_USER, own, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert answer.params.get("text") == STALE_BUTTON
    # the owner's own "Desfazer" with nothing declared: said plainly, no proof asked
    for data in (f"owner:undo:{sub.case_code}", f"owner:undo_yes:1:{sub.case_code}"):
        await bot.api.press_button(OWNER_USER, own, data, check=False)
        answer = await bot.api.wait_for(method="answerCallbackQuery")
        assert answer.params.get("text") == "Não há declaração sua para desfazer neste caso."
    assert await _events(core) == before


async def test_another_account_proves_ownership_before_withdrawing_art_6_par_3(bot, core, photo):
    sub = await notified(core, photo)
    await bot.api.send_command(OWNER_USER, "proprietario", [sub.case_code, "ABC1D23"])
    await said(bot, OWNER_USER, f"Seu caso {format_case_code(sub.case_code)}")
    await press(bot, OWNER_USER, "Já retirei", expect="Registramos sua declaração")
    await open_by_qr(bot, PASSER_BY, sub.case_code)  # the code alone: reads, cannot undo
    await press(bot, PASSER_BY, "Desfazer declaração", expect="confirme que o objeto é seu")
    await bot.api.send_text(PASSER_BY, "XYZ9Z99")
    await said(bot, PASSER_BY, "não conferem")
    assert STATEMENT_NOTED in (await owner_view(core, OWNER, sub.case_code)).next_step
    await bot.api.send_text(PASSER_BY, "ABC1D23")
    ask = await said(bot, PASSER_BY, "Tem certeza?")
    assert ask.text.startswith("Conferido (placa).")
    await press(bot, PASSER_BY, "Sim", expect="foi desfeita")
    view = await owner_view(core, OWNER, sub.case_code)
    assert view.state == "owner_notified" and STATEMENT_NOTED not in view.next_step
