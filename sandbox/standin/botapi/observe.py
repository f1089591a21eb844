"""Reading what the bot did: the call log, waiting for calls, the chats' current messages."""
from __future__ import annotations

import asyncio
from typing import Any, Callable

from sandbox.standin.botapi.values import (BotMessage, Button, Call, User, chat_id_of, commands_key,
                                       parse_keyboard)


class ObserveMixin:
    """What a test reads: the calls the bot made and the chats' current state."""

    def mark(self) -> int:
        """A position in the call log, for ``wait_for(since=...)``."""
        return len(self.calls)

    def sent(self, chat_id: User | int | None = None, method: str | None = None, *,
             ok: bool | None = True) -> list[Call]:
        """Recorded calls (getUpdates excluded unless asked for), oldest first. With `ok` given
        (True by default) only answered calls count: a call still being handled (e.g. inside
        an injected delay) is logged already, but whether it succeeds is not known yet."""
        return [c for c in self.calls if self._matches(c, None, method, chat_id, None, ok)]

    async def wait_for(
        self,
        predicate: Callable[[Call], bool] | None = None,
        *,
        method: str | None = None,
        chat_id: User | int | None = None,
        text: str | None = None,
        count: int = 1,
        timeout: float = 10.0,
        since: int | None = None,
        ok: bool | None = True,
    ) -> Any:
        """Wait for `count` matching calls made since the last injected update (or `since`).

        `text` matches as a substring of the text/caption. Returns the first matching Call
        (count == 1) or a list of `count` calls; raises AssertionError on timeout (10 s by
        default: it returns as soon as the call is there, and a loaded machine, e.g. the test
        suite on several workers, may take seconds to answer)."""
        pos = self._mark if since is None else since
        deadline = asyncio.get_running_loop().time() + timeout
        found: list[tuple[int, Call]] = []
        unfinished: list[int] = []  # calls are logged on arrival, matched once answered
        while True:
            unfinished.extend(range(pos, len(self.calls)))
            pos = len(self.calls)
            still = []
            for i in unfinished:
                c = self.calls[i]
                if not c.finished:
                    still.append(i)
                elif self._matches(c, predicate, method, chat_id, text, ok):
                    found.append((i, c))
            unfinished = still
            if len(found) >= count:
                calls = [c for _, c in sorted(found, key=lambda f: f[0])]
                return calls[0] if count == 1 else calls[:count]
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                recent = [(c.method, c.chat_id, c.text, c.ok) for c in self.sent(ok=None)[-8:]]
                raise AssertionError(
                    f"timed out waiting for {count} call(s) method={method} chat={chat_id} "
                    f"text={text!r}; got {len(found)}; recent calls: {recent}"
                )
            event = self._calls_event
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass

    def messages(self, chat_id: User | int) -> list[BotMessage]:
        """Bot messages in a chat, current state, deleted ones left out."""
        cid = chat_id_of(chat_id)
        return [m for (c, _), m in sorted(self._messages.items()) if c == cid and not m.deleted]

    def last_message(self, chat_id: User | int) -> BotMessage | None:
        msgs = self.messages(chat_id)
        return msgs[-1] if msgs else None

    def reply_keyboard(self, chat_id: User | int) -> list[list[Button]]:
        """The reply keyboard the user currently sees (until removed), as button rows."""
        return parse_keyboard(self._reply_keyboard.get(chat_id_of(chat_id)))[1]

    def file_bytes(self, file_id: str) -> bytes:
        return self.files[file_id].data

    def my_commands(self, scope: dict | None = None, language_code: str = "") -> list[dict]:
        return self.commands.get(commands_key(scope, language_code), [])

    def _matches(self, c: Call, predicate: Callable[[Call], bool] | None, method: str | None,
                 chat_id: Any, text: str | None, ok: bool | None) -> bool:
        if method is None and c.method.lower() == "getupdates":
            return False
        if method is not None and c.method.lower() != method.lower():
            return False
        if ok is not None and (not c.finished or c.ok != ok):
            return False
        if chat_id is not None and c.chat_id != chat_id_of(chat_id):
            return False
        if text is not None and text not in (c.text or ""):
            return False
        return predicate is None or bool(predicate(c))
