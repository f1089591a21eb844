"""An Open311 POST a city can leave open: each API key has a rate limit, text XML cannot carry is
refused, the report is checked in full before any file is stored or fetched, the bot's
duplicate check applies (an open case of the same category within DUPLICATE_RADIUS_M gets the
report as a supporting report, as a citizen's "É este" in the bot: no second case, no second
inspector task), and a refused report leaves no file behind (core.services.cases.orphans)."""
from __future__ import annotations

import asyncio
import hashlib
import re
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Awaitable, Callable, Iterable

from sqlalchemy import select

from core import media
from core.formatting import fmt_datetime
from core.services.context import Core
from core.services.errors import Forbidden, InvalidInput
from core.services.cases.evidence import EvidenceIn, store_upload
from core.services.cases.orphans import discard
from core.services.citizens.reports import (ReportIn, Submitted, find_nearby, submit_report,
                                            support_case, validate_report)
from core.storage.dialect import insert_ignore
from core.storage.models import PublicGuard

#: Characters XML 1.0 cannot carry (C0 controls but tab and line breaks, lone surrogates,
#: U+FFFE and U+FFFF): one of them in a stored text made the whole requests.xml unparseable.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: A placeholder photo while the report is checked before any file is stored.
PENDING = "0" * 64
#: One photo's bytes, read or downloaded when called.
Source = Callable[[], Awaitable[bytes]]


class KeyRateLimited(Forbidden):
    """Too many POSTs with one API key in the window (HTTP 429)."""
    http_status = 429


@dataclass(frozen=True)
class Posted:
    protocol: str
    state_label: str
    joined: bool  # True: added to an open case nearby (the duplicate check)
    distance_m: float | None = None


def check_xml_text(fields: Iterable[tuple[str, str]]) -> None:
    """InvalidInput when any field holds a character XML cannot carry."""
    for name, value in fields:
        if NOT_XML.search(name) or NOT_XML.search(value):
            raise InvalidInput(f"{name[:40]}: contém caracteres inválidos (de controle ou "
                               "não representáveis em XML). Corrija o texto e envie de novo.")


def _guard_key(api_key: str) -> str:
    return "open311:" + hashlib.sha256(api_key.encode()).hexdigest()[:40]


async def hit(core: Core, api_key: str) -> None:
    """Count one POST with `api_key`; KeyRateLimited past OPEN311_POST_LIMIT in the window."""
    now, settings = core.now(), core.settings
    window = timedelta(seconds=settings.open311_post_window_s)
    key = _guard_key(api_key)
    async with core.db.unit_of_work() as s:
        await s.execute(insert_ignore(s, PublicGuard.__table__,
                                      {"key": key, "failures": 0, "hits": 0}, ["key"]))
        guard = (await s.execute(select(PublicGuard).where(PublicGuard.key == key)
                                 .with_for_update())).scalar_one()
        if guard.window_started_at is None or now - guard.window_started_at >= window:
            guard.window_started_at, guard.hits = now, 0
        guard.hits = (guard.hits or 0) + 1
        over = guard.hits > settings.open311_post_limit
        retry = guard.window_started_at + window
    if over:
        local = retry.astimezone(core.tz)
        minutes = max(1, settings.open311_post_window_s // 60)
        raise KeyRateLimited("Limite de solicitações desta api_key atingido "
                             f"({settings.open311_post_limit} a cada {minutes} min). Tente de "
                             f"novo a partir de {fmt_datetime(local)}.")


def check_report(core: Core, report: ReportIn) -> None:
    """Every check of core.services.citizens.reports before any file is stored or fetched (the
    photos still PENDING); serving more than one city, the point must lie in the city the
    jurisdiction_id selected."""
    validate_report(core, report)
    if core.many_cities and core.city_at(report.lat, report.lon) != core.city:
        raise InvalidInput(f"O ponto informado (lat, long) fica fora de {core.city.label}, o "
                           "município deste jurisdiction_id. Confira o ponto ou o "
                           "jurisdiction_id.")


_LOCKS: dict[int, asyncio.Lock] = {}


def _lock() -> asyncio.Lock:
    """One POST at a time looks for a duplicate and opens its case (per event loop), so
    identical POSTs sent together still make one case."""
    return _LOCKS.setdefault(id(asyncio.get_running_loop()), asyncio.Lock())


async def post(core: Core, report: ReportIn, sources: list[Source]) -> Posted:
    """Store the photos, one at a time, each through the one upload check (`sources`: each
    gives a photo's bytes: an uploaded file, or a media_url downloaded only now), then open the
    case, or join the open case nearby. If anything fails, the files this POST stored are
    removed (a file that was already stored before it is left alone)."""
    new: list[str] = []
    try:
        photos = []
        for source in sources:
            data = await source()
            sha = hashlib.sha256(data).hexdigest()
            existed = core.evidence.exists(sha)
            stored = await store_upload(core, data, (media.IMAGE,))
            del data
            if not existed:
                new.append(stored.sha256)
            photos.append(EvidenceIn(stored.sha256, stored.mime, "photo"))
        report = replace(report, photos=photos)
        async with _lock():
            nearby = await find_nearby(core, report.category, report.lat, report.lon)
            if nearby:
                first = nearby[0]
                await support_case(core, first.protocol, None, report.photos,
                                   report.description, display_name="Open311")
                return Posted(first.protocol, first.state_label, True, first.distance_m)
            done = await submit_external_report(core, report)
        return Posted(done.protocol, done.state_label, False)
    except BaseException:
        await discard(core, new)
        raise


async def submit_external_report(core: Core, report: ReportIn, channel: str = "Open311"
                                 ) -> Submitted:
    """A report from an Open311 client: a reporter without Telegram (no chat, so nobody is
    subscribed to its updates and no message is queued for it)."""
    return await submit_report(core, None, report, display_name=channel)
