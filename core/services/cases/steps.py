"""A lifecycle step and the legal document it produces, committed together.

A step that starts a legal deadline on a document (the notificação's days run from it: Dores
Art. 4º, I and II, a; the termo of the depot entry, Art. 6º, I, b; Dracena's auto, Art. 2º
and Art. 3º; the intimação, Art. 2º, §3º; the nota and the depot register entry, Art. 4º,
§1º and Art. 6º) is taken in the same transaction as its document: if the document cannot be
produced (e.g. the bot's username is not known yet, so no owner link), the step is refused
and the case stays as it was. Both faces (the inspector's form in the bot, the staff's case
page in the panel) take steps through `take_step`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from core.services.papers import documents as docs
from core.services.inspectors.day_notices import issue_affixed_notice
from core.services.cases.transitions import TransitionResult, apply_transition
from core.services.context import Core
from core.storage.timeline import ActorRef

#: The document each step produces (Dores Art. 4º, I (Anexo I); Art. 4º, II, a; Art. 6º, I, b;
#: Dracena Art. 2º; Art. 2º, §3º (intimação); Art. 4º, §1º (nota); Art. 4º and Art. 6º (entry
#: in the depot register)).
DOCUMENT_AFTER: dict[str, Callable[..., Awaitable[docs.Issued]]] = {
    "notify_owner": docs.issue_notification,
    "affix_notice": issue_affixed_notice,
    "depot_entry": docs.issue_removal_term,
    "issue_auto": docs.issue_auto_infracao,
    "issue_auto_absent": docs.issue_auto_infracao,
    "serve_intimacao": docs.issue_intimacao,
    "low_value_note": docs.issue_low_value_note,
    "apprehend": docs.issue_apprehension,
}


@dataclass(frozen=True)
class StepTaken:
    result: TransitionResult
    documents: list[docs.Issued] = field(default_factory=list)


async def take_step(core: Core, ref: str | int, code: str, actor: ActorRef,
                    facts: Mapping[str, Any] | None = None, *, agency: str | None = None,
                    session: AsyncSession | None = None) -> StepTaken:
    """Take step `code` and issue its document (if it has one) in one transaction: the
    caller's `session`, or a unit of work of its own."""
    if session is None:
        async with core.db.unit_of_work() as s:
            return await take_step(core, ref, code, actor, facts, agency=agency, session=s)
    result = await apply_transition(core, ref, code, actor, facts, agency=agency,
                                    session=session)
    return StepTaken(result, await document_for(core, session, code, result.protocol, actor))


async def document_for(core: Core, session: AsyncSession, code: str, protocol: str,
                       by: ActorRef) -> list[docs.Issued]:
    """The document of step `code`, just taken in `session` (none for most steps);
    InvalidInput (Portuguese) if it cannot be produced, which rolls the step back."""
    if code not in DOCUMENT_AFTER:
        return []
    return [await DOCUMENT_AFTER[code](core, protocol, by, session=session)]
