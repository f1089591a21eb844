"""The photo of the notice affixed, when it never came (Dores Art. 4º, II, a: the notice is
printed, "afixada ... no vidro ou lataria do veículo", then photographed affixed).

The inspector receives the printable notice first and is asked for its photo right after the
step (the step's Transition.photo_after; core.services.inspectors.step_forms.record_after_step). If the inspector leaves that
question unanswered:
- from the first business day after the step, the inspector holding the case is reminded, on
  business days only and at most once a day (outbox dedupe key per case, step and day), with a
  button that asks for the photo again; the reminders stop as soon as the photo is recorded, the
  case closes, or the object left the street (once removed, there is nothing to photograph);
- from the STAFF_AFTER-th business day after the step, the case is in the staff's queue too
  (core.services.staff.queue), so someone calls the inspector or gives the case to another.
Everything is read from the database: the periodic job can run any number of times."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import fmt_date, local_date
from core.services.context import Core
from core.services.inspectors.tasks import chat_of, current_task
from core.storage import outbox
from core.storage.models import Case, Event, Inspector

KIND = "notice_photo_reminder"
#: Business days after the step from which a missing photo is also the staff's concern.
STAFF_AFTER = 3
BUTTON = "📷 Enviar a foto"


@dataclass(frozen=True)
class MissingPhoto:
    case_id: int
    protocol: str
    code: str  # the step whose document is photographed (Transition.photo_after)
    fact: str
    article: str
    label: str  # Portuguese: what is missing ("foto da notificação afixada no objeto")
    step_seq: int  # the step's event
    since: datetime  # when the step was taken
    task_id: int | None  # who holds the case now (None: nobody)
    inspector_id: int | None


@dataclass
class NoticePhotoReport:
    queued: list[tuple[str, date]] = field(default_factory=list)  # (protocol, day)


async def missing_photos(core: Core, s: AsyncSession, protocols: list[str] | None = None
                         ) -> list[MissingPhoto]:
    """Open cases where a step's photo of its document (Transition.photo_after) was never
    recorded while the object is still on the street, oldest step first (optionally only
    `protocols`); `core`'s city's cases only (the periodic job runs it for each city)."""
    on_street = sorted({code for lifecycle in core.law.tracks.values()
                        for code, state in lifecycle.states.items() if state.in_public_space})
    steps = sorted({code for lifecycle in core.law.tracks.values()
                    for code, t in lifecycle.transitions.items() if t.photo_after})
    if not steps:
        return []
    q = (select(Case, Event.seq, Event.action, Event.at).join(Event, Event.case_id == Case.id)
         .where(Case.municipality == core.municipality, Case.is_open.is_(True),
                Case.state.in_(on_street),
                Event.action.in_(steps))
         .order_by(Event.at, Event.seq))
    if protocols is not None:
        q = q.where(Case.protocol.in_(protocols))
    latest: dict[int, tuple[Case, int, str, datetime]] = {}
    for case, seq, action, at in (await s.execute(q)).all():
        latest[case.id] = (case, seq, action, at)  # a step taken again: the last one counts
    out = []
    for case, seq, code, at in latest.values():
        lifecycle = core.law.tracks.get(case.track)
        if lifecycle is None or code not in lifecycle.transitions \
                or not lifecycle.state(case.state).in_public_space:
            continue
        fact = lifecycle.transitions[code].photo_after
        if not fact or ((case.details or {}).get("facts") or {}).get(fact):
            continue
        task = await current_task(s, case.id)
        out.append(MissingPhoto(case.id, case.protocol, code, fact,
                                lifecycle.transitions[code].article, lifecycle.label_fact(fact),
                                seq, at, task.id if task else None,
                                task.inspector_id if task else None))
    out.sort(key=lambda m: (m.since, m.protocol))
    return out


async def pending_photo(core: Core, protocol: str, inspector_id: int | None = None
                        ) -> MissingPhoto | None:
    """The photo still missing on `protocol` (only if `inspector_id` holds the case, when
    given), else None."""
    async with core.db.read() as s:
        found = await missing_photos(core, s, [protocol])
    return next((m for m in found if inspector_id is None or m.inspector_id == inspector_id),
                None)


async def overdue_for_staff(core: Core, s: AsyncSession, now: datetime | None = None
                            ) -> list[MissingPhoto]:
    """Missing photos STAFF_AFTER business days or more after their step (the staff's queue)."""
    today = local_date(now or core.now())
    cal = await core.calendar()
    out = []
    for m in await missing_photos(core, s):
        due = local_date(m.since)
        for _ in range(STAFF_AFTER):
            due = cal.next_business_day(due)
        if today >= due:
            out.append(m)
    return out


async def notice_photo_reminders(core: Core, now: datetime | None = None) -> NoticePhotoReport:
    """Remind the inspector holding each case whose photo is missing (module docstring)."""
    now = now or core.now()
    today = local_date(now)
    report = NoticePhotoReport()
    cal = await core.calendar()
    if not cal.is_business_day(today):
        return report
    async with core.db.unit_of_work() as s:
        for m in await missing_photos(core, s):
            if m.task_id is None or today < cal.next_business_day(local_date(m.since)):
                continue  # nobody holds it (the staff's queue says so), or not yet
            inspector = await s.get(Inspector, m.inspector_id)
            text = (f"Lembrete — protocolo {m.protocol}\n"
                    f"A notificação foi afixada em {fmt_date(local_date(m.since))}, mas a "
                    f"{m.label} ainda não foi enviada ({m.article}). Toque em "
                    f"“{BUTTON}” e envie a foto dela afixada.")
            payload = {"text": text, "protocol": m.protocol, "task_id": m.task_id,
                       "buttons": [[{"text": BUTTON, "intent": "notice.photo",
                                     "case": m.protocol, "step": m.code}]]}
            key = f"notice_photo:{m.case_id}:{m.step_seq}:{today.isoformat()}"
            if await outbox.enqueue(s, await chat_of(s, inspector), KIND, payload, key):
                report.queued.append((m.protocol, today))
    return report
