"""What a municipal law module provides. One module per law, in core/laws/<slug>.py,
exposing `LAW`; the registry (core/laws/__init__.py) finds it by its slug, so adding a
city's law means adding one module."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping

# The generic fee engine is the lower floor: it knows no law; the laws give it their seeds.
from core.fees import Share, Statement, TariffBook, TariffSeed
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
    #: Ask the citizen how long it has been there (abandonment); False where time in place
    #: means nothing to the law (a street vendor, an animal on the loose).
    time_in_place: bool = True


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
    #: What the inspector's toggle button says on a phone (a few words, with room for the
    #: tick: at most core.lifecycle.BUTTON_MAX - 2 characters); the label and the article
    #: go in the message text.
    button: str = ""


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


@dataclass(frozen=True)
class StateText:
    """What the owner and the citizen are told about a case in one state of one track: where
    the object is (on the street, on its way, in the depot) and what comes next. `owner` adds
    what the owner can do; empty means the owner is told `next` too."""

    where: str  # Portuguese: "O veículo continua na rua."
    next: str  # Portuguese: what happens next on this track
    owner: str = ""  # Portuguese: what the owner can do now

    def for_citizen(self) -> str:
        return f"{self.where} {self.next}"

    def for_owner(self) -> str:
        return f"{self.where} {self.owner or self.next}"


@dataclass(frozen=True)
class EditalWording:
    """How the law words one kind of edital: the article it rests on, its opening paragraph
    (a template with {pref}, the Prefeitura's name, and {law}, the law's title) and the
    heading of the panel's list of cases waiting for it (empty: the kind's own)."""

    article: str
    intro: str
    label: str = ""


@dataclass(frozen=True)
class DepotTerm:
    """A date the law sets for an object in the depot, stated on every channel (owner view,
    case page, staff queue, papers) with its article. `days` counts from the collection
    (Law.collected_at) by the law's deadline counting; None: the term runs from a later act
    (e.g. a publication) and is stated without a date. `owner` is the sentence the owner
    reads and the paper prints, with "{date}" where the date goes; `staff` is the short line
    staff read, with "{date}" too."""

    code: str  # "retrieval", "release_until", "perishable_auction", ...
    article: str
    days: int | None
    owner: str  # Portuguese sentence with {date}
    staff: str  # Portuguese line with {date}
    #: Staff must act by the date (e.g. the perishables' auction): listed in the staff queue.
    staff_due: bool = False
    #: The release condition (ReleaseCondition.code) this dated sentence states, not repeated
    #: beside it (the owner would read the same period twice).
    replaces: str = ""


#: Everything the fee statement reads from a case: its accumulated facts, the moment the object
#: was collected (the storage days count from it) and the moment the amount is due.
FeeStatementFn = Callable[["TariffBook", Mapping[str, Any], datetime, datetime, "Law"],
                          "Statement"]
#: An auction's proceeds shared as the law orders, from the gross amount, the statement owed
#: at the auction, the case's facts and the taxes staff enter.
ProceedsSplitFn = Callable[[Decimal, "Statement", Mapping[str, Any], Decimal], "list[Share]"]


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
    # the signs the inspector's checklist offers for a category (None: every criterion), so a
    # sofa is never asked about its hood or its Detran/BIN record
    inspector_signs: Callable[[str], tuple[str, ...]] | None = None
    release_conditions: Callable[[Category, ReleaseSituation], list[ReleaseCondition]] | None = None
    # The amount due to take the object back, line by line (None: the law charges nothing).
    fee_statement: FeeStatementFn | None = None
    # The facts the fee statement reads, beside the collection moment (quantities, amounts).
    fee_facts: tuple[str, ...] = ()
    # The article new fee values rest on (the panel's tariff form suggests it).
    fees_article: str = ""
    # How auction proceeds are shared (None: the law does not say; nothing is split).
    proceeds_split: ProceedsSplitFn | None = None
    proceeds_split_article: str = ""
    # When an object may go to auction, in a line, for staff (Portuguese, with the article).
    auction_note: str = ""
    # What the owner and citizen are told, per (track, state).
    state_texts: Mapping[tuple[str, str], StateText] = field(default_factory=dict)
    # Editais the law words itself, by kind (core.documents.edital kinds, e.g. "leilao").
    editais: Mapping[str, EditalWording] = field(default_factory=dict)
    # The law's own documents, beyond the shared ones (core.services.papers.kinds): a function
    # of no arguments giving them (DocumentKind: issuer, label, button), which imports the
    # module in the law's folder that writes them — called by the services only when a
    # document is issued, so the rules never load storage. None: only the shared ones.
    papers: Callable[[], Iterable[Any]] | None = None
    # Steps a category may not take, by step code: a function of the category code giving a
    # Portuguese reason to refuse, or None (the lifecycle's guard uses the same function).
    category_guards: Mapping[str, Callable[[str], str | None]] = field(default_factory=dict)
    # Facts holding when the object was collected, first found wins (storage fees, the
    # auction deadline and the termo count from it).
    collection_facts: tuple[str, ...] = ("collected_at", "removal_started_at", "apprehended_at")
    # The dates the law sets for an object of a category in the depot, given the case facts
    # (Dores Art. 6º, caput and Art. 3º, caput; Dracena Art. 6º, §2º); None: none.
    depot_terms: Callable[[Category, Mapping[str, Any]], tuple[DepotTerm, ...]] | None = None
    # Optional facts a step asks only for some categories (fact → category codes), e.g.
    # Dracena Art. 7º, a: animals only for livestock; b: kilograms only for goods.
    category_facts: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # What each further day of keeping is charged by, in words (e.g. "850 kg de mercadorias,
    # Art. 7º, b"), from the case facts; None: the tariff's article alone.
    per_day_basis: Callable[[Mapping[str, Any]], str] | None = None
    # The name of the paper the owner's appeal is against, from the case facts (e.g. Dracena:
    # "Auto de infração e apreensão", or "Nota de apreensão", Art. 4º, §1º); None: "Auto".
    record_name: Callable[[Mapping[str, Any]], str] | None = None
    # The panel's indicators (core.services.staff.indicators): which steps (transition codes) mark
    # the inspection, the notification and the removal of an object, and which final states
    # count as resolved by the owner, removed or auctioned.
    milestones: Mapping[str, frozenset[str]] = field(default_factory=dict)
    outcomes: Mapping[str, str] = field(default_factory=dict)
    # The steps (transition codes) that hand the object back from the depot to who collects
    # it, through the release form (core.services.staff.release): the law's checklist, who
    # collected, the fees paid, the termo de liberação. Empty: the law has no such step.
    release_steps: frozenset[str] = frozenset()
    # Whether the law lets who collects be represented by an attorney (a procuração).
    release_by_attorney: bool = False
    #: The IBGE code of the municipality (7 digits): the default of its municipality record.
    ibge_code: str = ""

    def terms_in_depot(self, category: str, facts: Mapping[str, Any]
                       ) -> tuple[DepotTerm, ...]:
        """The dates the law sets for a `category` object in the depot (empty: none)."""
        if self.depot_terms is None or category not in self.categories:
            return ()
        return self.depot_terms(self.categories[category], facts)

    def asks_fact(self, fact: str, category: str | None) -> bool:
        """Whether an optional fact is asked for `category` (Law.category_facts)."""
        only = self.category_facts.get(fact)
        return only is None or category is None or category in only

    def lifecycle(self, category: str) -> Lifecycle:
        return self.tracks[self.categories[category].track]

    def setting(self, code: str) -> Any:
        return self.settings[code].value

    def statement(self, book: "TariffBook", facts: Mapping[str, Any], collected_at: datetime,
                  as_of: datetime) -> "Statement":
        """The amount due at `as_of` for an object collected at `collected_at`."""
        if self.fee_statement is None:
            return Statement.of((), as_of)
        return self.fee_statement(book, facts, collected_at, as_of, self)

    def split(self, gross: Decimal, statement: "Statement", facts: Mapping[str, Any],
              taxes: Decimal = Decimal(0)) -> "list[Share]":
        if self.proceeds_split is None:
            return []
        return self.proceeds_split(gross, statement, facts, taxes)

    def release_checklist(self, category: str, situation: ReleaseSituation | None = None
                          ) -> list[ReleaseCondition]:
        """What the person must bring and do to take a `category` object back (empty when
        the law says nothing)."""
        if self.release_conditions is None:
            return []
        return self.release_conditions(self.categories[category],
                                       situation or ReleaseSituation())

    def checklist(self, category: str) -> tuple[Criterion, ...]:
        """The abandonment signs the inspector ticks for a `category` object, in the law's
        order (every criterion when the law does not narrow them by category)."""
        if self.inspector_signs is None or category not in self.categories:
            return tuple(self.criteria)
        codes = set(self.inspector_signs(category))
        return tuple(c for c in self.criteria if c.code in codes)

    def category_refuses(self, step: str, category: str) -> str | None:
        """Why `category` may not take `step` (a Portuguese reason), or None."""
        guard = self.category_guards.get(step)
        return guard(category) if guard else None

    def state_text(self, track: str, state: str) -> StateText | None:
        return self.state_texts.get((track, state))

    def edital(self, kind: str) -> EditalWording | None:
        return self.editais.get(kind)

    def collected_at(self, facts: Mapping[str, Any]) -> datetime | None:
        """When the object was collected, from the first collection fact present."""
        from core.laws.common import as_moment
        for name in self.collection_facts:
            moment = as_moment(facts.get(name))
            if isinstance(moment, datetime):
                return moment
            if moment is not None:
                return datetime.combine(moment, datetime.min.time())
        return None
