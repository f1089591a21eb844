"""Attaching evidence (photos, videos, generated documents) to a case.

The bytes are already in the content-addressed EvidenceStore (the bot stores each photo the
moment it acknowledges it); here the case gets a row with the hash and the Telegram file ids,
kept until the case's final destination (Art. 6º, I, a) and then by the retention setting."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core import media
from core.services.context import Core
from core.services.errors import InvalidInput
from core.storage.evidence import UnsupportedMedia
from core.storage.models import Evidence


@dataclass(frozen=True)
class EvidenceIn:
    sha256: str
    mime: str = "image/jpeg"
    kind: str = "photo"  # photo / video / document
    telegram_file_id: str | None = None
    telegram_file_unique_id: str | None = None


@dataclass(frozen=True)
class Stored:
    sha256: str
    mime: str  # decided from the content (core.media), not declared by the sender
    kind: str  # media.IMAGE / VIDEO / PDF


async def store_upload(core: Core, data: bytes,
                       allowed: tuple[str, ...] = (media.IMAGE, media.VIDEO, media.PDF)
                       ) -> Stored:
    """Every upload's way in (bot, Open311): the type is decided from the bytes and must be in
    `allowed` (media.MediaRefused with the Portuguese reason otherwise); an image must fit the
    pixel limit and decode, and its EXIF/GPS-free public copy is made now, once, so no public
    request ever decodes an image."""
    found = await asyncio.to_thread(media.identify, data, allowed)
    if found.mime not in media.DECODABLE:
        return Stored(await core.evidence.aput(data), found.mime, found.kind)
    try:
        sha, _ = await core.evidence.aput_image(data)
    except UnsupportedMedia:
        raise media.MediaRefused("Imagem recusada: o arquivo está corrompido ou incompleto. "
                                 "Envie a foto novamente.") from None
    return Stored(sha, found.mime, found.kind)


async def attach(core: Core, s: AsyncSession, case_id: int, item: EvidenceIn,
                 uploaded_by: int | None = None) -> Evidence:
    """Record `item` on the case (once per case and hash)."""
    if not core.evidence.exists(item.sha256):
        raise InvalidInput("Não encontramos o arquivo enviado. Envie a foto novamente.")
    existing = (await s.execute(select(Evidence).where(
        Evidence.case_id == case_id, Evidence.sha256 == item.sha256))).scalar_one_or_none()
    if existing is not None:
        return existing
    row = Evidence(sha256=item.sha256, case_id=case_id, kind=item.kind, mime=item.mime,
                   size=core.evidence.path_of(item.sha256).stat().st_size,
                   telegram_file_id=item.telegram_file_id,
                   telegram_file_unique_id=item.telegram_file_unique_id,
                   path=core.evidence.relative_path(item.sha256), uploaded_by=uploaded_by)
    s.add(row)
    await s.flush()
    return row


async def public_photo(core: Core, sha256: str) -> bytes | None:
    """The copy of a photo that may be shown outside the city's staff (to another citizen, an
    owner, the public): re-encoded without EXIF/GPS metadata when it arrived. None if it is not
    an image (or has no public copy: this never decodes the original)."""
    if not core.evidence.exists(sha256):
        return None
    try:
        return (await core.evidence.apublic_copy(sha256)).data
    except UnsupportedMedia:
        return None


async def make_missing_public_copies(core: Core) -> tuple[int, int]:
    """Photos stored before public copies were made at upload get theirs now: an operator's
    one-off command (`python -m admin public-copies`), never a public request. The pixel limit
    applies (core.media). Returns (made, refused)."""
    async with core.db.read() as s:
        shas = (await s.execute(select(Evidence.sha256).where(Evidence.kind == "photo")
                                .distinct())).scalars().all()
    made = refused = 0
    for sha in shas:
        if not core.evidence.exists(sha):
            continue
        try:
            await core.evidence.apublic_copy(sha)
            continue  # already there
        except UnsupportedMedia:
            pass
        try:
            await asyncio.to_thread(core.evidence.make_public_copy, sha)
            made += 1
        except (UnsupportedMedia, ValueError, OSError):
            refused += 1
    return made, refused
