"""Dores do Indaiá (MG), Lei Ordinária nº 3.043, de 08/09/2022: abandoned vehicles, furniture
and machinery in public space. Exposes `LAW` for the registry (slug "dores-do-indaia")."""
from __future__ import annotations

from core.laws.base import Law
from core.laws.dores_do_indaia.next_steps import NEXT_STEPS
from core.laws.dores_do_indaia import fees, release
from core.laws.dores_do_indaia.assessment import (CRITERIA, assess, citizen_signs,
                                                  inspector_signs)
from core.laws.dores_do_indaia.categories import AGENCIES, CATEGORIES, LOCATIONS
from core.laws.dores_do_indaia.holidays import MUNICIPAL_HOLIDAYS
from core.laws.dores_do_indaia.lifecycle_furniture import LIFECYCLE as FURNITURE
from core.laws.dores_do_indaia.lifecycle_vehicles import LIFECYCLE as VEHICLE
from core.laws.dores_do_indaia.settings import SETTINGS
from core.laws.dores_do_indaia.texts import EDITAIS, STATE_TEXTS
from core.laws.dores_do_indaia.terms import depot_terms

from core.laws.dores_do_indaia import indicators as _indicators

LAW = Law(
    slug="dores-do-indaia",
    title="Lei Ordinária nº 3.043, de 08/09/2022",
    short="Lei 3.043/2022",
    city="Dores do Indaiá",
    uf="MG",
    ibge_code="3123304",
    centre=(-19.4628, -45.6003),
    radius_m=6000,
    agencies=AGENCIES,
    categories=CATEGORIES,
    tracks={VEHICLE.track: VEHICLE, FURNITURE.track: FURNITURE},
    criteria=CRITERIA,
    settings=SETTINGS,
    tariffs=fees.TARIFFS,
    municipal_holidays=MUNICIPAL_HOLIDAYS,
    locations=LOCATIONS,
    next_steps=NEXT_STEPS,
    citizen_signs=citizen_signs,
    inspector_signs=inspector_signs,
    release_conditions=release.release_conditions,
    fee_statement=fees.case_statement,  # Art. 3º, §3º, II
    fees_article="Art. 3º, §3º, II; Art. 9º, II",
    proceeds_split=fees.case_split,  # Art. 8º, § único
    proceeds_split_article="Art. 8º, parágrafo único",
    auction_note="Art. 3º: não reclamados em 60 dias do recolhimento; CTB art. 328",
    state_texts=STATE_TEXTS,
    editais=EDITAIS,
    # Art. 3º, caput: "contado da data de recolhimento"; the depot entry records it, by
    # default the moment the removal started (Art. 6º, §4º).
    collection_facts=("collected_at", "removal_started_at"),
    # Art. 6º, caput (10 days to retrieve) and Art. 3º, caput (60 days before auction), for
    # vehicles; Art. 5º, III for furniture (terms.py).
    depot_terms=depot_terms,
    milestones=_indicators.MILESTONES,  # the panel's indicators
    outcomes=_indicators.OUTCOMES,
    # Art. 3º, §3º ("só poderá ser retirado, se preenchida as seguintes condições"), managed by
    # the Secretaria de Administração, Planejamento e Finanças (Art. 9º, I: "gerenciar a
    # liberação"): the staff's release step on both tracks.
    release_steps=frozenset({"release"}),
    # Art. 3º, §3º, I: "ou por procurador devidamente habilitado, por meio de procuração
    # pública".
    release_by_attorney=True,
)

__all__ = ["LAW", "assess"]
