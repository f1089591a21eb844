"""The public pages' guards and the owner's page on the web.

Who is counted: a client, not an address (client_key): an IPv4 address, or an IPv6 /64 (one
subscriber's network: a phone or a home gets a whole /64, so counting addresses would let one
client try 2⁶⁴ times).

Rate limit: each client may look up RATE_LIMIT cases (status page, its photo, owner page) per
RATE_WINDOW; beyond it a RateLimited (Portuguese message, HTTP 429 at the face).

The owner's page is installation-wide: the case code finds the case in any city, then the page
is its city's (core.for_case). It is reached by the case code as printed ("34C5-KSCY"; lower
case, spaces and dashes read as the bot reads them, core.identifiers.case_code_keys). The code
alone (the QR code's link) shows only the case's public projection (core.services.public.case)
and asks for a proof; the owner's view (core.services.owners.view: deadline, conditions, the
one fee statement) needs the code and a proof the notice does not show — the plate (with or
without the dash), the chassis' last four characters or the owner's CPF/CNPJ (core.services.
owner_proof.proof_of) — on every path. An object with none of them opens on the code alone, as
in the bot. A wrong answer never says whether a case exists; a code that cannot be one
(malformed) is answered as such and counts for nothing; every other wrong answer counts towards
the bot's cool-down (MAX_FAILURES within COOL_DOWN lock the client for COOL_DOWN), persisted in
public_guards; a right answer does not clear the count (else guesses between known codes would
never lock).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from ipaddress import ip_address, ip_network

from sqlalchemy import select

from core.formatting import fmt_datetime
from core.identifiers import BAD_CASE_CODE, case_code_keys
from core.laws.base import ReleaseSituation
from core.municipality import City
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput, NotFound
from core.services.owners.access import WRONG_ANSWER, cool_down_message, count_failure
from core.services.owners.proof import owner_document, proof_of
from core.services.owners.view import OwnerView, build_view
from core.services.public.case import PublicCase, load_public
from core.storage.dialect import insert_ignore
from core.storage.models import Case, Event, PublicGuard

RATE_LIMIT = 60
RATE_WINDOW = timedelta(minutes=10)
IPV6_PREFIX = 64


class RateLimited(Forbidden):
    """Too many look-ups from one client in the window."""


def client_key(visitor: str) -> str:
    """The client behind an address: an IPv4 address as is, an IPv6 address as its /64."""
    text = (visitor or "").strip()
    try:
        ip = ip_address(text)
    except ValueError:
        return text[:60] or "?"
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        return str(mapped)
    if ip.version == 6:
        return str(ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


def _key(kind: str, visitor: str) -> str:
    return f"{kind}:{client_key(visitor)}"


async def _guard(s, key: str) -> PublicGuard:
    """The client's guard row, locked; created when missing without a race (a page and its
    photo arrive together: two first requests must not both insert it)."""
    await s.execute(insert_ignore(s, PublicGuard.__table__,
                                  {"key": key, "failures": 0, "hits": 0}, ["key"]))
    return await s.get(PublicGuard, key, with_for_update=True, populate_existing=True)


async def count_in(s, now: datetime, kind: str, visitor: str, limit: int,
                   window: timedelta) -> datetime | None:
    """In the caller's transaction: count one request of `kind` by this client; past `limit`
    in `window`, the instant it may try again (None within the limit)."""
    guard = await _guard(s, _key(kind, visitor))
    if guard.window_started_at is None or now - guard.window_started_at >= window:
        guard.window_started_at, guard.hits = now, 0
    guard.hits = (guard.hits or 0) + 1
    return guard.window_started_at + window if guard.hits > limit else None


async def over(core: Core, kind: str, visitor: str, limit: int,
               window: timedelta) -> datetime | None:
    """Read only: the instant this client may try `kind` again when it already made `limit`
    requests in the window (None while within it). A page that counts its request inside its
    own write (count_in) checks with this first, so nothing over the limit is done."""
    async with core.db.read() as s:
        return await over_in(s, core.now(), kind, visitor, limit, window)


async def over_in(s, now: datetime, kind: str, visitor: str, limit: int,
                  window: timedelta) -> datetime | None:
    """`over` in the caller's session (beside the other reads of its request)."""
    guard = await s.get(PublicGuard, _key(kind, visitor))
    if guard is None or guard.window_started_at is None:
        return None
    if now - guard.window_started_at >= window or (guard.hits or 0) < limit:
        return None
    return guard.window_started_at + window


def limited(core: Core, message: str, retry: datetime) -> RateLimited:
    """The refusal, `message` naming the hour it may try again ("{at}")."""
    return RateLimited(message.format(at=fmt_datetime(retry.astimezone(core.tz))))


async def count(core: Core, kind: str, visitor: str, limit: int, window: timedelta,
                message: str) -> None:
    """Count one request of `kind` by this client in a transaction of its own; RateLimited
    past `limit` in `window` (`message` names the hour it may try again: "{at}")."""
    now = core.now()
    async with core.db.unit_of_work() as s:
        retry = await count_in(s, now, kind, visitor, limit, window)
    if retry is not None:
        raise limited(core, message, retry)


async def hit(core: Core, visitor: str) -> None:
    """Count one look-up by this client; RateLimited past RATE_LIMIT in RATE_WINDOW."""
    await count(core, "rate", visitor, RATE_LIMIT, RATE_WINDOW,
                "Muitas consultas a partir deste endereço. Por segurança, tente de novo a "
                "partir de {at}.")


@dataclass(frozen=True)
class OwnerPage:
    """What the owner's web page shows: the public projection and, after a proof, the owner's
    view (None before)."""
    code: str  # the case code as stored (the form's hidden field)
    public: PublicCase
    view: OwnerView | None = None
    city: City | None = None  # the case's city (the code finds a case in any city)


async def owner_page(core: Core, visitor: str, case_code: str | None,
                     answer: str | None = None) -> OwnerPage:
    """The owner's page for a client with the case code: the public projection while
    `answer` is None (the QR code's link) — the owner's view once `answer` proves it (or the
    object has nothing to prove it with). InvalidInput for a malformed code (not counted);
    NotFound for a wrong code or proof, Forbidden while cooling down."""
    keys = case_code_keys((case_code or "")[:40])
    if not keys:
        raise InvalidInput(BAD_CASE_CODE)
    now = core.now()
    locked_until: datetime | None = None
    view_events = None
    async with core.db.unit_of_work() as s:
        guard = await _guard(s, _key("owner", visitor))
        if guard.locked_until and guard.locked_until > now:
            raise Forbidden(cool_down_message(core, guard.locked_until))
        rows = (await s.execute(select(Case).where(Case.case_code.in_(keys)))).scalars().all()
        by_key = {c.case_code: c for c in rows}
        case = next((by_key[k] for k in keys if k in by_key), None)
        ok = case is not None
        if ok and answer is not None:
            document = await owner_document(s, case)
            needs = bool(case.plate or case.chassis or document)
            ok = not needs or proof_of(case, document, answer) is not None
            if ok:
                view_events = list((await s.execute(select(Event).where(
                    Event.case_id == case.id).order_by(Event.seq))).scalars().all())
        if not ok:
            locked_until = count_failure(guard, now)
        else:  # the code is installation-wide: the case's own city from here on
            core = core.for_case(case)
            public = await load_public(core, s, case.protocol)
    if not ok:
        raise Forbidden(cool_down_message(core, locked_until)) if locked_until \
            else NotFound(WRONG_ANSWER)
    view = await build_view(core, case, view_events, ReleaseSituation()) \
        if view_events is not None else None
    return OwnerPage(case.case_code, public, view, core.city)
