"""The owner's view of their case: reaching it (QR deep link, or case code and plate), what is
happening and by when, the owner's statement that they will remove the object (Dores Art. 6º,
§3º), the depot's release conditions and fees (Dores Art. 3º, §3º; Dracena Art. 7º), the appeal
to the Mayor (Dracena Art. 3º; Art. 4º, §2º) and a printable summary.

An owner sees only the cases their Telegram account is linked to (OwnerLink), and never the
reporter (Lei 13.460/2017, art. 10, §7º), other people's data or other cases. A wrong answer
never says whether a case exists; five wrong answers cool the account down for an hour.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Awaitable, Callable, Mapping
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core import documents
from core.documents import data as doc
from core.fees import TariffNotFound
from core.formatting import date_in_full, fmt_date, fmt_datetime, fmt_money, fmt_time
from core.identifiers import InvalidIdentifier, format_plate, normalize_plate
from core.laws.base import Law, ReleaseCondition, ReleaseSituation
from core.lifecycle import Actor, Lifecycle, State, Transition
from core.services import statements
from core.services.cases import apply_transition
from core.services.notifications import AUCTION_STATES, VIA_OWNER, ask_to_verify
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.evidence import EvidenceIn, attach
from core.services.people import person_for
from core.storage.models import Case, Event, OwnerAccessGuard, OwnerLink, Person
from core.storage.timeline import ActorRef, append_event

WRONG_ANSWER = ("Não conseguimos abrir um caso com esses dados. Confira o código impresso no "
                "aviso e a placa (ou os 4 últimos caracteres do chassi) e tente de novo.")
NOT_LINKED = ("Não há caso vinculado a você com esse código. Abra o link do aviso deixado no "
              "objeto ou use /proprietario.")
MAX_FAILURES = 5
COOL_DOWN = timedelta(hours=1)
#: Decision: when no deadline runs, an owner may promise removal within this many days (the
#: notice period of Dores Art. 4º, I); the inspector may still agree another date.
PROMISE_MAX_DAYS = 10
#: Decision: "Já retirei" gives the inspector this many days to verify when no deadline runs.
VERIFY_DAYS = 3
#: `also=`: an `async def hook(session)` the bot passes to run inside the same transaction as
#: the owner's step (its conversation state and the update's idempotency mark).
SessionHook = Callable[[AsyncSession], Awaitable[None]]

#: Dores Art. 6º, §4º: "Entende-se por início da operação de remoção, o momento em que se
#: inicia o deslocamento do veiculo para a plataforma do reboque" — after it, §3º no longer
#: lets the owner stop the removal. Shown on tracks with a towing step (start_removal).
TOWING_WARNING = ("Atenção: depois que a operação de remoção começa — quando o veículo começa "
                  "a subir na plataforma do reboque — ela não pode mais ser interrompida "
                  "(Art. 6º, §4º).")
CLOSED = "Caso encerrado."
NO_TEXT = "Aguardando a próxima providência da prefeitura."

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

    def line(self) -> str:
        then = f" Se o prazo passar: {self.then}." if self.then else ""
        return (f"Prazo: {self.description} até {self.due_in_full} ({fmt_date(self.due)}) — "
                f"{self.article}.{then}")


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


@dataclass(frozen=True)
class AppealInfo:
    auto: tuple[tuple[str, str], ...]  # (label, value) of the auto's data
    deadline: OwnerDeadline | None  # to appeal (open while can_appeal)
    can_appeal: bool
    filed_at: datetime | None
    decision_deadline: OwnerDeadline | None


@dataclass(frozen=True)
class OwnerView:
    case_code: str
    protocol: str
    category_label: str
    object_text: str
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

    def text(self) -> str:
        """The whole view as plain Portuguese text (≤ 4096 characters for Telegram)."""
        out = [f"Seu caso {self.case_code} (protocolo {self.protocol})",
               f"{self.category_label}: {self.object_text}"]
        if self.address:
            out.append(f"Local: {self.address}")
        out += [f"Situação: {self.state_label}", f"O que acontece agora: {self.next_step}"]
        if self.deadline:
            out.append(self.deadline.line())
        if self.remove_by:
            out.append(self.remove_by)
        if self.towing_warning:
            out.append(self.towing_warning)
        if self.appeal:
            out += _appeal_text(self.appeal)
        if self.depot:
            out += _depot_text(self.depot)
        return "\n".join(out)[:4096]


@dataclass(frozen=True)
class StatementResult:
    protocol: str
    state_label: str
    message: str  # Portuguese, for the owner
    verifier_notified: bool  # an inspector was asked to verify (else staff see it in the panel)


@dataclass(frozen=True)
class AppealResult:
    protocol: str
    filed_at: datetime
    decision_deadline: OwnerDeadline | None
    message: str  # Portuguese, for the owner


def _appeal_text(a: AppealInfo) -> list[str]:
    out = ["", "Auto de infração:"] + [f"• {label}: {value}" for label, value in a.auto]
    if a.filed_at:
        out.append(f"Recurso apresentado em {fmt_datetime(a.filed_at)}.")
        if a.decision_deadline:
            out.append(f"Decisão do Prefeito até {fmt_datetime(a.decision_deadline.due_at)} "
                       f"({a.decision_deadline.article}).")
    elif a.can_appeal and a.deadline:
        out.append(f"Você pode recorrer ao Prefeito até {fmt_datetime(a.deadline.due_at)} "
                   f"({a.deadline.article}).")
    elif a.deadline:
        out.append(f"O prazo de recurso terminou em {fmt_datetime(a.deadline.due_at)} "
                   f"({a.deadline.article}).")
    return out


def _depot_text(d: DepotInfo) -> list[str]:
    out = ["", f"Pátio/depósito: {d.address}", f"Atendimento: {d.hours}"]
    if d.auction_after:
        out.append(f"Se não for retirado, poderá ir a leilão após {fmt_date(d.auction_after)} "
                   f"({d.auction_article}).")
    if not d.can_release:
        out.append("O prazo para retirar já terminou; a liberação não é mais possível.")
    out.append("Para retirar:")
    for step in d.release:
        out.append(f"• {step.label} ({step.article})")
        out += [f"   – {doc_}" for doc_ in step.documents]
    if d.fees:
        f = d.fees
        out.append(f"Valores devidos hoje ({fmt_date(f.as_of)}):")
        for line in f.lines:
            since = f", tarifa vigente desde {fmt_date(line.valid_from)}" if line.valid_from \
                else ""
            out.append(f"• {line.label}: {fmt_money(line.amount)} ({line.article}{since})")
        out.append(f"Total: {fmt_money(f.total)}")
        out.append(f"Cada dia a mais custa {fmt_money(f.per_day)} ({f.per_day_article}).")
    elif d.fees_error:
        out.append(d.fees_error)
    return out


# -- reaching the case --------------------------------------------------------------------------

async def link_by_code(core: Core, telegram_id: int, case_code: str, *,
                       also: SessionHook | None = None) -> OwnerView:
    """`/start <case code>` from the QR code on the notice: the code alone opens the case.
    `also` runs in the linking transaction, only when the link succeeds."""
    return await _link(core, telegram_id, case_code, None, check_answer=False, also=also)


async def link_by_code_and_plate(core: Core, telegram_id: int, case_code: str,
                                 plate_or_chassis_tail: str | None = None, *,
                                 also: SessionHook | None = None) -> OwnerView:
    """`/proprietario`: the case code and the plate; without a plate, the last four characters
    of the chassis; the code alone where the object has neither."""
    return await _link(core, telegram_id, case_code, plate_or_chassis_tail, check_answer=True,
                       also=also)


def _compact(text: str | None) -> str:
    return re.sub(r"[\s\-.]+", "", text or "").upper()


def _answer_matches(case: Case, answer: str | None) -> bool:
    if case.plate:
        try:
            return normalize_plate(answer or "").value == case.plate
        except InvalidIdentifier:
            return False
    if case.chassis:
        given, chassis = _compact(answer), case.chassis.upper()
        return len(given) >= 4 and (given == chassis[-4:] or given == chassis)
    return True


async def _link(core: Core, telegram_id: int, case_code: str, answer: str | None, *,
                check_answer: bool, also: SessionHook | None = None) -> OwnerView:
    now = core.now()
    locked_until: datetime | None = None
    async with core.db.unit_of_work() as s:
        guard = await s.get(OwnerAccessGuard, telegram_id, with_for_update=True)
        if guard is not None and guard.locked_until and guard.locked_until > now:
            raise Forbidden(_cool_down_message(core, guard.locked_until))
        code = (case_code or "").strip()
        case = (await s.execute(select(Case).where(Case.case_code == code))
                ).scalar_one_or_none() if code else None
        ok = case is not None and (not check_answer or _answer_matches(case, answer))
        if not ok:
            locked_until = await _record_failure(s, guard, telegram_id, now)
        else:
            if guard is not None:
                guard.failures, guard.last_failure_at = 0, None
            person = await person_for(s, telegram_id)
            link = (await s.execute(select(OwnerLink).where(
                OwnerLink.case_id == case.id, OwnerLink.person_id == person.id))
            ).scalar_one_or_none()
            if link is None:
                via = "deep_link" if not check_answer else (
                    "code_plate" if case.plate else "code_chassis" if case.chassis else "code")
                s.add(OwnerLink(case_id=case.id, person_id=person.id, via=via, situation={},
                                created_at=now))
                if "owner" not in (person.roles or []):
                    person.roles = [*(person.roles or []), "owner"]
            code = case.case_code
            if also is not None:
                await also(s)
    if not ok:
        raise Forbidden(_cool_down_message(core, locked_until)) if locked_until \
            else NotFound(WRONG_ANSWER)
    return await owner_view(core, telegram_id, code)


async def _record_failure(s: AsyncSession, guard: OwnerAccessGuard | None, telegram_id: int,
                          now: datetime) -> datetime | None:
    """Count a wrong answer; the fifth within the hour locks the account for an hour."""
    if guard is None:
        guard = OwnerAccessGuard(telegram_id=telegram_id, failures=0)
        s.add(guard)
    if guard.last_failure_at and now - guard.last_failure_at > COOL_DOWN:
        guard.failures = 0
    guard.failures = (guard.failures or 0) + 1
    guard.last_failure_at = now
    if guard.failures >= MAX_FAILURES:
        guard.failures, guard.locked_until = 0, now + COOL_DOWN
        return guard.locked_until
    return None


def _cool_down_message(core: Core, until: datetime) -> str:
    local = until.astimezone(ZoneInfo(core.settings.timezone))
    return ("Muitas tentativas sem sucesso. Por segurança, tente de novo a partir de "
            f"{fmt_datetime(local)}.")


async def _owned(s: AsyncSession, telegram_id: int, case_code: str, *,
                 for_update: bool = False) -> tuple[Case, OwnerLink]:
    q = (select(Case, OwnerLink).join(OwnerLink, OwnerLink.case_id == Case.id)
         .join(Person, Person.id == OwnerLink.person_id)
         .where(Person.telegram_id == telegram_id, Case.case_code == (case_code or "").strip()))
    if for_update:
        q = q.with_for_update(of=Case)
    row = (await s.execute(q)).first()
    if row is None:
        raise NotFound(NOT_LINKED)
    return row[0], row[1]


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
        case, link = await _owned(s, telegram_id, case_code)
        events = (await s.execute(select(Event).where(Event.case_id == case.id)
                                  .order_by(Event.seq))).scalars().all()
    situation = situation or ReleaseSituation(**(link.situation or {}))
    return await _build_view(core, case, events, situation)


async def set_owner_situation(core: Core, telegram_id: int, case_code: str, *,
                              also: SessionHook | None = None, **flags: bool) -> OwnerView:
    """"Sou procurador", "vendi mas não transferi", "sem recuperação": what the owner says
    about themselves changes the release checklist (Dores Art. 3º, §3º, I and III, a–b)."""
    allowed = set(ReleaseSituation.__dataclass_fields__)
    unknown = set(flags) - allowed
    if unknown:
        raise InvalidInput("Opção desconhecida: " + ", ".join(sorted(unknown)))
    async with core.db.unit_of_work() as s:
        _case, link = await _owned(s, telegram_id, case_code)
        if not _case.is_open:
            raise InvalidInput("Este caso já foi encerrado.")
        link.situation = {**(link.situation or {}), **{k: bool(v) for k, v in flags.items()}}
        if also is not None:
            await also(s)
    return await owner_view(core, telegram_id, case_code)


def owner_next_step(law: Law, track: str, state: State, is_open: bool) -> str:
    """Where the object is and what comes next, as the law words it for this track and state
    (Law.state_texts), for the owner."""
    if not is_open or state.final:
        return f"{CLOSED} {state.label}."
    text = law.state_text(track, state.code)
    return text.for_owner() if text else NO_TEXT


def _tz(core: Core) -> ZoneInfo:
    return ZoneInfo(core.settings.timezone)


def _deadline(dj: Mapping[str, Any] | None, lifecycle: Lifecycle) -> OwnerDeadline | None:
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
    return ", ".join(parts) or (case.description or "sem descrição")


async def _build_view(core: Core, case: Case, events: list[Event],
                      situation: ReleaseSituation) -> OwnerView:
    law = core.law
    lifecycle = law.tracks[case.track]
    state = lifecycle.state(case.state)
    now = core.now()
    deadline = _deadline(case.deadline_json, lifecycle) if case.is_open else None
    code = case.case_code
    next_step = owner_next_step(law, case.track, state, case.is_open)
    has_towing = "start_removal" in lifecycle.transitions
    remove_by = None
    actions: list[tuple[OwnerAction, ...]] = []
    if case.is_open and state.in_public_space and "owner_commits" in lifecycle.transitions:
        remove_by = (f"Retire até {fmt_date(deadline.due)}" if deadline else
                     "Retire o quanto antes: a remoção já pode acontecer" if
                     state.code == "removal_due" else None)
        actions.append((OwnerAction("Já retirei", "owner.removed", code),
                        OwnerAction("Vou retirar", "owner.will_remove", code)))
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
    if appeal and appeal.can_appeal:
        actions.append((OwnerAction("Recorrer ao Prefeito", "owner.appeal", code),))
    actions.append((OwnerAction("Resumo em PDF", "owner.pdf", code),))
    return OwnerView(code, case.protocol, law.categories[case.category].label,
                     _object_text(case), case.address, state.code, state.label, case.is_open,
                     next_step, deadline, remove_by, towing, depot, appeal, tuple(actions))


def _auction_after(events: list[Event], lifecycle: Lifecycle) -> tuple[date | None, str]:
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
    law = core.law
    category = law.categories[case.category]
    entered = statements.collected_at(
        core, case, statements.depot_entry(events, lifecycle) or case.updated_at)
    release = tuple(law.release_conditions(category, situation)) \
        if law.release_conditions else ()
    fees, error = None, None
    try:
        fees = await _fees(core, case, entered, now)
    except TariffNotFound as exc:
        error = str(exc)
    auction_after, article = _auction_after(events, lifecycle)
    # Dores Art. 3º, §3º, I: "No prazo de 60 (sessenta) dias" (setting
    # release_after_auction_eligible); Dracena Art. 7º allows retrieval until the auction.
    setting = law.settings.get("release_after_auction_eligible")
    can_release = not (state.code in AUCTION_STATES and setting is not None and not setting.value)
    return DepotInfo(core.settings.depot_address, core.settings.depot_hours, entered, release,
                     fees, error, auction_after, article, can_release, situation)


async def _fees(core: Core, case: Case, entered: datetime, now: datetime) -> Fees:
    """Fees owed today line by line (core.services.statements, the panel's statement too),
    and what each further day adds."""
    today = await statements.case_statement(core, case, entered, now)
    per_day, article = await statements.per_day(core, case, entered, now)
    lines = tuple(FeeItem(ln.label, ln.article, ln.quantity, ln.unit_value, ln.tariff_valid_from,
                          ln.amount) for ln in today.lines)
    return Fees(lines, today.total, now, per_day, article)


def _decimal(value: Any, default: str = "0") -> Decimal:
    try:
        return Decimal(str(value).replace(",", ".")) if value not in (None, "") \
            else Decimal(default)
    except InvalidOperation:
        return Decimal(default)


def _fmt_fact(key: str, value: Any, tz: ZoneInfo) -> str:
    if key == "fine_amount":
        return fmt_money(_decimal(value))
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    text = str(value)
    try:
        if "T" in text:
            moment = datetime.fromisoformat(text)
            return fmt_datetime(moment if moment.tzinfo else moment.replace(tzinfo=tz))
        return fmt_date(date.fromisoformat(text))
    except ValueError:
        return text


def _appeal_info(case: Case, events: list[Event], lifecycle: Lifecycle,
                 now: datetime) -> AppealInfo | None:
    """Dracena Art. 3º (5 days) and Art. 4º, §2º (48 hours; decision in equal time)."""
    facts = (case.details or {}).get("facts", {})
    tz = ZoneInfo("America/Sao_Paulo")
    auto = tuple((lifecycle.label_fact(k).capitalize(), _fmt_fact(k, facts[k], tz))
                 for k in AUTO_FACTS if facts.get(k) not in (None, "", []))
    appeal_t = lifecycle.transitions["file_appeal"]
    window = _appeal_window(events, lifecycle, case)
    filed = next((ev for ev in reversed(events) if ev.action == "file_appeal"), None)
    decision = None
    if filed is not None and (filed.data or {}).get("deadline") and case.deadline_json \
            and case.deadline_json.get("transition") == "file_appeal":
        decision = _deadline(case.deadline_json, lifecycle)
    if not auto and window is None and filed is None:
        return None
    can = (case.is_open and filed is None and case.state in appeal_t.sources
           and window is not None and now <= window.due_at)
    return AppealInfo(auto, window, can, filed.at if filed else None, decision)


def _appeal_window(events: list[Event], lifecycle: Lifecycle, case: Case) -> OwnerDeadline | None:
    """The appeal deadline: the current one while the appeal window is open, otherwise the
    last one an event started."""
    dj = case.deadline_json
    if dj and dj.get("on_lapse") in ("confirm_fine", "appeal_lapse"):
        return _deadline(dj, lifecycle)
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
    tz = ZoneInfo("America/Sao_Paulo")
    if t.deadline.unit == "hours":
        start = (ev.data or {}).get(t.deadline.starts_from) if t.deadline.starts_from != "event" \
            else None
        begin = datetime.fromisoformat(start) if start else ev.at
        begin = begin if begin.tzinfo else begin.replace(tzinfo=tz)
        candidate = begin + timedelta(hours=t.deadline.amount)
        if candidate.astimezone(tz).date() == due:
            return candidate
    return datetime.combine(due, time(23, 59, 59), tz)


# -- the owner's statement (Dores Art. 6º, §3º) ---------------------------------------------------

STATEMENT_KINDS = {"removed": "Já retirei o objeto do espaço público.",
                   "will_remove": "Vou retirar o objeto do espaço público até {date}."}


async def owner_statement(core: Core, telegram_id: int, case_code: str, kind: str,
                          agreed_date: date | None = None, *,
                          also: SessionHook | None = None) -> StatementResult:
    """"Já retirei" / "Vou retirar": Art. 6º, §3º — "A remoção [...] deixará de acontecer, caso o
    proprietário/responsável se prontifique, de imediato, e dentro do prazo estipulado pelo
    agente fiscalizador, a retirar o objeto do espaço público [...] antes do início da
    operação." Recorded by the lifecycle's owner_commits where it allows it (otherwise as a
    timeline note); the assigned inspector is asked to verify."""
    if kind not in STATEMENT_KINDS:
        raise InvalidInput("Escolha “Já retirei” ou “Vou retirar”.")
    now = core.now()
    today = now.astimezone(_tz(core)).date()
    async with core.db.unit_of_work() as s:
        case, _link = await _owned(s, telegram_id, case_code, for_update=True)
        lifecycle = core.law.tracks[case.track]
        state = lifecycle.state(case.state)
        if not case.is_open:
            raise InvalidInput("Este caso já foi encerrado.")
        if not state.in_public_space:
            raise InvalidInput(owner_next_step(core.law, case.track, state, True)
                               if "start_removal" in lifecycle.transitions
                               else "Nesta etapa a declaração não muda o procedimento.")
        commits = lifecycle.transitions.get("owner_commits")
        can_commit = commits is not None and case.state in commits.sources
        running = _deadline(case.deadline_json, lifecycle)
        running_due = running.due if running and running.due >= today else None
        if kind == "will_remove":
            if agreed_date is None:
                raise InvalidInput("Informe até que dia você vai retirar (dd/mm/aaaa).")
            limit = running_due or today + timedelta(days=PROMISE_MAX_DAYS)
            if agreed_date < today:
                raise InvalidInput("A data combinada não pode estar no passado.")
            if agreed_date > limit:
                raise InvalidInput(
                    f"A retirada deve ser até {fmt_date(limit)}, dentro do prazo estipulado "
                    "(Art. 6º, §3º). Para outra data, fale com a fiscalização.")
            agreed = agreed_date
        else:
            agreed = running_due or today + timedelta(days=VERIFY_DAYS)
        text = STATEMENT_KINDS[kind].format(date=fmt_date(agreed))
        person = await person_for(s, telegram_id)
        actor = ActorRef(Actor.OWNER.value, person.id, None)
        facts = {"owner_statement": text, "agreed_removal_by": agreed.isoformat(),
                 "owner_statement_kind": kind, "submitted_via": VIA_OWNER}
        if can_commit:
            res = await apply_transition(core, case.id, "owner_commits", actor, facts, session=s)
            seq, label = res.event_seq, lifecycle.state(res.state).label
        else:
            ev = await append_event(s, case, actor, "owner_statement", "Art. 6º, §3º",
                                    {**facts, "needs_verification": True}, public=False, at=now)
            seq, label = ev.seq, state.label
        notified = await ask_to_verify(s, case, text, seq)
        if also is not None:
            await also(s)
    msg = (f"Registramos sua declaração: “{text}” A fiscalização vai conferir no local. "
           f"{TOWING_WARNING}")
    return StatementResult(case.protocol, label, msg, notified)


# -- Dracena appeal (Art. 3º; Art. 4º, §2º) -----------------------------------------------------

MAX_APPEAL_TEXT = 4000


async def file_appeal(core: Core, telegram_id: int, case_code: str, text: str,
                      attachments: list[EvidenceIn] = (), *,
                      also: SessionHook | None = None) -> AppealResult:
    """The owner's appeal to the Mayor, written in the chat with optional attachments: Art. 3º
    "poderão recorrer ao Prefeito no prazo de cinco dias"; Art. 4º, §2º "o prazo para recurso
    será de quarenta e oito horas a contar da apreensão, e interposto ele, o Prefeito decidirá
    de plano em igual tempo". Outside the deadline it is refused, naming the deadline."""
    grounds = (text or "").strip()
    if not grounds:
        raise InvalidInput("Escreva as razões do recurso.")
    if len(grounds) > MAX_APPEAL_TEXT:
        raise InvalidInput(f"Texto longo demais (máximo de {MAX_APPEAL_TEXT} caracteres).")
    now = core.now()
    async with core.db.unit_of_work() as s:
        case, _link = await _owned(s, telegram_id, case_code, for_update=True)
        lifecycle = core.law.tracks[case.track]
        window = await _appeal_open(s, case, lifecycle, now)
        person = await person_for(s, telegram_id)
        shas = [(await attach(core, s, case.id, a, person.id)).sha256 for a in attachments]
        facts = {"appeal_filed_at": now.isoformat(),
                 "appeal_deadline": window.due_at.isoformat(), "appeal_grounds": grounds,
                 "appeal_attachments": shas, "submitted_via": VIA_OWNER}
        res = await apply_transition(core, case.id, "file_appeal",
                                     ActorRef(Actor.OWNER.value, person.id, None), facts,
                                     session=s)
        decision = _deadline(res.deadline, lifecycle) if res.deadline else None
        if also is not None:
            await also(s)
    if decision:
        when = (f"O Prefeito deve decidir até {fmt_datetime(decision.due_at)} "
                f"({decision.article}).")
    else:
        when = "A lei não fixa prazo para a decisão do Prefeito (Art. 3º)."
    msg = f"Recurso registrado em {fmt_datetime(now)} (protocolo {res.protocol}). {when} " \
          "Você receberá a decisão aqui."
    return AppealResult(res.protocol, now, decision, msg)


async def check_appeal(core: Core, telegram_id: int, case_code: str) -> OwnerDeadline:
    """Before the owner writes an appeal: the open appeal window (Art. 3º; Art. 4º, §2º), or
    the same InvalidInput file_appeal would raise (deadline over, already filed, no auto)."""
    async with core.db.read() as s:
        case, _link = await _owned(s, telegram_id, case_code)
        return await _appeal_open(s, case, core.law.tracks[case.track], core.now())


async def _appeal_open(s: AsyncSession, case: Case, lifecycle: Lifecycle,
                       now: datetime) -> OwnerDeadline:
    t = lifecycle.transitions.get("file_appeal")
    if t is None:
        raise InvalidInput("Este procedimento não prevê recurso ao Prefeito.")
    events = (await s.execute(select(Event).where(Event.case_id == case.id)
                              .order_by(Event.seq))).scalars().all()
    if any(ev.action == "file_appeal" for ev in events):
        raise InvalidInput("O recurso deste caso já foi apresentado.")
    window = _appeal_window(events, lifecycle, case)
    if window is not None and (now > window.due_at or case.state not in t.sources):
        raise InvalidInput(
            f"O prazo para recorrer ao Prefeito terminou em {window.due_in_full}, às "
            f"{fmt_time(window.due_at)} ({window.article}). O recurso não pode mais ser "
            "recebido.")
    if window is None or case.state not in t.sources:
        raise InvalidInput("Ainda não há auto de infração ou apreensão para recorrer.")
    return window


# -- the printable summary ----------------------------------------------------------------------

async def owner_summary_pdf(core: Core, telegram_id: int, case_code: str, *,
                            bot_username: str = "") -> bytes:
    """A one-page PDF of the owner's conditions, fees and deadlines (core.documents)."""
    view = await owner_view(core, telegram_id, case_code)
    law = core.law
    async with core.db.read() as s:
        case, _ = await _owned(s, telegram_id, case_code)
    category = law.categories[case.category]
    report = (case.details or {}).get("report") or {}
    facts = (case.details or {}).get("facts", {})
    obj = doc.ObjectData(plate=format_plate(case.plate) if case.plate else "",
                         model=report.get("make_model") or "", colour=report.get("colour") or "",
                         chassis=case.chassis or "",
                         description=case.description or category.label,
                         is_vehicle=category.has_plate or category.has_chassis)
    none = doc.DeadlineText("sem prazo em curso", "—", "—", "")
    d = view.deadline
    deadline = doc.DeadlineText(d.due_in_full, fmt_date(d.due), d.article, d.explanation) \
        if d else none
    dep = view.depot
    auction = none
    if dep and dep.auction_after:
        auction = doc.DeadlineText(date_in_full(dep.auction_after), fmt_date(dep.auction_after),
                                   dep.auction_article, "")
    fees = tuple(doc.FeeLine(f.label, f.article, f.quantity, f.unit_value,
                             fmt_date(f.valid_from) if f.valid_from else "—", f.amount)
                 for f in (dep.fees.lines if dep and dep.fees else ()))
    release = tuple(doc.ReleaseItem(r.label, r.article, r.documents)
                    for r in (dep.release if dep else law.release_conditions(
                        category, ReleaseSituation())))
    data = doc.OwnerSummaryData(
        header=doc.CityHeader(law.city, law.uf, law.title, law.slug), case_code=case.case_code,
        obj=obj, state=view.state_label, deadline=deadline, release=release, fees=fees,
        per_day=dep.fees.per_day if dep and dep.fees else Decimal("0"),
        per_day_article=dep.fees.per_day_article if dep and dep.fees else "—",
        depot=doc.Depot(str(facts.get("depot") or "Pátio municipal"),
                        core.settings.depot_address, core.settings.depot_hours),
        auction_after=auction, link=doc.OwnerLink(bot_username or getattr(core.settings, "telegram_bot_username", "")
                           or "ViaLivreBot", case.case_code),
        generated_at=core.now().astimezone(_tz(core)),
        fees_as_of=fmt_date(dep.fees.as_of) if dep and dep.fees else "")
    return documents.owner_summary_pdf(data)
