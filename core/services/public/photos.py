"""Which photos anyone outside the city's staff may see (LGPD, Lei 13.709/2018, art. 6º, III):
the one place that decides it, for the public map and status page, the open data, Open311's
media_url and the photo of a nearby case offered to another citizen in the bot.

A photo is public only once a staff member approved its public copy — the copy without
EXIF/GPS in which the detector already blurred the faces and plates it found when the photo
arrived (core.redact). The detector misses many (most Brazilian plates, faces in profile or
far away), so the review is what guarantees it: staff see each new photo in the panel and
approve it, hide it (never shown outside), or blur more areas by hand first. A photo not yet
reviewed is shown to no one outside. Each decision is on the case's timeline (not public).
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from core import media, redact
from core.services.context import Core
from core.services.errors import InvalidInput, NotFound
from core.storage.evidence import UnsupportedMedia
from core.storage.models import Case, Evidence
from core.storage.models_lgpd import PhotoReview
from core.storage.timeline import append_event

if TYPE_CHECKING:
    from core.services.staff.accounts import StaffUserInfo

PENDING, APPROVED, HIDDEN = "pending", "approved", "hidden"
STATUS_LABELS = {PENDING: "Aguardando revisão", APPROVED: "Aprovada (pública)",
                 HIDDEN: "Oculta (só a equipe vê)"}
ARTICLE = "LGPD (Lei 13.709/2018), art. 6º, III"
MAX_BOXES = 20
PAGE = 24


def _approved():
    """Evidence rows that may be shown outside the staff: approved photos only."""
    return (select(PhotoReview.evidence_id).where(PhotoReview.status == APPROVED))


async def public_first_photos(s: AsyncSession, case_ids: list[int]) -> dict[int, str]:
    """Each case's first approved photo (the original's sha256: its public copy is what is
    served), for the cases that have one."""
    if not case_ids:
        return {}
    first = (select(func.min(Evidence.id)).where(
        Evidence.case_id.in_(case_ids), Evidence.kind == "photo",
        Evidence.id.in_(_approved())).group_by(Evidence.case_id))
    return dict((await s.execute(select(Evidence.case_id, Evidence.sha256).where(
        Evidence.id.in_(first)))).all())


async def public_photo_shas(s: AsyncSession, case_id: int) -> list[str]:
    """Every approved photo of a case, in the order they came (originals' sha256)."""
    return list((await s.execute(select(Evidence.sha256).where(
        Evidence.case_id == case_id, Evidence.kind == "photo", Evidence.id.in_(_approved()))
        .order_by(Evidence.id))).scalars())


# -- the staff's review -----------------------------------------------------------------------

@dataclass(frozen=True)
class ReviewItem:
    evidence_id: int
    protocol: str
    sha256: str
    status: str
    arrived: datetime
    reviewed_by: str | None
    reviewed_at: datetime | None
    boxes: int  # areas blurred by hand

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]


def detector_available() -> bool:
    """Whether faces and plates are blurred automatically at upload (core.redact)."""
    return redact.available()


def _reviewable():
    return [Evidence.kind == "photo", Evidence.mime.in_(list(media.DECODABLE))]


async def review_list(core: Core, status: str = PENDING, limit: int = PAGE) -> list[ReviewItem]:
    """Photos waiting for review (oldest first), or the last reviewed with `status`."""
    if status not in STATUS_LABELS:
        raise InvalidInput("Situação desconhecida: use pendentes, aprovadas ou ocultas.")
    q = (select(Evidence.id, Case.protocol, Evidence.sha256, Evidence.created_at,
                PhotoReview.status, PhotoReview.reviewed_by, PhotoReview.reviewed_at,
                PhotoReview.boxes)
         .join(Case, Case.id == Evidence.case_id)
         .outerjoin(PhotoReview, PhotoReview.evidence_id == Evidence.id).where(*_reviewable()))
    if status == PENDING:
        q = q.where((PhotoReview.id.is_(None)) | (PhotoReview.status == PENDING)) \
            .order_by(Evidence.id)
    else:
        q = q.where(PhotoReview.status == status).order_by(PhotoReview.reviewed_at.desc())
    async with core.db.read() as s:
        rows = (await s.execute(q.limit(limit))).all()
    return [ReviewItem(r.id, r.protocol, r.sha256, r.status or PENDING, r.created_at,
                       r.reviewed_by, r.reviewed_at, len(r.boxes or [])) for r in rows]


async def pending_count(core: Core) -> int:
    async with core.db.read() as s:
        return await s.scalar(select(func.count()).select_from(Evidence).outerjoin(
            PhotoReview, PhotoReview.evidence_id == Evidence.id).where(
            *_reviewable(), (PhotoReview.id.is_(None)) | (PhotoReview.status == PENDING)))


async def public_copy_of(core: Core, evidence_id: int) -> bytes:
    """The public copy of a photo as it stands (for the reviewer); NotFound if none."""
    async with core.db.read() as s:
        sha = (await s.execute(select(Evidence.sha256).where(
            Evidence.id == evidence_id, *_reviewable()))).scalar_one_or_none()
    if sha is None:
        raise NotFound("Foto não encontrada.")
    try:
        return (await core.evidence.apublic_copy(sha)).data
    except (UnsupportedMedia, OSError, ValueError):
        raise NotFound("Esta foto não tem cópia pública (arquivo ausente ou corrompido).") \
            from None


def parse_boxes(raw: str) -> list[list[float]]:
    """Boxes typed or drawn in the panel: "x,y,w,h" in percent of the image, one per line (or
    separated by ";"). A clear Portuguese reason when one is wrong."""
    boxes = []
    for n, part in enumerate(p for p in raw.replace(";", "\n").splitlines() if p.strip()):
        try:
            x, y, w, h = (float(v.strip().replace("%", "")) for v in part.split(","))
        except ValueError:
            raise InvalidInput(f"Área {n + 1}: use quatro números, x,y,largura,altura em % da "
                               "imagem (ex.: 10,20,30,15).") from None
        if not all(0 <= v <= 100 for v in (x, y, w, h)) or w <= 0 or h <= 0 \
                or x + w > 100.01 or y + h > 100.01:
            raise InvalidInput(f"Área {n + 1}: os valores vão de 0 a 100 e a área precisa "
                               "caber na imagem.")
        boxes.append([x / 100, y / 100, w / 100, h / 100])
    if not boxes:
        raise InvalidInput("Marque ao menos uma área a borrar (arraste sobre a foto ou digite "
                           "x,y,largura,altura em %).")
    if len(boxes) > MAX_BOXES:
        raise InvalidInput(f"No máximo {MAX_BOXES} áreas de uma vez.")
    return boxes


async def review(core: Core, evidence_id: int, action: str, staff: "StaffUserInfo",
                 boxes: list[list[float]] | None = None) -> str:
    """A staff member's decision: "approve" (public), "hide" (never public) or "redact" (blur
    `boxes` in the public copy; the photo stays waiting for review so its result is seen
    first). Recorded on the case's timeline. Returns the new status."""
    if action not in ("approve", "hide", "redact"):
        raise InvalidInput("Ação desconhecida.")
    async with core.db.read() as s:
        ev = (await s.execute(select(Evidence).where(Evidence.id == evidence_id,
                                                     *_reviewable()))).scalar_one_or_none()
    if ev is None:
        raise NotFound("Foto não encontrada.")
    if action == "redact":
        if not boxes:
            raise InvalidInput("Marque ao menos uma área a borrar.")
        try:
            await asyncio.to_thread(core.evidence.redact_public_copy, ev.sha256, boxes)
        except (UnsupportedMedia, OSError, ValueError):
            raise InvalidInput("Esta foto não tem cópia pública para borrar (arquivo ausente "
                               "ou corrompido): oculte-a.") from None
    status = {"approve": APPROVED, "hide": HIDDEN, "redact": PENDING}[action]
    async with core.db.unit_of_work() as s:
        row = (await s.execute(select(PhotoReview).where(
            PhotoReview.evidence_id == evidence_id))).scalar_one_or_none()
        if row is None:
            row = PhotoReview(evidence_id=evidence_id, boxes=[])
            s.add(row)
        row.status, row.reviewed_by, row.reviewed_at = status, staff.username, core.now()
        if boxes:
            row.boxes = [*(row.boxes or []), *boxes]
        await append_event(s, ev.case_id, staff.actor(), f"photo_{action}", ARTICLE,
                           {"sha256": ev.sha256, "status": status,
                            **({"boxes": boxes} if boxes else {})},
                           public=False, at=core.now())
    return status
