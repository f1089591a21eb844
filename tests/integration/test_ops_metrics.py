"""/metrics on the panel, over real HTTP: Prometheus text (read back with prometheus-client's
own parser) only to `Authorization: Bearer <METRICS_TOKEN>`, a 404 without it, with a wrong one,
and always while METRICS_TOKEN is unset; the numbers follow what happens (cases by state and
city, outbox depth and age, dead letters, lapsed deadlines, refused logins, the sweep)."""
from __future__ import annotations

from datetime import timedelta

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import update

from admin.app import create_app
from core.services.periodic import run_if_due
from core.storage import outbox
from core.storage.models import Case, OutboxMessage
from core.storage.types import utcnow
from tests.support.metrics import AUTH, TOKEN, samples
from tests.support.panel import login, new_case


async def _scrape(client) -> dict[tuple[str, tuple], float]:
    resp = await client.get("/metrics", headers=AUTH)
    assert resp.status == 200
    assert resp.headers["Content-Type"].startswith("text/plain")
    return samples(await resp.text())


async def test_metrics_are_a_404_while_the_token_is_unset(core):
    async with TestClient(TestServer(create_app(core))) as client:
        for headers in ({}, {"Authorization": "Bearer "}, AUTH):
            resp = await client.get("/metrics", headers=headers)
            assert resp.status == 404


#: A person's chat id, as no count in the (process-wide) registry can spell it.
CHAT = 987_654_321_987


async def test_metrics_need_the_token_and_follow_the_installation(make_core, photo):
    core = await make_core(metrics_token=TOKEN)
    async with TestClient(TestServer(create_app(core))) as client:
        for headers in ({}, {"Authorization": "Bearer outro"}, {"Authorization": TOKEN},
                        {"Authorization": f"Basic {TOKEN}"}):
            assert (await client.get("/metrics", headers=headers)).status == 404
        before = await _scrape(client)
        assert before[("vialivre_sweep_last_run_timestamp_seconds", ())] == 0  # never ran

        case = await new_case(core, photo, 1, description="Marcador-Pessoal-456")
        async with core.db.unit_of_work() as s:
            for n in range(3):
                await outbox.enqueue(s, CHAT, "text", {"text": "Marcador-Pessoal-456"},
                                     dedupe_key=f"metrics-{n}")
            await outbox.enqueue(s, 5537999990001, "case_update", {"text": "x"},  # WhatsApp's
                                 dedupe_key="metrics-wa", channel=outbox.WHATSAPP)
            await s.execute(update(OutboxMessage).where(OutboxMessage.dedupe_key == "metrics-0")
                            .values(created_at=utcnow() - timedelta(minutes=10)))
            await s.execute(update(OutboxMessage).where(OutboxMessage.dedupe_key == "metrics-2")
                            .values(status="failed"))
            await s.execute(update(Case).where(Case.protocol == case.protocol)
                            .values(next_deadline_at=utcnow() - timedelta(hours=1),
                                    next_deadline_kind="test"))
        assert (await login(client, "ninguem", "errada")).status == 401
        got = await _scrape(client)
        raw = await (await client.get("/metrics", headers=AUTH)).text()

    city = core.municipality
    assert got[("vialivre_cases", (("municipality", city), ("state", "reported")))] == 1
    assert got[("vialivre_outbox_depth", (("channel", "telegram"),))] == 2
    assert got[("vialivre_outbox_depth", (("channel", "email"),))] == 0
    assert got[("vialivre_outbox_depth", (("channel", "whatsapp"),))] == 1  # its own count
    assert got[("vialivre_outbox_oldest_age_seconds", (("channel", "telegram"),))] >= 600
    assert got[("vialivre_dead_letters", (("channel", "telegram"),))] == 1
    assert got[("vialivre_deadlines_lapsed", (("municipality", city),))] == 1
    refused = ("vialivre_panel_logins_refused_total", ())
    assert got[refused] == before.get(refused, 0) + 1
    panel = ("vialivre_updates_handled_seconds_count", (("face", "panel"),))
    assert got[panel] > before[panel]
    for personal in ("Marcador-Pessoal-456", case.protocol, "ninguem", str(CHAT)):
        assert personal not in raw

    async with TestClient(TestServer(create_app(core))) as client:
        assert await run_if_due(core, "test", timedelta(0)) is not None
        ran = (await _scrape(client))[("vialivre_sweep_last_run_timestamp_seconds", ())]
    assert abs(ran - utcnow().timestamp()) < 60
