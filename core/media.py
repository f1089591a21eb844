"""What an uploaded file really is, decided from its bytes (never from the name or the MIME
type the sender declared), and whether the city keeps it.

One check for every way a file comes in (the bot's photos, videos and documents, the Open311
POST): photos (JPEG, PNG, WebP, HEIC/HEIF), videos (MP4, MOV, 3GP, WebM, MKV, MPEG) and PDF
documents; anything else (HTML, SVG, scripts, archives, office files...) is refused before it is
stored. The type comes from the file's magic bytes (the `filetype` library); JPEG, PNG and WebP
are also opened by Pillow, which reads only the header, so a decompression bomb (a small file
that decodes to gigabytes, e.g. a 410 KB PNG of 12000 × 12000) is refused by its dimensions
before a single pixel is decoded. Pillow's own MAX_IMAGE_PIXELS is set to the same limit so
that any decode elsewhere in the process stops at twice that (DecompressionBombError).
The pixel limit alone let a 189 KB PNG of 7070 × 7070 take 200 MB once decoded, so the memory
the decoded pixels would take is bounded too (MAX_DECODED_BYTES, counted as Pillow stores them,
after a JPEG's reduction on decoding: core.storage.evidence).
HEIC/HEIF photos are kept as evidence but never decoded here (no public copy is made of them).
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import filetype
from PIL import Image, UnidentifiedImageError

from core.services.errors import InvalidInput
from core.storage.evidence import MAX_DECODED_BYTES, decoded_bytes, reduce_on_decode

IMAGE, VIDEO, PDF = "image", "video", "pdf"
#: 50 megapixels: a 48 MP phone photo (8000 × 6000) passes; decoding it costs ~150 MB once.
MAX_PIXELS = 50_000_000
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

#: Images Pillow decodes (public copies are made of these) → Pillow's format name.
DECODABLE = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WEBP"}
#: What a browser shows inline as an <img> (everything else is served as an attachment).
INLINE_IMAGES = frozenset(DECODABLE)
OTHER_IMAGES = frozenset({"image/heic", "image/heif"})
VIDEOS = frozenset({"video/mp4", "video/quicktime", "video/3gpp", "video/webm",
                    "video/x-matroska", "video/mpeg", "video/x-m4v"})
PDF_MIME = "application/pdf"

_WHAT = {IMAGE: "fotos (JPEG, PNG, WebP ou HEIC)",
         VIDEO: "vídeos (MP4, MOV, 3GP, WebM, MKV ou MPEG)",
         PDF: "documentos em PDF"}


class MediaRefused(InvalidInput):
    """The file is not one the city keeps (or is a decompression bomb, or is corrupt)."""


@dataclass(frozen=True)
class Media:
    mime: str  # decided from the content
    kind: str  # IMAGE / VIDEO / PDF
    width: int | None = None
    height: int | None = None
    oversized: bool = False  # more pixels than MAX_PIXELS (a decompression bomb)
    heavy: bool = False  # would take more than MAX_DECODED_BYTES of memory once decoded

    @property
    def inline(self) -> bool:
        """May a browser show it inline (an image it renders, never active content)."""
        return self.mime in INLINE_IMAGES


def accepted_text(allowed: tuple[str, ...]) -> str:
    names = [_WHAT[k] for k in allowed]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " ou " + names[-1]


def sniff(data: bytes) -> Media | None:
    """The file's real type if it is one we keep, else None. Reads headers only."""
    guess = filetype.guess(data[:8192]) if data else None
    mime = guess.mime if guess else ""
    if mime == "image/apng":
        mime = "image/png"
    if mime in DECODABLE:
        try:
            with Image.open(io.BytesIO(data), formats=[DECODABLE[mime]]) as img:
                width, height = img.size
                reduce_on_decode(img)
                memory = decoded_bytes(img)
        except Image.DecompressionBombError:  # over twice the limit: Pillow stops at once
            return Media(mime, IMAGE, oversized=True)
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            return None
        return Media(mime, IMAGE, width, height, width * height > MAX_PIXELS,
                     memory > MAX_DECODED_BYTES)
    if mime in OTHER_IMAGES:
        return Media(mime, IMAGE)
    if mime in VIDEOS:
        return Media(mime, VIDEO)
    if mime == PDF_MIME:
        return Media(mime, PDF)
    return None


def identify(data: bytes, allowed: tuple[str, ...] = (IMAGE, VIDEO, PDF)) -> Media:
    """The upload's real type, or MediaRefused with the Portuguese reason."""
    if not data:
        raise MediaRefused("O arquivo chegou vazio. Envie-o novamente.")
    media = sniff(data)
    if media is None or media.kind not in allowed:
        raise MediaRefused(f"Arquivo recusado: aceitamos apenas {accepted_text(allowed)}. "
                           "Este arquivo não é de nenhum desses tipos.")
    if media.oversized:
        size = f" ({media.width} × {media.height} pixels)" if media.width else ""
        raise MediaRefused(
            f"Imagem recusada: ela é grande demais{size}; o limite é de "
            f"{MAX_PIXELS // 1_000_000} megapixels. Envie uma foto menor (por exemplo, como "
            "foto comum, que o Telegram já comprime).")
    if media.heavy:
        raise MediaRefused(
            f"Imagem recusada: ela é grande demais ({media.width} × {media.height} pixels) "
            f"para este formato; o limite é de {MAX_DECODED_BYTES // 1024 ** 2} MB ao ser "
            "aberta. Envie a foto em JPEG ou em tamanho menor.")
    return media
