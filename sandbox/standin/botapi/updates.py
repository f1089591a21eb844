"""Delivering updates: getUpdates long polling (with Telegram's 409 for a second poller) and
webhooks (setWebhook, POSTs with the secret header, replies executed as method calls)."""
from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from aiohttp import ClientError, ClientSession, ClientTimeout

from sandbox.standin.botapi.errors import ApiError, bad
from sandbox.standin.botapi.values import WebhookDelivery


class UpdatesMixin:
    """getUpdates, setWebhook, deleteWebhook, getWebhookInfo and webhook delivery."""

    def _wake_pollers(self) -> None:
        self._updates_event.set()
        self._updates_event = asyncio.Event()

    async def _m_getupdates(self, params: dict, files: dict) -> list[dict]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake_pollers()  # an older concurrent poll gets its 409 below
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(float(params.get("timeout") or 0), 0.0)
        allowed = params.get("allowed_updates") or None
        self._confirm(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if generation != self._poll_generation:
                raise ApiError(409, "Conflict: terminated by other getUpdates request; make sure "
                                    "that only one bot instance is running")
            if allowed:
                self._pending = [p for p in self._pending
                                 if next(k for k in p.update if k != "update_id") in allowed]
            batch = self._pending[:limit]
            remaining = deadline - loop.time()
            if batch or self._closing or remaining <= 0:
                for p in batch:
                    p.delivered = True
                self._last_batch = batch
                return [p.update for p in batch]
            event = self._updates_event
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass

    def _confirm(self, offset: int) -> None:
        if offset < 0:
            self._pending = self._pending[offset:]
            return
        if not offset:
            return
        confirmed = set()
        if self._last_batch and self._last_batch[-1].update_id + 1 == offset:
            confirmed = {id(p) for p in self._last_batch}
        self._pending = [p for p in self._pending
                         if not (id(p) in confirmed or (p.delivered and p.update_id < offset))]

    async def _deliver_webhook(self, update: dict) -> None:
        assert self.webhook is not None
        if self._session is None:
            self._session = ClientSession()
        headers = {}
        if self.webhook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
        status, error, reply = None, None, None
        try:
            async with self._session.post(self.webhook["url"], json=update, headers=headers,
                                          timeout=ClientTimeout(total=10)) as resp:
                status = resp.status
                if 200 <= status < 300:
                    try:
                        reply = await resp.json(content_type=None)
                    except ValueError:
                        reply = None
                else:
                    error = f"Wrong response from the webhook: {status} {resp.reason}"
        except (ClientError, asyncio.TimeoutError) as e:
            error = f"Connection failed: {e!r}"
        self.webhook_deliveries.append(
            WebhookDelivery(update["update_id"], status, error, time.time()))
        if error:
            self._webhook_error = (int(time.time()), error)
        if isinstance(reply, dict) and isinstance(reply.get("method"), str):
            params = {k: v for k, v in reply.items() if k != "method"}
            await self._execute(reply["method"], params, {}, via_webhook_reply=True)

    async def _m_setwebhook(self, params: dict, files: dict) -> bool:
        url = params.get("url") or ""
        if not url:
            self.webhook = None
            return True
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise bad("secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook = {"url": url, "secret_token": secret,
                        "allowed_updates": params.get("allowed_updates")}
        pending, self._pending = self._pending, []
        for p in pending:
            asyncio.get_running_loop().create_task(self._deliver_webhook(p.update))
        return True

    async def _m_deletewebhook(self, params: dict, files: dict) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def _m_getwebhookinfo(self, params: dict, files: dict) -> dict:
        info: dict[str, Any] = {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook and self.webhook.get("allowed_updates"):
            info["allowed_updates"] = self.webhook["allowed_updates"]
        if self._webhook_error:
            info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info
