"""Delivery that isolates failures, through the real bot and the panel: a refused album does not
take the pin, the text and its buttons with it (the text says what could not be shown); a
refused text becomes a dead letter the panel lists, puts the case in the dashboard's queue of
inspectors not told, and staff re-send it without repeating the parts already delivered; a
person who blocked the bot is marked, not retried, and cleared when they write again."""
from __future__ import annotations

import asyncio

from sqlalchemy import select

from core.services.messaging import delivery
from core.services.citizens.reports import ReportIn, submit_report
from core.services.staff.accounts import create_user
from core.storage.models import OutboxMessage, Person
from tests.support.panel import PASSWORD, Panel, post_form
from tests.support.inspector import ANA, DORES, NEAR, REPORTER, bind, task_message


async def report(core, photo, n_photos: int = 2) -> str:
    r = ReportIn(category="motor_vehicle", lat=DORES[0], lon=DORES[1],
                 photos=[photo(i) for i in range(n_photos)], address="Rua Tiradentes, 120, Centro")
    return (await submit_report(core, REPORTER, r, display_name="Maria")).protocol


async def task_row(core, protocol: str, status: str, timeout: float = 8.0) -> OutboxMessage:
    for _ in range(int(timeout / 0.05)):
        async with core.db.read() as s:
            rows = (await s.execute(select(OutboxMessage).where(
                OutboxMessage.kind == "task_offer"))).scalars().all()
        row = next((r for r in rows if r.payload.get("protocol") == protocol), None)
        if row is not None and row.status == status:
            return row
        await asyncio.sleep(0.05)
    raise AssertionError(f"task message never {status}: {[(r.status, r.last_error) for r in rows]}")


async def test_album_goes_out_with_an_attach_name_per_photo(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    protocol = await report(core, photo)
    await task_message(bot, ANA, protocol)
    [album] = bot.api.sent(ANA, "sendMediaGroup")
    refs = [item["media"] for item in album.params["media"]]
    assert len(set(refs)) == 2 and all(r.startswith("attach://") for r in refs)
    assert {r.removeprefix("attach://") for r in refs} <= set(album.files)


async def test_refused_album_leaves_pin_text_and_buttons_and_says_so(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    bot.api.fail_next("sendMediaGroup", 400, description="Bad Request: wrong file identifier")
    protocol = await report(core, photo)
    msg = await task_message(bot, ANA, protocol)
    assert "(Não foi possível mostrar as fotos.)" in msg.text
    assert [b.text for row in msg.buttons for b in row] == ["Aceitar", "Recusar"]
    assert bot.api.sent(ANA, "sendVenue")
    row = await task_row(core, protocol, "sent")
    assert row.progress["refused"] == ["photos"]


async def test_dead_task_message_listed_in_panel_untold_and_resent_once(bot, core, photo):
    await create_user(core, "bruno", PASSWORD, "staff")
    panel = Panel(core)
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    # the reporter's "your case moved" and the inspector's task text are both refused
    bot.api.fail_next("sendMessage", 400, description="Bad Request: can't parse entities",
                      times=2)
    protocol = await report(core, photo)
    row = await task_row(core, protocol, "failed")
    assert [u.protocol for u in await delivery.untold_cases(core)] == [protocol]
    async with panel.client("bruno") as c:
        home = await (await c.get("/")).text()
        assert "Fiscal não avisado da tarefa" in home and protocol in home
        fila = await (await c.get("/fila")).text()  # the staff's queue lists it too
        assert f'data-protocol="{protocol}"' in fila and "Reenviar a tarefa" in fila
        page = await (await c.get("/entregas")).text()
        for shown in ("Fiscal", protocol, "Nova tarefa", "parse entities"):
            assert shown in page
        r = await post_form(c, "/entregas", f"/entregas/{row.id}/reenviar", {})
        assert r.status == 302
        msg = await task_message(bot, ANA, protocol)
        assert [b.text for b in msg.buttons[0]] == ["Aceitar", "Recusar"]
        await task_row(core, protocol, "sent")
        assert len(bot.api.sent(ANA, "sendMediaGroup")) == 1  # parts already out not repeated
        assert len(bot.api.sent(ANA, "sendVenue")) == 1
        home = await (await c.get("/")).text()
        assert "Fiscal não avisado da tarefa" not in home
        assert protocol not in await (await c.get("/fila")).text()
        assert await delivery.untold_cases(core) == []
        r = await post_form(c, "/entregas", f"/entregas/{row.id}/reenviar", {})
        assert r.status == 404 or "não encontrada" in await r.text()


async def test_blocked_person_marked_not_retried_and_cleared_when_they_write(bot, core, photo):
    await create_user(core, "bruno", PASSWORD, "staff")
    panel = Panel(core)
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    bot.api.block(ANA)
    first = await report(core, photo, 1)
    row = await task_row(core, first, "failed")
    assert row.attempts == 1 and "403" in row.last_error
    tried = len(bot.api.sent(ANA, ok=None))
    second = await report(core, photo, 1)  # while blocked: given up without calling Telegram
    await task_row(core, second, "failed")
    assert len(bot.api.sent(ANA, ok=None)) == tried
    async with core.db.read() as s:
        assert (await s.execute(select(Person.blocked_bot_at).where(
            Person.telegram_id == ANA.id))).scalar_one() is not None
    async with panel.client("bruno") as c:
        assert "bloqueou o bot" in await (await c.get("/entregas")).text()
        r = await post_form(c, "/entregas", f"/entregas/{row.id}/reenviar", {})
        assert "voltar a escrever ao bot" in await r.text()
        bot.api.blocked.discard(ANA.id)  # Ana unblocks the bot and writes again
        await bot.api.send_command(ANA, "tarefas")
        await bot.api.wait_for(method="sendMessage", chat_id=ANA)
        async with core.db.read() as s:
            assert (await s.execute(select(Person.blocked_bot_at).where(
                Person.telegram_id == ANA.id))).scalar_one() is None
        r = await post_form(c, "/entregas", f"/entregas/{row.id}/reenviar", {})
        assert r.status == 302
        await task_message(bot, ANA, first)


async def test_sender_stopped_between_parts_resends_only_the_part_in_flight(bot, core, photo):
    """The bot stops while the task's text is on its way (album and pin already out): after
    the restart the text goes out at once, and the album and pin are not sent again."""
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    bot.api.fail_next("sendMessage", None, delay=3.0, times=2)  # slow: caught in flight
    protocol = await report(core, photo)
    await bot.api.wait_for(method="sendVenue", chat_id=ANA, since=0, timeout=8)
    await asyncio.sleep(0.3)
    await bot.restart()
    bot.api.clear_faults()
    await task_message(bot, ANA, protocol)
    await task_row(core, protocol, "sent")
    assert len(bot.api.sent(ANA, "sendMediaGroup")) == 1
    assert len(bot.api.sent(ANA, "sendVenue")) == 1


async def test_resend_route_refuses_hostile_ids_and_forms_without_csrf(core):
    await create_user(core, "bruno", PASSWORD, "staff")
    async with Panel(core).client("bruno") as c:
        for bad in ("99999999999999999999", "²", "-1", "1%00"):
            r = await post_form(c, "/entregas", f"/entregas/{bad}/reenviar", {})
            assert r.status < 500
        r = await post_form(c, "/entregas", "/entregas/123/reenviar", {})
        assert r.status == 404 and "não encontrada" in await r.text()  # a missing one: 404
        r = await c.post("/entregas/123/reenviar", data={}, allow_redirects=False)
        assert r.status == 403  # no CSRF token
    async with Panel(core).client() as anonymous:
        r = await anonymous.get("/entregas", allow_redirects=False)
        assert r.status == 302 and r.headers["Location"].startswith("/login")
