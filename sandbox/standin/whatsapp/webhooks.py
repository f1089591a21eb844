"""What the stand-in sends to the face: Meta's webhook envelope, signed as Meta signs it
(``X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>``), kept to
be delivered again byte for byte; and the verify handshake a face's endpoint must answer."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientSession, ClientTimeout


def signature(body: bytes, app_secret: str) -> str:
    """The header's value for a raw body."""
    return "sha256=" + hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()


@dataclass
class Delivery:
    """One webhook POST: the raw body as signed, and each attempt's HTTP status (None: no
    answer)."""

    body: bytes
    message_id: str | None
    statuses: list[int | None] = field(default_factory=list)

    @property
    def payload(self) -> dict:
        return json.loads(self.body)


def envelope(waba_id: str, phone_number_id: str, display_number: str, value: dict) -> dict:
    """``object: whatsapp_business_account`` → entry → changes → value (field ``messages``)."""
    return {
        "object": "whatsapp_business_account",
        "entry": [{
            "id": waba_id,
            "changes": [{
                "field": "messages",
                "value": {
                    "messaging_product": "whatsapp",
                    "metadata": {"display_phone_number": display_number,
                                 "phone_number_id": phone_number_id},
                    **value,
                },
            }],
        }],
    }


def new_wamid() -> str:
    return "wamid." + secrets.token_urlsafe(36)


async def post(session: ClientSession, url: str, delivery: Delivery, app_secret: str) -> int | None:
    headers = {"Content-Type": "application/json",
               "X-Hub-Signature-256": signature(delivery.body, app_secret),
               "User-Agent": "facebookexternalua"}
    try:
        async with session.post(url, data=delivery.body, headers=headers,
                                timeout=ClientTimeout(total=20)) as resp:
            await resp.read()
            status: int | None = resp.status
    except (OSError, TimeoutError):
        status = None
    delivery.statuses.append(status)
    return status


async def verify_endpoint(url: str, verify_token: str, *, challenge: str | None = None,
                          session: ClientSession | None = None) -> dict[str, Any]:
    """Meta's subscription check: GET ``url`` with ``hub.mode=subscribe``, ``hub.verify_token``
    and ``hub.challenge``; the endpoint passes when it answers 200 with the challenge alone."""
    challenge = challenge or str(secrets.randbelow(10**10))
    params = {"hub.mode": "subscribe", "hub.verify_token": verify_token,
              "hub.challenge": challenge}
    own = session is None
    http = session or ClientSession()
    try:
        async with http.get(url, params=params, timeout=ClientTimeout(total=20)) as resp:
            text = await resp.text()
            return {"status": resp.status, "body": text,
                    "verified": resp.status == 200 and text == challenge}
    finally:
        if own:
            await http.close()
