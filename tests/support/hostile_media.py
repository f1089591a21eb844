"""Hostile files for the media tests (no tests here): HTML and SVG disguised as images, a
decompression bomb, a PNG chunk builder."""
from __future__ import annotations

import functools

import struct
import zlib

HTML = b"<!doctype html><html><script>fetch('/usuarios')</script></html>"
SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)">'
       b'<script>alert(1)</script></svg>')


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


@functools.lru_cache(maxsize=1)
def bomb_png(side: int = 12000) -> bytes:
    """A real, valid PNG of side × side grey pixels (144 megapixels for 12000): a few hundred
    KB on disk, 144 MB and more once decoded. Built row by row, never held decoded."""
    z = zlib.compressobj(9)
    row = bytes(side + 1)  # filter byte 0 + one byte per pixel
    idat = b"".join(z.compress(row) for _ in range(side)) + z.flush()
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat)
            + png_chunk(b"IEND", b""))
