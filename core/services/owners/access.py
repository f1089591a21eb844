"""Reaching a case as its owner: the QR deep link (the case code alone) or the case code and
the plate (or the chassis' last four characters); the Telegram account is then linked to the
case (OwnerLink). A wrong answer never says whether a case exists; five wrong answers cool the
account down for an hour. An owner sees only the cases linked to them."""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.formatting import fmt_datetime
from core.identifiers import InvalidIdentifier, case_code_keys, normalize_plate
from core.services.context import Core, SessionHook
from core.services.errors import Forbidden, NotFound
from core.services.citizens.people import person_for
from core.storage.models import Case, OwnerAccessGuard, OwnerLink, Person

WRONG_ANSWER = ("Não conseguimos abrir um caso com esses dados. Confira o código impresso no "
                "aviso e a placa (ou os 4 últimos caracteres do chassi) e tente de novo.")
NOT_LINKED = ("Não há caso vinculado a você com esse código. Abra o link do aviso deixado no "
              "objeto ou use /proprietario.")
MAX_FAILURES = 5
COOL_DOWN = timedelta(hours=1)


# -- reaching the case (the QR code's deep link, or the case code and plate) --------------------------------------------------------------------------

def _compact(text: str | None) -> str:
    return re.sub(r"[\s\-.]+", "", text or "").upper()


def _answer_matches(case: Case, answer: str | None) -> bool:
    if case.plate:
        try:
            return normalize_plate(answer or "").value == case.plate
        except InvalidIdentifier:
            return False
    if case.chassis:
        given, chassis = _compact(answer), case.chassis.upper()
        return len(given) >= 4 and (given == chassis[-4:] or given == chassis)
    return True


async def link(core: Core, telegram_id: int, case_code: str, answer: str | None, *,
               check_answer: bool, also: SessionHook | None = None) -> str:
    """Link this Telegram account to the case as its owner; the case code, or NotFound /
    Forbidden (cooling down) without saying whether the case exists."""
    now = core.now()
    locked_until: datetime | None = None
    async with core.db.unit_of_work() as s:
        guard = await s.get(OwnerAccessGuard, telegram_id, with_for_update=True)
        if guard is not None and guard.locked_until and guard.locked_until > now:
            raise Forbidden(cool_down_message(core, guard.locked_until))
        case = await _by_code(s, case_code)
        ok = case is not None and (not check_answer or _answer_matches(case, answer))
        if not ok:
            locked_until = await record_failure(s, guard, telegram_id, now)
        else:  # a right answer does not clear the count (count_failure)
            person = await person_for(s, telegram_id)
            link = (await s.execute(select(OwnerLink).where(
                OwnerLink.case_id == case.id, OwnerLink.person_id == person.id))
            ).scalar_one_or_none()
            if link is None:
                via = "deep_link" if not check_answer else (
                    "code_plate" if case.plate else "code_chassis" if case.chassis else "code")
                s.add(OwnerLink(case_id=case.id, person_id=person.id, via=via, situation={},
                                created_at=now))
                if "owner" not in (person.roles or []):
                    person.roles = [*(person.roles or []), "owner"]
            code = case.case_code
            if also is not None:
                await also(s)
    if not ok:
        raise Forbidden(cool_down_message(core, locked_until)) if locked_until \
            else NotFound(WRONG_ANSWER)
    return code


async def _by_code(s: AsyncSession, text: str | None) -> Case | None:
    """The case whose code is `text` as typed or scanned (core.identifiers.case_code_keys:
    "k7qm 42xd" finds K7QM42XD; an old 11-character code is found exactly as printed)."""
    keys = case_code_keys(text)
    if not keys:
        return None
    rows = (await s.execute(select(Case).where(Case.case_code.in_(keys)))).scalars().all()
    by_key = {c.case_code: c for c in rows}
    return next((by_key[k] for k in keys if k in by_key), None)


async def record_failure(s: AsyncSession, guard: OwnerAccessGuard | None, telegram_id: int,
                          now: datetime) -> datetime | None:
    """Count a wrong answer of a Telegram account (count_failure)."""
    if guard is None:
        guard = OwnerAccessGuard(telegram_id=telegram_id, failures=0)
        s.add(guard)
    return count_failure(guard, now)


def count_failure(guard, now: datetime) -> datetime | None:
    """The one cool-down rule against guessing, for the bot's accounts (OwnerAccessGuard) and
    the public owner page's visitors (PublicGuard): the MAX_FAILURES-th wrong answer within
    COOL_DOWN locks for COOL_DOWN; returns the end of the lock when one starts. A right
    answer in between never clears the count: a known code (one's own case, any notice on the
    street) would otherwise buy four more guesses each time."""
    if guard.last_failure_at and now - guard.last_failure_at > COOL_DOWN:
        guard.failures = 0
    guard.failures = (guard.failures or 0) + 1
    guard.last_failure_at = now
    if guard.failures >= MAX_FAILURES:
        guard.failures, guard.locked_until = 0, now + COOL_DOWN
        return guard.locked_until
    return None


def cool_down_message(core: Core, until: datetime) -> str:
    local = until.astimezone(core.tz)
    return ("Muitas tentativas sem sucesso. Por segurança, tente de novo a partir de "
            f"{fmt_datetime(local)}.")


async def owned(s: AsyncSession, telegram_id: int, case_code: str, *,
                 for_update: bool = False) -> tuple[Case, OwnerLink]:
    q = (select(Case, OwnerLink).join(OwnerLink, OwnerLink.case_id == Case.id)
         .join(Person, Person.id == OwnerLink.person_id)
         .where(Person.telegram_id == telegram_id,
                Case.case_code.in_(case_code_keys(case_code) or ("",))))
    if for_update:
        q = q.with_for_update(of=Case)
    row = (await s.execute(q)).first()
    if row is None:
        raise NotFound(NOT_LINKED)
    return row[0], row[1]
