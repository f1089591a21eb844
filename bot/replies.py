"""Direct replies that are never lost: the answer to a person's update goes straight to
Telegram, and if Telegram fails at that moment (5xx, connection error, timeout, 429) it is
queued in the outbox (durably) and delivered when Telegram answers again. Once a chat has a
reply waiting in the outbox, the next replies to that chat queue behind it, so the person
reads them in order.

Each function takes the application's state (bot.state.BotState) or anything else with the
three things a reply needs (`Outlet`: the core, the delivery state, the outbox's wake-up)."""
from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, Awaitable, Callable, Protocol

from telegram import Bot, InputFile, Message
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

from bot.ratelimit import NO_RETRY
from bot.sender import DeliveryState, retry_seconds
from core import logs
from core.services.messaging import delivery
from core.services.messaging.delivery import utcnow
from core.services.context import Core

log = logging.getLogger(__name__)


class Outlet(Protocol):
    core: Core
    delivery: DeliveryState
    outbox_wake: Any  # an asyncio.Event set when a reply is queued, or None


async def send_or_queue(bot: Bot, out: Outlet, chat_id: int, text: str,
                        markup: Any = None) -> Message | None:
    """Send `text` (with `markup`) to `chat_id` now, or queue it; None when queued (or when
    the person blocked the bot)."""
    payload: dict[str, Any] = {"text": text}
    if markup is not None:
        payload["reply_markup"] = markup.to_dict()
    return await _send_or_queue(bot, out, chat_id, payload, lambda rl: bot.send_message(
        chat_id, text, reply_markup=markup, **rl))


async def send_document_or_queue(bot: Bot, out: Outlet, chat_id: int, sha256: str,
                                 filename: str, caption: str | None,
                                 blob: bytes) -> Message | None:
    """A document kept in the evidence store (`sha256`), sent now or queued like a reply."""
    payload = {"document": {"sha256": sha256, "filename": filename, "caption": caption}}
    return await _send_or_queue(bot, out, chat_id, payload, lambda rl: bot.send_document(
        chat_id, InputFile(blob, filename=filename), caption=caption, **rl))


async def edit_or_send(bot: Bot, out: Outlet, chat_id: int, message_id: int, text: str,
                       markup: Any = None) -> None:
    """Redraw a message in place (the pressed button's). If Telegram fails at that moment, the
    new text goes out as a new message instead (queued if need be): the answer is never lost.
    A refusal of the edit itself (400, e.g. too old to edit) is the caller's to handle."""
    rl = {"rate_limit_args": NO_RETRY} if getattr(bot, "rate_limiter", None) else {}
    try:
        await bot.edit_message_text(text, chat_id=chat_id, message_id=message_id,
                                    reply_markup=markup, **rl)
    except BadRequest:
        raise
    except Forbidden:
        await _blocked(out, chat_id)
    except (RetryAfter, NetworkError, OSError) as exc:
        log.warning("edit in chat %s failed (%s): sent as a new message",
                    logs.opaque(str(chat_id)), exc)
        await send_or_queue(bot, out, chat_id, text, markup)


async def _send_or_queue(bot: Bot, out: Outlet, chat_id: int, payload: dict,
                         send: Callable[[dict], Awaitable[Message]]) -> Message | None:
    core, state = out.core, out.delivery
    if chat_id in state.held:  # an earlier reply waits in the outbox: this one goes after it
        if await delivery.chats_with_queued_replies(core, {chat_id}):
            await _queue(core, out, state, chat_id, payload)
            return None
        state.held.discard(chat_id)
    try:
        return await send({"rate_limit_args": NO_RETRY} if getattr(bot, "rate_limiter", None)
                          else {})
    except Forbidden:
        await _blocked(out, chat_id)
        return None
    except BadRequest:
        raise  # our mistake, not Telegram's moment: the error handler logs it
    except RetryAfter as exc:
        seconds = retry_seconds(exc)
        log.info("reply to %s: 429, queued for %.0f s", logs.opaque(str(chat_id)), seconds)
        await _queue(core, out, state, chat_id, payload,
                     utcnow() + timedelta(seconds=seconds))
    except (NetworkError, OSError) as exc:
        log.warning("reply to %s failed (%s): queued in the outbox",
                    logs.opaque(str(chat_id)), exc)
        await _queue(core, out, state, chat_id, payload)
    return None


async def _blocked(out: Outlet, chat_id: int) -> None:
    """403: the person blocked the bot; recorded on them until they write again."""
    log.info("chat %s blocked the bot: answer dropped, person marked",
             logs.opaque(str(chat_id)))
    out.delivery.blocked.add(chat_id)
    await delivery.mark_person_blocked(out.core, chat_id)


async def _queue(core: Core, out: Outlet, state: DeliveryState, chat_id: int,
                 payload: dict, not_before=None) -> None:
    await delivery.queue_reply(core, chat_id, payload, not_before)
    state.held.add(chat_id)
    wake = out.outbox_wake
    if wake is not None:
        wake.set()
