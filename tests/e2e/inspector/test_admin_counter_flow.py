"""Reports without Telegram, end to end: a citizen at the counter who leaves an e-mail and a
caller who has no photo (the inspector takes them on site) are registered in the panel, their
cases reach the inspector in the real bot and go through the inspection (the notice affixed,
Dores Art. 4º, II, a) — and no message is ever queued for a chat that does not exist: nothing
goes undelivered, the dashboard stays calm, and both citizens wait on "Cidadãos a avisar" with
the contact they gave (LGPD, Lei 13.709/2018 art. 7º, III), for staff only."""
from __future__ import annotations

import asyncio

from aiohttp import FormData
from sqlalchemy import func, select

from core.services.staff.accounts import create_user
from core.storage import outbox
from core.storage.models import Case, Evidence, OutboxMessage, Person, Subscription
from tests.support.core_fixtures import jpeg
from tests.support.panel import PASSWORD, Panel, csrf_of
from tests.support.inspector import (ANA, FAR, NEAR, affix_notice_up_to_confirm, bind, open_card,
                                     send_photo, tap, task_message)
from tests.support.bot_chat import said


def _intake(token: str, channel: str, where, address: str, photo: bytes | None = None,
            **contact) -> FormData:
    data = FormData()
    for key, value in {"csrf": token, "action": "submit", "channel": channel,
                       "category": "motor_vehicle", "lat": f"{where[0]:.6f}",
                       "lon": f"{where[1]:.6f}", "address": address,
                       **contact}.items():
        data.add_field(key, value)
    if photo is not None:
        data.add_field("photos", photo, filename="carro.jpg", content_type="image/jpeg")
    return data


async def _register(client, **kw) -> str:
    token = csrf_of(await (await client.get("/balcao")).text())
    done = await client.post("/balcao", data=_intake(token, **kw), allow_redirects=False)
    assert done.status == 302, await done.text()
    return done.headers["Location"].rsplit("/", 1)[1]


async def _delivered(core) -> None:
    """Wait until the bot's sender has handled every queued message (sent or given up)."""
    for _ in range(200):
        async with core.db.read() as s:
            left = await s.scalar(select(func.count()).select_from(OutboxMessage).where(
                OutboxMessage.status.in_(outbox.UNDELIVERED)))
        if not left:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{left} messages still queued")


async def _inspect(bot, protocol: str, number: str) -> None:
    """The inspector affixes the notice and sends its photo (Dores Art. 4º, II, a)."""
    await open_card(bot, ANA, protocol)
    await affix_notice_up_to_confirm(bot, ANA, number)
    await tap(bot, ANA, "Confirmar", expect="Registrado: Afixar notificação")
    await said(bot, ANA, "envie aqui a foto da notificação afixada")
    await send_photo(bot, ANA, 7)
    await tap(bot, ANA, "Pronto", expect="Foto da notificação afixada registrada")


async def test_counter_and_phone_cases_go_through_inspection_with_no_dead_letter(bot, core):
    await create_user(core, "bruno", PASSWORD, "staff")
    panel = Panel(core)
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    async with panel.client("bruno") as client:
        counter = await _register(client, channel="balcao", where=NEAR, photo=jpeg(),
                                  address="Rua Goiás, 120, Centro",
                                  contact_name="Maria", contact_email="maria@example.com")
        phoned = await _register(client, channel="telefone", where=FAR,
                                 address="Rua Bahia, 45, Centro",
                                 contact_phone="37 99999-1234")  # no photo: none to give
        first = await task_message(bot, ANA, counter)
        second = await task_message(bot, ANA, phoned)
        assert "Nova tarefa" in first.text and "Rua Bahia, 45" in second.text
        await _inspect(bot, counter, "N-1/2026")
        await _inspect(bot, phoned, "N-2/2026")
        await _delivered(core)

        async with core.db.read() as s:
            cases = {c.protocol: c for c in (await s.execute(select(Case))).scalars()}
            assert {c.state for c in cases.values()} == {"notice_affixed"}
            reporters = (await s.execute(select(Person).where(Person.id.in_(
                [c.reporter_id for c in cases.values()])))).scalars().all()
            assert [p.telegram_id for p in reporters] == [None, None]  # no chat, none made up
            assert await s.scalar(select(func.count()).select_from(Subscription)) == 0
            chats = set((await s.execute(select(OutboxMessage.chat_id))).scalars())
            assert chats == {ANA.id}  # every message went to someone who is on Telegram
            failed = await s.scalar(select(func.count()).select_from(OutboxMessage).where(
                OutboxMessage.status == outbox.FAILED))
            assert failed == 0
            ana = (await s.execute(select(Person.id).where(Person.telegram_id == ANA.id))
                   ).scalar_one()
            takers = (await s.execute(select(Evidence.uploaded_by).where(
                Evidence.case_id == cases[phoned].id, Evidence.kind == "photo"))).scalars().all()
            assert takers == [ana]  # the caller had none: the inspector's, taken on site
        home = await (await client.get("/")).text()
        assert 'class="kpi bad"><b><a href="/entregas">0</a>' not in home
        assert '<b><a href="/entregas">0</a></b>' in home
        listed = await (await client.get("/balcao")).text()
        to_tell = listed[listed.index('id="to-tell"'):]
        for protocol, contact in ((counter, "maria@example.com"), (phoned, "(37) 99999-1234")):
            assert protocol in to_tell and contact in to_tell
        label = core.law.tracks["dores_vehicle"].state("notice_affixed").label
        assert to_tell.count(label) == 2  # what each citizen is to be told now
