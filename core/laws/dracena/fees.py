"""Dracena (Lei 56/1951): what the offender pays to take seized things back before auction.

Art. 7º: "poderão ser retirados pelos infratores, antes do leilão, desde que paguem a multa em
que tenham incorrido, os impostos em que porventura incidiram com a prática do ato, do qual
resultou a apreensão, e as despesas com a conservação ou o trato da coisa apreendida, na
seguinte base: a) depósito de animal, por dia ... Cr$ 20,00; b) depósito de mercadorias, por
quilo, por dia ... Cr$ 1,00".

The 1951 cruzeiro values are kept as history (currency "CRZ", never charged); the values in
reais are placeholders until the city sets them by its own act.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Mapping

from core.facts import ANIMALS, KILOGRAMS, TAXES_AMOUNT, stored_decimal
from core.fees import (Counting, Share, Statement, TariffBook, fixed_line, money, pay_in_order,
                       storage_days, storage_lines)
from core.laws.base import TariffSeed

if TYPE_CHECKING:
    from core.laws.base import Law

#: The facts the statement reads (core.facts): the fine of the auto, the taxes, and what the
#: keeping costs are charged by (Art. 7º, a: animals; b: kilograms of goods).
FEE_FACTS = ("fine_amount", TAXES_AMOUNT, ANIMALS, KILOGRAMS)

_LAW = "Lei nº 56, de 09/10/1951, Art. 7º (valor histórico em cruzeiros, sem uso para cobrança)"
_PLACEHOLDER = ("Valor de referência — a Prefeitura de Dracena deve fixar o valor atual por ato "
                "próprio e cadastrá-lo com a data de início")
CURRENT_FROM = date(2025, 1, 1)

TARIFFS: tuple[TariffSeed, ...] = (
    TariffSeed(code="animal_day", label="Depósito de animal, por dia", amount=Decimal("20.00"),
               currency="CRZ", valid_from=date(1951, 10, 9), unit="animal_day",
               article="Art. 7º, a", source=_LAW),
    TariffSeed(code="goods_kg_day", label="Depósito de mercadorias, por quilo, por dia",
               amount=Decimal("1.00"), currency="CRZ", valid_from=date(1951, 10, 9),
               unit="kg_day", article="Art. 7º, b", source=_LAW),
    TariffSeed(code="animal_day", label="Depósito de animal, por dia", amount=Decimal("40.00"),
               currency="BRL", valid_from=CURRENT_FROM, unit="animal_day",
               article="Art. 7º, a", source=_PLACEHOLDER, placeholder=True),
    TariffSeed(code="goods_kg_day", label="Depósito de mercadorias, por quilo, por dia",
               amount=Decimal("0.50"), currency="BRL", valid_from=CURRENT_FROM, unit="kg_day",
               article="Art. 7º, b", source=_PLACEHOLDER, placeholder=True),
)


def _qty(value: Decimal | int) -> str:
    text = format(Decimal(value).normalize(), "f")
    return text.replace(".", ",")


def statement(book: TariffBook, *, entered_at: datetime, as_of: datetime, fine: Decimal,
              taxes: Decimal = Decimal(0), animals: int = 0, kilograms: Decimal = Decimal(0),
              counting: Counting = "started_day", cap_days: int | None = None) -> Statement:
    """The amount due to retrieve seized things at `as_of` (Art. 7º).

    - The fine ("a multa em que tenham incorrido") and the taxes ("os impostos em que
      porventura incidiram"), as given.
    - Keeping costs from entry into the depot to as_of, each day at the value in force that
      day: Art. 7º, a — per animal per day; Art. 7º, b — per kilogram per day.
    The 1951 law sets no cap on keeping costs (cap_days=None); the CTB cap is for vehicles.
    """
    if animals < 0 or Decimal(kilograms) < 0:
        raise ValueError("animals and kilograms must not be negative")
    lines = [fixed_line("Multa", "Art. 7º", fine)]
    if taxes:
        lines.append(fixed_line("Impostos devidos", "Art. 7º", taxes))
    days = storage_days(entered_at, as_of, counting=counting, cap_days=cap_days)
    what = f"{animals} anima{'l' if animals == 1 else 'is'}"
    lines += storage_lines(book, "animal_day", days, per_day=animals, what=what)
    lines += storage_lines(book, "goods_kg_day", days, per_day=kilograms,
                           what=f"{_qty(kilograms)} kg")
    return Statement.of(lines, as_of)


def case_statement(book: TariffBook, facts: Mapping[str, Any], collected_at: datetime,
                   as_of: datetime, law: "Law") -> Statement:
    """Law.fee_statement: Art. 7º over the case's facts, counted from the apprehension, with
    the law's settings for counting (storage_day_counting) and cap (storage_cap_days)."""
    return statement(book, entered_at=collected_at, as_of=as_of,
                     fine=stored_decimal(facts.get("fine_amount")),
                     taxes=stored_decimal(facts.get(TAXES_AMOUNT)),
                     animals=int(stored_decimal(facts.get(ANIMALS))),
                     kilograms=stored_decimal(facts.get(KILOGRAMS)),
                     counting=law.setting("storage_day_counting"),
                     cap_days=law.setting("storage_cap_days"))


def split_proceeds(gross: Decimal, fine: Decimal, taxes: Decimal,
                   keeping_costs: Decimal) -> list[Share]:
    """Art. 6º, §3º: "O saldo da venda, deduzidas as quantias mencionadas no artigo
    seguinte, será entregue mediante recibo ao infrator" — the Art. 7º amounts being the fine,
    the taxes and the keeping costs. Decision: if the sale does not cover them they are paid in
    the order Art. 7º lists them (fine, taxes, keeping costs); the balance is never negative.
    """
    gross = money(gross)
    if gross < 0:
        raise ValueError("Negative auction proceeds")
    shares, rest = pay_in_order(gross, [
        ("Multa", fine),
        ("Impostos devidos", taxes),
        ("Despesas de conservação ou trato", keeping_costs),
    ])
    shares.append(Share("Infrator (saldo, mediante recibo)", rest))
    return shares


def case_split(gross: Decimal, owed: Statement, facts: Mapping[str, Any],
               taxes: Decimal = Decimal(0)) -> list[Share]:
    """Law.proceeds_split: Art. 6º, §3º over the Art. 7º statement owed at the auction. The
    taxes are those staff enter at the auction, else the case's taxes fact."""
    keeping = sum((ln.amount for ln in owed.lines if ln.tariff_valid_from is not None),
                  Decimal(0))
    return split_proceeds(gross, stored_decimal(facts.get("fine_amount")),
                          taxes or stored_decimal(facts.get(TAXES_AMOUNT)), keeping)
