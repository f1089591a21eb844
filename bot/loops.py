"""Background loops started with the Application and stopped with it: the outbox sender
(messages queued by core services in the same transaction as the change they report) and the
periodic deadline sweep. Both are driven by the database, so a restart resumes them."""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from bot.buttons import markup as buttons_markup

from core.services.context import Core
from core.services.periodic import run_periodic
from core.services.delivery import ClaimedMessage, claim_due, mark_failed, mark_sent
from core.services.errors import StorageUnavailable

log = logging.getLogger(__name__)


@dataclass
class LoopSettings:
    outbox_interval_s: float = 1.0
    outbox_batch: int = 20
    sweep_interval_s: float = 300.0


def markup(buttons: list[list[dict]] | None) -> InlineKeyboardMarkup | None:
    """The payload's intents as buttons (bot/buttons.py holds the callback_data formats)."""
    return buttons_markup(buttons)


async def deliver(bot: Bot, core: Core, msg: ClaimedMessage) -> None:
    """Send one outbox message as the payload contract describes (photos, then venue, then
    document, then the text with its buttons)."""
    p, chat = msg.payload, msg.chat_id
    photos = [sha for sha in p.get("photos") or [] if core.evidence.exists(sha)][:10]
    if len(photos) == 1:
        await bot.send_photo(chat, _file(core, photos[0], "foto.jpg"))
    elif photos:
        await bot.send_media_group(chat, [InputMediaPhoto(_file(core, sha, f"foto{i}.jpg"))
                                          for i, sha in enumerate(photos)])
    if loc := p.get("location"):
        await bot.send_venue(chat, loc["lat"], loc["lon"], loc.get("title") or "Local",
                             loc.get("address") or "—")
    if doc := p.get("document"):
        await bot.send_document(chat, _file(core, doc["sha256"], doc.get("filename")),
                                caption=doc.get("caption"))
    await bot.send_message(chat, p["text"], reply_markup=markup(p.get("buttons")))


def _file(core: Core, sha: str, name: str | None) -> InputFile:
    return InputFile(core.evidence.path_of(sha).read_bytes(), filename=name)


async def send_due(bot: Bot, core: Core, batch: int = 20) -> int:
    """One pass of the outbox: claim what is due, send it, record the outcome."""
    claimed = await claim_due(core.db, limit=batch)
    for msg in claimed:
        try:
            await deliver(bot, core, msg)
        except RetryAfter as exc:  # 429 after the rate limiter's own retries
            await mark_failed(core.db, msg.id, f"429: {exc}",
                              retry_after=_seconds(exc.retry_after))
        except Forbidden as exc:  # the user blocked the bot: sending again will not help
            await mark_failed(core.db, msg.id, f"403: {exc}", permanent=True)
        except BadRequest as exc:
            permanent = "chat not found" in str(exc).lower()
            await mark_failed(core.db, msg.id, f"400: {exc}", permanent=permanent)
        except (TelegramError, OSError) as exc:
            await mark_failed(core.db, msg.id, f"{type(exc).__name__}: {exc}")
        else:
            await mark_sent(core.db, msg.id)
    return len(claimed)


def _seconds(value) -> float:
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


async def outbox_loop(bot: Bot, core: Core, settings: LoopSettings, wake: asyncio.Event) -> None:
    while True:
        try:
            sent = await send_due(bot, core, settings.outbox_batch)
        except StorageUnavailable as exc:
            log.warning("outbox: database unavailable: %s", exc.detail)
            sent = 0
        except Exception:
            log.exception("outbox pass failed")
            sent = 0
        if sent:
            continue
        try:
            await asyncio.wait_for(wake.wait(), settings.outbox_interval_s)
        except TimeoutError:
            pass
        wake.clear()


async def sweep_loop(core: Core, settings: LoopSettings, wake: asyncio.Event) -> None:
    while True:
        try:
            report = await run_periodic(core)  # lapses, warnings, reminders, retention
            if report.sweep.moved or report.sweep.refused:
                log.info("sweep: moved %s, refused %s", report.sweep.moved, report.sweep.refused)
            if report.queued_messages:
                wake.set()  # their messages are in the outbox
        except StorageUnavailable as exc:
            log.warning("sweep: database unavailable: %s", exc.detail)
        except Exception:
            log.exception("deadline sweep failed")
        await asyncio.sleep(settings.sweep_interval_s)
