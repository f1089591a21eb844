"""The bot's rate limiter: python-telegram-bot's AIORateLimiter (about 30 messages/s overall,
20/min per group), plus calls that ask for no retry.

AIORateLimiter answers a 429 by sleeping retry_after and retrying, and while it sleeps it holds
*every* other request of the bot. That is right for a button's answer, wrong for messages that
have a durable queue: a 429 is about one chat, so the outbox and the direct replies pass
`rate_limit_args=NO_RETRY`, get the RetryAfter at once and reschedule only that chat
(bot/sender.py, bot/replies.py)."""
from __future__ import annotations

import contextlib
from typing import Any

from telegram.ext import AIORateLimiter

NO_RETRY = "no-retry"


class RateLimiter(AIORateLimiter):
    async def process_request(self, callback, args: Any, kwargs: dict[str, Any], endpoint: str,
                              data: dict[str, Any], rate_limit_args: Any):
        if rate_limit_args != NO_RETRY:
            return await super().process_request(callback, args, kwargs, endpoint, data,
                                                 rate_limit_args)
        # The same throttles as AIORateLimiter._run_request, without its retry and without
        # waiting for another request's 429 pause (pinned python-telegram-bot 22.8).
        chat_id = data.get("chat_id")
        with contextlib.suppress(ValueError, TypeError):
            chat_id = int(chat_id)
        group = chat_id if (isinstance(chat_id, int) and chat_id < 0) or isinstance(chat_id, str) \
            else False
        base = self._base_limiter if (chat_id is not None and self._base_limiter) \
            else contextlib.nullcontext()
        group_ctx = self._get_group_limiter(group) if group and self._group_max_rate \
            else contextlib.nullcontext()
        async with group_ctx, base:
            return await callback(*args, **kwargs)
