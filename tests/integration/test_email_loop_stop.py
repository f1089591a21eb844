"""The panel's e-mail sender (core.services.messaging.email_sender.email_loop) stops as the bot's
loops do (core.stopping, bot.loops re-exports it): told through its stop event, it ends after
the pass under way instead of being cancelled, so nothing is cut mid-send and what is still
queued stays due for the next start."""
from __future__ import annotations

import asyncio
import time

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.messaging.email_sender import email_loop
from core.storage import outbox
from core.storage.models_email import EmailMessage
from core.storage.timeline import ActorRef
from core.stopping import finish
from tests.support.panel import counter_case
from tests.support.smtp import SmtpServer, free_port

SECRET = b"segredo-de-teste"


async def _core(make_core, url: str):
    return await make_core(smtp_url=url, public_url="https://vialivre.dores.example",
                           smtp_from="Prefeitura de Dores do Indaiá <avisos@dores.example>")


async def test_the_email_loop_sends_then_stops_on_its_stop_event_without_being_cancelled(
        make_core, photo):
    with SmtpServer() as smtp:
        core = await _core(make_core, smtp.url)
        await counter_case(core, photo)
        stop = asyncio.Event()
        task = asyncio.create_task(email_loop(core, SECRET, interval_s=30.0, stop=stop))
        await smtp.wait_for(1)
        started = time.monotonic()
        await finish([task], stop, grace_s=5.0)
        assert time.monotonic() - started < 2.0  # the 30 s rest ends with the stop event
        assert task.done() and not task.cancelled() and task.exception() is None


async def test_mail_queued_while_the_server_is_down_stays_due_across_a_stop(make_core, photo):
    core = await _core(make_core, f"smtp://127.0.0.1:{free_port()}")  # nothing listens
    protocol = await counter_case(core, photo)
    await apply_transition(core, protocol, "open_diligence", ActorRef("staff", 0, "Clara"))
    stop = asyncio.Event()
    task = asyncio.create_task(email_loop(core, SECRET, interval_s=0.05, stop=stop))
    await asyncio.sleep(0.5)  # a pass or more against the server that is down
    await finish([task], stop, grace_s=5.0)
    assert not task.cancelled() and task.exception() is None
    async with core.db.read() as s:
        rows = list((await s.execute(select(EmailMessage))).scalars())
    assert len(rows) == 2 and all(r.status == outbox.PENDING for r in rows)  # none lost
