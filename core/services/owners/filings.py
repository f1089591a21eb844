"""What the owner files in the bot: the statement that they removed, or will remove, the
object (Dores Art. 6º, §3º), told to the inspector to verify; and the appeal to the Mayor
(Dracena Art. 3º; Art. 4º, §2º), refused outside its deadline naming it."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import fmt_cpf_cnpj, fmt_date, fmt_datetime, fmt_time
from core.parsing import ParseError, parse_cpf_cnpj, parse_text
from core.lifecycle import Actor, Lifecycle
from core.services.cases.transitions import apply_transition
from core.services.context import Core, SessionHook
from core.services.errors import InvalidInput
from core.services.cases.evidence import EvidenceIn, attach
from core.services.messaging.notifications import VIA_OWNER, ask_to_verify
from core.services.owners.access import owned
from core.services.owners.proof import Declarant, declared_by, require_proof
from core.services.owners.view import (PROMISE_MAX_DAYS, TOWING_WARNING,  # noqa: F401
                                      OwnerDeadline, appeal_window, owner_deadline,
                                      legal_deadline, owner_next_step, promise_limit)
from core.services.citizens.people import person_for
from core.storage.models import Case, Event
from core.storage.timeline import ActorRef, append_event

#: Decision: "Já retirei" gives the inspector this many days to verify when no deadline runs.
VERIFY_DAYS = 3


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


# -- the owner's statement (Dores Art. 6º, §3º) ---------------------------------------------------

STATEMENT_KINDS = {"removed": "Já retirei o objeto do espaço público.",
                   "will_remove": "Vou retirar o objeto do espaço público até {date}."}


async def owner_statement(core: Core, telegram_id: int, case_code: str, kind: str,
                          agreed_date: date | None = None, *,
                          also: SessionHook | None = None,
                          declarant: Declarant | None = None) -> StatementResult:
    """"Já retirei" / "Vou retirar": Art. 6º, §3º — "A remoção [...] deixará de acontecer, caso o
    proprietário/responsável se prontifique, de imediato, e dentro do prazo estipulado pelo
    agente fiscalizador, a retirar o objeto do espaço público [...] antes do início da
    operação." Recorded by the lifecycle's owner_commits where it allows it (otherwise as a
    timeline note); the assigned inspector is asked to verify. Only an owner who proved more
    than the code may make it, and the inspector sees who did (core.services.owners.proof)."""
    if kind not in STATEMENT_KINDS:
        raise InvalidInput("Escolha “Já retirei” ou “Vou retirar”.")
    now = core.now()
    today = now.astimezone(core.tz).date()
    async with core.db.unit_of_work() as s:
        case, link = await owned(s, telegram_id, case_code, for_update=True)
        core = core.for_case(case)
        who = declared_by(telegram_id, declarant, await require_proof(s, case, link))
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
        events = (await s.execute(select(Event).where(Event.case_id == case.id)
                                  .order_by(Event.seq))).scalars().all()
        running = legal_deadline(case, events, lifecycle)  # the law's, never the promise's
        running_due = running.due if running and running.due >= today else None
        if kind == "will_remove":
            if agreed_date is None:
                raise InvalidInput("Informe até que dia você vai retirar (dd/mm/aaaa).")
            limit = promise_limit(running, today)
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
                 "owner_statement_kind": kind, "submitted_via": VIA_OWNER, "declared_by": who}
        if can_commit:
            res = await apply_transition(core, case.id, "owner_commits", actor, facts, session=s)
            seq, label = res.event_seq, lifecycle.state(res.state).label
        else:
            ev = await append_event(s, case, actor, "owner_statement", "Art. 6º, §3º",
                                    {**facts, "needs_verification": True}, public=False, at=now)
            seq, label = ev.seq, state.label
        notified = await ask_to_verify(s, case, text, seq, who)
        if also is not None:
            await also(s)
    # The promise never shortens the law's deadline (Art. 6º, caput; setting
    # owner_promise_during_notice): the owner is told it still runs as counted.
    still = (f"O prazo legal continua valendo: {running.description} até "
             f"{fmt_date(running.due)} ({running.article}). ") if running_due else ""
    msg = (f"Registramos sua declaração: “{text}” A fiscalização vai conferir no local. "
           f"{still}{TOWING_WARNING}")
    return StatementResult(case.protocol, label, msg, notified)


# -- Dracena appeal (Art. 3º; Art. 4º, §2º) -----------------------------------------------------

MAX_APPEAL_TEXT = 4000
MAX_APPELLANT_NAME = 120


def appellant_name(text: str) -> str:
    """Who appeals — Art. 3º: "O infrator autuado ou os seus co-responsáveis poderão
    recorrer" — by name; InvalidInput (Portuguese) when it is not one."""
    try:
        name = parse_text(text, MAX_APPELLANT_NAME)
    except ParseError as exc:
        raise InvalidInput(exc.message) from None
    if sum(ch.isalpha() for ch in name) < 2:
        raise InvalidInput("Informe o nome completo de quem recorre, por exemplo Maria da "
                           "Silva.")
    return name


def appellant_document(text: str) -> str:
    """The appellant's CPF or CNPJ, check digits verified (core.parsing.parse_cpf_cnpj);
    InvalidInput (Portuguese) naming what is wrong."""
    try:
        return parse_cpf_cnpj(text)
    except ParseError as exc:
        raise InvalidInput(exc.message) from None


async def file_appeal(core: Core, telegram_id: int, case_code: str, text: str,
                      attachments: list[EvidenceIn] = (), *, appellant: tuple[str, str],
                      also: SessionHook | None = None) -> AppealResult:
    """The owner's appeal to the Mayor, written in the chat with optional attachments: Art. 3º
    "poderão recorrer ao Prefeito no prazo de cinco dias"; Art. 4º, §2º "o prazo para recurso
    será de quarenta e oito horas a contar da apreensão, e interposto ele, o Prefeito decidirá
    de plano em igual tempo". Outside the deadline it is refused, naming the deadline.
    `appellant`: who appeals, (name, CPF/CNPJ) — the autuado or a co-responsible (Art. 3º),
    validated here whatever face gathered them."""
    name, document = appellant_name(appellant[0]), appellant_document(appellant[1])
    grounds = (text or "").strip()
    if not grounds:
        raise InvalidInput("Escreva as razões do recurso.")
    if len(grounds) > MAX_APPEAL_TEXT:
        raise InvalidInput(f"Texto longo demais (máximo de {MAX_APPEAL_TEXT} caracteres).")
    now = core.now()
    async with core.db.unit_of_work() as s:
        case, _link = await owned(s, telegram_id, case_code, for_update=True)
        core = core.for_case(case)
        lifecycle = core.law.tracks[case.track]
        window = await _appeal_open(s, case, lifecycle, now)
        person = await person_for(s, telegram_id)
        shas = [(await attach(core, s, case.id, a, person.id)).sha256 for a in attachments]
        facts = {"appeal_filed_at": now.isoformat(),
                 "appeal_deadline": window.due_at.isoformat(), "appeal_grounds": grounds,
                 "appellant_name": name, "appellant_document": document,
                 "appeal_attachments": shas, "submitted_via": VIA_OWNER}
        res = await apply_transition(core, case.id, "file_appeal",
                                     ActorRef(Actor.OWNER.value, person.id, None), facts,
                                     session=s)
        decision = owner_deadline(res.deadline, lifecycle) if res.deadline else None
        if also is not None:
            await also(s)
    if decision:
        when = (f"O Prefeito deve decidir até {fmt_datetime(decision.due_at)} "
                f"({decision.article}).")
    else:
        when = "A lei não fixa prazo para a decisão do Prefeito (Art. 3º)."
    msg = f"Recurso de {name} (CPF/CNPJ {fmt_cpf_cnpj(document)}) registrado em " \
          f"{fmt_datetime(now)} (protocolo {res.protocol}). {when} Você receberá a decisão aqui."
    return AppealResult(res.protocol, now, decision, msg)


async def check_appeal(core: Core, telegram_id: int, case_code: str) -> OwnerDeadline:
    """Before the owner writes an appeal: the open appeal window (Art. 3º; Art. 4º, §2º), or
    the same InvalidInput file_appeal would raise (deadline over, already filed, no auto)."""
    async with core.db.read() as s:
        case, _link = await owned(s, telegram_id, case_code)
        core = core.for_case(case)
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
    window = appeal_window(events, lifecycle, case)
    if window is not None and (now > window.due_at or case.state not in t.sources):
        raise InvalidInput(
            f"O prazo para recorrer ao Prefeito terminou em {window.due_in_full}, às "
            f"{fmt_time(window.due_at)} ({window.article}). O recurso não pode mais ser "
            "recebido.")
    if window is None or case.state not in t.sources:
        raise InvalidInput("Ainda não há auto de infração ou apreensão para recorrer.")
    return window
