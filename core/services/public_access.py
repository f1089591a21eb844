"""The public pages' guards and the owner's page on the web.

Rate limit: each visitor key (the IP) may look up RATE_LIMIT cases (status or owner page) per
RATE_WINDOW; beyond it a RateLimited (Portuguese message, HTTP 429 at the face).

The owner's page is reached as in the bot (core.services.owner_access): by the case code
alone (the QR code's link) or by the case code and the plate (or the chassis' last four
characters). A wrong answer never says whether a case exists, and the same cool-down applies
(MAX_FAILURES wrong answers within COOL_DOWN lock the visitor for COOL_DOWN), persisted in
public_guards per IP. What it shows is the bot's owner view (core.services.owner_view:
deadline, conditions, the one fee statement) — nothing beyond what the bot would show the
owner; the web keeps no owner's situation, so the default release checklist applies.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from core.formatting import fmt_datetime
from core.laws.base import ReleaseSituation
from core.services.context import Core
from core.services.errors import Forbidden, NotFound
from core.services.owner_access import (WRONG_ANSWER, _answer_matches, _cool_down_message,
                                        count_failure)
from core.services.owner_view import OwnerView, _build_view
from core.storage.models import Case, Event, PublicGuard

RATE_LIMIT = 60
RATE_WINDOW = timedelta(minutes=10)


class RateLimited(Forbidden):
    """Too many look-ups from one visitor in the window."""


def _key(kind: str, visitor: str) -> str:
    return f"{kind}:{(visitor or '?')[:70]}"


async def _guard(s, key: str) -> PublicGuard:
    guard = await s.get(PublicGuard, key, with_for_update=True)
    if guard is None:
        guard = PublicGuard(key=key, failures=0, hits=0)
        s.add(guard)
    return guard


async def hit(core: Core, visitor: str) -> None:
    """Count one look-up by this visitor; RateLimited past RATE_LIMIT in RATE_WINDOW."""
    now = core.now()
    async with core.db.unit_of_work() as s:
        guard = await _guard(s, _key("rate", visitor))
        if guard.window_started_at is None or now - guard.window_started_at >= RATE_WINDOW:
            guard.window_started_at, guard.hits = now, 0
        guard.hits = (guard.hits or 0) + 1
        over = guard.hits > RATE_LIMIT
        retry = guard.window_started_at + RATE_WINDOW
    if over:
        local = retry.astimezone(ZoneInfo(core.settings.timezone))
        raise RateLimited("Muitas consultas a partir deste endereço. Por segurança, tente de "
                          f"novo a partir de {fmt_datetime(local)}.")


async def owner_page(core: Core, visitor: str, case_code: str, answer: str | None, *,
                     check_answer: bool) -> OwnerView:
    """The bot's owner view of the case, for a visitor who has the case code (and the plate,
    when `check_answer`); NotFound / Forbidden (cooling down) otherwise, as in the bot."""
    now = core.now()
    locked_until: datetime | None = None
    async with core.db.unit_of_work() as s:
        guard = await _guard(s, _key("owner", visitor))
        if guard.locked_until and guard.locked_until > now:
            raise Forbidden(_cool_down_message(core, guard.locked_until))
        code = (case_code or "").strip()[:40]
        case = (await s.execute(select(Case).where(Case.case_code == code))
                ).scalar_one_or_none() if code else None
        ok = case is not None and (not check_answer or _answer_matches(case, answer))
        if ok:
            guard.failures, guard.last_failure_at = 0, None
            events = list((await s.execute(select(Event).where(Event.case_id == case.id)
                                           .order_by(Event.seq))).scalars().all())
        else:
            locked_until = count_failure(guard, now)
    if not ok:
        raise Forbidden(_cool_down_message(core, locked_until)) if locked_until \
            else NotFound(WRONG_ANSWER)
    return await _build_view(core, case, events, ReleaseSituation())


