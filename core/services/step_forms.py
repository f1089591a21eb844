"""The inspector's on-site form for one lifecycle step: which facts to ask, in which order and
in what shape, how a typed answer becomes a fact, and performing the step (with its legal
document) once the inspector confirms.

The questions come from the step itself (Transition.requires, with the lifecycle's Portuguese
fact_labels); the few facts a guard reads without requiring them are added here with the
article that asks for them:
- Dracena Art. 2º, d and §2º: the offender signs the auto, or the agent declares the refusal
  ("a recusa será suprida pela declaração do autuante e de duas testemunhas"); the two
  witnesses sign (always, or only on refusal — setting witnesses_always_required).
- Dores Art. 4º, I: the owner's contact (optional) beside name and CPF/CNPJ.
- Dracena Art. 4º, §1º: the vendor's name (optional) on the low-value note; Art. 2º, §3º: the
  address where the absent offender was served (optional) on the intimação.
Photo fields of the removal (Art. 6º, I, a: "ser fotografado ou filmado") take videos too.
Faces (the bot) only render the fields and hand the answers back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Awaitable, Callable, Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from core.documents.data import MISSING_PARTS
from core.formatting import TZ, fmt_date, parse_date_br
from validate_docbr import CNPJ

from core.identifiers import InvalidIdentifier, format_plate, validate_cpf
from core.services import documents as docs
from core.services.cases import TransitionResult, apply_transition
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.evidence import EvidenceIn, attach
from core.services.inspectors import actor_ref, require_inspector
from core.services.task_views import case_card
from core.services.tasks import OFFERED, accept_task

from core.facts import (BOOL, CHOICE, COUNT, CPF, CRITERIA, DATE, DATETIME, GOODS,  # noqa: F401
                        LONG, MONEY, NAMES, ODOMETER, PARTS, PHOTOS, TEXT, VIDEO_FACTS, WEIGHT,
                        fact_kind)

NO_ODOMETER = "sem hodômetro"
NO_MISSING_PARTS = "nenhum item faltante ou avariado"
MAX_TEXT = 1000
#: Labels of the facts this module adds (the lifecycles label the ones they require).
EXTRA_LABELS = {"owner_contact": "contato do proprietário/responsável (telefone ou e-mail)",
                "vendor_name": "nome do ambulante (se informado)",
                "offender_address": "endereço em que o infrator foi intimado"}

#: The document each step produces (Dores Art. 4º, I (Anexo I); Art. 4º, II, a; Art. 6º, I, b;
#: Dracena Art. 2º; Art. 2º, §3º (intimação); Art. 4º, §1º (nota); Art. 4º and Art. 6º (entry
#: in the depot register)).
DOCUMENT_AFTER: dict[str, Callable[..., Awaitable[docs.Issued]]] = {
    "notify_owner": docs.issue_notification,
    "affix_notice": docs.issue_affixed_notice,
    "depot_entry": docs.issue_removal_term,
    "issue_auto": docs.issue_auto_infracao,
    "issue_auto_absent": docs.issue_auto_infracao,
    "serve_intimacao": docs.issue_intimacao,
    "low_value_note": docs.issue_low_value_note,
    "apprehend": docs.issue_apprehension,
}
#: Optional facts asked after a step's own (fact after which to ask, extra fact).
EXTRA_AFTER = {("low_value_note", "goods_list"): "vendor_name",  # Dracena Art. 4º, §1º
               ("serve_intimacao", "intimacao_date"): "offender_address"}  # Art. 2º, §3º


@dataclass(frozen=True)
class FormField:
    fact: str
    label: str  # Portuguese: what to give
    kind: str
    required: bool = True
    options: tuple[tuple[str, str], ...] = ()  # (value, Portuguese label) for toggles/choices
    suggestion: str | None = None  # a value offered as a button (e.g. the protocol)
    only_if: tuple[str, Any] | None = None  # ask only when facts[name] == value
    video: bool = False  # PHOTOS that also take videos (Art. 6º, I, a)


@dataclass(frozen=True)
class StepForm:
    protocol: str
    code: str
    label: str
    article: str
    fields: tuple[FormField, ...]
    document: bool
    track: str
    task_id: int
    task_status: str


@dataclass(frozen=True)
class StepDone:
    result: TransitionResult
    state_label: str
    documents: list[docs.Issued] = field(default_factory=list)


def _kind(fact: str) -> str:
    """The chat asks long texts like short ones."""
    kind = fact_kind(fact)
    return TEXT if kind == LONG else kind


def _setting(core: Core, name: str, default: Any) -> Any:
    try:
        return core.law.setting(name)
    except (KeyError, AttributeError):
        return default


def fields_for(core: Core, track: str, code: str, protocol: str,
               previous: list[str] | tuple[str, ...] = ()) -> tuple[FormField, ...]:
    """The questions for step `code` on a case of `track`, in the step's own order."""
    lifecycle = core.law.tracks[track]
    t = lifecycle.transitions[code]
    out: list[FormField] = []

    def add(fact: str, required: bool = True, **kw: Any) -> None:
        kind = _kind(fact)
        options: tuple[tuple[str, str], ...] = ()
        if kind == CRITERIA:
            options = tuple((c.code, f"{c.label} ({c.article})") for c in core.law.criteria)
        elif kind == PARTS:
            options = tuple(MISSING_PARTS.items())
        elif kind == CHOICE:
            options = tuple((p, p) for p in previous)
        suggestion = {"notification_number": protocol, "termo_number": protocol,
                      "auto_number": protocol, "depot": "Pátio municipal",
                      "depot_register_entry": protocol}.get(fact)
        label = EXTRA_LABELS.get(fact) or lifecycle.label_fact(fact)
        out.append(FormField(fact, label, kind, required, options,
                             suggestion, video=fact in VIDEO_FACTS, **kw))

    for fact in t.requires:
        add(fact)
        if fact == "owner_document":
            add("owner_contact", required=False)  # Art. 4º, I: "contato", optional
        if (code, fact) in EXTRA_AFTER:
            add(EXTRA_AFTER[(code, fact)], required=False)
    for fact in t.optional:  # e.g. Dracena Art. 7º: taxes, animals, kilograms
        add(fact, required=False)
    if "agent_signature" in t.requires:  # Dracena Art. 2º, d; §2º
        if "absence_reason" not in t.requires:  # §3º: an absent offender neither signs nor
            add("offender_signature", required=False)  # refuses; the intimação follows
            add("refusal_declaration", required=False, only_if=("offender_signature", False))
        always = _setting(core, "witnesses_always_required", False)
        add("witnesses", required=False,
            only_if=None if always else ("refusal_declaration", True))
    return tuple(out)


def wanted(f: FormField, facts: dict[str, Any]) -> bool:
    """Whether `f` is asked, given the answers so far."""
    return f.only_if is None or facts.get(f.only_if[0]) == f.only_if[1]


async def step_form(core: Core, telegram_id: int, protocol: str, code: str) -> StepForm:
    """The form for an action shown on the inspector's case card; refused (politely) when the
    case is not theirs or the lifecycle does not allow the step now."""
    card = await case_card(core, telegram_id, protocol)
    action = next((a for a in card.actions if a.code == code), None)
    if action is None:
        raise InvalidInput("Esta ação não está disponível nesta etapa do caso "
                           f"{card.protocol} ({card.state_label}). Nada foi alterado.")
    track = core.law.categories[card.category].track
    fields = fields_for(core, track, code, card.protocol,
                        [p.protocol for p in card.previous_cases])
    return StepForm(card.protocol, code, action.label, action.article, fields,
                    code in DOCUMENT_AFTER, track, card.task_id, card.task_status)


def parse_answer(core: Core, f: FormField, text: str) -> Any:
    """A typed answer as the fact's value; InvalidInput with a Portuguese message if not."""
    if f.kind == GOODS:  # one item per line or per ";"
        text = "; ".join(p.strip() for p in (text or "").replace("\n", ";").split(";")
                         if p.strip())
    text = " ".join((text or "").split())
    if not text:
        raise InvalidInput(f"Informe: {f.label}.")
    if len(text) > MAX_TEXT:
        raise InvalidInput(f"Texto longo demais (máximo de {MAX_TEXT} caracteres).")
    if f.kind == DATE:
        try:
            return parse_date_br(text).isoformat()
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
    if f.kind == DATETIME:
        day, _, hour = text.partition(" ")
        try:
            d = parse_date_br(day)
            hh, _, mm = (hour or "00:00").replace("h", ":").partition(":")
            moment = datetime(d.year, d.month, d.day, int(hh), int(mm or 0), tzinfo=TZ)
        except ValueError as exc:
            msg = str(exc) if "Data" in str(exc) or "data" in str(exc) else \
                "Hora inválida. Use dd/mm/aaaa hh:mm, por exemplo 10/12/2026 14:30."
            raise InvalidInput(msg) from None
        if moment > core.now():
            raise InvalidInput("Essa data e hora ainda não chegaram. Confira (dd/mm/aaaa hh:mm).")
        return moment.isoformat()
    if f.kind == CPF:
        return parse_cpf_cnpj(text)
    if f.kind == MONEY:
        try:
            value = Decimal(text.replace("R$", "").replace(".", "").replace(",", ".").strip())
        except InvalidOperation:
            raise InvalidInput("Valor inválido. Use por exemplo 150,00.") from None
        if value <= 0:
            raise InvalidInput("O valor deve ser maior que zero.")
        return str(value.quantize(Decimal("0.01")))
    if f.kind in (COUNT, WEIGHT):
        return parse_quantity(f.kind, text)
    if f.kind == NAMES:
        names = [n.strip() for n in text.replace(";", ",").replace("\n", ",").split(",")
                 if n.strip()]
        if len(names) < 2:
            raise InvalidInput("Informe os nomes das duas testemunhas, separados por vírgula.")
        return names
    return text


def parse_quantity(kind: str, text: str) -> str:
    """A count of things (COUNT, a whole number) or a weight in kg (WEIGHT, "12,5"), stored
    canonical ("3", "12.5"); InvalidInput with an example otherwise."""
    example = "3" if kind == COUNT else "12,5"
    try:
        value = Decimal(text.lower().replace("kg", "").replace(",", ".").strip())
    except InvalidOperation:
        raise InvalidInput(f"Número inválido. Use por exemplo {example}.") from None
    if value < 0 or (kind == COUNT and value != value.to_integral_value()):
        raise InvalidInput(f"Número inválido. Use por exemplo {example}.")
    return str(int(value)) if kind == COUNT else format(value.normalize(), "f")


def parse_cpf_cnpj(text: str) -> str:
    """The owner's CPF (11 digits) or CNPJ (14 digits), check digits verified (validate-docbr);
    the fact is labelled "CPF/CNPJ do proprietário/responsável" (Dores Art. 4º, I)."""
    digits = "".join(ch for ch in text if ch.isdigit())
    if len(digits) == 14 and not any(ch.isalpha() for ch in text):
        if CNPJ().validate(digits):
            return digits
        raise InvalidInput("CNPJ inválido: os dígitos verificadores não conferem. Confira o "
                           "número (14 números, por exemplo 11.222.333/0001-81).")
    if len(digits) == 11 and not any(ch.isalpha() for ch in text):
        try:
            return validate_cpf(text)
        except InvalidIdentifier as exc:
            raise InvalidInput(str(exc)) from None
    raise InvalidInput("CPF/CNPJ inválido: informe os 11 números do CPF (por exemplo "
                       "123.456.789-09) ou os 14 do CNPJ (por exemplo 11.222.333/0001-81).")


def now_value(core: Core) -> str:
    """"Agora" for a date-and-time fact."""
    return core.now().astimezone(TZ).replace(second=0, microsecond=0).isoformat()


def show_value(f: FormField, value: Any) -> str:
    """An answer as the confirmation screen shows it (Portuguese)."""
    if value is None or value == "" or value == []:
        return "—"
    if f.kind in (CRITERIA, PARTS):
        labels = dict(f.options)
        return "; ".join(labels.get(v, str(v)) for v in value)
    if f.kind == PHOTOS:
        return f"{len(value)} foto(s) ou vídeo(s)" if f.video else f"{len(value)} foto(s)"
    if f.kind == BOOL:
        return "sim" if value else "não"
    if f.kind == DATE:
        return fmt_date(date.fromisoformat(value))
    if f.kind == DATETIME:
        return datetime.fromisoformat(value).strftime("%d/%m/%Y %H:%M")
    if f.kind == CPF and len(value) == 14:
        return f"{value[:2]}.{value[2:5]}.{value[5:8]}/{value[8:12]}-{value[12:]}"
    if f.kind == CPF:
        return f"{value[:3]}.{value[3:6]}.{value[6:9]}-{value[9:]}"
    if f.kind == NAMES:
        return ", ".join(value)
    if f.kind == MONEY:
        return "R$ " + value.replace(".", ",")
    if f.kind == WEIGHT:
        return f"{str(value).replace('.', ',')} kg"
    if f.fact == "plate":
        return format_plate(value)
    return str(value)


async def perform_step(core: Core, telegram_id: int, protocol: str, code: str,
                       facts: dict[str, Any],
                       also: Callable[[AsyncSession], Awaitable[None]] | None = None,
                       media: Mapping[str, str] | None = None) -> StepDone:
    """Take the step as the inspector holding the case (accepting an offered task first),
    keep the photos and videos as evidence in the same transaction, then issue the step's
    document. `media` maps a file's SHA-256 to its MIME type (default image/jpeg); "video/*"
    is kept with kind "video" (Art. 6º, I, a: "fotografado ou filmado").
    TransitionRefused (Portuguese, naming what is missing) leaves everything as it was; an
    offered task is accepted once the step is taken."""
    form = await step_form(core, telegram_id, protocol, code)
    asked = {f.fact for f in form.fields}
    given = {k: v for k, v in facts.items() if k in asked and v not in (None, "", [])}
    photos = [sha for f in form.fields if f.kind == PHOTOS for sha in given.get(f.fact, [])]
    async with core.db.unit_of_work() as s:
        inspector = await require_inspector(core, telegram_id, code, form.protocol, session=s)
        result = await apply_transition(core, form.protocol, code, actor_ref(inspector), given,
                                        agency=inspector.agency, session=s)
        for sha in photos:
            mime = (media or {}).get(sha) or "image/jpeg"
            kind = "video" if mime.startswith("video/") else "photo"
            await attach(core, s, result.case_id, EvidenceIn(sha, mime, kind),
                         uploaded_by=inspector.person_id)
        if also is not None:
            await also(s)
        by = actor_ref(inspector)
    if form.task_status == OFFERED:  # working the case accepts the task
        try:
            await accept_task(core, telegram_id, form.task_id)
        except InvalidInput:
            pass  # the step closed the case: nothing left to accept
    issued = []
    if code in DOCUMENT_AFTER:
        issued.append(await DOCUMENT_AFTER[code](core, form.protocol, by))
    return StepDone(result, core.law.tracks[form.track].state(result.state).label, issued)
