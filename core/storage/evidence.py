"""Content-addressed evidence files under DATA_DIR/evidence/ab/cd/<sha256>.

Files are written atomically (temporary file, fsync, rename), so a crash never leaves a
half-written photo under a valid name, and identical uploads are stored once. The public
copy of a photo is re-encoded by Pillow without EXIF/XMP/comments (GPS position, camera
serial, time), after applying the EXIF orientation so it still displays upright; it is
stored content-addressed too, and `<sha256>.public` records which file it is. Faces and
number plates the detector finds are blurred in it (core.redact); a staff member may blur more
by hand (`redact_public_copy`), which replaces the copy (the original is never changed).

Public copies are made once, when the photo arrives (`make_public_copy`, called by
core.services.evidence.store_upload); `public_copy` only reads one, so nothing a member of the
public can request (Open311, the bot's duplicate offer) ever decodes an image. Decoding checks
the dimensions first and refuses more than Pillow's MAX_IMAGE_PIXELS (set by core.media).
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps

from core import redact

_SHA_RE = re.compile(r"^[0-9a-f]{64}$")


class UnsupportedMedia(ValueError):
    """Metadata can only be stripped from images here (JPEG, PNG, WebP...)."""


@dataclass(frozen=True)
class PublicCopy:
    sha256: str
    data: bytes
    mime: str


class EvidenceStore:
    def __init__(self, data_dir: str | os.PathLike[str]):
        self.data_dir = Path(data_dir)
        self.root = self.data_dir / "evidence"

    def relative_path(self, sha256: str) -> str:
        """Path relative to DATA_DIR (what Evidence.path stores)."""
        if not _SHA_RE.match(sha256):
            raise ValueError(f"not a SHA-256 hex digest: {sha256!r}")
        return f"evidence/{sha256[:2]}/{sha256[2:4]}/{sha256}"

    def path_of(self, sha256: str) -> Path:
        return self.data_dir / self.relative_path(sha256)

    def exists(self, sha256: str) -> bool:
        return self.path_of(sha256).is_file()

    def put(self, data: bytes) -> str:
        """Store `data` once; return its SHA-256 hex digest."""
        sha = hashlib.sha256(data).hexdigest()
        path = self.path_of(sha)
        if path.is_file():
            return sha
        _atomic_write(path, data)
        return sha

    def get(self, sha256: str) -> bytes:
        """The stored bytes; FileNotFoundError if absent, ValueError if the file is corrupt."""
        data = self.path_of(sha256).read_bytes()
        if hashlib.sha256(data).hexdigest() != sha256:
            raise ValueError(f"evidence {sha256} does not match its hash")
        return data

    def public_copy(self, sha256: str) -> PublicCopy:
        """The metadata-free copy made when the image arrived; UnsupportedMedia if there is
        none (not an image, or never made). Never decodes the original."""
        link = self.path_of(sha256).with_name(sha256 + ".public")
        if link.is_file():
            public_sha = link.read_text().strip()
            if _SHA_RE.match(public_sha) and self.exists(public_sha):
                data = self.get(public_sha)
                return PublicCopy(public_sha, data, _mime_of(data))
        raise UnsupportedMedia("não há cópia pública desta imagem")

    def make_public_copy(self, sha256: str) -> PublicCopy:
        """Make (once) and return the metadata-free copy of a stored image."""
        try:
            return self.public_copy(sha256)
        except UnsupportedMedia:
            pass
        return self._link_public(sha256, *public_version(self.get(sha256)))

    def put_image(self, data: bytes) -> tuple[str, PublicCopy]:
        """Store an arriving image with its public copy; the copy is made first, so an image
        that cannot be decoded (UnsupportedMedia) leaves nothing behind."""
        clean, mime = public_version(data)
        sha = self.put(data)
        return sha, self._link_public(sha, clean, mime)

    def redact_public_copy(self, sha256: str, boxes: list[list[float]]) -> PublicCopy:
        """Blur `boxes` ([x, y, w, h] in fractions of the image) in the public copy of a stored
        image, on top of what is already blurred; the copy replaces the previous one, whose
        file is deleted. UnsupportedMedia if the image has no public copy."""
        old = self.public_copy(sha256)
        img = Image.open(io.BytesIO(old.data))
        img.load()
        fmt = img.format or "JPEG"
        redact.blur(img, [redact.from_fraction(b, img.width, img.height) for b in boxes])
        copy = self._link_public(sha256, _encode(img, fmt), old.mime)
        if copy.sha256 != old.sha256:
            self.path_of(old.sha256).unlink(missing_ok=True)
        return copy

    def _link_public(self, sha256: str, data: bytes, mime: str) -> PublicCopy:
        public_sha = self.put(data)
        _atomic_write(self.path_of(sha256).with_name(sha256 + ".public"), public_sha.encode())
        return PublicCopy(public_sha, data, mime)

    async def aput(self, data: bytes) -> str:
        return await asyncio.to_thread(self.put, data)

    async def aget(self, sha256: str) -> bytes:
        return await asyncio.to_thread(self.get, sha256)

    async def apublic_copy(self, sha256: str) -> PublicCopy:
        return await asyncio.to_thread(self.public_copy, sha256)

    async def aput_image(self, data: bytes) -> tuple[str, PublicCopy]:
        return await asyncio.to_thread(self.put_image, data)


def public_version(data: bytes) -> tuple[bytes, str]:
    """The public copy of an image: without metadata, faces and plates found blurred."""
    return strip_metadata(data, redact_detected=True)


def strip_metadata(data: bytes, redact_detected: bool = False) -> tuple[bytes, str]:
    """Re-encode an image without any metadata; returns (bytes, mime). The dimensions are
    checked before decoding: more than Image.MAX_IMAGE_PIXELS is refused, never decoded.
    With `redact_detected`, what core.redact finds (faces, plates) is blurred too."""
    try:
        img = Image.open(io.BytesIO(data), formats=["JPEG", "PNG", "WEBP"])
        width, height = img.size
        if width * height > (Image.MAX_IMAGE_PIXELS or width * height):
            raise UnsupportedMedia(f"imagem grande demais ({width} × {height} pixels)")
        img.load()
    except UnsupportedMedia:
        raise
    except Exception as exc:  # Pillow raises several types for non-images and bombs
        raise UnsupportedMedia("não é uma imagem reconhecida") from exc
    fmt = img.format if img.format in ("JPEG", "PNG", "WEBP") else "JPEG"
    img = ImageOps.exif_transpose(img)
    if fmt == "JPEG" and img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    clean = Image.new(img.mode, img.size)
    clean.paste(img)
    if img.mode == "P" and img.getpalette():
        clean.putpalette(img.getpalette())
    if redact_detected:
        if clean.mode not in ("RGB", "L", "RGBA"):
            clean = clean.convert("RGBA" if "A" in clean.getbands() else "RGB")
        clean, _ = redact.blur_detected(clean)
    return _encode(clean, fmt), Image.MIME[fmt]


def _encode(img: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    kwargs = {"quality": 90} if fmt in ("JPEG", "WEBP") else {}
    img.save(out, format=fmt, **kwargs)
    return out.getvalue()


def _mime_of(data: bytes) -> str:
    with Image.open(io.BytesIO(data)) as img:
        return Image.MIME.get(img.format or "JPEG", "application/octet-stream")


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
