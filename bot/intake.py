"""What arrives from Telegram before python-telegram-bot reads it: cleaned text, and updates
the library cannot parse skipped instead of blocking the bot.

Cleaning. Every string of an incoming update goes through core.text.clean_data, so no NUL or
lone surrogate (which PostgreSQL refuses) reaches a flow, a draft or a query.

Unparsable ("poison") updates. PTB parses a getUpdates batch as a whole: one update it cannot
parse fails the batch, the Updater logs it and asks for the same batch again, forever (and
writes gigabytes of log). `ScreenedUpdates` wraps the getUpdates request: when a batch came
back and the next call's offset shows it was not accepted, it parses that batch update by
update and replaces each one that fails by a bare Update (its update_id only), which the
Updater acknowledges and the dispatcher ignores. The library logs the failed batch once;
`Unparsable` counts each skipped update and logs it through a `Throttle` (repeated identical
errors are summarised, never written one by one). In webhook mode (bot.webhook) a body that is
not an update gets 400 and is counted the same way.
"""
from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.request import BaseRequest, RequestData

from core.text import clean_data

log = logging.getLogger(__name__)
_ESCAPED_REFUSED = re.compile(rb"\\u0000|\\u[dD][89a-fA-F]")  # NUL, surrogates in JSON


@dataclass
class Throttle:
    """Logs a repeated message at most once per `every_s` per key (with how many were held
    back), remembering at most `keys` keys."""
    every_s: float = 60.0
    keys: int = 1000
    clock: Any = time.monotonic
    _seen: OrderedDict = field(default_factory=OrderedDict)  # key -> (logged_at, held back)

    def log(self, logger: logging.Logger, level: int, key: str, msg: str, *args: Any,
            exc_info: BaseException | None = None) -> bool:
        now = self.clock()
        logged_at, held = self._seen.pop(key, (None, 0))
        if logged_at is not None and now - logged_at < self.every_s:
            self._seen[key] = (logged_at, held + 1)
            return False
        if held:
            msg += f" (and {held} more like it in the last {self.every_s:.0f} s)"
        logger.log(level, msg, *args, exc_info=exc_info)
        self._seen[key] = (now, 0)
        while len(self._seen) > self.keys:
            self._seen.popitem(last=False)
        return True


@dataclass
class Unparsable:
    """Updates skipped because they could not be read: counted, logged under a Throttle."""
    count: int = 0
    throttle: Throttle = field(default_factory=Throttle)

    def record(self, update_id: Any, exc: BaseException, where: str) -> None:
        self.count += 1
        key = f"{where}:{type(exc).__name__}:{str(exc)[:200]}"
        self.throttle.log(log, logging.WARNING, key,
                          "unparsable update %s skipped (%s): %s: %.200s", update_id, where,
                          type(exc).__name__, exc)


def update_id_of(data: Any) -> int | None:
    """The integer update_id of a would-be update, or None (then it is not one)."""
    if not isinstance(data, dict):
        return None
    uid = data.get("update_id")
    return uid if isinstance(uid, int) and not isinstance(uid, bool) else None


def parse(data: Any, bot, unparsable: Unparsable, where: str) -> Update | None:
    """The Update in `data` (cleaned), or None when it is not one (recorded)."""
    uid = update_id_of(data)
    if uid is None:
        unparsable.record(None, ValueError("no integer update_id"), where)
        return None
    try:
        return Update.de_json(clean_data(data), bot)
    except Exception as exc:  # whatever the library raises on data it cannot read
        unparsable.record(uid, exc, where)
        return None


class ScreenedUpdates(BaseRequest):
    """The getUpdates request of the Application: `inner` does the HTTP; see the module doc."""

    def __init__(self, inner: BaseRequest, unparsable: Unparsable) -> None:
        self.inner = inner
        self.unparsable = unparsable
        self._last_ids: list[int] = []  # update ids of the last batch handed to PTB

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        return await self.inner.do_request(*args, **kwargs)

    def parse_json_payload(self, payload: bytes) -> Any:
        data = super().parse_json_payload(payload)
        return clean_data(data) if _ESCAPED_REFUSED.search(payload) else data

    async def post(self, url: str, request_data: RequestData | None = None,
                   **timeouts: Any) -> Any:
        params = request_data.parameters if request_data is not None else {}
        offset = params.get("offset") or 0
        refused = bool(self._last_ids) and offset <= max(self._last_ids)
        result = await super().post(url, request_data, **timeouts)
        if isinstance(result, list):
            if refused:  # the last batch came back: PTB could not parse it
                result = [self._screen(raw) for raw in result]
            self._last_ids = [u for u in map(update_id_of, result) if u is not None]
        return result

    def _screen(self, raw: Any) -> Any:
        if parse(raw, None, self.unparsable, "getUpdates") is not None:
            return raw
        uid = update_id_of(raw)
        return {"update_id": uid} if uid is not None else raw
