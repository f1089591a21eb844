"""The owner takes back "Vou retirar" / "Já retirei" (Dores Art. 6º, §3º) while the inspector
has not acted on it (core.services.owners.statements.statement_to_withdraw says exactly when).

Where the statement was the lifecycle step owner_commits, the law declares its undo
(Transition.undo) and core.services.cases.transitions.revert_transition puts the case back where it was:
the state before the statement and the legal deadline that was running then, never extended
by the statement or by its withdrawal (if it has passed meanwhile, the case is due as it
would have been). Where it was a timeline note, the withdrawal is a note too. Either way the
inspector asked to verify is told the request no longer stands, and the owner's view shows the
legal deadline again, without the promised date, and lets the owner declare again."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Mapping

from sqlalchemy import select

from core.formatting import fmt_date
from core.lifecycle import Actor, TransitionRefused
from core.services.cases.transitions import revert_transition
from core.services.context import Core, SessionHook
from core.services.errors import InvalidInput
from core.services.messaging.notifications import VIA_OWNER, tell_withdrawn
from core.services.owners.access import owned
from core.services.owners.proof import Declarant, declared_by, require_proof
from core.services.owners.statements import NOTE_WITHDRAWN, WITHDRAWN, statement_to_withdraw
from core.services.owners.view import legal_deadline
from core.services.citizens.people import person_for
from core.storage.models import Event
from core.storage.timeline import ActorRef, append_event

ARTICLE = "Art. 6º, §3º"
STALE = ("Esse botão é de uma declaração que já mudou. Abra seu caso de novo com /proprietario "
         "para ver como ele está agora.")
NOT_PROVIDED = "Este procedimento não prevê desfazer a declaração; fale com a fiscalização."


@dataclass(frozen=True)
class WithdrawalResult:
    protocol: str
    state_label: str
    message: str  # Portuguese, for the owner
    inspector_told: bool  # the inspector asked to verify was told (else staff see the timeline)


async def withdrawable(core: Core, telegram_id: int, case_code: str) -> tuple[int, str]:
    """Before asking "Tem certeza?": the statement's timeline number and text, or the
    InvalidInput the withdrawal itself would raise."""
    async with core.db.read() as s:
        case, _link = await owned(s, telegram_id, case_code)
        core = core.for_case(case)
        events = await _events(s, case.id)
        ev = statement_to_withdraw(case, events, core.law.tracks[case.track])
        return ev.seq, str((ev.data or {}).get("owner_statement") or "")


async def withdraw_owner_statement(core: Core, telegram_id: int, case_code: str, *,
                                   statement_seq: int | None = None,
                                   also: SessionHook | None = None,
                                   declarant: Declarant | None = None) -> WithdrawalResult:
    """Take back the owner's standing statement (Art. 6º, §3º). Allowed only while the
    inspector has not acted on it — no lifecycle step and no inspector's record on the case
    after it (task routing aside); refused otherwise, saying why. Needs the same proof of
    ownership as the statement (core.services.owners.proof). `statement_seq` (from the
    confirmation button) must still be the standing statement: a stale button changes
    nothing. Recorded in the timeline with the article and who withdrew; the inspector asked
    to verify is told the request no longer stands."""
    now = core.now()
    async with core.db.unit_of_work() as s:
        case, link = await owned(s, telegram_id, case_code, for_update=True)
        core = core.for_case(case)
        lifecycle = core.law.tracks[case.track]
        events = await _events(s, case.id)
        statement = statement_to_withdraw(case, events, lifecycle)
        if statement_seq is not None and statement.seq != statement_seq:
            raise InvalidInput(STALE)
        who = declared_by(telegram_id, declarant, await require_proof(s, case, link))
        person = await person_for(s, telegram_id)
        actor = ActorRef(Actor.OWNER.value, person.id, None)
        data = {"owner_statement_kind": WITHDRAWN, "undoes": statement.seq,
                "withdrawn_by": who, "submitted_via": VIA_OWNER}
        if lifecycle.is_step(statement.action):  # the step owner_commits: back where it was
            undo = lifecycle.transitions[statement.action].undo
            if undo is None:
                raise InvalidInput(NOT_PROVIDED)
            try:
                res = await revert_transition(core, s, case, undo.code, actor, data)
            except TransitionRefused as exc:
                raise InvalidInput(exc.message) from exc
            seq, deadline, lapsed = res.event_seq, res.deadline, res.lapsed
        else:  # a timeline note: withdrawn by a note; the case did not move
            ev = await append_event(s, case, actor, NOTE_WITHDRAWN, ARTICLE, data, public=False,
                                    at=now)
            legal = legal_deadline(case, events, lifecycle)
            seq, lapsed = ev.seq, None
            deadline = {"due": legal.due.isoformat(), "article": legal.article,
                        "description": legal.description} if legal else None
        today = now.astimezone(core.tz).date()
        line = deadline_line(deadline, today, lifecycle.transitions[lapsed].label
                             if lapsed else None)
        said = str((statement.data or {}).get("owner_statement") or "")
        told = await tell_withdrawn(s, case, said, seq, who, line)
        state_label = lifecycle.state(case.state).label
        if also is not None:
            await also(s)
    msg = (f"Sua declaração “{said}” foi desfeita ({ARTICLE}). {line} "
           "Se quiser, você pode declarar de novo.")
    return WithdrawalResult(case.protocol, state_label, msg, told)


def deadline_line(deadline: Mapping[str, Any] | None, today: date,
                  lapsed_label: str | None) -> str:
    """The legal deadline after the withdrawal, plainly: running again, or already over."""
    if not deadline:
        return "Nenhum prazo legal está correndo agora."
    due = date.fromisoformat(str(deadline["due"])[:10])
    if due < today or lapsed_label:
        then = f" Situação agora: {lapsed_label}." if lapsed_label else ""
        return (f"O prazo legal para {deadline['description']} já terminou em {fmt_date(due)} "
                f"({deadline['article']}); a declaração não o prorrogou.{then}")
    return (f"O prazo legal continua valendo: {deadline['description']} até {fmt_date(due)} "
            f"({deadline['article']}).")


async def _events(s, case_id: int) -> list[Event]:
    return list((await s.execute(select(Event).where(Event.case_id == case_id)
                                 .order_by(Event.seq))).scalars().all())
