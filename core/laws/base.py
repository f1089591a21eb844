"""What a municipal law module provides. One module per law, in core/laws/<slug>.py,
exposing `LAW`; the registry (core/laws/__init__.py) finds it by its slug, so adding a
city's law means adding one module."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, Callable, Mapping

from core.lifecycle import Lifecycle


@dataclass(frozen=True)
class Agency:
    code: str
    name: str  # Portuguese
    article: str  # where the law makes it competent


@dataclass(frozen=True)
class Category:
    code: str
    label: str  # Portuguese, shown to citizens
    article: str
    track: str  # key into Law.tracks
    has_plate: bool = False  # ask for a plate (vehicles)
    motor_vehicle: bool = False  # Art. 3º §3º III applies (Dores)
    has_chassis: bool = False
    examples: str = ""  # Portuguese hint for citizens


@dataclass(frozen=True)
class Location:
    """A kind of place the law covers (e.g. Dores Art. 2º public space; Art. 7º vacant lots)."""

    code: str
    label: str  # Portuguese
    article: str


@dataclass(frozen=True)
class Criterion:
    """One abandonment sign an inspector (or citizen) can tick."""

    code: str
    label: str  # Portuguese
    article: str


@dataclass(frozen=True)
class Assessment:
    qualifies: bool
    met: tuple[Criterion, ...]
    articles: tuple[str, ...]
    explanation: str  # Portuguese


@dataclass(frozen=True)
class ReleaseCondition:
    code: str
    label: str  # Portuguese: what the person must bring or do
    article: str
    documents: tuple[str, ...] = ()  # Portuguese names of documents to bring


@dataclass(frozen=True)
class Setting:
    """A gap the law leaves open, decided explicitly (law/README.md "Gaps")."""

    code: str
    value: Any
    description: str  # English, for the README and staff
    source: str  # the article(s) whose silence or conflict this settles


@dataclass(frozen=True)
class TariffSeed:
    """A dated fee value as the law or the city set it (fees are data, not constants)."""

    code: str  # e.g. "towing", "daily_storage", "animal_day", "goods_kg_day"
    label: str  # Portuguese
    amount: Decimal
    currency: str  # "BRL", or "CRZ" for the 1951 cruzeiro history
    valid_from: date
    unit: str  # "fixed", "day", "animal_day", "kg_day"
    article: str
    source: str  # the act that set the value


@dataclass(frozen=True)
class MunicipalHoliday:
    """A recurring municipal holiday (not in the `holidays` package), valid from a date."""

    month: int
    day: int
    name: str  # Portuguese
    valid_from: date
    source: str  # the act that set it


@dataclass(frozen=True)
class ReleaseSituation:
    """Who asks for release and the object's registration facts (Dores Art. 3º §3º)."""

    by_attorney: bool = False  # procurador com procuração pública (I)
    sale_communicated: bool = False  # comunicação de venda registrada (III, a)
    transferred: bool = False  # propriedade já transferida (III, a)
    unrecoverable: bool = False  # impossibilidade de recuperação (III, b)
    deregistered: bool = False  # baixa feita no órgão de trânsito (III, b)


@dataclass
class Law:
    slug: str
    title: str  # "Lei Ordinária nº 3.043, de 08/09/2022"
    short: str  # "Lei 3.043/2022"
    city: str
    uf: str  # state, for the holiday calendar
    centre: tuple[float, float]  # (lat, lon) default city centre
    radius_m: float  # default city radius
    agencies: Mapping[str, Agency]
    categories: Mapping[str, Category]
    tracks: Mapping[str, Lifecycle]
    criteria: tuple[Criterion, ...] = ()
    settings: Mapping[str, Setting] = field(default_factory=dict)
    tariffs: tuple[TariffSeed, ...] = ()
    municipal_holidays: tuple[MunicipalHoliday, ...] = ()
    locations: tuple[Location, ...] = ()  # kinds of place covered; empty = not restricted
    # Plain-words steps ahead for a new report, per track (what /denunciar tells the citizen).
    next_steps: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Law-specific rules supplied by the law's package:
    # the abandonment signs (criteria codes) a citizen can see and tick for a category
    citizen_signs: Callable[[str], tuple[str, ...]] | None = None
    release_conditions: Callable[[Category, ReleaseSituation], list[ReleaseCondition]] | None = None

    def lifecycle(self, category: str) -> Lifecycle:
        return self.tracks[self.categories[category].track]

    def setting(self, code: str) -> Any:
        return self.settings[code].value
