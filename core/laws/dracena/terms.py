"""Dracena (Lei 56/1951): the dates the law sets for seized things in the depot, and which
questions of the apprehension apply to which things.

Art. 6º, §2º: "Quando se tratar de gêneros ou semoventes, o leilão será realizado dentro de três
dias." Livestock is always semovente; a street vendor's goods are gêneros when the inspector
says so at the apprehension (fact `perishable`). The three days count from the apprehension
(setting perishables_auction_days); other things go to auction only after the appeal
(Art. 6º, caput), a date the appeal deadline already states.

Art. 7º: keeping costs "a) depósito de animal, por dia; b) depósito de mercadorias, por quilo,
por dia": animals are asked only for livestock, kilograms (and whether they are gêneros) only
for goods.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from core.facts import ANIMALS, KILOGRAMS, stored_decimal
from core.laws.base import Category, DepotTerm
from core.laws.dracena.categories import PERISHABLE_CATEGORIES, STREET_VENDOR
from core.laws.dracena.settings import SETTINGS

#: Optional facts of the apprehension asked only for some categories (Art. 7º, a and b;
#: Art. 6º, §2º: gêneros).
CATEGORY_FACTS: dict[str, frozenset[str]] = {
    ANIMALS: frozenset(PERISHABLE_CATEGORIES),
    KILOGRAMS: frozenset({STREET_VENDOR}),
    "perishable": frozenset({STREET_VENDOR}),
}


def _yes(value: Any) -> bool:
    return value is True or str(value).strip().lower() in ("true", "sim", "1")


def is_perishable(category: Category, facts: Mapping[str, Any]) -> bool:
    """Art. 6º, §2º: "gêneros ou semoventes"."""
    return category.code in PERISHABLE_CATEGORIES or _yes(facts.get("perishable"))


def depot_terms(category: Category, facts: Mapping[str, Any]) -> tuple[DepotTerm, ...]:
    """Law.depot_terms: gêneros and semoventes go to auction within three days of the
    apprehension (Art. 6º, §2º); they may be retrieved until then (Art. 7º)."""
    if not is_perishable(category, facts):
        return ()
    days = SETTINGS["perishables_auction_days"].value
    return (DepotTerm(
        "perishable_auction", "Art. 6º, §2º", days,
        owner="Gêneros e animais vão a leilão dentro de três dias da apreensão: até {date} "
              "(Art. 6º, §2º). Até o leilão, podem ser retirados pagando a multa, os impostos "
              "devidos e as despesas de depósito (Art. 7º).",
        staff="Leilão de gêneros ou semoventes até {date}",
        staff_due=True),)


def _qty(value: Decimal) -> str:
    return format(value.normalize(), "f").replace(".", ",")


def per_day_basis(facts: Mapping[str, Any]) -> str:
    """Law.per_day_basis: what each further day of keeping is charged by (Art. 7º, a, b)."""
    parts = []
    animals = int(stored_decimal(facts.get(ANIMALS)))
    if animals:
        parts.append(f"{animals} anima{'l' if animals == 1 else 'is'} (Art. 7º, a)")
    kilograms = stored_decimal(facts.get(KILOGRAMS))
    if kilograms:
        parts.append(f"{_qty(kilograms)} kg de mercadorias (Art. 7º, b)")
    return "depósito de " + " e ".join(parts) if parts else ""


def record_name(facts: Mapping[str, Any]) -> str:
    """Law.record_name: the paper's one name, as the auto prints it — the low-value note
    ("dispensada a lavratura do respectivo auto", Art. 4º, §1º), the auto de infração e
    apreensão (Art. 4º; Art. 5º) or the auto de infração (Art. 2º)."""
    if facts.get("goods_list"):
        return "Nota de apreensão"
    if facts.get("goods_description"):
        return "Auto de infração e apreensão"
    return "Auto de infração"
