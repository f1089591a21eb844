"""After the 24 hours, by WhatsApp's rules: a case's update to a person who follows it on
WhatsApp goes only as an approved template. With a template whose body has a third parameter
(WHATSAPP_TEMPLATE_LINK), it carries the case's public status page; with none configured,
nothing is lost: the update is held, the panel's "Cidadãos a avisar" lists it with the number
masked (LGPD art. 6º, III: staff do not need the whole number), and it goes as free text the
moment the person writes again. Real bot and face over HTTP, the strict Cloud API stand-in."""
from __future__ import annotations

import asyncio

from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.messaging.whatsapp_held import HELD, held_updates
from core.services.staff.accounts import create_user
from core.storage.models import OutboxMessage
from core.storage.timeline import ActorRef
from tests.support.panel import PASSWORD, Panel
from tests.support.whatsapp import MARIA, drained, report, whatsapp_world

STAFF = ActorRef("staff", None, "Servidora")
TEMPLATE = "atualizacao_caso"


async def _four_days_later(core, wa, face, protocol: str) -> int:
    """What the report queued went inside the window; four days on, the case moves."""
    face.wake.set()
    assert await drained(core)
    core.clock.advance(days=4)
    wa.advance(4 * 24 * 3600)
    before = len(wa.sent_to(MARIA))
    await apply_transition(core, protocol, "open_diligence", STAFF, {})
    face.wake.set()
    return before


async def _sent_after(wa, before: int) -> list:
    for _ in range(200):
        if len(wa.sent_to(MARIA)) > before:
            break
        await asyncio.sleep(0.05)
    return wa.sent_to(MARIA)[before:]


async def test_the_template_carries_the_status_page_link(make_core):
    async with whatsapp_world(make_core, templates={TEMPLATE: 3},
                              whatsapp_template_update=TEMPLATE, whatsapp_template_link=True,
                              public_url="https://vialivre.doresdoindaia.mg.gov.br/") as w:
        core, _bot, wa, face = w
        protocol = await report(wa)
        before = await _four_days_later(core, wa, face, protocol)
        [update] = await _sent_after(wa, before)
        assert update.type == "template"
        params = [p["text"] for p in update.body["template"]["components"][0]["parameters"]]
        assert params[0] == protocol and params[1] and params[2] == (
            f"https://vialivre.doresdoindaia.mg.gov.br/publico/protocolo/{protocol}")


async def test_without_a_template_the_update_waits_is_listed_and_goes_when_she_writes(
        make_core):
    async with whatsapp_world(make_core) as w:  # no template approved nor configured
        core, _bot, wa, face = w
        protocol = await report(wa)
        before = await _four_days_later(core, wa, face, protocol)
        for _ in range(200):  # the sender looked at it and held it
            async with core.db.read() as s:
                row = (await s.execute(select(OutboxMessage).where(
                    OutboxMessage.channel == "whatsapp")
                    .order_by(OutboxMessage.id.desc()))).scalars().first()
            if row.last_error == HELD:
                break
            await asyncio.sleep(0.05)
        assert (row.status, row.last_error) == ("pending", HELD)  # not a dead letter
        assert len(wa.sent_to(MARIA)) == before  # nothing refused went out either
        [held] = await held_updates(core)
        assert held.protocol == protocol and held.who == "+55 37 •••••-0001"
        # the panel's counter page lists her, masked
        await create_user(core, "ana", PASSWORD, "admin")
        async with Panel(core).client("ana") as client:
            page = await (await client.get("/balcao")).text()
        assert "No WhatsApp, à espera da pessoa" in page and protocol in page
        assert "+55 37 •••••-0001" in page and MARIA not in page
        # she writes: the window opens and the held update goes at once, as free text
        await wa.user_text(MARIA, "Oi, alguma novidade?")
        update = None
        for _ in range(200):
            update = next((m for m in wa.sent_to(MARIA)[before:] if m.type == "text"
                           and protocol in m.body["text"]["body"]), None)
            if update is not None:
                break
            await asyncio.sleep(0.05)
        assert update is not None
        assert await drained(core)
        assert await held_updates(core) == []
