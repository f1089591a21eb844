"""The LGPD's records (Lei 13.709/2018): which photos may be shown outside the city's staff
(a staff member's review of each photo's public copy) and the data subjects' requests (art. 18)
with the answer each got. Imported by core.storage.models, so they share its metadata."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from core.storage.models import Base
from core.storage.types import utcnow


class PhotoReview(Base):
    """A staff member's decision on a photo's public copy (core.services.public.photos): a photo
    is shown on public pages (map, status page, Open311, another citizen's duplicate offer)
    only once approved. No row = not reviewed yet (never public). `boxes` are the areas blurred
    by hand, in fractions of the image ([x, y, w, h]), on top of those the detector blurred when
    the photo arrived."""

    __tablename__ = "photo_reviews"
    id: Mapped[int] = mapped_column(primary_key=True)
    evidence_id: Mapped[int] = mapped_column(ForeignKey("evidence.id", ondelete="CASCADE"),
                                             unique=True)
    status: Mapped[str] = mapped_column(String(12))  # approved / hidden
    boxes: Mapped[list[Any]] = mapped_column(default=list)
    reviewed_by: Mapped[str] = mapped_column(String(80))  # the staff member's username
    reviewed_at: Mapped[datetime] = mapped_column(default=utcnow)


class DataRequest(Base):
    """A data subject's request (LGPD art. 18): to see their data (II, art. 19) or to have
    deleted what no legal duty keeps (VI, art. 16), with the answer they were given. Kept by
    Telegram id, not by person: it outlives the person's row, as proof of the answer."""

    __tablename__ = "data_requests"
    id: Mapped[int] = mapped_column(primary_key=True)
    telegram_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(12))  # access / deletion
    status: Mapped[str] = mapped_column(String(12))  # answered / partial
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    answered_at: Mapped[datetime | None]
    answer: Mapped[str] = mapped_column(Text)  # what the person was told, word for word
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)  # counts deleted / kept

    __table_args__ = (Index(None, "requested_at"), Index(None, "telegram_id"))
