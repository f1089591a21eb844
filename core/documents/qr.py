"""QR code with the owner's link (segno, embedded as PNG)."""
from __future__ import annotations

import io

import segno


def qr_png(payload: str, scale: int = 10) -> io.BytesIO:
    """PNG of a QR code carrying `payload` (error correction M, quiet zone 4 modules)."""
    buf = io.BytesIO()
    segno.make(payload, error="m", micro=False).save(buf, kind="png", scale=scale, border=4)
    buf.seek(0)
    return buf
