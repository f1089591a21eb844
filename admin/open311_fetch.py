"""Download an Open311 POST's media_url (only when OPEN311_FETCH_MEDIA is true): one GET, no
redirects, a time limit for the whole download and a size limit read as the bytes arrive; the
bytes then pass the same upload check as an uploaded file (core.services.evidence.store_upload).
Only clients holding OPEN311_API_KEY reach this, and each URL is fetched at most once."""
from __future__ import annotations

import asyncio

import aiohttp

from core.services.errors import InvalidInput
from core.settings import Settings

CHUNK = 64 * 1024


async def fetch_media(url: str, settings: Settings) -> bytes:
    """The file at `url`, or InvalidInput with a Portuguese reason."""
    limit = settings.open311_fetch_max_bytes
    timeout = aiohttp.ClientTimeout(total=settings.open311_fetch_timeout_s)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as http:
            async with http.get(url, allow_redirects=False) as resp:
                if resp.status != 200:
                    raise InvalidInput(f"media_url: o servidor da foto respondeu {resp.status}.")
                if (resp.content_length or 0) > limit:
                    raise InvalidInput(_too_big(limit))
                data = bytearray()
                async for chunk in resp.content.iter_chunked(CHUNK):
                    data += chunk
                    if len(data) > limit:
                        raise InvalidInput(_too_big(limit))
                return bytes(data)
    except (aiohttp.ClientError, asyncio.TimeoutError, ValueError):
        raise InvalidInput("media_url: não foi possível baixar a foto (endereço inacessível ou "
                           "tempo esgotado).") from None


def _too_big(limit: int) -> str:
    return f"media_url: a foto passa do limite de {max(1, limit // 1024)} KB."
