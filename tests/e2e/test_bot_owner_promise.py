"""The owner's promise beside the law's deadline (Dores Art. 6º, §3º): "Vou
retirar" offers Hoje, Amanhã or a typed date, never past the deadline (Art. 4º, I), and the
legal deadline stays the one shown first, the owner's date beside it."""
from __future__ import annotations

from datetime import timedelta

from core.formatting import TZ, fmt_date
from core.identifiers import format_case_code
from core.services.owners import owner_view
from tests.support.owner_chat import JOSE, button_texts, open_by_qr
from tests.support.bot_chat import press, said
from tests.support.owner_cases import OWNER, notified


async def _ask_date(bot, sub):
    await open_by_qr(bot, JOSE, sub.case_code)
    await press(bot, JOSE, "Vou retirar", expect="confirme que o objeto é seu")
    await bot.api.send_text(JOSE, "ABC1D23")
    return await said(bot, JOSE, "Até que dia")


async def test_tomorrow_by_button_beside_the_legal_deadline_art_6_par_3(bot, core, photo, clock):
    sub = await notified(core, photo)
    ask = await _ask_date(bot, sub)
    assert button_texts(ask) == ["Hoje", "Amanhã", "Cancelar"]
    assert "não pode passar de 11/12/2026" in ask.text and "Art. 6º, §3º" in ask.text
    await press(bot, JOSE, "Amanhã", expect="Registramos sua declaração")
    tomorrow = clock.now.astimezone(TZ).date() + timedelta(days=1)
    view = await said(bot, JOSE, f"Seu caso {format_case_code(sub.case_code)}")
    text = view.text
    # the law's deadline first (Art. 4º, I), the owner's date after it, never instead
    assert text.index("Prazo: retirar o veículo do espaço público até") < \
        text.index(f"Sua data: você disse que vai retirar até {fmt_date(tomorrow)}")
    assert "Retire até 11/12/2026" in text
    current = await owner_view(core, OWNER, sub.case_code)
    assert current.deadline.due.isoformat() == "2026-12-11" and current.promise == tomorrow


async def test_today_by_button_then_a_later_typed_date_still_within_the_deadline(
        bot, core, photo, clock):
    sub = await notified(core, photo)
    await _ask_date(bot, sub)
    await press(bot, JOSE, "Hoje", expect="Registramos sua declaração")
    today = clock.now.astimezone(TZ).date()
    await said(bot, JOSE, f"Sua data: você disse que vai retirar até {fmt_date(today)}")
    # a second promise is bounded by the law's deadline, not by the first promise
    await press(bot, JOSE, "Vou retirar", expect="Até que dia")
    await bot.api.send_text(JOSE, "12/12/2026")
    assert "11/12/2026" in (await said(bot, JOSE, "Art. 6º, §3º")).text
    await bot.api.send_text(JOSE, "10/12/2026")
    await said(bot, JOSE, "Registramos sua declaração")
    await said(bot, JOSE, "Sua data: você disse que vai retirar até 10/12/2026")


async def test_a_stale_day_button_changes_nothing(bot, core, photo):
    sub = await notified(core, photo)
    await _ask_date(bot, sub)
    await press(bot, JOSE, "Cancelar", expect="nada foi registrado")
    await press(bot, JOSE, "Amanhã")  # the question was cancelled
    assert (await owner_view(core, OWNER, sub.case_code)).promise is None
