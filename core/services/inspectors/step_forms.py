"""The inspector's on-site form for one lifecycle step: which facts to ask, in which order and
in what shape, how a typed answer becomes a fact, and performing the step (with its legal
document) once the inspector confirms.

The questions come from the step itself (Transition.requires, with the lifecycle's Portuguese
fact_labels; the object's facts it reviews, Transition.reviews; the optional facts it asks
after one of its own, Transition.asks_after; the photos it asks after its document,
Transition.photo_after); the few facts a guard reads without requiring them are added here
with the article that asks for them:
- Dracena Art. 2º, d and §2º: the offender signs the auto, or the agent declares the refusal
  ("a recusa será suprida pela declaração do autuante e de duas testemunhas"); the two
  witnesses sign (always, or only on refusal — setting witnesses_always_required).
Photo fields of the removal (Art. 6º, I, a: "ser fotografado ou filmado") take videos too.
Faces (the bot) only render the fields and hand the answers back.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Awaitable, Callable, Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from core.documents.data import MISSING_PARTS
from core.formatting import TZ, fmt_cpf_cnpj, fmt_date, fmt_kilograms, fmt_money, plural
from core.identifiers import format_plate
from core.lifecycle import Lifecycle
from core.parsing import ParseError, parse_text, read_fact
from core.services.inspectors import day_notices as affixed_notices
from core.services.papers import documents as docs
from core.services.cases.transitions import TransitionResult, apply_transition, case_facts, load_case
from core.services.context import Core
from core.services.papers.facts import (CHASSIS, COLOUR, MAKE, MODEL, PLATE_MUNICIPALITY,
                                          PLATE_UF, REVIEWED)
from core.services.errors import InvalidInput
from core.services.cases.evidence import EvidenceIn, attach
from core.services.inspectors.accounts import actor_ref, inspector_city, require_inspector
from core.services.cases.steps import document_for
from core.services.inspectors.task_list import case_card
from core.services.inspectors.tasks import OFFERED, accept_task, current_task
from core.storage.timeline import append_event

from core.facts import (BOOL, CHOICE, COLLECTED_AT, COUNT, CPF, CRITERIA, DATE,  # noqa: F401
                        DATETIME, GOODS,
                        LONG, MONEY, NAMES, ODOMETER, PARTS, PHOTOS, PLATE, TEXT, VIDEO_FACTS,
                        WEIGHT,
                        fact_kind)

NO_ODOMETER = "sem hodômetro"
NO_MISSING_PARTS = "nenhum item faltante ou avariado"
MAX_TEXT = 1000
#: Labels of the optional facts the steps ask beside their own (Transition.asks_after) and of
#: the affixed paper (the lifecycles label the ones they require).
EXTRA_LABELS = {"owner_contact": "contato do proprietário/responsável (telefone ou e-mail)",
                "vendor_name": "nome do ambulante (se informado)",
                "offender_address": "endereço em que o infrator foi intimado",
                affixed_notices.PAPER_FACT: affixed_notices.PAPER_LABEL}


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
    #: What each option's button says on a phone (Criterion.button: a few words); the full
    #: label with its article is in `options` and goes in the message text.
    buttons: tuple[str, ...] = ()
    #: Asked only when the inspector asks to add more (the confirmation's "➕ Mais dados"):
    #: the boxes he fills when he knows them (the vehicle's papers).
    on_request: bool = False
    #: How the suggestion reads on its button when the value is not (a moment: "01/12/2026
    #: 15:00" for its ISO value).
    suggestion_text: str = ""
    #: A moment offers "Agora" (on site), or not (the collection, registered days later).
    now: bool = True

    def shown_suggestion(self) -> str:
        return self.suggestion_text or (self.suggestion or "")

    def button(self, k: int) -> str:
        """The short label of option `k`."""
        return self.buttons[k] if k < len(self.buttons) else self.options[k][1]


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
    #: The photos asked right after the step and its document (Transition.photo_after).
    photo_after: str = ""


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
               previous: list[str] | tuple[str, ...] = (), category: str | None = None
               ) -> tuple[FormField, ...]:
    """The questions for step `code` on a case of `track`, in the step's own order; the
    abandonment checklist is the `category`'s (Law.checklist: no hood on a sofa)."""
    lifecycle = core.law.tracks[track]
    t = lifecycle.transitions[code]
    out: list[FormField] = []

    def add(fact: str, required: bool = True, **kw: Any) -> None:
        kind = _kind(fact)
        options: tuple[tuple[str, str], ...] = ()
        buttons: tuple[str, ...] = ()
        if kind == CRITERIA:
            signs = core.law.checklist(category) if category else core.law.criteria
            options = tuple((c.code, f"{c.label} ({c.article})") for c in signs)
            buttons = tuple(c.button or c.label for c in signs)
        elif kind == PARTS:
            options = tuple(MISSING_PARTS.items())
        elif kind == CHOICE:
            options = tuple((p, p) for p in previous)
        suggestion = {"notification_number": protocol, "termo_number": protocol,
                      "auto_number": protocol, "depot": "Pátio municipal",
                      "depot_register_entry": protocol}.get(fact)
        label = EXTRA_LABELS.get(fact) or lifecycle.label_fact(fact)
        out.append(FormField(fact, label, kind, required, options,
                             suggestion, video=fact in VIDEO_FACTS, buttons=buttons, **kw))

    after = dict(t.asks_after)
    for fact in t.requires:
        add(fact)
        if fact in after:  # e.g. Dores Art. 4º, I: the owner's contact, optional
            add(after[fact], required=False)
    for fact in t.optional:  # e.g. Dracena Art. 7º: taxes, animals, kilograms
        if core.law.asks_fact(fact, category):  # animals for livestock, kg for goods
            add(fact, required=False)
    if "agent_signature" in t.requires:  # Dracena Art. 2º, d; §2º
        if "absence_reason" not in t.requires:  # §3º: an absent offender neither signs nor
            add("offender_signature", required=False)  # refuses; the intimação follows
            add("refusal_declaration", required=False, only_if=("offender_signature", False))
        always = _setting(core, "witnesses_always_required", False)
        add("witnesses", required=False,
            only_if=None if always else ("refusal_declaration", True))
    return tuple(out)


def wanted(f: FormField, facts: dict[str, Any], more: bool = False) -> bool:
    """Whether `f` is asked, given the answers so far (`more`: the inspector asked to add the
    on-request facts)."""
    if f.on_request and not more:
        return False
    return f.only_if is None or facts.get(f.only_if[0]) == f.only_if[1]


async def step_form(core: Core, telegram_id: int, protocol: str, code: str) -> StepForm:
    """The form for an action shown on the inspector's case card; refused (politely) when the
    case is not theirs or the lifecycle does not allow the step now."""
    core = await inspector_city(core, telegram_id)
    card = await case_card(core, telegram_id, protocol)
    action = next((a for a in card.actions if a.code == code), None)
    if action is None:
        raise InvalidInput("Esta ação não está disponível nesta etapa do caso "
                           f"{card.protocol} ({card.state_label}). Nada foi alterado.")
    track = core.law.categories[card.category].track
    fields = fields_for(core, track, code, card.protocol,
                        [p.protocol for p in card.previous_cases], card.category)
    async with core.db.read() as s:
        facts = case_facts(await load_case(s, card.protocol))
    fields = tuple(_collection_offer(f, facts) for f in fields)
    t = core.law.tracks[track].transitions[code]
    if t.reviews:
        fields = (*_review_fields(core, card, facts, t.reviews), *fields)
    if code == affixed_notices.STEP:  # which paper was affixed (printed, or filled by hand)
        fields = _with_paper(fields, *await affixed_notices.paper_choice(
            core, telegram_id, card.protocol))
    return StepForm(card.protocol, code, action.label, action.article, fields,
                    bool(t.document), track, card.task_id, card.task_status, t.photo_after)


def _collection_offer(f: FormField, facts: Mapping[str, Any]) -> FormField:
    """The collection moment (Dores Art. 3º, caput: the 60 days and the storage fees run from
    it) is offered as the removal's recorded start ("Usar: 01/12/2026 15:00"), never "Agora":
    an entry registered days later must not record the moment it was typed."""
    if f.fact != COLLECTED_AT:
        return f
    started = facts.get("removal_started_at")
    try:
        when = datetime.fromisoformat(str(started)).astimezone(TZ) if started else None
    except ValueError:
        when = None
    if when is None:
        return replace(f, now=False)
    return replace(f, suggestion=when.isoformat(), now=False,
                   suggestion_text=when.strftime("%d/%m/%Y %H:%M"))


def _with_paper(fields: tuple[FormField, ...], label: str,
                options: tuple[tuple[str, str], ...], buttons: tuple[str, ...]
                ) -> tuple[FormField, ...]:
    """The affixing step's form (core.services.inspectors.day_notices): which paper was affixed,
    before the notice's number, which is asked only for a hand-filled form (a printed notice
    carries its own)."""
    paper = FormField(affixed_notices.PAPER_FACT, label, CHOICE, True, options,
                      buttons=buttons)
    out: list[FormField] = []
    for f in fields:
        if f.fact == "notification_number":
            out += [paper, replace(f, label=affixed_notices.NUMBER_LABEL,
                                   only_if=(affixed_notices.PAPER_FACT,
                                            affixed_notices.PAPER_HANDWRITTEN))]
        else:
            out.append(f)
    return tuple(out)


def _words(value: Any, limit: int = 60) -> str:
    """A citizen's short answer as a suggestion: one line, trimmed."""
    return " ".join(str(value or "").split())[:limit]


def _review_fields(core: Core, card: Any, facts: Mapping[str, Any],
                   reviews: tuple[str, ...]) -> tuple[FormField, ...]:
    """The object's facts the step reviews (Transition.reviews: e.g. the boxes of DADOS DO
    VEÍCULO, Dores Anexo I) not recorded yet on this case: make, model and colour asked with
    the citizen's answers as suggestions (the free description is never offered: only
    structured facts), the others (chassis, RENAVAM, the plate's municipality and UF — these
    only for a category with a plate) on request; a piece of furniture or machinery: its
    description, on request, unless already described. Only these reviewed facts go on
    official paper (core.services.papers.facts), never the citizen's free description."""
    lifecycle = core.law.tracks[core.law.categories[card.category].track]
    category = core.law.categories[card.category]
    report = card.report or {}
    make_model = _words(report.get("make_model")).split(" ", 1)
    make, model = make_model[0], (make_model[1] if len(make_model) > 1 else "")
    colour = _words(report.get("colour"))
    suggested = {MAKE: make, MODEL: model, COLOUR: colour, CHASSIS: _words(card.chassis, 17)}
    asked = {MAKE: bool(make), MODEL: bool(make), COLOUR: bool(colour)}
    plate_boxes = {PLATE_MUNICIPALITY, PLATE_UF}
    described = facts.get("item_description")  # Dores Art. 5º, I: the piece's own description
    return tuple(
        FormField(fact, lifecycle.label_fact(fact), TEXT, False,
                  suggestion=suggested.get(fact) or None, on_request=not asked.get(fact))
        for fact in reviews
        if not facts.get(fact) and not (fact in plate_boxes and not category.has_plate)
        and not (fact == REVIEWED and described))


UFS = frozenset({
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
    "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"})


def parse_answer(core: Core, f: FormField, text: str) -> Any:
    """A typed answer as the fact's value, read by its kind (core.parsing.read_fact, the same
    reading as the panel's); InvalidInput with a Portuguese message if not."""
    if f.kind == GOODS:  # one item per line or per ";"
        text = "; ".join(p.strip() for p in (text or "").replace("\n", ";").split(";")
                         if p.strip())
    if not " ".join((text or "").replace("\x00", "").split()):
        raise InvalidInput(f"Informe: {f.label}.")
    if f.fact == PLATE_UF:
        uf = " ".join(text.split()).upper()
        if uf not in UFS:
            raise InvalidInput("Digite a sigla do estado da placa, com duas letras (ex.: MG).")
        return uf
    try:
        if f.kind == NAMES:
            names = [parse_text(n, MAX_TEXT) for n in
                     (text or "").replace(";", ",").replace("\n", ",").split(",") if n.strip()]
            if len(names) < 2:
                raise InvalidInput("Informe os nomes das duas testemunhas, separados por vírgula.")
            return names
        value = read_fact(f.kind, text, TZ, MAX_TEXT)
    except ParseError as exc:
        raise InvalidInput(exc.message) from None
    if f.kind == DATETIME and datetime.fromisoformat(value) > core.now():
        raise InvalidInput("Essa data e hora ainda não chegaram. Confira (dd/mm/aaaa hh:mm).")
    return value


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
        return plural(len(value), "foto ou vídeo", "fotos ou vídeos") if f.video \
            else plural(len(value), "foto", "fotos")
    if f.kind == BOOL:
        return "sim" if value else "não"
    if f.kind == CHOICE and f.buttons:  # what was tapped ("Preenchida à mão")
        values = [v for v, _ in f.options]
        return f.button(values.index(value)) if value in values else str(value)
    if f.kind == DATE:
        return fmt_date(date.fromisoformat(value))
    if f.kind == DATETIME:
        return datetime.fromisoformat(value).strftime("%d/%m/%Y %H:%M")
    if f.kind == CPF:
        return fmt_cpf_cnpj(value)
    if f.kind == NAMES:
        return ", ".join(value)
    if f.kind == MONEY:
        return fmt_money(Decimal(value))
    if f.kind == WEIGHT:
        return fmt_kilograms(Decimal(value))
    if f.kind == PLATE:
        return format_plate(value)
    return str(value)


async def perform_step(core: Core, telegram_id: int, protocol: str, code: str,
                       facts: dict[str, Any],
                       also: Callable[[AsyncSession], Awaitable[None]] | None = None,
                       media: Mapping[str, str] | None = None) -> StepDone:
    """Take the step as the inspector holding the case (accepting an offered task first),
    keep the photos and videos as evidence and issue the step's document in the same
    transaction (core.services.cases.steps: no deadline starts without its document). `media`
    maps a file's SHA-256 to its MIME type (default image/jpeg); "video/*" is kept with kind
    "video" (Art. 6º, I, a: "fotografado ou filmado").
    TransitionRefused (Portuguese, naming what is missing) leaves everything as it was; an
    offered task is accepted once the step is taken."""
    core = await inspector_city(core, telegram_id)  # the inspector's city, its law
    form = await step_form(core, telegram_id, protocol, code)
    asked = {f.fact for f in form.fields}
    given = {k: v for k, v in facts.items() if k in asked and v not in (None, "", [])}
    photos = [sha for f in form.fields if f.kind == PHOTOS for sha in given.get(f.fact, [])]
    async with core.db.unit_of_work() as s:
        inspector = await require_inspector(core, telegram_id, code, form.protocol, session=s)
        by = actor_ref(inspector)
        given = await affixed_notices.paper_facts(core, s, code, form.protocol, inspector, given)
        result = await apply_transition(core, form.protocol, code, by, given,
                                        agency=inspector.agency, session=s)
        for sha in photos:
            mime = (media or {}).get(sha) or "image/jpeg"
            kind = "video" if mime.startswith("video/") else "photo"
            await attach(core, s, result.case_id, EvidenceIn(sha, mime, kind),
                         uploaded_by=inspector.person_id)
        if also is not None:
            await also(s)
        # The document lists the evidence above; it commits with the step or not at all.
        issued = await document_for(core, s, code, form.protocol, by)
    if form.task_status == OFFERED:  # working the case accepts the task
        try:
            await accept_task(core, telegram_id, form.task_id)
        except InvalidInput:
            pass  # the step closed the case: nothing left to accept
    return StepDone(result, core.law.tracks[form.track].state(result.state).label, issued)


def photo_after(lifecycle: Lifecycle, code: str) -> str:
    """The fact of the photos asked right after step `code` and its document
    (Transition.photo_after), or "" when the step asks none."""
    t = lifecycle.transitions.get(code)
    return t.photo_after if t is not None else ""


async def record_after_step(core: Core, telegram_id: int, protocol: str, code: str,
                            photos: list[str], media: Mapping[str, str] | None = None) -> None:
    """The photos asked after step `code` (Transition.photo_after; Dores Art. 4º, II, a: the
    notice affixed), kept as evidence and as the step's fact, by the inspector holding the
    case."""
    core = await inspector_city(core, telegram_id)
    if not any(photo_after(lc, code) for lc in core.law.tracks.values()):
        raise InvalidInput("Não há fotos a registrar depois deste passo.")
    if not photos:
        raise InvalidInput("Envie ao menos uma foto.")
    async with core.db.unit_of_work() as s:
        inspector = await require_inspector(core, telegram_id, session=s)
        case = await load_case(s, protocol, for_update=True, municipality=core.municipality)
        lifecycle = core.law.tracks[case.track]
        fact = photo_after(lifecycle, code)
        if not fact:
            raise InvalidInput("Não há fotos a registrar depois deste passo.")
        task = await current_task(s, case.id)
        if task is None or task.inspector_id != inspector.id:
            raise InvalidInput(f"O caso {case.protocol} não está com você. Nada foi alterado.")
        for sha in photos:
            mime = (media or {}).get(sha) or "image/jpeg"
            await attach(core, s, case.id, EvidenceIn(sha, mime, "photo"),
                         uploaded_by=inspector.person_id)
        details = dict(case.details or {})
        facts = dict(details.get("facts", {}))
        facts[fact] = [*facts.get(fact, []), *(p for p in photos if p not in facts.get(fact, []))]
        details["facts"] = facts
        case.details = details
        article = lifecycle.transitions[code].article
        await append_event(s, case, actor_ref(inspector), "step_photos", article,
                           {fact: list(photos), "step": code}, public=False, at=core.now())
