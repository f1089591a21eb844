"""Dracena (SP), Lei nº 56, de 09/10/1951: infraction notices, apprehension, depot and auction.
Exposes `LAW` for the registry (slug "dracena")."""
from __future__ import annotations

from core.laws.base import Law
from core.laws.dracena.next_steps import NEXT_STEPS
from core.laws.dracena import fees, release
from core.laws.dracena.categories import AGENCIES, CATEGORIES
from core.laws.dracena.lifecycle import APPREHENSION, INFRACTION, low_value_category
from core.laws.dracena.settings import SETTINGS
from core.laws.dracena.texts import EDITAIS, STATE_TEXTS
from core.laws.dracena import terms

from core.laws.dracena import indicators as _indicators

LAW = Law(
    slug="dracena",
    title="Lei nº 56, de 09/10/1951",
    short="Lei 56/1951",
    city="Dracena",
    uf="SP",
    ibge_code="3514403",
    centre=(-21.4843, -51.5353),
    radius_m=7000,
    agencies=AGENCIES,
    categories=CATEGORIES,
    tracks={INFRACTION.track: INFRACTION, APPREHENSION.track: APPREHENSION},
    settings=SETTINGS,
    tariffs=fees.TARIFFS,
    # No municipal holidays seeded: the law and README give none; staff add them.
    municipal_holidays=(),
    next_steps=NEXT_STEPS,
    release_conditions=release.retrieval_conditions,
    fee_statement=fees.case_statement,  # Art. 7º
    fee_facts=fees.FEE_FACTS,
    fees_article="Art. 7º",
    proceeds_split=fees.case_split,  # Art. 6º, §3º
    proceeds_split_article="Art. 6º, §3º",
    auction_note="Art. 6º: depois de negado o recurso ou vencido o prazo para apresentá-lo; "
                 "gêneros e animais em até 3 dias (Art. 6º, §2º)",
    state_texts=STATE_TEXTS,
    editais=EDITAIS,
    category_guards={"low_value_note": low_value_category},  # Art. 4º, §1º
    collection_facts=("apprehended_at",),  # Art. 4º; Art. 6º: apprehension = depot entry
    depot_terms=terms.depot_terms,  # Art. 6º, §2º: gêneros and semoventes within 3 days
    category_facts=terms.CATEGORY_FACTS,  # Art. 7º, a and b; Art. 6º, §2º
    per_day_basis=terms.per_day_basis,  # Art. 7º, a and b
    record_name=terms.record_name,  # Art. 2º; Art. 4º, §1º; Art. 5º
    milestones=_indicators.MILESTONES,  # the panel's indicators
    outcomes=_indicators.OUTCOMES,
    # Art. 7º: "poderão ser retirados pelos infratores, antes do leilão, desde que paguem [...]"
    release_steps=frozenset({"retrieve"}),
    # Art. 7º names "os infratores" only: no attorney (a procuração) is provided for.
    release_by_attorney=False,
)

__all__ = ["LAW"]
