"""File responses (evidence, generated documents, public photo copies) that can never run in
the panel's origin.

The content type is decided from the bytes by the server (core.media.sniff), never taken from
what the uploader declared: JPEG, PNG and WebP are shown inline; everything else (PDF, video,
HEIC, and whatever an old row may hold) goes out as an attachment, and an unknown type as
application/octet-stream. Every file response also carries `X-Content-Type-Options: nosniff`
and a `Content-Security-Policy: sandbox` with no script source, so even a file a browser
chose to render could not run script with the panel's cookies or reach its pages.
"""
from __future__ import annotations

from aiohttp import web

from core import media

FILE_CSP = ("sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; "
            "style-src 'unsafe-inline'; frame-ancestors 'none'")
_EXT = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/heic": "heic",
        "image/heif": "heif", "application/pdf": "pdf", "video/mp4": "mp4",
        "video/quicktime": "mov", "video/3gpp": "3gp", "video/webm": "webm",
        "video/x-matroska": "mkv", "video/mpeg": "mpg", "video/x-m4v": "m4v"}


def file_response(data: bytes, name: str, *, cache: str = "private, max-age=3600",
                  text: bool = False) -> web.Response:
    """`data` served safely; `name` is the download name without extension. `text`: a plain
    text file the panel generated itself (served as text/plain, still as an attachment)."""
    if text:
        mime, inline, ext = "text/plain; charset=utf-8", False, "txt"
    else:
        found = media.sniff(data)
        mime = found.mime if found else "application/octet-stream"
        inline = bool(found and found.inline)
        ext = _EXT.get(mime, "bin")
    disposition = "inline" if inline else "attachment"
    return web.Response(body=data, headers={
        "Content-Type": mime,
        "Content-Disposition": f'{disposition}; filename="{name}.{ext}"',
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": FILE_CSP,
        "Cache-Control": cache})
