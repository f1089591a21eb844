"""Input data for the legal documents. Plain values, already formatted by the caller
(dates "dd/mm/aaaa", deadlines spelled out by the core's calendar), so this package needs
no calendar, no database and no Telegram. Money is Decimal (BRL)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Mapping

from core.identifiers import format_case_code

NOT_IDENTIFIED = "NÃO IDENTIFICADO"

# Notification tracks (which article the Anexo I layout serves).
OWNER_IDENTIFIED = "owner_identified"  # Dores Art. 4º, I
OWNER_UNIDENTIFIED = "owner_unidentified"  # Dores Art. 4º, II, b
FURNITURE = "furniture"  # Dores Art. 5º, I (Anexo IV not printed in the law)

# Editais
EDITAL_NOTIFICACAO = "notificacao"  # Dores Art. 4º, II, b
EDITAL_REMOCAO = "remocao"  # Dores Art. 6º, § 1º
EDITAL_LEILAO = "leilao"  # Dores Art. 3º, Art. 8º; Dracena Art. 6º, § 1º
EDITAL_KINDS = (EDITAL_NOTIFICACAO, EDITAL_REMOCAO, EDITAL_LEILAO)

# Termo de recolhimento checklist (Dores Anexo "TERMO DE RECOLHIMENTO DE VEÍCULO";
# "BANCOS" appears twice in the OCR and is printed once here).
MISSING_PARTS = {
    "doors": "PORTAS",
    "seats": "BANCOS",
    "hood": "CAPÔ",
    "engine": "MOTOR",
    "bumpers": "PARA-CHOQUES",
    "glass": "VIDROS",
    "tyres": "PNEUS/RODAS",
}


@dataclass(frozen=True)
class CityHeader:
    city: str  # "Dores do Indaiá"
    uf: str  # "MG"
    law_title: str  # "Lei Ordinária nº 3.043, de 08 de setembro de 2022"
    law_slug: str = ""  # the law module's slug (core.laws registry)
    department: str = ""  # optional second header line, e.g. the secretariat

    @property
    def prefeitura(self) -> str:
        return f"PREFEITURA MUNICIPAL DE {self.city.upper()}"


@dataclass(frozen=True)
class ObjectData:
    plate: str = ""
    municipality: str = ""
    uf: str = ""
    make: str = ""
    model: str = ""
    colour: str = ""
    chassis: str = ""
    renavam: str = ""
    description: str = ""  # free text (furniture, machinery, other signs)
    is_vehicle: bool = True

    def short(self) -> str:
        """One-line description for notices and editais: a vehicle by its boxes only (the
        inspector's reviewed facts, never a free text)."""
        if not self.is_vehicle:
            return self.description or "Bem móvel"
        parts = [p for p in (self.make, self.model) if p]
        text = " ".join(parts) or "Veículo"
        if self.colour:
            text += f", {self.colour}"
        if self.plate:
            text += f", placa {self.plate}"
        return text


@dataclass(frozen=True)
class DeadlineText:
    due_in_full: str  # "quinta-feira, 10 de dezembro de 2026"
    due_date: str  # "10/12/2026"
    article: str  # "Art. 4º, I"
    explanation: str  # how it was counted


@dataclass(frozen=True)
class OwnerLink:
    """The owner's deep link; the QR payload and the printed text both come from `url`."""

    bot_username: str
    case_code: str
    #: the installation's WhatsApp number (digits), when it takes messages: empty otherwise
    whatsapp_number: str = ""

    @property
    def url(self) -> str:
        # the printed, grouped form ("K7QM-42XD"): a deep-link payload may hold "-"
        code = format_case_code(self.case_code)
        return f"https://t.me/{self.bot_username.lstrip('@')}?start={code}"

    @property
    def whatsapp_url(self) -> str:
        """The chat with the city's number, the case code already typed for the owner to send
        (whatsapp.owner takes it): empty without a WhatsApp number."""
        if not self.whatsapp_number:
            return ""
        return f"https://wa.me/{self.whatsapp_number}?text={format_case_code(self.case_code)}"


@dataclass(frozen=True)
class Inspector:
    name: str
    agency: str
    registration: str = ""  # matrícula
    role: str = "Fiscal de Posturas"

    @property
    def signs_as(self) -> str:
        """Under the signature line on every paper the inspector signs: role, agency and
        matrícula."""
        parts = [self.role, self.agency]
        if self.registration:
            parts.append(f"Matr. {self.registration}")
        return " — ".join(p for p in parts if p)


@dataclass(frozen=True)
class Depot:
    name: str
    address: str
    hours: str
    phone: str = ""


@dataclass(frozen=True)
class Evidence:
    label: str  # "foto 1", "vídeo"
    sha256: str


@dataclass(frozen=True)
class NotificationData:
    """Anexo I (Art. 4º, I; Art. 4º, II, b; Art. 5º, I)."""

    header: CityHeader
    number: str
    case_code: str
    owner_name: str | None  # None → "NÃO IDENTIFICADO"
    obj: ObjectData
    address: str  # where the object is
    deadline: DeadlineText
    inspector: Inspector
    place: str  # "Dores do Indaiá/MG"
    issued_on: str  # dd/mm/aaaa
    issued_at: str  # HH:MM (Art. 4º, II, b: "data e hora")
    link: OwnerLink
    generated_at: datetime
    track: str = OWNER_IDENTIFIED
    object_identified: bool = True  # the annex's "IDENTIFICAÇÃO OBJETO" box
    depot_address: str = ""  # Art. 4º, II, b: "endereço de depósito"


@dataclass(frozen=True)
class AffixedNoticeData:
    """Notice affixed on the object (Art. 4º, II, a)."""

    header: CityHeader
    case_code: str
    obj: ObjectData
    address: str
    deadline: DeadlineText
    issued_on: str
    issued_at: str
    inspector: Inspector
    link: OwnerLink
    info: str  # where to get information (office, address, phone, hours)
    generated_at: datetime
    #: The law reading (setting affixed_notice_lapses False): removal waits for the 10 days
    #: counted from the Diário Oficial publication (Art. 4º, II, b), so no firm date is printed.
    removal_after_publication: bool = False
    number: str = ""  # the notice's number (fact notification_number), printed on it
    #: How the paper reached the object: "" (issued at the step), PAPER_PREPARED (printed
    #: before going out: the hour of affixing is left blank for the pen) or
    #: PAPER_HANDWRITTEN (a blank form filled by hand: this is the system's copy).
    paper: str = ""


PAPER_PREPARED = "prepared"
PAPER_HANDWRITTEN = "handwritten"


@dataclass(frozen=True)
class DayNoticeLine:
    """One line of the day's notices' cover: what the inspector checks off in the street."""

    number: str
    case_code: str
    obj: str
    address: str
    sha256: str  # of the notice as recorded (the step records this same document)


@dataclass(frozen=True)
class DayNoticesCover:
    header: CityHeader
    day: str  # dd/mm/aaaa
    inspector: Inspector
    lines: tuple[DayNoticeLine, ...]
    generated_at: datetime


@dataclass(frozen=True)
class RemovalTermData:
    """Termo de recolhimento (Art. 6º, I, b), 3 vias."""

    header: CityHeader
    number: str  # notification number
    case_code: str
    owner_name: str | None
    obj: ObjectData
    removed_from: str  # address where it was abandoned
    depot: Depot
    removed_on: str  # dd/mm/aaaa
    removed_at: str  # HH:MM
    retrieval_deadline: DeadlineText  # Art. 6º caput, 10 days
    auction_after: DeadlineText  # Art. 3º, 60 days (CTB art. 328)
    inspector: Inspector
    link: OwnerLink
    generated_at: datetime
    object_identified: bool = True
    missing: frozenset[str] = frozenset()  # keys of MISSING_PARTS
    dented: bool = False  # LANTERNAGEM AMASSADA
    broken_glass: bool = False  # VIDROS QUEBRADOS
    others: str = ""
    odometer: str = ""
    evidence: tuple[Evidence, ...] = ()
    release_conditions: tuple[str, ...] = ()  # Portuguese, from the law module (Art. 3º §3º)
    tow_operator: str = ""
    #: The law's dates, one sentence each with its article, in the order the law module gives
    #: them (core.services.cases.depot_dates: retrieval until X, Art. 6º; auction not before Y,
    #: Art. 3º — the latter for vehicles only); printed once each.
    dates: tuple[str, ...] = ()


@dataclass(frozen=True)
class EditalEntry:
    """One object in an edital: only what the law requires (no owner, no reporter)."""

    case_code: str
    obj: ObjectData
    abandoned_at: str  # address where it is/was abandoned
    destination: str = ""  # where it went (Art. 6º, § 1º, c)
    removed_on: str = ""  # dd/mm/aaaa (remoção/leilão)


@dataclass(frozen=True)
class EditalInfo:
    header: CityHeader
    number: str
    issued_on: str  # dd/mm/aaaa
    place: str
    signer_name: str
    signer_role: str
    generated_at: datetime
    auction_date: str = ""  # leilão: "dd/mm/aaaa, às HHhMM"
    auction_place: str = ""
    info: str = ""  # where to get information
    #: The law's own openings by edital kind (Law.editais), templates with {pref} and {law};
    #: a kind not listed takes the wording of core.documents.edital.
    wordings: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Person:
    name: str
    document: str = ""  # RG/CPF as written by the agent
    address: str = ""


@dataclass(frozen=True)
class CompanyLiability:
    """Dracena Art. 2º, § 1º."""

    company: str
    relation: str  # "sócio", "empregado", "preposto"


@dataclass(frozen=True)
class SeizedItem:
    description: str
    quantity: str = ""  # "3 caixas", "12 kg"


@dataclass(frozen=True)
class AutoInfracaoData:
    """Dracena Art. 2º (front) and Art. 5º (back)."""

    header: CityHeader
    number: str
    offender: Person | None  # None → unknown (Art. 4º)
    fact: str
    place: str
    day: str  # dd/mm/aaaa
    hour: str  # HH:MM
    provision: str  # preceito de lei violado
    fine: Decimal
    agent: Inspector
    appeal_deadline: DeadlineText  # Art. 3º (5 days) or Art. 4º § 2º (48 hours)
    depot: Depot
    generated_at: datetime
    link: OwnerLink | None = None
    company: CompanyLiability | None = None
    seized: tuple[SeizedItem, ...] = ()
    in_presence: bool = True  # False → intimação (Art. 2º, § 3º)
    refused_to_sign: bool = False  # Art. 2º, § 2º
    witnesses: tuple[Person, ...] = ()
    current_costs: tuple[str, ...] = ()  # current keeping costs, e.g. "animal, por dia: R$ ..."
    #: The law's dates for what was seized, one sentence each with its article (Art. 6º, §2º:
    #: gêneros and semoventes auctioned within three days; core.services.cases.depot_dates).
    dates: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The paper's one name, used throughout it: "auto de infração e apreensão" when
        things were seized (Art. 4º; Art. 5º: "auto de multa e apreensão"), else "auto de
        infração" (Art. 2º)."""
        return "auto de infração e apreensão" if self.seized else "auto de infração"


@dataclass(frozen=True)
class LowValueNoteData:
    """Dracena Art. 4º, § 1º."""

    header: CityHeader
    number: str
    vendor_name: str  # may be "NÃO IDENTIFICADO"
    goods: tuple[SeizedItem, ...]
    fine: Decimal
    law_transgressed: str
    place: str
    day: str
    hour: str
    agent: Inspector
    appeal_deadline: DeadlineText  # Art. 4º, § 2º, 48 hours
    depot: Depot
    generated_at: datetime


@dataclass(frozen=True)
class IntimacaoData:
    """Dracena Art. 2º, § 3º: the offender is notified in writing of the auto's whole content."""

    auto: AutoInfracaoData
    number: str
    addressee: Person
    issued_on: str
    appeal_deadline: DeadlineText  # Art. 3º: 5 days from the intimação
    generated_at: datetime


@dataclass(frozen=True)
class FeeLine:
    label: str
    article: str
    quantity: Decimal
    unit_value: Decimal
    valid_from: str  # dd/mm/aaaa: the tariff's valid-from date
    amount: Decimal
    unit: str = ""  # "dia", "serviço"


@dataclass(frozen=True)
class ReleaseItem:
    label: str
    article: str
    documents: tuple[str, ...] = ()


@dataclass(frozen=True)
class OwnerSummaryData:
    header: CityHeader
    case_code: str
    obj: ObjectData
    state: str  # Portuguese label of the case state
    deadline: DeadlineText
    release: tuple[ReleaseItem, ...]
    fees: tuple[FeeLine, ...]
    per_day: Decimal  # cost of each further day
    per_day_article: str
    depot: Depot
    auction_after: DeadlineText
    link: OwnerLink
    generated_at: datetime
    estimate: bool = False  # a tariff is still a reference value: "ESTIMATIVA"
    fees_as_of: str = ""  # dd/mm/aaaa the amounts were computed for
    #: The law's dates for the object in the depot, one sentence each with its article
    #: (core.services.cases.depot_dates); printed instead of `auction_after` when given.
    dates: tuple[str, ...] = ()
    per_day_basis: str = ""  # what each further day is charged by (Dracena Art. 7º, a, b)
    #: How to pay today's total: the PIX BR Code ("copia e cola", also the QR code's content)
    #: or the city's guia instructions (core.services.owners.payments); empty: none offered.
    pix: str = ""
    pix_txid: str = ""
    guia: str = ""

    @property
    def total(self) -> Decimal:
        return sum((f.amount for f in self.fees), Decimal("0"))

