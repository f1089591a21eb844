"""The web report's drafts: each visitor's report in progress, as the conversation keeps a
Telegram or WhatsApp chat's (its state and draft), found by the hash of a random token the
visitor's browser holds (no account, nothing personal: the token is the visitor's only key,
and the database keeps only its SHA-256).

Every step is written only over the version it was read at (`save`): a form sent twice, a
page answered in two tabs, or two requests racing never both answer, and the second is told
where the report stands. A draft untouched for LIFETIME is gone (`load` starts afresh; the
periodic job's `forget_old` removes it, and the orphan sweep its photos).

The guards of the page count people, as the public pages do (core.services.public.access:
an IPv4 address, an IPv6 /64): STEP_LIMIT answers per STEP_WINDOW and REPORT_LIMIT reports per
REPORT_WINDOW (generous: a mobile carrier's NAT puts many people behind one IPv4 address), a
hidden field only a program fills, and the minimum time between the first step and the
confirmation (WEB_REPORT_MIN_SECONDS)."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.services.context import Core, SessionHook
from core.services.errors import InvalidInput
from core.services.messaging.conversation import IDLE, AlreadyProcessed
from core.services.public import access
from core.storage.dialect import insert_ignore
from core.services.cases.evidence import EvidenceIn
from core.storage.models import Case
from core.storage.models_web import WebDraft
from core.text import clean_data

LIFETIME = timedelta(days=1)
STEP_LIMIT, STEP_WINDOW = 300, timedelta(minutes=10)
REPORT_LIMIT, REPORT_WINDOW = 30, timedelta(hours=1)
#: The state of a draft whose report was sent: its receipt, shown again on a reload.
SENT = "sent"

TOO_FAST = ("A denúncia foi enviada rápido demais para ter sido preenchida por uma pessoa. "
            "Confira os dados abaixo e toque em “Confirmar” de novo.")
NOT_A_PERSON = ("Não foi possível aceitar este envio. Se você é uma pessoa, recarregue a página "
                "e preencha a denúncia de novo, sem preencher campos escondidos.")


@dataclass
class WebChat:
    """A visitor's report as stored (version 0 and no row yet: a new one)."""
    token_hash: str
    state: str = IDLE
    draft: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    created_at: datetime | None = None
    #: who sends this request (their address): its answer is counted in the draft's write
    visitor: str | None = None
    #: this request was counted (its write committed), so it needs no count of its own
    counted: bool = False
    #: read with the draft (`load` given the visitor): when the person may answer again,
    #: having sent STEP_LIMIT answers in STEP_WINDOW (None: within the limit)
    step_retry: datetime | None = None


def new_token() -> str:
    """A visitor's key: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def valid_token(token: str | None) -> bool:
    return bool(token) and 20 <= len(token or "") <= 64 and all(
        c.isalnum() or c in "-_" for c in token or "")


async def load(core: Core, token: str, visitor: str | None = None) -> WebChat:
    """The visitor's report as stored; a new one when there is none or it is too old. Given
    the `visitor` sending this answer, in the same read: how many answers they sent
    (`check_step`), and the answer is counted with the draft's next write (`record`)."""
    h = hash_of(token)
    now = core.now()
    async with core.db.read() as s:
        row = await s.get(WebDraft, h)
        retry = await access.over_in(s, now, "webstep", visitor, STEP_LIMIT, STEP_WINDOW) \
            if visitor is not None else None
    if row is None:
        chat = WebChat(h)
    elif now - row.updated_at > LIFETIME:  # gone stale: begun afresh over its version
        chat = WebChat(h, version=row.version)
    else:
        chat = WebChat(h, row.state, dict(row.draft or {}), row.version, row.created_at)
    chat.visitor, chat.step_retry = visitor, retry
    return chat


async def record(s: AsyncSession, chat: WebChat, now: datetime, state: str,
                 draft: dict[str, Any]) -> None:
    """In the caller's transaction: `chat` moves to `state` with `draft`, only over the
    version it was read at (AlreadyProcessed otherwise, so the transaction rolls back).
    `chat` itself is left as read: `moved` tells it once the transaction committed (a group
    commit may retry this write alone)."""
    values = {"state": state, "draft": clean_data(dict(draft)), "version": chat.version + 1,
              "updated_at": now}
    if chat.version == 0:
        result = cast(CursorResult[Any], await s.execute(insert_ignore(
            s, WebDraft.__table__, {"token_hash": chat.token_hash, "created_at": now,
                                    **values}, ["token_hash"])))
    else:
        begun = {"created_at": now} if chat.created_at is None else {}
        result = cast(CursorResult[Any], await s.execute(
            update(WebDraft).where(WebDraft.token_hash == chat.token_hash,
                                   WebDraft.version == chat.version)
            .values(**values, **begun).execution_options(synchronize_session=False)))
    if result.rowcount != 1:
        raise AlreadyProcessed(chat.token_hash[:12])
    if chat.visitor is not None:  # the person's answer counted with it (check_step first)
        await access.count_in(s, now, "webstep", chat.visitor, STEP_LIMIT, STEP_WINDOW)


def moved(chat: WebChat, now: datetime, state: str, draft: dict[str, Any]) -> None:
    """`chat` as `record` left it in the database, once committed."""
    chat.version, chat.state, chat.draft = chat.version + 1, state, dict(draft)
    chat.counted = chat.visitor is not None
    if chat.created_at is None:
        chat.created_at = now


async def save(core: Core, chat: WebChat, state: str, draft: dict[str, Any]) -> None:
    """`record` in a transaction of its own."""
    now = core.now()
    async with core.db.unit_of_work() as s:
        await record(s, chat, now, state, draft)
    moved(chat, now, state, draft)


def hook(core: Core, chat: WebChat, state: str, draft: dict[str, Any]) -> SessionHook:
    """`record` as a service's `also`: the report and the draft's next state in one
    transaction (a form sent twice cannot report twice). The caller calls `moved` after."""
    async def run(s: AsyncSession) -> None:
        await record(s, chat, core.now(), state, draft)
    return run


async def forget_old(core: Core, now: datetime | None = None) -> int:
    """Remove the drafts untouched for LIFETIME (the periodic job)."""
    now = now or core.now()
    async with core.db.unit_of_work() as s:
        result = cast(CursorResult[Any], await s.execute(
            delete(WebDraft).where(WebDraft.updated_at < now - LIFETIME)))
    return result.rowcount or 0


# -- the guards ----------------------------------------------------------------------------

STEP_LIMITED = ("Muitos envios a partir desta conexão. Por segurança, continue a partir de "
                "{at}; o que você já preencheu fica guardado.")


def check_step(core: Core, chat: WebChat) -> None:
    """Before an answer is taken: RateLimited when this person already sent STEP_LIMIT in
    STEP_WINDOW (as `load` read it with the draft; the answer is counted in its own write,
    `record`)."""
    if chat.step_retry is not None:
        raise access.limited(core, STEP_LIMITED, chat.step_retry)


async def count_step(core: Core, visitor: str) -> None:
    """Count an answer that wrote nothing (refused, stale, over the limit) in a transaction
    of its own."""
    async with core.db.unit_of_work() as s:
        await access.count_in(s, core.now(), "webstep", visitor, STEP_LIMIT, STEP_WINDOW)


REPORT_LIMITED = ("Muitas denúncias enviadas a partir desta conexão. Por segurança, confirme "
                  "esta a partir de {at}; ela fica guardada até lá.")


def check_person(core: Core, chat: WebChat, trap: str, *, confirming: bool) -> None:
    """InvalidInput when a program, not a person, sent the form: the hidden field filled in,
    or (on the confirmation) the report filled faster than anyone can."""
    if trap.strip():
        raise InvalidInput(NOT_A_PERSON)
    least = timedelta(seconds=core.settings.web_report_min_seconds)
    if confirming and chat.created_at is not None and core.now() - chat.created_at < least:
        raise InvalidInput(TOO_FAST)


# -- the report sent ---------------------------------------------------------------------

async def submit(here: Core, chat: WebChat, d: dict[str, Any], address: str | None,
                 visitor: str) -> None:
    """"Confirmar" on the page (`here`: the pin's city): the report submitted with the
    draft's receipt stored in the same transaction (SENT: a form sent twice cannot report
    twice), and the e-mail given waiting for its confirmation link. The visitor's reports are
    counted in that transaction too (RateLimited past REPORT_LIMIT: nothing is written, the
    draft stays as it was)."""
    from core.services.citizens.conversation import receipt
    from core.services.citizens.reports import submit_report
    from core.services.messaging import email_confirm
    sent: dict[str, Any] = {}

    async def with_case(s: AsyncSession, case: Case) -> None:
        retry = await access.count_in(s, here.now(), "webreport", visitor, REPORT_LIMIT,
                                      REPORT_WINDOW)
        if retry is not None:  # the whole transaction rolls back: no case, the draft kept
            raise access.limited(here, REPORT_LIMITED, retry)
        sent.update(protocol=case.protocol, category=d["category"], city=d.get("city"),
                    email=email_confirm.masked(address) if address else None)
        await record(s, chat, here.now(), SENT, sent)
        if address:
            await email_confirm.ask(here, s, case, address)

    await submit_report(here, None, receipt.report(d, _photos(d)), with_case=with_case)
    moved(chat, here.now(), SENT, sent)


async def support(here: Core, chat: WebChat, protocol: str, d: dict[str, Any]) -> None:
    """"É este": the draft's photos join the open case `protocol` of the pin's city."""
    from core.services.citizens.reports import support_case
    sent = {"protocol": protocol, "supported": True, "city": d.get("city")}
    await support_case(here, protocol, None, _photos(d), d.get("description"),
                       also=hook(here, chat, SENT, sent))
    moved(chat, here.now(), SENT, sent)


def _photos(d: dict[str, Any]) -> list[EvidenceIn]:
    return [EvidenceIn(p["sha"], p["mime"], "photo") for p in d.get("photos", [])]
