"""A lifecycle step and the legal document it produces, committed together.

A step that starts a legal deadline on a document (the notificação's days run from it: Dores
Art. 4º, I and II, a; the termo of the depot entry, Art. 6º, I, b; Dracena's auto, Art. 2º
and Art. 3º; the intimação, Art. 2º, §3º; the nota and the depot register entry, Art. 4º,
§1º and Art. 6º) is taken in the same transaction as its document: if the document cannot be
produced (e.g. the bot's username is not known yet, so no owner link), the step is refused
and the case stays as it was. Both faces (the inspector's form in the bot, the staff's case
page in the panel) take steps through `take_step`. Which document a step produces is the
step's own declaration (Transition.document), issued by its kind's issuer
(core.services.papers.kinds)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from core.services.papers import documents as docs
from core.services.cases.transitions import TransitionResult, apply_transition, load_case
from core.services.context import Core
from core.services.papers.kinds import document_kind
from core.storage.timeline import ActorRef


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
    """The document step `code` declares (Transition.document), just taken in `session`
    (none for most steps); InvalidInput (Portuguese) if it cannot be produced, which rolls
    the step back."""
    case = await load_case(session, protocol)
    core = core.for_case(case)
    t = core.law.tracks[case.track].transitions.get(code)
    if t is None or not t.document:
        return []
    kind = document_kind(core.law, t.document)
    if kind is None:
        raise ValueError(f"{case.track}: {code} issues unknown document {t.document}")
    return [await kind.issue(core, protocol, by, session=session)]
