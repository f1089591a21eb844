"""A report the staff find to be another case's duplicate: closed as such and merged into
the original (its followers and photos go there). Every case change goes through
core.services.cases.transitions.apply_transition with the staff member as the actor."""
from __future__ import annotations

from sqlalchemy import select

from core.services.cases.transitions import TransitionResult, apply_transition
from core.services.staff.scope import load_here
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.staff.accounts import StaffUserInfo
from core.storage.models import Evidence, Subscription, SupportingReport
from core.storage.timeline import append_event


async def close_as_duplicate(core: Core, ref: str, original_ref: str, reason: str,
                             by: StaffUserInfo) -> TransitionResult:
    """Close a report as a duplicate of another case and merge it there: its followers follow
    the original, and its photos become a supporting report of the original."""
    async with core.db.unit_of_work() as s:
        case = await load_here(s, core, ref, for_update=True)
        try:
            original = await load_here(s, core, original_ref.strip())
        except NotFound:
            raise InvalidInput(f"Caso original “{original_ref}” não encontrado.") from None
        if original.id == case.id:
            raise InvalidInput("Um caso não pode ser duplicado de si mesmo.")
        if not original.is_open:
            raise InvalidInput(f"O caso original {original.protocol} já está encerrado.")
        text = reason.strip() or f"Esta ocorrência já é acompanhada no protocolo {original.protocol}."
        result = await apply_transition(core, case.id, "close_duplicate", by.actor(),
                                        {"duplicate_of": original.protocol, "reason": text},
                                        session=s)
        followers = (await s.execute(select(Subscription).where(
            Subscription.case_id == case.id))).scalars().all()
        already = set((await s.execute(select(Subscription.person_id).where(
            Subscription.case_id == original.id))).scalars().all())
        for sub in followers:
            if sub.person_id not in already:
                s.add(Subscription(person_id=sub.person_id, case_id=original.id,
                                   notify=sub.notify))
        photos = list((await s.execute(select(Evidence.sha256).where(
            Evidence.case_id == case.id).order_by(Evidence.id))).scalars().all())
        s.add(SupportingReport(case_id=original.id, person_id=case.reporter_id,
                               created_at=core.now(), photos=photos,
                               note=f"Denúncia {case.protocol} incorporada (duplicada)."))
        await append_event(s, original, by.actor(), "merge_duplicate", None,
                           {"duplicate": case.protocol, "photos": photos}, public=False,
                           at=core.now())
        return result
