"""Owners see amounts marked "estimativa" while a tariff is still the law module's reference
value (Dores Art. 9º, II: the Secretaria "definir os valores das despesas"), and the depot
address is never the placeholder."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

from core.services.owners.text import _depot_text
from core.laws.base import ReleaseSituation
from core.services.owners.view import DepotInfo, FeeItem, Fees


def depot(estimate: bool) -> DepotInfo:
    fees = Fees((FeeItem("Reboque até o pátio", "Art. 3º, §3º, II", Decimal(1), Decimal("250"),
                         date(2022, 9, 23), Decimal("250.00")),), Decimal("250.00"),
                datetime(2026, 12, 1, 16, tzinfo=timezone.utc), Decimal("30.00"),
                "Art. 3º, §3º, II", estimate)
    return DepotInfo("endereço do pátio ainda não definido", "8h às 17h",
                     datetime(2026, 12, 1, 16, tzinfo=timezone.utc), (), fees, None, None,
                     "Art. 3º", True, ReleaseSituation())


def test_amounts_from_reference_tariffs_are_marked_estimativa_art_9_II():
    text = "\n".join(_depot_text(depot(True)))
    assert "estimativa" in text and "Total (estimativa): R$" in text


def test_confirmed_tariffs_are_not_marked():
    assert "estimativa" not in "\n".join(_depot_text(depot(False)))
