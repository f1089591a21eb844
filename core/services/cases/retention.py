"""Evidence retention (Dores Art. 6º, I, a: photos and videos are kept "até a destinação final
do objeto e conclusão do processo"; then the city's archive rule, EVIDENCE_RETENTION_DAYS).

When a case reaches a final state its evidence gets `retain_until` = closing + retention; the
periodic purge then deletes expired files that no other live evidence row still needs (files
are content-addressed and may be shared). The timeline keeps each file's SHA-256, so what was
shown remains provable after the bytes are gone.

A counter reporter's contact (core.services.staff.counter_intake, LGPD) is the reporter's data: it gets the
same `retain_until` at closing and is deleted by the same purge, as is an owner's e-mail address
left on the web owner page; e-mails sent or given up are deleted after the same retention."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.storage.models import Evidence, ReporterContact
from core.storage.models_email import EmailMessage, OwnerEmail
from core.storage.timeline import ActorRef, append_event


async def set_retention(core: Core, s: AsyncSession, case_id: int, closed_at: datetime) -> None:
    """Start the retention clock of a case's evidence (in the closing transaction)."""
    until = closed_at + timedelta(days=core.settings.evidence_retention_days)
    await s.execute(update(Evidence).where(Evidence.case_id == case_id)
                    .values(retain_until=until).execution_options(synchronize_session=False))
    for model in (ReporterContact, OwnerEmail):
        await s.execute(update(model).where(model.case_id == case_id)
                        .values(retain_until=until).execution_options(synchronize_session=False))


async def clear_retention(s: AsyncSession, case_id: int) -> None:
    """A closed case reopened: its process is not concluded, so nothing of it may be purged
    (Art. 6º, I, a: "até a destinação final do objeto e conclusão do processo")."""
    await s.execute(update(Evidence).where(Evidence.case_id == case_id)
                    .values(retain_until=None).execution_options(synchronize_session=False))
    await s.execute(update(ReporterContact).where(ReporterContact.case_id == case_id)
                    .values(retain_until=None).execution_options(synchronize_session=False))


@dataclass
class PurgeReport:
    files_deleted: list[str] = field(default_factory=list)
    rows_deleted: int = 0


async def purge_expired_evidence(core: Core, now: datetime | None = None,
                                 limit: int = 500) -> PurgeReport:
    now = now or core.now()
    report = PurgeReport()
    async with core.db.unit_of_work() as s:
        await s.execute(delete(ReporterContact).where(ReporterContact.retain_until.is_not(None),
                                                      ReporterContact.retain_until < now))
        await s.execute(delete(OwnerEmail).where(OwnerEmail.retain_until.is_not(None),
                                                 OwnerEmail.retain_until < now))
        await s.execute(delete(EmailMessage).where(
            EmailMessage.status.in_(("sent", "failed")), EmailMessage.created_at
            < now - timedelta(days=core.settings.evidence_retention_days)))
        expired = (await s.execute(select(Evidence).where(
            Evidence.retain_until.is_not(None), Evidence.retain_until < now).limit(limit))
        ).scalars().all()
        if not expired:
            return report
        shas = {e.sha256 for e in expired}
        still_needed = set((await s.execute(select(Evidence.sha256).where(
            Evidence.sha256.in_(shas),
            or_(Evidence.retain_until.is_(None), Evidence.retain_until >= now)))).scalars())
        by_case: dict[int, list[str]] = {}
        for e in expired:
            by_case.setdefault(e.case_id, []).append(e.sha256)
        for case_id, case_shas in by_case.items():
            await append_event(s, case_id, ActorRef("system", None, "Sistema (retenção)"),
                               "evidence_purged", "Art. 6º, I, a",
                               {"sha256": sorted(case_shas),
                                "retention_days": core.settings.evidence_retention_days},
                               public=False, at=now)
        result = await s.execute(delete(Evidence).where(
            Evidence.id.in_([e.id for e in expired])))
        report.rows_deleted = result.rowcount or 0
    for sha in sorted(shas - still_needed):  # after the commit: rows first, then bytes
        path = core.evidence.path_of(sha)
        pointer = path.with_name(sha + ".public")  # the EXIF-free public copy, if made
        if pointer.is_file():
            core.evidence.path_of(pointer.read_text().strip()).unlink(missing_ok=True)
            pointer.unlink()
        path.unlink(missing_ok=True)
        report.files_deleted.append(sha)
    return report
