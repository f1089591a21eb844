"""Deadlines recounted when the city's calendar changes (Lei 9.784/1999, art. 66, § 1º).

"Considera-se prorrogado o prazo até o primeiro dia útil seguinte se o vencimento cair em dia
em que não houver expediente": a ponto facultativo or municipal holiday the city declares after
a deadline was counted moves that deadline if it ends on the closed day. Days inside the period
run on (§ 2º), so a new closure touches exactly the running deadlines whose due day it is; each
is recounted, the change is recorded on the case's timeline with its reason, and the linked
owner and the inspector are told the new date (core.services.messaging.notifications.tell_deadline_moved).

Decisions (README, "Counting deadlines"):
- Only running deadlines counted by the calendar are recounted; a date fixed by the act itself
  (the owner's agreed date, Dores Art. 6º, §3º: DeadlineRule amount 0) is not counted, so not
  moved. A deadline already over is not reopened.
- A recount never shortens a deadline. Removing a closure leaves the deadlines it extended as
  they are: the owner and the inspector were told the later date and may have planned on it
  (Lei 9.784/1999, art. 2º, parágrafo único, XIII: no retroactive application of a new
  reading; the good faith of art. 2º, caput, "segurança jurídica"), and shortening a
  deadline would remove an object before the date the owner was last given. A closure added
  later still moves such a deadline if its new due day is closed.
- The sweep re-checks the due day before acting on a lapse (recount_if_closed): a deadline
  counted with a calendar read before the closure reached this process is moved, not lapsed.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timezone
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import date_in_full, fmt_date
from core.identifiers import format_case_code
from core.legal_calendar import END_OF_DAY, LegalCalendar, why_sentence
from core.lifecycle import Lifecycle
from core.services.context import Core
from core.services.messaging.notifications import tell_deadline_moved
from core.storage.models import Case
from core.storage.timeline import ActorRef, append_event

#: The timeline event of a recount, its label (panel, public page) and its rule.
RECOUNT_ACTION = "deadline_extended"
RECOUNT_LABEL = "Prazo prorrogado: o vencimento caiu em dia sem expediente"
RULE = "Lei 9.784/1999, art. 66, § 1º"
CALENDAR_ACTOR = ActorRef("system", None, "Sistema (calendário de expediente)")


@dataclass(frozen=True)
class Recounted:
    protocol: str
    previous_due: date
    due: date
    description: str


def _start(value: str) -> date | datetime:
    if "T" in value or " " in value:
        dt = datetime.fromisoformat(value)
        return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
    return date.fromisoformat(value)


def recount(dj: dict[str, Any], cal: LegalCalendar, lifecycle: Lifecycle
            ) -> dict[str, Any] | None:
    """The deadline `dj` (case.deadline_json) counted again with `cal`, or None when its due
    day still has office hours (or it is a date fixed by the act, not counted). Never earlier
    than it was."""
    if int(dj.get("amount") or 0) < 1 or not dj.get("due"):
        return None
    old_due = date.fromisoformat(dj["due"])
    why = cal.non_business_reason(old_due)
    if why is None:
        return None
    old_at = datetime.fromisoformat(dj["due_at"])
    t = lifecycle.transitions.get(str(dj.get("transition")))
    event = ""
    if t is not None and t.deadline is not None:
        event = t.label if t.deadline.starts_from == "event" else \
            lifecycle.label_fact(t.deadline.starts_from)
    counted = None
    if dj.get("start"):
        count = cal.count_days if dj.get("unit") == "days" else cal.count_hours
        counted = count(_start(str(dj["start"])), int(dj["amount"]), article=dj["article"],
                        event=event)
    if counted is not None and counted.due_at > old_at:
        due, due_at, explanation = counted.due, counted.due_at, counted.explain()
        skipped = [[d.isoformat(), w] for d, w in counted.skipped]
    else:  # the due day kept from a closure since removed is now closed itself
        due = cal.next_business_day(old_due)
        clock = old_at.astimezone(cal.tz).time()
        due_at = datetime.combine(due, END_OF_DAY if dj.get("unit") == "days" or
                                  clock == time(0, 0) else clock, cal.tz)
        explanation = (f"{dj.get('explanation') or ''} Depois, {why_sentence(old_due, why)}: "
                       f"o prazo foi prorrogado até {fmt_date(due)} ({RULE}).").strip()
        skipped = [*dj.get("skipped", []), [old_due.isoformat(), why]]
    return {**dj, "due": due.isoformat(), "due_at": due_at.isoformat(),
            "due_in_full": date_in_full(due), "explanation": explanation, "skipped": skipped,
            "previous_due": old_due.isoformat(), "reason": why_sentence(old_due, why)}


async def apply_recount(core: Core, s: AsyncSession, case: Case, cal: LegalCalendar,
                        now: datetime, *, lapsing: bool = False) -> Recounted | None:
    """Recount the case's running deadline with `cal` (locked by the caller); record it on the
    timeline and tell the owner and the inspector. None when the deadline does not move.
    `lapsing`: the sweep is about to act on it (recount_if_closed); otherwise a deadline
    already over is not reopened."""
    dj = case.deadline_json
    if not case.is_open or not dj:
        return None
    if not lapsing and datetime.fromisoformat(dj["due_at"]) < now:
        return None
    core = core.for_case(case)
    lifecycle = core.law.tracks[case.track]
    new = recount(dict(dj), cal, lifecycle)
    if new is None:
        return None
    case.deadline_json = new
    case.next_deadline_at = datetime.fromisoformat(new["due_at"]).astimezone(timezone.utc)
    previous, due = date.fromisoformat(new["previous_due"]), date.fromisoformat(new["due"])
    data = {"deadline": {k: new[k] for k in ("due", "article", "description")},
            "previous_due": previous.isoformat(), "reason": new["reason"],
            "recounts": new.get("transition")}
    ev = await append_event(s, case, CALENDAR_ACTOR, RECOUNT_ACTION, RULE, data, public=True,
                            at=now)
    hour = ""
    if new.get("unit") == "hours":
        hour = f", às {datetime.fromisoformat(new['due_at']).astimezone(cal.tz):%H:%M}"
    changed = (f"{new['description']} até {new['due_in_full']} ({fmt_date(due)}){hour} — "
               f"{new['article']}. Antes era até {fmt_date(previous)}; mudou porque "
               f"{new['reason']}. Pela {RULE}, o prazo que vence em dia sem expediente passa "
               "para o primeiro dia útil seguinte.")
    await tell_deadline_moved(
        s, case, ev.seq,
        owner_text=f"Prazo prorrogado no seu caso {format_case_code(case.case_code)}: {changed}",
        inspector_text=f"Protocolo {case.protocol}: prazo prorrogado. Agora: {changed}",
        settings=core.settings)
    return Recounted(case.protocol, previous, due, new["description"])


async def recount_for_closure(core: Core, s: AsyncSession, day: date) -> list[Recounted]:
    """After a closure on `day` was added in `s`: every running deadline of the municipality
    that ends on that day, recounted (and only those)."""
    cal = await core.calendar(s)
    if cal.is_business_day(day):
        return []
    now = core.now()
    start = datetime.combine(day, time(0, 0), cal.tz).astimezone(timezone.utc)
    end = datetime.combine(day, END_OF_DAY, cal.tz).astimezone(timezone.utc)
    rows = (await s.execute(
        select(Case).where(Case.municipality == core.municipality, Case.is_open.is_(True),
                           Case.next_deadline_at.is_not(None),
                           Case.next_deadline_at >= max(start, now),
                           Case.next_deadline_at <= end)
        .order_by(Case.id).with_for_update())).scalars().all()
    out = []
    for case in rows:
        if (case.deadline_json or {}).get("due") != day.isoformat():
            continue
        done = await apply_recount(core, s, case, cal, now)
        if done is not None:
            out.append(done)
    return out


async def recount_if_closed(core: Core, s: AsyncSession, case: Case, now: datetime
                            ) -> Recounted | None:
    """Before the sweep acts on a lapse: if the deadline's due day has become a day without
    office hours, recount it instead (None otherwise)."""
    dj = case.deadline_json or {}
    if not dj.get("due"):
        return None
    core = core.for_case(case)  # the case's own city: its state holidays and closures
    cal = await core.calendar(s)
    if cal.is_business_day(date.fromisoformat(dj["due"])):
        return None
    lifecycle = core.law.tracks[case.track]
    new = recount(dict(dj), cal, lifecycle)
    if new is None or datetime.fromisoformat(new["due_at"]) <= now:
        return None
    return await apply_recount(core, s, case, cal, now, lapsing=True)
