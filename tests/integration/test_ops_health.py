"""/healthz and /readyz on the panel, over real HTTP (aiohttp's test server on the app the
panel serves): plain JSON, no login, no personal data; /readyz is a 503 naming each failing
check (database, migrations, sweep, outbox) and turns ready again once it is fixed."""
from __future__ import annotations

import json
from datetime import timedelta

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import text, update

from admin.app import create_app
from core.services.periodic import run_if_due
from core.storage import outbox
from core.storage.models import OutboxMessage
from core.storage.types import utcnow
from tests.support.panel import new_case


async def _get(client: TestClient, path: str) -> tuple[int, dict, str]:
    resp = await client.get(path)
    body = await resp.text()
    assert resp.headers["Content-Type"].startswith("application/json")
    return resp.status, json.loads(body), body


async def test_healthz_answers_without_login(core):
    async with TestClient(TestServer(create_app(core))) as client:
        status, body, _ = await _get(client, "/healthz")
    assert status == 200 and body["status"] == "ok"


async def test_readyz_names_each_failing_check_and_recovers(core, photo):
    async with TestClient(TestServer(create_app(core))) as client:
        status, body, _ = await _get(client, "/readyz")
        assert status == 503 and body["failing"] == ["sweep"]  # the periodic job never ran
        assert body["checks"]["sweep"]["detail"] == "never ran"

        assert await run_if_due(core, "test", timedelta(0)) is not None
        status, body, _ = await _get(client, "/readyz")
        assert status == 200, body
        assert body["status"] == "ready" and body["failing"] == []
        assert set(body["checks"]) == {"database", "migrations", "sweep", "outbox"}

        # the sweep's last run older than READY_SWEEP_LATE_S (900 s by default): late
        async with core.db.unit_of_work() as s:
            await s.execute(text("UPDATE job_leases SET last_run_at = :at WHERE name = "
                                 "'periodic'"), {"at": _stored(core, utcnow()
                                                               - timedelta(seconds=901))})
        status, body, _ = await _get(client, "/readyz")
        assert status == 503 and body["failing"] == ["sweep"]
        assert await run_if_due(core, "test", timedelta(0)) is not None

        # a message waiting in the Telegram outbox for longer than READY_OUTBOX_MAX_AGE_S
        case = await new_case(core, photo, 1, description="Marcador-Pessoal-123")
        async with core.db.unit_of_work() as s:
            await outbox.enqueue(s, 1001, "text", {"text": f"Marcador-Pessoal-123 {case.protocol}"},
                                 dedupe_key="health-test")
            await s.execute(update(OutboxMessage).where(OutboxMessage.status == "pending")
                            .values(created_at=utcnow() - timedelta(hours=1)))
        status, body, raw = await _get(client, "/readyz")
        assert status == 503 and body["failing"] == ["outbox"]
        assert "stuck: telegram" in body["checks"]["outbox"]["detail"]
        for personal in ("Marcador-Pessoal-123", case.protocol, "1001", "Cidadão"):
            assert personal not in raw  # counts and ages only
        async with core.db.unit_of_work() as s:
            await s.execute(update(OutboxMessage).values(status="sent"))
        status, body, _ = await _get(client, "/readyz")
        assert status == 200, body

        # the schema behind the code's migrations
        async with core.db.unit_of_work() as s:
            head = (await s.execute(text("SELECT version_num FROM alembic_version"))).scalar()
            await s.execute(text("UPDATE alembic_version SET version_num = 'older'"))
        try:
            status, body, _ = await _get(client, "/readyz")
            assert status == 503 and body["failing"] == ["migrations"]
            assert body["checks"]["migrations"]["detail"] == f"at older, head {head}"
        finally:
            async with core.db.unit_of_work() as s:
                await s.execute(text("UPDATE alembic_version SET version_num = :h"),
                                {"h": head})


async def test_readyz_is_503_database_when_the_database_is_gone(tmp_path):
    from core.services.context import Core
    from core.settings import Settings
    settings = Settings(_env_file=None, data_dir=tmp_path / "d", database_url="")
    core = await Core.open(settings)
    try:
        async with TestClient(TestServer(create_app(core))) as client:
            await core.db.dispose()
            for f in (tmp_path / "d").glob("vialivre.sqlite3*"):
                f.unlink()
            (tmp_path / "d" / "vialivre.sqlite3").mkdir()  # no database can be opened there
            status, body, _ = await _get(client, "/readyz")
            healthy, _, _ = await _get(client, "/healthz")
    finally:
        await core.close()
    assert status == 503 and body["failing"] == ["database", "migrations", "sweep", "outbox"]
    assert body["checks"]["database"]["ok"] is False
    assert healthy == 200  # the process still answers


def _stored(core, at):
    """A UTC time as the engine's column takes it in a raw statement."""
    return at.replace(tzinfo=None).isoformat(sep=" ") if core.db.is_sqlite else at
