"""One fee statement (Dracena Art. 7º): the inspector apprehends animals through the bot's
step form (stand-in Bot API), days pass, and the owner's view in the bot and the panel's case
page show the same amount line by line, each keeping-cost line citing Art. 7º, a or b."""
from __future__ import annotations

import re
from decimal import Decimal

import pytest

from sandbox.harness import BotHarness
from core.facts import ANIMALS, KILOGRAMS, TAXES_AMOUNT
from core.formatting import fmt_money
from core.services import staff as pq
from core.services.staff.accounts import create_user
from tests.support.panel import PASSWORD, Panel
from tests.support.inspector import ANA, DRACENA, answer, bind, case_row, report, tap, task_message
from tests.support.owner_chat import JOSE, open_by_qr


@pytest.fixture
async def core(make_core):
    return await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")


def _plain(html: str) -> str:
    """The page's text, every run of blanks (no-break spaces too) as one space."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.replace("&nbsp;", " ")))


def _money(amount: Decimal) -> str:
    return fmt_money(amount).replace("\xa0", " ")


async def test_owner_and_panel_see_the_same_statement_art_7_a_b(core, photo, clock):
    async with BotHarness(core) as bot:
        await bind(bot, ANA, "Ana Fiscal", "fiscalizacao", DRACENA)
        protocol = await report(core, photo, category="livestock", where=DRACENA)
        await task_message(bot, ANA, protocol)
        await tap(bot, ANA, "Aceitar", expect=f"Protocolo {protocol}")
        await tap(bot, ANA, "Apreender",
                  expect="especificação das mercadorias")
        await answer(bot, ANA, "3 cabeças de gado", "lugar da infração")
        await answer(bot, ANA, "Estrada Municipal DRC-010, km 3", "dia e hora da apreensão")
        await tap(bot, ANA, "Agora", expect="preceito de lei")
        await answer(bot, ANA, "Lei nº 56/1951, Art. 4º", "valor da multa")
        await answer(bot, ANA, "100,00", "livro do depósito")
        await answer(bot, ANA, "Livro 2, fl. 7", "impostos devidos")
        await answer(bot, ANA, "12,50", "número de animais")
        # Art. 7º, b: kilograms are for mercadorias; semoventes are counted (a) only
        summary = await answer(bot, ANA, "3", "Confira antes")
        shown = summary.text.replace("\xa0", " ")
        assert "R$ 12,50" in shown and "peso" not in shown
        await tap(bot, ANA, "Confirmar", expect="Registrado: Apreender e registrar")

        case = await case_row(core, protocol)
        facts = case.details["facts"]  # the facts the statement reads, named once
        assert (facts[TAXES_AMOUNT], str(facts[ANIMALS])) == ("12.50", "3")
        assert KILOGRAMS not in facts

        clock.advance(days=2, hours=3)  # 3 started days in the depot (Art. 7º: "por dia")
        view = await open_by_qr(bot, JOSE, case.case_code)

    detail = await pq.case_detail(core, protocol)
    st = detail.statement
    keeping = [ln for ln in st.lines if ln.tariff_valid_from is not None]
    assert {ln.article for ln in keeping} == {"Art. 7º, a"}
    # 3 animals × 3 days × R$ 40,00 = 360,00
    assert [ln.amount for ln in keeping] == [Decimal("360.00")]
    assert st.total == Decimal("100.00") + Decimal("12.50") + Decimal("360.00")

    # the owner's view, line by line: the same labels, articles and amounts
    for ln in st.lines:
        assert f"• {ln.label}: {fmt_money(ln.amount)} ({ln.article}" in view.text
    # the keeping costs are still the law module's reference values (Art. 7º): estimate
    assert f"Total (estimativa): {fmt_money(st.total)}" in view.text
    # what each further day is charged by: the 3 animals (Art. 7º, a)
    assert f"Cada dia a mais custa {fmt_money(Decimal('120.00'))}: depósito de 3 animais " \
           "(Art. 7º, a)." in view.text

    # the panel's case page shows the same lines
    await create_user(core, "bruno", PASSWORD, "staff")
    async with Panel(core).client("bruno") as c:
        page = _plain(await (await c.get(f"/casos/{protocol}")).text())
    assert "Valores devidos hoje" in page
    for ln in st.lines:
        assert f"{ln.label} ({ln.article})" in page
        assert _money(ln.amount) in page
    assert _money(st.total) in page
