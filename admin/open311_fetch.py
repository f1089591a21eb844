"""Download an Open311 POST's media_url (only when OPEN311_FETCH_MEDIA is true, and only for a
report that passed every other check): public addresses only (admin.egress: the name resolved
first, every address checked, the connection pinned to a checked address; each redirect's URL
checked again, at most MAX_REDIRECTS), a time limit for the whole download and a size limit
read as the bytes arrive. Every failure — refused address, no answer, closed port, an HTTP
error, too big, too slow — gives the one same answer (FAILED), so the API cannot be used to
map a network. The bytes then pass the same upload check as an uploaded file
(core.services.cases.evidence.store_upload). Only clients holding OPEN311_API_KEY reach this."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from urllib.parse import urljoin

import aiohttp
from aiohttp import web

from admin.egress import Allow, GuardedResolver, Refused, Resolve, allowed_ip, check_url, \
    system_resolve
from core.services.errors import InvalidInput
from core.settings import Settings

CHUNK = 64 * 1024
MAX_REDIRECTS = 3
FAILED = ("media_url: não foi possível obter a foto nesse endereço. Confira o endereço (ele "
          "deve ser público) ou envie o arquivo no campo media.")


@dataclass(frozen=True)
class Egress:
    """How names are resolved and which addresses may be fetched (tests inject both)."""
    resolve: Resolve = system_resolve
    allow: Allow = field(default=allowed_ip)


EGRESS = web.AppKey("open311_egress", Egress)


async def fetch_media(url: str, settings: Settings, egress: Egress = Egress()) -> bytes:
    """The file at `url`, or InvalidInput(FAILED)."""
    limit = settings.open311_fetch_max_bytes
    timeout = aiohttp.ClientTimeout(total=settings.open311_fetch_timeout_s)
    connector = aiohttp.TCPConnector(resolver=GuardedResolver(egress.resolve, egress.allow),
                                     use_dns_cache=False, force_close=True)
    try:
        async with aiohttp.ClientSession(timeout=timeout, connector=connector,
                                         trust_env=False) as http:
            async with asyncio.timeout(settings.open311_fetch_timeout_s):
                for _ in range(MAX_REDIRECTS + 1):
                    await check_url(url, egress.resolve, egress.allow)
                    async with http.get(url, allow_redirects=False) as resp:
                        if resp.status in (301, 302, 303, 307, 308) and "Location" in resp.headers:
                            url = urljoin(url, resp.headers["Location"])
                            continue
                        if resp.status != 200 or (resp.content_length or 0) > limit:
                            break
                        data = bytearray()
                        async for chunk in resp.content.iter_chunked(CHUNK):
                            data += chunk
                            if len(data) > limit:
                                break
                        else:
                            return bytes(data)
                        break
    except (Refused, aiohttp.ClientError, asyncio.TimeoutError, ValueError, OSError):
        pass
    raise InvalidInput(FAILED)
