"""The release at the depot: the clerk walks the law's checklist condition by condition (Dores
Art. 3º, §3º, I–III; Dracena Art. 7º), records who collected (name, CPF or CNPJ, the document
shown, owner or attorney with the procuração's reference), freezes the statement of fees at
that moment line by line with the payments recorded against it, takes the law's release step
(the case's final state) and issues the Termo de liberação — all in one transaction.

Who releases: Dores Art. 9º, I gives the Secretaria Municipal de Administração, Planejamento e
Finanças "gerenciar a liberação dos veículos"; the fiscais de posturas (Art. 10) have the
"autuação e fiscalização", not the release. Dracena's law names no agency. So the release is a
staff step in the panel only (the lifecycle's release steps are staff's: Actor.STAFF).

The release record is a private event on the case's timeline ("release_recorded", like the
recorded payments): who collected, the document, the attorney's reference, the statement, the
payments; the staff user and the moment are the event's actor and time. The owner and the
reporter are told by the release step's own notifications (a public step: subscribers and
linked owners, core.services.messaging.notifications)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.fees import Statement
from core.formatting import fmt_date, fmt_money
from core.laws.base import ReleaseCondition, ReleaseSituation
from core.lifecycle import Transition
from core.parse_error import ParseError
from core.parsing import parse_cpf_cnpj
from core.services.cases import fee_statement as statements
from core.services.cases.steps import take_step
from core.services.cases.transitions import TransitionResult
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.papers import placeholders
from core.services.papers.release_term import RECORD, issue_release_term
from core.services.staff.payment_records import RecordedPayment, payments_of
from core.storage.models import Case, Event, OwnerLink
from core.storage.timeline import ActorRef, append_event

#: The documents a clerk accepts to identify who collects (Dores Art. 3º, §3º, I:
#: "devidamente identificado pelos meios em direito admitido").
ID_KINDS = ("RG", "CNH", "Passaporte", "RNE/CRNM", "Carteira profissional", "Outro")
_ID_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9./ -]{2,29}")
SITUATION_FLAGS = ("sale_communicated", "transferred", "unrecoverable", "deregistered")


@dataclass(frozen=True)
class ReleaseIn:
    """What the clerk typed and ticked on the release form."""

    ticked: frozenset[str]  # the checklist's condition codes ticked
    name: str
    document: str  # CPF or CNPJ as typed
    id_kind: str
    id_number: str
    by_attorney: bool = False
    attorney_ref: str = ""  # the procuração's reference (cartório, livro, folha)
    sale_communicated: bool = False
    transferred: bool = False
    unrecoverable: bool = False
    deregistered: bool = False

    @property
    def situation(self) -> ReleaseSituation:
        return ReleaseSituation(self.by_attorney, self.sale_communicated, self.transferred,
                                self.unrecoverable, self.deregistered)


@dataclass(frozen=True)
class ReleaseForm:
    """What the panel shows to release a case now."""

    step: Transition
    situation: ReleaseSituation
    conditions: tuple[ReleaseCondition, ...]
    statement: Statement | None
    fee_error: str | None
    estimates: tuple[str, ...]  # the statement's fees still at a reference value
    payments: tuple[RecordedPayment, ...]
    paid: Decimal
    by_attorney_allowed: bool
    #: The registration ticks that change this law's checklist for this object (Dores Art. 3º,
    #: §3º, III, a and b: motor vehicles); the form asks only these.
    asks: frozenset[str] = frozenset()

    @property
    def missing(self) -> Decimal:
        """What is still to pay at this moment (0 when the payments cover the total)."""
        if self.statement is None:
            return Decimal(0)
        return max(self.statement.total - self.paid, Decimal(0))


@dataclass(frozen=True)
class Released:
    result: TransitionResult
    document: tuple[str, str, bytes]  # (sha256, filename, bytes) of the termo


def release_step(core: Core, case: Case) -> Transition | None:
    """The law's release step open to staff from the case's state (Law.release_steps)."""
    lc = core.law.tracks[case.track]
    if not case.is_open:
        return None
    for code in sorted(core.law.release_steps):
        t = lc.transitions.get(code)
        if t is not None and case.state in t.sources:
            return t
    return None


async def _events(s: AsyncSession, case: Case) -> list[Event]:
    return list((await s.execute(select(Event).where(Event.case_id == case.id)
                                 .order_by(Event.seq))).scalars().all())


async def stated_situation(core: Core, s: AsyncSession, case: Case) -> ReleaseSituation:
    """What the linked owners said in the bot (an attorney comes; the vehicle's registration):
    the form starts from it; the clerk confirms it with the papers."""
    rows = (await s.execute(select(OwnerLink.situation).where(OwnerLink.case_id == case.id))
            ).scalars().all()
    flags = {f: any(bool((r or {}).get(f)) for r in rows)
             for f in ("by_attorney", *SITUATION_FLAGS)}
    flags["by_attorney"] = flags["by_attorney"] and core.law.release_by_attorney
    return ReleaseSituation(**flags)


async def _statement(core: Core, case: Case, events: list[Event]
                     ) -> tuple[Statement | None, str | None, tuple[str, ...]]:
    """The statement at this moment, the reason it cannot be made, the fees in it still at a
    reference value (Dores Art. 9º, II; Dracena Art. 7º: the city sets them)."""
    lc = core.law.tracks[case.track]
    collected = statements.collected_at(
        core, case, statements.depot_entry(events, lc) or case.updated_at)
    stmt, err = await statements.statement_or_error(core, case, collected, core.now())
    if stmt is None:
        return None, err or "Sem data de recolhimento: não há como calcular os valores.", ()
    estimated = set(await placeholders.placeholder_tariffs(core))
    codes = {t.code for t in core.law.tariffs if t.label in estimated}
    return stmt, None, tuple(ln.label for ln in stmt.lines if ln.code in codes)


async def release_form(core: Core, protocol: str,
                       situation: ReleaseSituation | None = None) -> ReleaseForm | None:
    """The release form of a case (None when the law's release step is not open now), for
    `situation` (the form's ticks), or the one the owner stated."""
    async with core.db.read() as s:
        case = await load_here(s, core, protocol)
        step = release_step(core, case)
        if step is None:
            return None
        events = await _events(s, case)
        situation = situation or await stated_situation(core, s, case)
    stmt, err, estimates = await _statement(core, case, events)
    payments = tuple(payments_of(events))
    base = core.law.release_checklist(case.category, ReleaseSituation())
    asks = frozenset(f for f in ("sale_communicated", "unrecoverable")
                     if core.law.release_checklist(case.category,
                                                   ReleaseSituation(**{f: True})) != base)
    return ReleaseForm(step, situation,
                       tuple(core.law.release_checklist(case.category, situation)), stmt, err,
                       estimates, payments, sum((p.amount for p in payments), Decimal(0)),
                       core.law.release_by_attorney, asks)


def _collector(core: Core, inp: ReleaseIn) -> dict[str, Any]:
    """Who collects, checked; InvalidInput (Portuguese, with the form's field) otherwise."""
    name = " ".join((inp.name or "").split())
    if len(name) < 3 or not re.search(r"[^\W\d_]{2}", name) or len(name) > 120:
        raise InvalidInput("Nome de quem retira: o nome completo, como no documento.", "name")
    try:
        document = parse_cpf_cnpj(inp.document)
    except ParseError as exc:
        raise InvalidInput(f"CPF/CNPJ de quem retira: {exc.message}", "document") from None
    if inp.id_kind not in ID_KINDS:
        raise InvalidInput("Documento apresentado: escolha o tipo (RG, CNH, ...).", "id_kind")
    number = " ".join((inp.id_number or "").split())
    if not _ID_NUMBER.fullmatch(number):
        raise InvalidInput("Número do documento apresentado: de 3 a 30 letras, números, "
                           "pontos ou traços.", "id_number")
    ref = " ".join((inp.attorney_ref or "").split())
    if inp.by_attorney and not core.law.release_by_attorney:
        raise InvalidInput(f"A {core.law.title} não prevê a retirada por procurador: só quem "
                           "responde pelo bem retira (Art. 7º).", "by_attorney")
    if inp.by_attorney and len(ref) < 3:
        # Dores Art. 3º, §3º, I: "por procurador devidamente habilitado, por meio de
        # procuração pública"
        raise InvalidInput("Procuração: informe a referência da procuração pública (cartório, "
                           "livro e folha) — o procurador só retira com ela (Art. 3º, §3º, I).",
                           "attorney_ref")
    if len(ref) > 200:
        raise InvalidInput("Procuração: até 200 caracteres.", "attorney_ref")
    return {"name": name, "document": document, "id_kind": inp.id_kind, "id_number": number,
            "capacity": "attorney" if inp.by_attorney else "owner",
            "power_of_attorney": ref if inp.by_attorney else ""}


def _law_refusal(inp: ReleaseIn) -> str | None:
    """A release the law forbids whatever is ticked (Dores Art. 3º, §3º, III, a and b)."""
    if inp.sale_communicated and not inp.transferred:
        # Art. 3º, §3º, III, a: "em caso de veículo automotor com registro de venda
        # comunicada, somente se transferida a propriedade"
        return ("Liberação recusada: a venda deste veículo foi comunicada ao DETRAN e a "
                "propriedade ainda não foi transferida. O veículo só é liberado depois da "
                "transferência para o comprador (Art. 3º, §3º, III, a).")
    if inp.unrecoverable and not inp.deregistered:
        # Art. 3º, §3º, III, b: "somente será retirado após a respectiva baixa"
        return ("Liberação recusada: o veículo não tem recuperação e só é retirado depois da "
                "baixa do registro no órgão de trânsito (Art. 3º, §3º, III, b).")
    return None


def _fees_refusal(form: ReleaseForm) -> str | None:
    """Why the fees stop the release now (Dores Art. 3º, §3º, II; Dracena Art. 7º), or None."""
    if form.statement is None:
        return f"Liberação recusada: não foi possível calcular os valores devidos — " \
               f"{form.fee_error}"
    if form.estimates:
        # Dores Art. 9º, II; Dracena Art. 7º: the city sets the values; a reference value is
        # not an amount anyone owes.
        return ("Liberação recusada: " + ", ".join(form.estimates) + " ainda tem valor de "
                "referência, a confirmar pela Prefeitura. Cadastre o valor oficial em Tarifas, "
                "confira o total e o pagamento, e libere depois.")
    if form.paid < form.statement.total:
        return (f"Liberação recusada: os pagamentos registrados somam {fmt_money(form.paid)} e "
                f"o total devido hoje é {fmt_money(form.statement.total)} — falta pagar "
                f"{fmt_money(form.statement.total - form.paid)}. Registre o pagamento antes de "
                f"liberar.")
    return None


def _payments_text(payments: tuple[RecordedPayment, ...]) -> str:
    return "; ".join(f"{p.method} {p.reference}, {fmt_money(p.amount)} em {fmt_date(p.paid_on)}"
                     for p in payments) or "sem valores a pagar"


def _record(form: ReleaseForm, step: Transition, collector: dict[str, Any],
            situation: ReleaseSituation) -> dict[str, Any]:
    stmt = form.statement
    assert stmt is not None
    return {
        "step": step.code, "collector": collector,
        "situation": {f: getattr(situation, f) for f in SITUATION_FLAGS},
        "conditions": [[c.code, c.label, c.article] for c in form.conditions],
        "statement": {"as_of": stmt.as_of.isoformat(), "total": str(stmt.total),
                      "lines": [{"label": ln.label, "article": ln.article,
                                 "quantity": str(ln.quantity),
                                 "unit_value": str(ln.unit_value),
                                 "amount": str(ln.amount), "code": ln.code,
                                 "tariff": bool(ln.tariff_valid_from)}
                                for ln in stmt.lines]},
        "payments": [{"method": p.method, "reference": p.reference,
                      "paid_on": p.paid_on.isoformat(), "amount": str(p.amount)}
                     for p in form.payments],
        "paid_total": str(form.paid)}


async def release(core: Core, protocol: str, inp: ReleaseIn, actor: ActorRef) -> Released:
    """Release the object to who collects it and issue the Termo de liberação; InvalidInput
    (Portuguese, naming the field and the article) when the law or the form refuses it —
    nothing is recorded then."""
    collector = _collector(core, inp)
    refusal = _law_refusal(inp)
    if refusal:
        raise InvalidInput(refusal, "situation")
    form = await release_form(core, protocol, inp.situation)
    if form is None:
        raise InvalidInput("A liberação só se registra para um caso aberto com o objeto no "
                           "pátio, antes do leilão.")
    for c in form.conditions:
        if c.code not in inp.ticked:
            raise InvalidInput(f"Confira e marque cada condição da liberação: falta “{c.label}” "
                               f"({c.article}).", f"cond_{c.code}")
    refusal = _fees_refusal(form)
    if refusal:
        raise InvalidInput(refusal, "")
    paid = _payments_text(form.payments)
    async with core.db.unit_of_work() as s:
        case = await load_here(s, core, protocol, for_update=True)
        step = release_step(core, case)
        if step is None or step.code != form.step.code:
            raise InvalidInput("O caso mudou enquanto o formulário estava aberto: abra a página "
                               "de novo e confira.")
        # the step's own facts (its lifecycle requires them): the checklist confirmed and
        # how the fees were paid
        facts = {"release_checklist_confirmed": True, "fees_paid": paid,
                 "retrieval_payment_receipt": paid}
        facts = {k: v for k, v in facts.items() if k in step.requires}
        taken = await take_step(core, case.protocol, step.code, actor, facts, session=s)
        await append_event(s, case, actor, RECORD, step.article,
                           _record(form, step, collector, inp.situation), public=False,
                           at=core.now())
        issued = await issue_release_term(core, case.protocol, actor, session=s)
    return Released(taken.result, issued)
