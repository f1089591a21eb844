"""The public Open311 GeoReport v2 requests (services and POST: core.services.public.open311_services):
each request is the public projection of its case (core.services.public.case.public_view) —
the neighbourhood as `address`, the point to the block, the state in its public words; never
the address as typed, the reporter, the owner, the description or the plate; the photo only
as the public copy of the photo public_photos names. The spec's 90-day window and pages.
Reads only."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import select

from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.services.public.open311_services import services as open311_services  # noqa: F401
from core.services.public.case import COLUMNS, PublicCase, public_cases, public_photos
from core.storage.evidence import PublicCopy, UnsupportedMedia
from core.storage.models import Case
from core.storage.protocol import PROTOCOL_RE


def _iso(dt: datetime | None) -> str | None:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def _open311(core: Core, c: PublicCase, media_url: str | None = None) -> dict[str, Any]:
    """One request from the public projection, and from nothing else."""
    due = c.deadline.due_at if c.deadline else None
    return {"service_request_id": c.protocol, "status": "open" if c.is_open else "closed",
            "status_notes": c.state_label, "service_name": c.category_label,
            "service_code": c.category,
            "agency_responsible": f"Prefeitura Municipal de {core.city.name}",
            "service_notice": notice(c.protocol, c.state_label),
            "requested_datetime": _iso(c.created_at), "updated_datetime": _iso(c.updated_at),
            "expected_datetime": _iso(due) if c.is_open else None,
            "address": c.neighbourhood, "address_id": None, "zipcode": None,
            "lat": c.lat, "long": c.lon, "media_url": media_url}


def notice(protocol: str, state: str) -> str:
    """The spec's service_notice: the protocol and the case's state in plain words."""
    return f"Protocolo {protocol}: {state}."


MEDIA_EXT = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}


async def _public_copy(core: Core, sha256: str) -> PublicCopy | None:
    """The EXIF/GPS-free copy of a stored photo (made once), or None (missing, not an image)."""
    if not core.evidence.exists(sha256):
        return None
    try:
        return await core.evidence.apublic_copy(sha256)
    except (UnsupportedMedia, ValueError, OSError):
        return None


async def public_media(core: Core, protocol: str, public_sha: str) -> PublicCopy | None:
    """The public copy `public_sha` if it is the public copy of this case's public photo
    (public_photos); None otherwise (never an original, a document, a photo public_photos
    does not name, another case's file). Installation-wide, as its URL (the requests list
    gives it) names no jurisdiction: the protocol and the copy's hash must both match."""
    if not PROTOCOL_RE.match(protocol or ""):
        return None
    async with core.db.read() as s:
        case_id = (await s.execute(select(Case.id).where(Case.protocol == protocol))
                   ).scalar_one_or_none()
        if case_id is None:
            return None
        sha = (await public_photos(s, [case_id])).get(case_id)
    copy = await _public_copy(core, sha) if sha else None
    return copy if copy is not None and copy.sha256 == public_sha else None


#: The spec's default window for GET requests, and the longest a start/end range may span.
WINDOW = timedelta(days=90)
#: Requests per page (extension: `page_size`, at most MAX_PAGE_SIZE; `page` from 1).
PAGE_SIZE = MAX_PAGE_SIZE = 200
MAX_IDS = 200


@dataclass(frozen=True)
class RequestQuery:
    """GET requests' parameters, already parsed (dates aware)."""
    ids: tuple[str, ...] = ()
    service_codes: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    start: datetime | None = None
    end: datetime | None = None
    page: int = 1
    page_size: int = PAGE_SIZE


def window(core: Core, start: datetime | None, end: datetime | None
           ) -> tuple[datetime, datetime]:
    """The spec's range: the last 90 days when neither date is given; 90 days after `start`
    or before `end` when only one is; never more than 90 days (400 otherwise)."""
    if start is None and end is None:
        end = core.now()
    if start is None:
        start = end - WINDOW
    if end is None:
        end = start + WINDOW
    if end < start:
        raise InvalidInput("end_date é anterior a start_date.")
    if end - start > WINDOW:
        raise InvalidInput("O intervalo entre start_date e end_date não pode passar de 90 dias.")
    return start, end


def _split(raw: str, allowed: set[str] | None, name: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(i.strip() for i in raw.split(",") if i.strip()))
    if len(items) > MAX_IDS:
        raise InvalidInput(f"{name}: no máximo {MAX_IDS} valores.")
    if allowed is not None and any(i not in allowed for i in items):
        raise InvalidInput(f"{name} inválido. Use: " + ", ".join(sorted(allowed)) + ".")
    return items


def request_query(core: Core, *, ids: str = "", service_code: str = "", status: str = "",
                  start: datetime | None = None, end: datetime | None = None,
                  page: str = "", page_size: str = "") -> RequestQuery:
    """Parse GET requests' comma lists and paging (400 with a Portuguese reason when bad). A
    service_request_id list overrides every other filter, as the spec says."""
    numbers = []
    for name, raw, default, top in (("page", page, 1, 10 ** 6),
                                    ("page_size", page_size, PAGE_SIZE, MAX_PAGE_SIZE)):
        if not raw:
            numbers.append(default)
        elif re.fullmatch(r"[0-9]{1,7}", raw) and 1 <= int(raw) <= top:
            numbers.append(int(raw))
        else:
            raise InvalidInput(f"{name} deve ser um número de 1 a {top}.")
    found = _split(ids, None, "service_request_id")
    if found:
        return RequestQuery(ids=found, page=numbers[0], page_size=numbers[1])
    start, end = window(core, start, end)
    return RequestQuery(service_codes=_split(service_code, set(core.law.categories),
                                             "service_code"),
                        statuses=_split(status, {"open", "closed"}, "status"),
                        start=start, end=end, page=numbers[0], page_size=numbers[1])


async def open311_requests(core: Core, q: RequestQuery, *, media_base: str = ""
                           ) -> list[dict[str, Any]]:
    """Open311 requests of the city (the jurisdiction), newest first, one page. With
    `media_base` (the API's absolute URL prefix, e.g.
    "https://painel.exemplo/open311/v2/media"), each request's media_url points to the public
    copy of its first photo: `<media_base>/<protocol>/<public sha256>.<ext>` (a photo recorded only by reference is never given out: nothing proves it EXIF-free)."""
    conds = [Case.municipality == core.municipality]
    if q.ids:
        conds.append(Case.protocol.in_([i for i in q.ids if PROTOCOL_RE.match(i)]))
    if q.service_codes:
        conds.append(Case.category.in_(q.service_codes))
    if len(q.statuses) == 1:
        conds.append(Case.is_open.is_(q.statuses[0] == "open"))
    if q.start:
        conds.append(Case.created_at >= q.start)
    if q.end:
        conds.append(Case.created_at <= q.end)
    async with core.db.read() as s:
        rows = (await s.execute(select(*COLUMNS).where(*conds).order_by(
            Case.created_at.desc(), Case.id.desc()).offset((q.page - 1) * q.page_size)
            .limit(q.page_size))).all()
        cases = await public_cases(core, s, rows)
    out = []
    for c in cases:
        url = None
        copy = await _public_copy(core, c.photo) if c.photo and media_base else None
        if copy is not None:
            url = f"{media_base}/{c.protocol}/{copy.sha256}.{MEDIA_EXT.get(copy.mime, 'jpg')}"
        out.append(_open311(core, c, url))
    return out


async def open311_request(core: Core, protocol: str, *, media_base: str = ""
                          ) -> dict[str, Any]:
    """GET requests/{service_request_id}: one request (NotFound when unknown)."""
    rows = await open311_requests(core, RequestQuery(ids=(protocol,), page_size=1),
                                  media_base=media_base)
    if not rows:
        raise NotFound("Solicitação não encontrada.")
    return rows[0]
