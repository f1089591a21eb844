"""Content-addressed evidence files under DATA_DIR/evidence/ab/cd/<sha256>.

Files are written atomically (temporary file, fsync, rename), so a crash never leaves a
half-written photo under a valid name, and identical uploads are stored once. The public
copy of a photo is re-encoded by Pillow without EXIF/XMP/comments (GPS position, camera
serial, time), after applying the EXIF orientation so it still displays upright; it is
stored content-addressed too, and `<sha256>.public` records which file it is. Faces and
number plates the detector finds are blurred in it (core.redact); a staff member may blur more
by hand (`redact_public_copy`), which replaces the copy (the original is never changed).

Public copies are made once, when the photo arrives (`make_public_copy`, called by
core.services.cases.evidence.store_upload); `public_copy` only reads one, so nothing a member of the
public can request (Open311, the bot's duplicate offer) ever decodes an image. Decoding checks
the dimensions first and refuses more than Pillow's MAX_IMAGE_PIXELS (set by core.media), and
bounds the memory the decoded pixels take (MAX_DECODED_BYTES: a 189 KB PNG of 7070 × 7070,
under the pixel limit, decoded to 200 MB). A JPEG is decoded already reduced (its DCT scaling,
to no less than PUBLIC_SIDE), and the public copy is at most PUBLIC_SIDE pixels on its longer
side; one image is decoded at a time in the process, so concurrent uploads do not add up.
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import os
import re
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps

from core import redact

_SHA_RE = re.compile(r"^[0-9a-f]{64}$")
#: The most memory an image's decoded pixels may take (Pillow keeps RGB in 4 bytes a pixel).
MAX_DECODED_BYTES = 64 * 1024 ** 2
#: The public copy's longer side, at most (a phone photo's detail, a fraction of its weight).
PUBLIC_SIDE = 2560
_DECODE = threading.Lock()  # one decode at a time in the process


def decoded_bytes(img: Image.Image) -> int:
    """What `img` (opened, not loaded) takes once decoded, at its current (drafted) size."""
    width, height = img.size
    per_pixel = 1 if img.mode in ("1", "L", "P") else 2 if img.mode.startswith("I;16") else 4
    return width * height * per_pixel


def reduce_on_decode(img: Image.Image) -> None:
    """Ask a JPEG to decode at 1/2, 1/4 or 1/8 scale while still at least PUBLIC_SIDE."""
    if img.format == "JPEG":
        img.draft(None, (PUBLIC_SIDE, PUBLIC_SIDE))


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

    def public_sha(self, sha256: str) -> str | None:
        """The sha256 of the public copy made of `sha256`, if one was."""
        pointer = self.path_of(sha256).with_name(sha256 + ".public")
        if not pointer.is_file():
            return None
        public_sha = pointer.read_text().strip()
        return public_sha if _SHA_RE.match(public_sha) else None

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

    def remove(self, sha256: str, *, with_public: bool = True) -> None:
        """Delete a stored file and (unless told not to) its public copy; nothing if absent."""
        path = self.path_of(sha256)
        pointer = path.with_name(sha256 + ".public")
        if pointer.is_file():
            public_sha = pointer.read_text().strip()
            if with_public and _SHA_RE.match(public_sha):
                self.path_of(public_sha).unlink(missing_ok=True)
            pointer.unlink(missing_ok=True)
        path.unlink(missing_ok=True)

    def stored(self) -> list[tuple[str, float, str | None]]:
        """Every stored original: (sha256, modified at as a timestamp, its public copy's
        sha256 or None). Public copies and temporary files are not listed as originals."""
        out = []
        if not self.root.is_dir():
            return out
        for first in os.scandir(self.root):
            for second in os.scandir(first.path) if first.is_dir() else ():
                for entry in os.scandir(second.path) if second.is_dir() else ():
                    if entry.name.endswith(".public") and _SHA_RE.match(entry.name[:-7]):
                        continue
                    if _SHA_RE.match(entry.name) and entry.is_file():
                        out.append((entry.name, entry.stat().st_mtime, None))
        publics = {sha: self.public_sha(sha) for sha, _, _ in out}
        copies = set(publics.values())
        return [(sha, mtime, publics.get(sha)) for sha, mtime, _ in out if sha not in copies]

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
    with _DECODE:
        return _strip(data, redact_detected)


def _strip(data: bytes, redact_detected: bool) -> tuple[bytes, str]:
    try:
        img = Image.open(io.BytesIO(data), formats=["JPEG", "PNG", "WEBP"])
        width, height = img.size
        if width * height > (Image.MAX_IMAGE_PIXELS or width * height):
            raise UnsupportedMedia(f"imagem grande demais ({width} × {height} pixels)")
        reduce_on_decode(img)
        if decoded_bytes(img) > MAX_DECODED_BYTES:
            raise UnsupportedMedia(f"imagem grande demais ({width} × {height} pixels, "
                                   f"{decoded_bytes(img) // 1024 ** 2} MB ao abrir)")
        img.load()
        img.thumbnail((PUBLIC_SIDE, PUBLIC_SIDE))  # in place; keeps the EXIF orientation
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
