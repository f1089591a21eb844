"""The public Open311 GeoReport v2 view: services (the law's categories) and requests with
only what anyone may know — never the reporter, the owner, the description or the plate; the
photo only as its public copy (EXIF/GPS stripped). Reads only."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core
from core.services.panel_common import state_label
from core.storage.evidence import PublicCopy, UnsupportedMedia
from core.storage.models import Case, Evidence
from core.storage.protocol import PROTOCOL_RE


def _iso(dt: datetime | None) -> str | None:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if dt else None


def open311_services(core: Core) -> list[dict[str, Any]]:
    return [{"service_code": c.code, "service_name": c.label,
             "description": c.examples or c.label, "metadata": False, "type": "realtime",
             "keywords": c.article, "group": core.law.short} for c in core.law.categories.values()]


def _open311(core: Core, c: Case, media_url: str | None = None) -> dict[str, Any]:
    """Only what anyone may know: never the reporter, the owner, the description or the plate;
    the photo only as its public copy (EXIF/GPS stripped)."""
    cat = core.law.categories.get(c.category)
    dj = c.deadline_json or {}
    return {"service_request_id": c.protocol, "status": "open" if c.is_open else "closed",
            "status_notes": state_label(core, c.track, c.state),
            "service_name": cat.label if cat else c.category, "service_code": c.category,
            "agency_responsible": f"Prefeitura Municipal de {core.law.city}",
            "requested_datetime": _iso(c.created_at), "updated_datetime": _iso(c.updated_at),
            "expected_datetime": dj.get("due_at") if c.is_open else None,
            "address": c.address, "lat": round(c.lat, 5), "long": round(c.lon, 5),
            "media_url": media_url}


MEDIA_EXT = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}


async def _first_photos(s: AsyncSession, case_ids: list[int]) -> dict[int, str]:
    """Each case's first photo (the original's sha256)."""
    if not case_ids:
        return {}
    first = (select(func.min(Evidence.id)).where(Evidence.case_id.in_(case_ids),
                                                 Evidence.kind == "photo")
             .group_by(Evidence.case_id))
    rows = (await s.execute(select(Evidence.case_id, Evidence.sha256).where(
        Evidence.id.in_(first)))).all()
    return dict(rows)


async def _public_copy(core: Core, sha256: str) -> PublicCopy | None:
    """The EXIF/GPS-free copy of a stored photo (made once), or None (missing, not an image)."""
    if not core.evidence.exists(sha256):
        return None
    try:
        return await core.evidence.apublic_copy(sha256)
    except (UnsupportedMedia, ValueError, OSError):
        return None


async def public_media(core: Core, protocol: str, public_sha: str) -> PublicCopy | None:
    """The public copy `public_sha` if it is the public copy of one of this case's photos;
    None otherwise (never an original, never a document, never another case's file)."""
    if not PROTOCOL_RE.match(protocol or ""):
        return None
    async with core.db.read() as s:
        case_id = (await s.execute(select(Case.id).where(Case.protocol == protocol))
                   ).scalar_one_or_none()
        if case_id is None:
            return None
        shas = (await s.execute(select(Evidence.sha256).where(
            Evidence.case_id == case_id, Evidence.kind == "photo").order_by(Evidence.id))
                ).scalars().all()
    for sha in shas:
        copy = await _public_copy(core, sha)
        if copy is not None and copy.sha256 == public_sha:
            return copy
    return None


async def open311_requests(core: Core, *, ids: list[str] = (), service_code: str = "",
                           status: str = "", start: datetime | None = None,
                           end: datetime | None = None, limit: int = 200,
                           media_base: str = "") -> list[dict[str, Any]]:
    """Open311 requests, newest first. With `media_base` (the API's absolute URL prefix, e.g.
    "https://painel.exemplo/open311/v2/media"), each request's media_url points to the public
    copy of its first photo: `<media_base>/<protocol>/<public sha256>.<ext>`."""
    conds = []
    if ids:
        conds.append(Case.protocol.in_(list(ids)))
    if service_code:
        conds.append(Case.category == service_code)
    if status in ("open", "closed"):
        conds.append(Case.is_open.is_(status == "open"))
    if start:
        conds.append(Case.created_at >= start)
    if end:
        conds.append(Case.created_at <= end)
    async with core.db.read() as s:
        cases = (await s.execute(select(Case).where(*conds).order_by(
            Case.created_at.desc(), Case.id.desc()).limit(limit))).scalars().all()
        photos = await _first_photos(s, [c.id for c in cases]) if media_base else {}
    out = []
    for c in cases:
        url = None
        copy = await _public_copy(core, photos[c.id]) if c.id in photos else None
        if copy is not None:
            url = f"{media_base}/{c.protocol}/{copy.sha256}.{MEDIA_EXT.get(copy.mime, 'jpg')}"
        out.append(_open311(core, c, url))
    return out
