"""Synthetic cities for the benchmarks: the two law modules (Dores do Indaiá, Dracena) reused
under many slugs, their centres spread apart (a grid 0.25° apart, ≈ 27 km, so no city's
circle touches another's), each with the categories, states and data of its law.

City 0 is Dores do Indaiá itself (its slug and centre); city 1 Dracena; the others
"<law>-NN" at their grid point. `municipality_rows` gives their `municipalities` records."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import datetime

from core.laws import get_law

SPREAD_M = 5_900.0  # inside either law's circle (6 km, 7 km)
GRID_DEG = 0.25
GRID_ORIGIN = (-17.5, -44.0)


@dataclass(frozen=True)
class BenchCity:
    slug: str
    law: str
    name: str
    centre: tuple[float, float]
    #: (category, track, weight)
    categories: tuple[tuple[str, str, int], ...]
    open_states: tuple[str, ...]
    deadline_states: dict[str, tuple[str, ...]]  # track → states with a running deadline
    closed_states: dict[str, tuple[str, ...]]  # track → closing states
    plated: frozenset[str]  # categories whose cases often carry a plate

    def weighted_categories(self) -> list[str]:
        return [c for c, _, w in self.categories for _ in range(w)]

    def track(self, category: str) -> str:
        return next(t for c, t, _ in self.categories if c == category)

    def random_point(self, rng: random.Random) -> tuple[float, float]:
        """Uniform in the SPREAD_M disc around the centre (equirectangular offset)."""
        r = SPREAD_M * math.sqrt(rng.random())
        theta = rng.random() * 2 * math.pi
        lat0, lon0 = self.centre
        return (lat0 + r * math.cos(theta) / 110_574.0,
                lon0 + r * math.sin(theta) / (111_320.0 * math.cos(math.radians(lat0))))


_DORES_CLOSED = ("closed_removed_by_owner", "closed_unfounded", "closed_duplicate",
                 "closed_not_abandoned", "closed_not_competent", "released", "auctioned")
DORES = dict(
    law="dores-do-indaia",
    categories=(("motor_vehicle", "dores_vehicle", 50), ("chassis_body", "dores_vehicle", 12),
                ("trailer", "dores_vehicle", 6), ("human_animal_vehicle", "dores_vehicle", 4),
                ("large_furniture", "dores_furniture", 20), ("machinery", "dores_furniture", 8)),
    open_states=("reported", "reported", "reported", "diligence", "police_referral"),
    deadline_states={"dores_vehicle": ("owner_notified", "notice_affixed", "published",
                                       "in_depot", "owner_removing"),
                     "dores_furniture": ("owner_notified", "published", "in_depot",
                                         "owner_removing")},
    closed_states={"dores_vehicle": _DORES_CLOSED, "dores_furniture": _DORES_CLOSED},
    plated=frozenset({"motor_vehicle", "chassis_body", "trailer", "human_animal_vehicle"}))
DRACENA = dict(
    law="dracena",
    categories=(("abandoned_vehicle", "dracena_apprehension", 40),
                ("abandoned_thing", "dracena_apprehension", 15),
                ("street_vendor_goods", "dracena_apprehension", 10),
                ("livestock", "dracena_apprehension", 8),
                ("clandestine_ad", "dracena_apprehension", 7),
                ("infraction", "dracena_infraction", 20)),
    open_states=("reported", "reported", "reported", "diligence"),
    deadline_states={"dracena_apprehension": ("apprehended", "appeal_pending"),
                     "dracena_infraction": ("awaiting_intimacao", "appeal_window",
                                            "appeal_pending")},
    closed_states={"dracena_apprehension": ("closed_no_infraction", "closed_unfounded",
                                            "closed_duplicate", "returned", "closed_sold",
                                            "auctioned"),
                   "dracena_infraction": ("closed_no_infraction", "closed_unfounded",
                                          "closed_duplicate", "closed_paid",
                                          "closed_debt_registered")},
    plated=frozenset({"abandoned_vehicle"}))


def synthetic_cities(count: int) -> list[BenchCity]:
    """`count` cities: Dores do Indaiá, Dracena, then the two laws in turn on the grid."""
    out = []
    for i in range(count):
        spec = DORES if i % 2 == 0 else DRACENA
        law = get_law(spec["law"])
        if i < 2:
            slug, name, centre = law.slug, law.city, law.centre
        else:
            slug, name = f"{law.slug}-{i:02d}", f"{law.city} {i:02d}"
            centre = (GRID_ORIGIN[0] - GRID_DEG * (i // 10), GRID_ORIGIN[1] - GRID_DEG * (i % 10))
        out.append(BenchCity(slug=slug, name=name, centre=centre,
                             **{k: v for k, v in spec.items()}))
    return out


_EMPTY = ("office_address", "office_phone", "office_hours", "depot_address", "depot_hours",
          "dpo_contact", "pix_key", "pix_merchant_name", "pix_merchant_city",
          "payment_guia_instructions", "open311_jurisdiction_id", "open311_key_sha256")
MUNICIPALITY_COLUMNS = ("slug", "law", "name", "uf", "ibge_code", "centre_lat", "centre_lon",
                        "radius_m", *_EMPTY, "active", "created_at")


def municipality_rows(cities: list[BenchCity], created: datetime, dt=lambda d: d) -> list[tuple]:
    """The `municipalities` records of `cities` (columns MUNICIPALITY_COLUMNS); `dt` renders
    the datetime for the driver."""
    rows = []
    for c in cities:
        law = get_law(c.law)
        rows.append((c.slug, c.law, c.name, law.uf, law.ibge_code, c.centre[0], c.centre[1],
                     float(law.radius_m), *("" for _ in _EMPTY), True, dt(created)))
    return rows
