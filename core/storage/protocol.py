"""Protocol numbers (AAAA-NNNNNN) and the public case code.

Allocation runs inside the submitting transaction: UPDATE ... SET last = last + 1 RETURNING
last; when the year's row does not exist yet it is created with INSERT ... ON CONFLICT DO
NOTHING (race-safe on both engines: a concurrent creator makes it a no-op) and the UPDATE is
repeated. The UPDATE holds the row's lock (PostgreSQL) or the write lock
(SQLite) until the transaction ends, so concurrent submissions queue and each gets the next
number. If the submission rolls back, so does the increment: the number is handed to the
next submission, never to two cases, and the yearly sequence has no gaps.
"""
from __future__ import annotations

import re
import secrets

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from core.identifiers import CASE_CODE_ALPHABET, CASE_CODE_LENGTH
from core.storage.dialect import insert_ignore
from core.storage.models import ProtocolCounter

PROTOCOL_RE = re.compile(r"^\d{4}-\d{6}$")
#: A stored case code: the typable 8-character Crockford form, or an old 11-character one.
CASE_CODE_RE = re.compile(r"^(?:[0-9A-HJKMNP-TV-Z]{8}|[A-Za-z0-9_-]{11})$")


def format_protocol(year: int, number: int) -> str:
    if number > 999_999:
        raise OverflowError(f"protocol counter for {year} exhausted")
    return f"{year:04d}-{number:06d}"


async def allocate_protocol(session: AsyncSession, year: int) -> str:
    """The next protocol of `year` ("2026-000042"), allocated in the session's transaction."""
    return (await allocate_protocols(session, year, 1))[0]


async def allocate_protocols(session: AsyncSession, year: int, count: int) -> list[str]:
    """The next `count` protocols of `year`, in order, with one UPDATE (a grouped commit of
    several submissions); same guarantees as `allocate_protocol`."""
    if count < 1:
        raise ValueError("count must be at least 1")
    table = ProtocolCounter.__table__
    bump = (update(table).where(table.c.year == year).values(last=table.c.last + count)
            .returning(table.c.last))
    last = (await session.execute(bump)).scalar_one_or_none()
    if last is None:  # first submission of the year (or of a racing pair): create the row
        await session.execute(insert_ignore(session, table, {"year": year, "last": 0}, ["year"]))
        last = (await session.execute(bump)).scalar_one()
    return [format_protocol(year, n) for n in range(last - count + 1, last + 1)]


def new_case_code() -> str:
    """An unguessable code of 8 characters from Crockford's base 32 (40 random bits) for the
    owner's QR link and Telegram deep links, stored without the dash and printed grouped by
    core.identifiers.format_case_code ("K7QM-42XD"); unrelated to the protocol, so protocols
    can't be walked (the owner's wrong attempts are counted and cooled down:
    core.services.owners.access)."""
    return "".join(secrets.choice(CASE_CODE_ALPHABET) for _ in range(CASE_CODE_LENGTH))
