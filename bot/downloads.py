"""What Telegram says when a file cannot be fetched, as a clear answer instead of an apology.

Every flow fetches files through getFile (bot/citizen/media.py, bot/inspector/media.py). Two
refusals come from Telegram itself and are the sender's to fix, not our failure: a file_id
Telegram does not know (made up, expired, from another bot) and a file above the 20 MB a bot
may download when the update did not announce its size. `guarded` turns those into the
refusal texts (the flow answers them as it answers its own refusals: nothing is written, what
was given before stays); anything else still goes to the error handler.
"""
from __future__ import annotations

from typing import Awaitable

from telegram.error import BadRequest

from bot.texts import FILE_TOO_BIG, FILE_UNKNOWN

_UNKNOWN = ("file_id", "file not found", "temporarily unavailable", "file reference")


def refusal_for(exc: BadRequest) -> str | None:
    """The Portuguese answer for a getFile refusal, or None if it is not one."""
    message = str(exc).lower()
    if "too big" in message or "too large" in message:
        return FILE_TOO_BIG
    if any(m in message for m in _UNKNOWN):
        return FILE_UNKNOWN
    return None


async def guarded(fetch: Awaitable[tuple[str | None, str | None]]
                  ) -> tuple[str | None, str | None]:
    """`await guarded(fetch(bot, core, item))`: the fetch's (sha256, refusal), with Telegram's
    own refusals of the file as refusals."""
    try:
        return await fetch
    except BadRequest as exc:
        refusal = refusal_for(exc)
        if refusal is None:
            raise
        return None, refusal
