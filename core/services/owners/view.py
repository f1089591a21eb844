"""The owner's view of their case: what is happening and by when, where the object is and
what comes next (Law.state_texts), the depot's release conditions and fees (Dores Art. 3º,
§3º; Dracena Art. 7º; the one statement of core.services.cases.fee_statement) and the Dracena auto
with its appeal window (Art. 3º; Art. 4º, §2º). Data only: the bot words it
(core.services.owners.text). Never the reporter (Lei 13.460/2017, art. 10, §7º), other people's
data or other cases."""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Mapping

from sqlalchemy import select

from core.fees import TariffNotFound
from core.formatting import TZ, date_in_full, fmt_date
from core.identifiers import format_plate
from core.laws.base import Law, ReleaseCondition, ReleaseSituation
from core.lifecycle import Lifecycle, State, Transition
from core.services.papers import placeholders
from core.services.staff.payment_records import RecordedPayment, payments_of
from core.services.owners.payments import PaymentOffer, payment_offer
from core.services.papers.placeholders import depot_address
from core.services.cases import fee_statement as statements
from core.services.cases.transitions import PRIOR_DEADLINE
from core.services.context import Core
from core.services.cases.depot_dates import StatedDate, depot_dates, restates, without_restated
from core.services.messaging.notifications import AUCTION_STATES
from core.services.owners.access import owned
from core.services.owners.statements import (WITHDRAW_BUTTON, can_withdraw, standing,
                                           standing_statement)
from core.storage.models import Case, Event, OwnerLink, Person

#: Dores Art. 6º, §4º: "Entende-se por início da operação de remoção, o momento em que se
#: inicia o deslocamento do veiculo para a plataforma do reboque" — after it, §3º no longer
#: lets the owner stop the removal. Shown on tracks with a towing step (start_removal).
TOWING_WARNING = ("Atenção: depois que a operação de remoção começa — quando o veículo começa "
                  "a subir na plataforma do reboque — ela não pode mais ser interrompida "
                  "(Art. 6º, §4º).")
CLOSED = "Caso encerrado."
#: The owner's statement recorded beside the running deadline (it changes no deadline).
STATEMENT_NOTED = "Sua declaração foi registrada: o fiscal vai conferir no local (Art. 6º, §3º)."
NO_TEXT = "Aguardando a próxima providência da prefeitura."

#: Decision: when no legal deadline runs, an owner may promise removal within this many days
#: (the notice period of Dores Art. 4º, I); the inspector may still agree another date.
PROMISE_MAX_DAYS = 10

#: Transitions whose lapse makes the object go to auction or disposal (the depot deadline).
AUCTION_LAPSES = frozenset({"auction_deadline", "retrieval_lapse", "appeal_lapse"})
#: Dracena auto's data the offender may see (never witnesses' or the agent's details).
AUTO_FACTS = ("infraction_fact", "place", "occurred_at", "provision_violated", "fine_amount",
              "goods_description", "goods_list", "apprehended_at", "intimacao_date")


# -- view dataclasses ---------------------------------------------------------------------------

@dataclass(frozen=True)
class OwnerDeadline:
    due: date
    due_in_full: str  # "sexta-feira, 11 de dezembro de 2026"
    due_at: datetime
    description: str  # what must happen by then
    article: str
    explanation: str  # how it was counted
    then: str | None  # what happens when it passes


@dataclass(frozen=True)
class OwnerAction:
    """A button of the owner's view, as an intent; the bot words the button's data
    (bot/buttons.py)."""

    text: str
    intent: str  # "owner.removed", "owner.will_remove", "owner.situation", ...
    case: str  # the case code
    flag: str = ""  # owner.situation: the ReleaseSituation field it toggles


@dataclass(frozen=True)
class FeeItem:
    label: str
    article: str
    quantity: Decimal
    unit_value: Decimal
    valid_from: date | None  # the tariff's valid-from date (None: fine or taxes)
    amount: Decimal


@dataclass(frozen=True)
class Fees:
    lines: tuple[FeeItem, ...]
    total: Decimal
    as_of: datetime
    per_day: Decimal  # what each further day adds
    per_day_article: str
    #: A tariff is still a reference value to be confirmed (core.services.papers.placeholders;
    #: Dores Art. 9º, II; Dracena Art. 7º): the amounts are shown as "estimativa".
    estimate: bool = False
    #: What each further day is charged by, in words ("depósito de 850 kg de mercadorias
    #: (Art. 7º, b)"; Law.per_day_basis); empty: the article alone.
    per_day_basis: str = ""


@dataclass(frozen=True)
class DepotInfo:
    address: str
    hours: str
    entered_at: datetime
    release: tuple[ReleaseCondition, ...]  # the law module's checklist for this person
    fees: Fees | None
    fees_error: str | None  # Portuguese, when a tariff is missing
    auction_after: date | None  # after this day the object may go to auction
    auction_article: str
    can_release: bool
    situation: ReleaseSituation
    #: The law's dates for the object in the depot, each once with its article (Dores
    #: Art. 6º, caput — the termo's 10 days — and Art. 3º, caput; Dracena Art. 6º, §2º).
    dates: tuple[StatedDate, ...] = ()
    #: How to pay today's total (a PIX BR Code or the city's guia; core.services.owners.payments).
    payment: PaymentOffer | None = None
    #: Payments staff recorded (core.services.staff.payment_records), with any difference.
    paid: tuple[RecordedPayment, ...] = ()


@dataclass(frozen=True)
class AppealInfo:
    auto: tuple[tuple[str, str, Any], ...]  # (fact, label, stored value) of the auto's data
    deadline: OwnerDeadline | None  # to appeal (open while can_appeal)
    can_appeal: bool
    filed_at: datetime | None
    decision_deadline: OwnerDeadline | None
    title: str = "Auto"  # the paper's one name (Law.record_name): "Auto de infração", ...


@dataclass(frozen=True)
class OwnerView:
    case_code: str
    protocol: str
    category_label: str
    object_text: str
    #: The place as the public sees it (the neighbourhood): never the address as typed by the
    #: citizen, which may name them or a neighbour.
    address: str | None
    state: str
    state_label: str
    is_open: bool
    next_step: str
    deadline: OwnerDeadline | None
    remove_by: str | None  # "Retire até dd/mm/aaaa" while in public space
    towing_warning: str | None
    depot: DepotInfo | None
    appeal: AppealInfo | None
    actions: tuple[tuple[OwnerAction, ...], ...] = ()
    #: The owner's own date ("Vou retirar"), shown beside the legal deadline, never instead.
    promise: date | None = None
    #: The last day the owner may promise: the legal deadline (Art. 6º, §3º: "dentro do
    #: prazo estipulado"), or PROMISE_MAX_DAYS from today when none runs.
    promise_limit: date | None = None

    @property
    def deadline_shown(self) -> OwnerDeadline | None:
        """The legal deadline as its own line, unless a depot date states it already (Dores
        Art. 3º, caput: the 60 days, related to the 10 days of Art. 6º in one sentence)."""
        if self.deadline and self.depot and restates(self.depot.dates, self.deadline.due):
            return None
        return self.deadline


async def owner_cases(core: Core, telegram_id: int) -> list[OwnerView]:
    """Every case this Telegram account is linked to as owner, newest first."""
    async with core.db.read() as s:
        codes = (await s.execute(
            select(Case.case_code).join(OwnerLink, OwnerLink.case_id == Case.id)
            .join(Person, Person.id == OwnerLink.person_id)
            .where(Person.telegram_id == telegram_id).order_by(Case.created_at.desc()))
        ).scalars().all()
    return [await owner_view(core, telegram_id, c) for c in codes]


# -- the view -----------------------------------------------------------------------------------

async def owner_view(core: Core, telegram_id: int, case_code: str,
                     situation: ReleaseSituation | None = None) -> OwnerView:
    """What the linked owner sees (never the reporter). `situation` overrides the one the
    owner stated before (set_owner_situation)."""
    async with core.db.read() as s:
        case, olink = await owned(s, telegram_id, case_code)
        events = (await s.execute(select(Event).where(Event.case_id == case.id)
                                  .order_by(Event.seq))).scalars().all()
    situation = situation or ReleaseSituation(**(olink.situation or {}))
    return await build_view(core, case, events, situation)


def owner_next_step(law: Law, track: str, state: State, is_open: bool) -> str:
    """Where the object is and what comes next, as the law words it for this track and state
    (Law.state_texts), for the owner."""
    if not is_open or state.final:
        return f"{CLOSED} {state.label}."
    text = law.state_text(track, state.code)
    return text.for_owner() if text else NO_TEXT


def owner_deadline(dj: Mapping[str, Any] | None, lifecycle: Lifecycle) -> OwnerDeadline | None:
    if not dj:
        return None
    then = None
    if dj.get("on_lapse") and dj["on_lapse"] in lifecycle.transitions:
        then = lifecycle.transitions[dj["on_lapse"]].label
    return OwnerDeadline(date.fromisoformat(dj["due"]), dj["due_in_full"],
                         datetime.fromisoformat(dj["due_at"]), dj["description"], dj["article"],
                         dj.get("explanation", ""), then)


def _object_text(case: Case) -> str:
    report = (case.details or {}).get("report") or {}
    parts = [p for p in (report.get("make_model"), report.get("colour")) if p]
    if case.plate:
        parts.append(f"placa {format_plate(case.plate)}")
    elif case.chassis:
        parts.append(f"chassi final {case.chassis[-4:]}")
    # never the citizen's description: the reporter's own words may name them or a neighbour
    return ", ".join(parts) or "sem descrição"


async def build_view(core: Core, case: Case, events: list[Event],
                      situation: ReleaseSituation) -> OwnerView:
    core = core.for_case(case)  # any city's case, by its code: its law, tariffs, PIX, depot
    law = core.law
    lifecycle = law.tracks[case.track]
    state = lifecycle.state(case.state)
    now = core.now()
    deadline = legal_deadline(case, events, lifecycle) if case.is_open else None
    code = case.case_code
    next_step = owner_next_step(law, case.track, state, case.is_open)
    said = standing_statement(events) if case.is_open and state.in_public_space else None
    if said is not None and said.action != OWNER_COMMITS:  # a note beside the running deadline
        next_step += f" {STATEMENT_NOTED}"
    has_towing = "start_removal" in lifecycle.transitions
    remove_by = None
    actions: list[tuple[OwnerAction, ...]] = []
    if case.is_open and state.in_public_space and "owner_commits" in lifecycle.transitions:
        removal_possible = has_towing and state.code in \
            lifecycle.transitions["start_removal"].sources
        remove_by = (f"Retire até {fmt_date(deadline.due)}" if deadline else
                     "Retire o quanto antes: a remoção já pode acontecer" if
                     removal_possible else None)
        actions.append((OwnerAction("Já retirei", "owner.removed", code),
                        OwnerAction("Vou retirar", "owner.will_remove", code)))
    if can_withdraw(case, events, lifecycle):
        actions.append((OwnerAction(WITHDRAW_BUTTON, "owner.withdraw", code),))
    towing = TOWING_WARNING if has_towing and case.is_open and (
        state.in_public_space or state.code == "removal_started") else None
    depot = None
    if case.is_open and state.in_depot:
        depot = await _depot_info(core, case, events, lifecycle, state, situation, now)
        category = law.categories[case.category]
        if category.motor_vehicle:
            actions.append((
                OwnerAction("Sou procurador", "owner.situation", code, "by_attorney"),
                OwnerAction("Vendi, não transferi", "owner.situation", code, "sale_communicated"),
                OwnerAction("Sem recuperação", "owner.situation", code, "unrecoverable")))
    appeal = _appeal_info(case, events, lifecycle, now) \
        if "file_appeal" in lifecycle.transitions else None
    if appeal is not None and law.record_name is not None:
        appeal = replace(appeal, title=law.record_name(case_facts_of(case)))
    if appeal and appeal.can_appeal:
        actions.append((OwnerAction("Recorrer ao Prefeito", "owner.appeal", code),))
    actions.append((OwnerAction("Resumo em PDF", "owner.pdf", code),))
    promise = owner_promise(events) if remove_by else None
    limit = promise_limit(deadline, now.astimezone(core.tz).date()) if remove_by else None
    return OwnerView(code, case.protocol, law.categories[case.category].label,
                     _object_text(case), case.neighbourhood, state.code, state.label, case.is_open,
                     next_step, deadline, remove_by, towing, depot, appeal, tuple(actions),
                     promise, limit)


#: The step that records the owner's promise (Dores Art. 6º, §3º); its deadline is the
#: owner's date, which never replaces the law's.
OWNER_COMMITS = "owner_commits"


def legal_deadline(case: Case, events: list[Event], lifecycle: Lifecycle
                   ) -> OwnerDeadline | None:
    """The deadline the law set: the running one, or, while the owner's commitment runs
    (owner_commits, taken only once removal is due), the one that ran before it, as it was
    (none once the notice's period has lapsed)."""
    dj = case.deadline_json
    if not dj or dj.get("transition") != OWNER_COMMITS:
        return owner_deadline(dj, lifecycle)
    step = next((ev for ev in reversed(events) if ev.action == OWNER_COMMITS), None)
    if step is not None and PRIOR_DEADLINE in (step.data or {}):
        return owner_deadline(step.data[PRIOR_DEADLINE], lifecycle)
    for ev in reversed(events):  # a commitment recorded before the prior deadline was kept
        t = lifecycle.transitions.get(ev.action)
        dl = (ev.data or {}).get("deadline")
        if dl and t and t.deadline and t.code != OWNER_COMMITS:
            due = date.fromisoformat(dl["due"])
            then = lifecycle.transitions[t.deadline.on_lapse].label \
                if t.deadline.on_lapse in lifecycle.transitions else None
            return OwnerDeadline(due, date_in_full(due), _event_due_at(ev, t, due),
                                 dl["description"], dl["article"], "", then)
    return None


def owner_promise(events: list[Event]) -> date | None:
    """The date of the owner's latest "Vou retirar" still standing (None after "Já retirei";
    a withdrawn statement no longer stands)."""
    for ev, kind in standing(events):
        if kind is None:
            continue
        agreed = (ev.data or {}).get("agreed_removal_by")
        if kind == "will_remove" and agreed:
            return date.fromisoformat(str(agreed)[:10])
        return None
    return None


def promise_limit(legal: OwnerDeadline | None, today: date) -> date:
    """The last day the owner may promise (Art. 6º, §3º: within the deadline set)."""
    if legal is not None and legal.due >= today:
        return legal.due
    return today + timedelta(days=PROMISE_MAX_DAYS)


def auction_after_of(events: list[Event], lifecycle: Lifecycle) -> tuple[date | None, str]:
    """The depot deadline (Dores Art. 3º, caput; CTB art. 328 / Art. 5º, III; Dracena Art. 6º)."""
    due, article = None, ""
    for ev in events:
        dl = (ev.data or {}).get("deadline")
        t = lifecycle.transitions.get(ev.action)
        if dl and t and t.deadline and t.deadline.on_lapse in AUCTION_LAPSES:
            due = date.fromisoformat(dl["due"])
            article = lifecycle.transitions[t.deadline.on_lapse].article
    return due, article


async def _depot_info(core: Core, case: Case, events: list[Event], lifecycle: Lifecycle,
                      state: State, situation: ReleaseSituation, now: datetime) -> DepotInfo:
    core = core.for_case(case)
    law = core.law
    entered = statements.collected_at(
        core, case, statements.depot_entry(events, lifecycle) or case.updated_at)
    dates = await depot_dates(core, case.category, (case.details or {}).get("facts", {}),
                              entered)
    release = without_restated(tuple(law.release_checklist(case.category, situation)), dates)
    fees, error = None, None
    try:
        fees = await _fees(core, case, entered, now)
    except TariffNotFound as exc:
        error = str(exc)
    auction_after, article = auction_after_of(events, lifecycle)
    # Dores Art. 3º, §3º, I: "No prazo de 60 (sessenta) dias" (setting
    # release_after_auction_eligible); Dracena Art. 7º allows retrieval until the auction.
    setting = law.settings.get("release_after_auction_eligible")
    can_release = not (state.code in AUCTION_STATES and setting is not None and not setting.value)
    paid = tuple(payments_of(events))  # once staff recorded a payment, no second PIX
    payment = payment_offer(core.city, case.case_code, fees.total if fees else None,
                            bool(fees and fees.estimate)) if can_release and not paid else None
    return DepotInfo(depot_address(core.city), core.city.depot_hours, entered, release,
                     fees, error, auction_after, article, can_release, situation, dates,
                     payment, paid)


async def _fees(core: Core, case: Case, entered: datetime, now: datetime) -> Fees:
    """Fees owed today line by line (core.services.cases.fee_statement, the panel's statement too),
    and what each further day adds."""
    core = core.for_case(case)
    today = await statements.case_statement(core, case, entered, now)
    per_day, article = await statements.per_day(core, case, entered, now)
    lines = tuple(FeeItem(ln.label, ln.article, ln.quantity, ln.unit_value, ln.tariff_valid_from,
                          ln.amount) for ln in today.lines)
    basis = core.law.per_day_basis(case_facts_of(case)) if core.law.per_day_basis else ""
    return Fees(lines, today.total, now, per_day, article,
                await placeholders.amounts_are_estimates(core), basis)


def case_facts_of(case: Case) -> Mapping[str, Any]:
    return (case.details or {}).get("facts", {})


def _appeal_info(case: Case, events: list[Event], lifecycle: Lifecycle,
                 now: datetime) -> AppealInfo | None:
    """Dracena Art. 3º (5 days) and Art. 4º, §2º (48 hours; decision in equal time)."""
    facts = (case.details or {}).get("facts", {})
    auto = tuple((k, lifecycle.label_fact(k).capitalize(), facts[k])
                 for k in AUTO_FACTS if facts.get(k) not in (None, "", []))
    appeal_t = lifecycle.transitions["file_appeal"]
    window = appeal_window(events, lifecycle, case)
    filed = next((ev for ev in reversed(events) if ev.action == "file_appeal"), None)
    decision = None
    if filed is not None and (filed.data or {}).get("deadline") and case.deadline_json \
            and case.deadline_json.get("transition") == "file_appeal":
        decision = owner_deadline(case.deadline_json, lifecycle)
    if not auto and window is None and filed is None:
        return None
    can = (case.is_open and filed is None and case.state in appeal_t.sources
           and window is not None and now <= window.due_at)
    return AppealInfo(auto, window, can, filed.at if filed else None, decision)


def appeal_window(events: list[Event], lifecycle: Lifecycle, case: Case) -> OwnerDeadline | None:
    """The appeal deadline: the current one while the appeal window is open, otherwise the
    last one an event started."""
    dj = case.deadline_json
    if dj and dj.get("on_lapse") in ("confirm_fine", "appeal_lapse"):
        return owner_deadline(dj, lifecycle)
    for ev in reversed(events):
        t = lifecycle.transitions.get(ev.action)
        dl = (ev.data or {}).get("deadline")
        if dl and t and t.deadline and t.deadline.on_lapse in ("confirm_fine", "appeal_lapse"):
            due = date.fromisoformat(dl["due"])
            due_at = _event_due_at(ev, t, due)
            return OwnerDeadline(due, date_in_full(due), due_at, dl["description"],
                                 dl["article"], "", lifecycle.transitions[
                                     t.deadline.on_lapse].label)
    return None


def _event_due_at(ev: Event, t: Transition, due: date) -> datetime:
    tz = TZ
    if t.deadline.unit == "hours":
        start = (ev.data or {}).get(t.deadline.starts_from) if t.deadline.starts_from != "event" \
            else None
        begin = datetime.fromisoformat(start) if start else ev.at
        begin = begin if begin.tzinfo else begin.replace(tzinfo=tz)
        candidate = begin + timedelta(hours=t.deadline.amount)
        if candidate.astimezone(tz).date() == due:
            return candidate
    return datetime.combine(due, time(23, 59, 59), tz)


