"""The outbox's WhatsApp channel (core.storage.outbox, channel "whatsapp"): a case's update to
a person who follows it on WhatsApp goes as free text within 24 hours of their last message,
and after them as the approved template named in WHATSAPP_TEMPLATE_UPDATE (the protocol and
the new situation as its parameters, and with WHATSAPP_TEMPLATE_LINK the case's public status
page). With no template, the update is held until the person writes again and listed on the
panel's "Cidadãos a avisar" meanwhile (core.services.messaging.whatsapp_held). Each refusal is
what the Graph client says it is (whatsapp.graph): a rate limit or Meta's trouble is tried
again later, the attempt not counted; outside the window the template goes instead; a person
who cannot receive it, or a template refused, is a dead letter on the panel's /entregas with
the error in words. Per-chat order, leases and retries are the outbox's own."""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

from core.services.context import Core
from core.services.errors import StorageUnavailable
from core.services.messaging import delivery as outbox
from core.services.messaging import links
from core.services.messaging import whatsapp_chats as chats
from core.services.messaging.whatsapp_held import HELD, RECHECK
from core.settings import Settings
from whatsapp.graph import RETRY_LATER, TEMPLATE, Graph, GraphError
from whatsapp.render import TEXT_MAX

log = logging.getLogger(__name__)
SENDER = "whatsapp"
RETRY = timedelta(seconds=30)
QUIET_S = 0.5


def text_message(to: str, text: str) -> dict[str, Any]:
    return {"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
            "type": "text", "text": {"body": text[:TEXT_MAX], "preview_url": False}}


def template_message(to: str, settings: Settings, payload: dict[str, Any]) -> dict[str, Any]:
    protocol = payload.get("protocol") or "-"
    params = [protocol, payload.get("state") or payload.get("text", "-")]
    if settings.whatsapp_template_link:  # {{3}}: where to follow it (the body asks for it)
        params.append(links.status_page(settings, protocol) if settings.public_url
                      else f"protocolo {protocol}")
    return {"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
            "type": "template",
            "template": {"name": settings.whatsapp_template_update,
                         "language": {"code": settings.whatsapp_template_language},
                         "components": [{"type": "body", "parameters": [
                             {"type": "text", "text": str(p)[:1024]} for p in params]}]}}


async def send_due(core: Core, graph: Graph, batch: int = 20) -> int:
    """One pass: claim the WhatsApp chat heads due, send each, record its outcome."""
    claimed = await outbox.claim_due(core.db, limit=batch, sender=SENDER,
                                     channel=outbox.WHATSAPP)
    if not claimed:
        return 0
    last = await chats.last_inbound(core, {str(m.chat_id) for m in claimed})
    for msg in claimed:
        to = str(msg.chat_id)
        free = chats.window_open(last.get(to), core.now())
        try:
            await _send(core, graph, to, msg.payload, free)
        except GraphError as exc:
            if exc.outcome == RETRY_LATER:
                await outbox.release(core.db, [msg.id], exc.in_words,
                                     retry_at=outbox.utcnow() + RETRY)
            else:
                await outbox.mark_failed(core.db, msg.id, exc.in_words, permanent=True)
                log.warning("whatsapp outbox %s is a dead letter: %s", msg.id, exc)
        except _NoTemplate:  # held for the person's next message, never lost
            await outbox.release(core.db, [msg.id], HELD, retry_at=outbox.utcnow() + RECHECK)
        else:
            await outbox.mark_sent(core.db, msg.id)
    return len(claimed)


class _NoTemplate(Exception):
    pass


async def _send(core: Core, graph: Graph, to: str, payload: dict[str, Any],
                free: bool) -> None:
    settings = core.settings
    if free:
        try:
            await graph.send(text_message(to, payload.get("text", "")))
            return
        except GraphError as exc:
            if exc.outcome != TEMPLATE:  # the window closed between our count and Meta's
                raise
    if not settings.whatsapp_template_update:
        raise _NoTemplate
    await graph.send(template_message(to, settings, payload))


async def run(core: Core, graph: Graph, wake: asyncio.Event, stop: asyncio.Event,
              interval_s: float = 2.0) -> None:
    """The sender's loop: a pass whenever woken, or every `interval_s`, until `stop` (a pass
    under way ends first, so no claim is cut in the middle of its transaction)."""
    await outbox.release_claims_of(core.db, SENDER)
    while not stop.is_set():
        try:
            while await send_due(core, graph) and not stop.is_set():
                pass
            # nothing due: a burst of wake-ups (every webhook wakes the sender) costs one
            # pass per QUIET_S, not one query per message received
            quiet = asyncio.ensure_future(stop.wait())
            await asyncio.wait([quiet], timeout=QUIET_S)
            quiet.cancel()
        except StorageUnavailable as exc:
            log.warning("whatsapp outbox: database unavailable (%s)", exc)
        except Exception:
            log.exception("whatsapp outbox pass failed")
        waits = [asyncio.ensure_future(wake.wait()), asyncio.ensure_future(stop.wait())]
        await asyncio.wait(waits, timeout=interval_s, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()
        wake.clear()
