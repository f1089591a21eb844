"""Dores do Indaiá (Lei 3.043/2022): what the owner pays to take an object back from the depot.

Art. 9º, II: the Secretaria Municipal de Administração, Planejamento e Finanças "definir os
valores das despesas a serem pagas pelos proprietários/responsável pelo serviço de remoção e
guarda" — so the values below are dated data, placeholders until the Secretaria sets them.
Art. 3º, §3º, II: release requires "pagamento dos custos de reboque até o pátio, bem como das
diárias devidas durante o período em que permaneceu no pátio".
Art. 3º, §3º, III: motor vehicles also pay "as multas, caso tiver registro, seguro obrigatório e
demais taxas devidas".
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_DOWN, Decimal
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from core.fees import (CENT, DEFAULT_STORAGE_CAP_DAYS, Counting, Share, Statement, TariffBook,
                       fixed_line, money, pay_in_order, storage_days, storage_lines,
                       tariff_line, to_local)
from core.laws.base import TariffSeed

if TYPE_CHECKING:
    from core.laws.base import Law

#: Art. 13: "entra em vigor no prazo de 15 (quinze) dias, após a data de sua publicação"
#: (published 08/09/2022 → in force 23/09/2022).
IN_FORCE = date(2022, 9, 23)
_PLACEHOLDER = ("Valor de referência — a Secretaria Municipal de Administração, Planejamento e "
                "Finanças deve confirmar (Art. 9º, II)")

TARIFFS: tuple[TariffSeed, ...] = (
    TariffSeed(
        code="towing", label="Reboque até o pátio", amount=Decimal("250.00"), currency="BRL",
        valid_from=IN_FORCE, unit="fixed", article="Art. 3º, §3º, II; Art. 9º, II",
        source=_PLACEHOLDER, placeholder=True,
    ),
    TariffSeed(
        code="daily_storage", label="Diária de pátio", amount=Decimal("30.00"), currency="BRL",
        valid_from=IN_FORCE, unit="day", article="Art. 3º, §3º, II; Art. 9º, II",
        source=_PLACEHOLDER, placeholder=True,
    ),
)


def statement(book: TariffBook, *, removed_at: datetime, as_of: datetime, towed: bool = True,
              counting: Counting = "started_day",
              cap_days: int | None = DEFAULT_STORAGE_CAP_DAYS, fines: Decimal = Decimal(0),
              other: Sequence[tuple[str, Decimal]] = ()) -> Statement:
    """The amount due to release the object at `as_of`.

    - Towing (Art. 3º, §3º, II "custos de reboque até o pátio"): the value in force on the day
      of removal, only if the object was towed.
    - Daily storage (Art. 3º, §3º, II "diárias devidas durante o período em que permaneceu no
      pátio"): from removal to as_of, each day at the value in force that day, counted per
      `counting` and capped at `cap_days` (CTB art. 328 §5º).
    - Fines (Art. 3º, §3º, III "pagamento das multas, caso tiver registro") and other amounts
      (Art. 3º, §3º, III "seguro obrigatório e demais taxas devidas") as given, (label, amount).
    """
    lines = []
    if towed:
        lines.append(tariff_line(book.value_at("towing", to_local(removed_at).date())))
    days = storage_days(removed_at, as_of, counting=counting, cap_days=cap_days)
    lines += storage_lines(book, "daily_storage", days)
    if fines:
        lines.append(fixed_line("Multas registradas", "Art. 3º, §3º, III", fines))
    for label, amount in other:
        lines.append(fixed_line(label, "Art. 3º, §3º, III", amount))
    return Statement.of(lines, as_of)


def case_statement(book: TariffBook, facts: Mapping[str, Any], collected_at: datetime,
                   as_of: datetime, law: "Law") -> Statement:
    """Law.fee_statement: Art. 3º, §3º, II — towing and the daily storage since the
    collection (Art. 3º, caput: "contado da data de recolhimento"), with the law's settings
    for counting (storage_day_counting) and cap (storage_cap_days, CTB art. 328 §5º)."""
    return statement(book, removed_at=collected_at, as_of=as_of, towed=True,
                     counting=law.setting("storage_day_counting"),
                     cap_days=law.setting("storage_cap_days"))


def split_proceeds(gross: Decimal, taxes: Decimal, removal: Decimal,
                   storage: Decimal) -> list[Share]:
    """Art. 8º, § único: "Dos valores arrecadados em leilão, depois de quitado os tributos e
    as despesas de remoção e diárias, o restante será destinado em partes iguais à vigilância
    sanitária e ao setor de trânsito e transporte municipal."

    Decisions: when the proceeds do not cover the debts they are paid in the order of CTB
    art. 328 §6º (removal and storage first, then taxes) and the remainder is 0, never negative.
    An odd cent of the remainder goes to the vigilância sanitária, named first in the text.
    """
    gross = money(gross)
    if gross < 0:
        raise ValueError("Negative auction proceeds")
    shares, rest = pay_in_order(gross, [
        ("Despesas de remoção (reboque)", removal),
        ("Diárias do pátio", storage),
        ("Tributos vinculados ao bem", taxes),
    ])
    half = (rest / 2).quantize(CENT, rounding=ROUND_DOWN)
    shares.append(Share("Vigilância sanitária", rest - half))
    shares.append(Share("Setor de trânsito e transporte municipal", half))
    return shares


def case_split(gross: Decimal, owed: Statement, facts: Mapping[str, Any],
               taxes: Decimal = Decimal(0)) -> list[Share]:
    """Law.proceeds_split: Art. 8º, § único over the statement owed at the auction (the
    "towing" tariff line is the removal; the "daily_storage" lines are the diárias)."""
    towing = sum((ln.amount for ln in owed.lines if ln.code == "towing"), Decimal(0))
    storage = sum((ln.amount for ln in owed.lines if ln.code == "daily_storage"), Decimal(0))
    return split_proceeds(gross, taxes, towing, storage)
