"""A staff member's review of the photos (core.services.public.photos): photos are public only
once approved, so tests of the public faces approve them first, as staff would."""
from __future__ import annotations

from core.services.public import photos as photo_review
from core.services.staff.accounts import StaffUserInfo

REVIEWER = StaffUserInfo(1, "revisora", "staff", True)


async def approve_photos(core, action: str = "approve") -> int:
    """Approve (or hide) every photo waiting for review; returns how many."""
    items = await photo_review.review_list(core, photo_review.PENDING, limit=1000)
    for item in items:
        await photo_review.review(core, item.evidence_id, action, REVIEWER)
    return len(items)
