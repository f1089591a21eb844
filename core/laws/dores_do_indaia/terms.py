"""Dores do Indaiá (Lei 3.043/2022): the dates the law sets for an object in the depot, each
stated once, with its article, on every channel (owner view, case page, termo).

Vehicles, chassis and carriages (Art. 6º, caput; Art. 3º, caput):
- "iniciando, automaticamente, o prazo previsto de 10 (dez) dias para sua retirada" — the
  retrieval notice period, counted from the removal (setting retrieval_notice_days);
- "não reclamado [...] dentro do prazo de sessenta dias, contado da data de recolhimento [...]
  levado à hasta pública" — release stays possible until then, auction only after
  (settings auction_after_days, release_after_auction_eligible; CTB art. 328).
How they relate (setting retrieval_notice_days): the 10 days are the notice; after them the
object stays in the depot, paying daily fees, and may still be retrieved until the 60th day.

Large furniture and machinery (Art. 5º, III): the 10 days count from the publication in the
Diário Oficial, a date not known at the removal; the 60 days of Art. 3º apply to vehicles only
(setting furniture_release_until_disposal): release stays possible until the disposal.
"""
from __future__ import annotations

from typing import Any, Mapping

from core.laws.base import Category, DepotTerm
from core.laws.dores_do_indaia.categories import TRACK_VEHICLE
from core.laws.dores_do_indaia.settings import SETTINGS


def _retrieval() -> DepotTerm:
    days = SETTINGS["retrieval_notice_days"].value
    return DepotTerm(
        "retrieval", "Art. 6º, caput", days,
        owner=f"Prazo para retirada: até {{date}}, {days} dias contados da remoção "
              "(Art. 6º, caput).",
        staff="Prazo de retirada avisado ao proprietário: até {date}")


def _release_until(thing: str) -> DepotTerm:
    days = SETTINGS["auction_after_days"].value
    return DepotTerm(
        "release_until", "Art. 3º, caput; CTB art. 328", days,
        owner=f"Depois desse prazo, {thing} continua no pátio, somando diárias, e ainda pode "
              f"ser retirado até {{date}}, {days} dias contados do recolhimento; só depois "
              "dessa data pode ir a leilão (Art. 3º, caput; CTB art. 328).",
        staff="Retirada possível até {date}; depois, leilão", replaces="within_deadline")


FURNITURE_PUBLICATION = DepotTerm(
    "publication_retrieval", "Art. 5º, III", None,
    owner="O prazo de 10 dias para a retirada conta da publicação da notificação no Diário "
          "Oficial do Município (Art. 5º, III); até a destinação do bem, sucata de "
          "recicláveis ou leilão, ele ainda pode ser retirado (Art. 3º, §1º; Art. 8º).",
    staff="Retirada: 10 dias contados da publicação no Diário Oficial",
    replaces="within_deadline")


def depot_terms(category: Category, facts: Mapping[str, Any]) -> tuple[DepotTerm, ...]:
    """Law.depot_terms for Dores (module docstring)."""
    if category.track == TRACK_VEHICLE:
        return (_retrieval(), _release_until("o veículo"))
    if SETTINGS["furniture_release_until_disposal"].value:
        return (FURNITURE_PUBLICATION,)
    return (FURNITURE_PUBLICATION, _release_until("o bem"))
