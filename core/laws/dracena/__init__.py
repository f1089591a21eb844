"""Dracena (SP), Lei nº 56, de 09/10/1951: infraction notices, apprehension, depot and auction.
Exposes `LAW` for the registry (slug "dracena")."""
from __future__ import annotations

from core.laws.base import Law
from core.laws.dracena.next_steps import NEXT_STEPS
from core.laws.dracena import fees, release
from core.laws.dracena.categories import AGENCIES, CATEGORIES
from core.laws.dracena.lifecycle import APPREHENSION, INFRACTION
from core.laws.dracena.settings import SETTINGS

LAW = Law(
    slug="dracena",
    title="Lei nº 56, de 09/10/1951",
    short="Lei 56/1951",
    city="Dracena",
    uf="SP",
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
)

__all__ = ["LAW"]
