"""Content-addressed evidence files under DATA_DIR/evidence/ab/cd/<sha256>.

Files are written atomically (temporary file, fsync, rename), so a crash never leaves a
half-written photo under a valid name, and identical uploads are stored once. The public
copy of a photo is re-encoded by Pillow without EXIF/XMP/comments (GPS position, camera
serial, time), after applying the EXIF orientation so it still displays upright; it is
stored content-addressed too, and `<sha256>.public` records which file it is.
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
        """The metadata-free copy of an image (made once, then reused)."""
        link = self.path_of(sha256).with_name(sha256 + ".public")
        if link.is_file():
            public_sha = link.read_text().strip()
            if self.exists(public_sha):
                data = self.get(public_sha)
                return PublicCopy(public_sha, data, _mime_of(data))
        data, mime = strip_metadata(self.get(sha256))
        public_sha = self.put(data)
        _atomic_write(link, public_sha.encode())
        return PublicCopy(public_sha, data, mime)

    async def aput(self, data: bytes) -> str:
        return await asyncio.to_thread(self.put, data)

    async def aget(self, sha256: str) -> bytes:
        return await asyncio.to_thread(self.get, sha256)

    async def apublic_copy(self, sha256: str) -> PublicCopy:
        return await asyncio.to_thread(self.public_copy, sha256)


def strip_metadata(data: bytes) -> tuple[bytes, str]:
    """Re-encode an image without any metadata; returns (bytes, mime)."""
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except Exception as exc:  # Pillow raises several types for non-images
        raise UnsupportedMedia("não é uma imagem reconhecida") from exc
    fmt = img.format if img.format in ("JPEG", "PNG", "WEBP") else "JPEG"
    img = ImageOps.exif_transpose(img)
    if fmt == "JPEG" and img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    clean = Image.new(img.mode, img.size)
    clean.paste(img)
    if img.mode == "P" and img.getpalette():
        clean.putpalette(img.getpalette())
    out = io.BytesIO()
    kwargs = {"quality": 90} if fmt in ("JPEG", "WEBP") else {}
    clean.save(out, format=fmt, **kwargs)
    return out.getvalue(), Image.MIME[fmt]


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
