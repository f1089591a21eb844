"""A local multi-worker bot: N real `python -m bot` processes in webhook mode on one
PostgreSQL database and one shared DATA_DIR (the evidence volume), behind a small round-robin
balancer (`Balancer`, what nginx does in production), talking to the Bot API stand-in. The
workers benchmark and the killed-worker test drive it; it is also a way to try the set-up.

    async with RedeliveringStandIn() as api:
        cluster = Cluster(api, database_url=..., data_dir=..., nominatim_url=...)
        await cluster.start(3)
        ...                       # api.send_text(...), cluster.kill(0), ...
        await cluster.stop()

`RedeliveringStandIn` re-sends an update whose webhook call failed, as Telegram does (the
stand-in alone records the failure and moves on).
"""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
import uuid
from pathlib import Path

from aiohttp import ClientConnectorError, ClientError, ClientSession, ClientTimeout, web
from sqlalchemy import text
from sqlalchemy.engine import make_url

from sandbox.standin.botapi import BotApiStandIn
from core.storage.db import create_engine

ROOT = Path(__file__).resolve().parents[2]
SECRET = "segredo-local-dos-workers"
PASSED_HEADERS = ("X-Telegram-Bot-Api-Secret-Token", "Content-Type")


class Balancer:
    """Round-robin reverse proxy for POST /telegram: a worker refusing connections (dead) is
    skipped, as nginx's `proxy_next_upstream error` does; a call cut in the middle (the
    worker died while handling it) is a 502, so Telegram delivers the update again."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = list(ports)
        self._next = 0
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self.port = 0

    async def start(self) -> int:
        app = web.Application()
        app.router.add_post("/telegram", self._forward)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        sock = free_socket()
        await web.SockSite(self._runner, sock).start()
        self.port = sock.getsockname()[1]
        self._session = ClientSession(timeout=ClientTimeout(total=60))
        return self.port

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: request.headers[k] for k in PASSED_HEADERS if k in request.headers}
        for _ in range(len(self.ports)):
            port = self.ports[self._next % len(self.ports)]
            self._next += 1
            try:
                async with self._session.post(f"http://127.0.0.1:{port}/telegram", data=body,
                                              headers=headers) as resp:
                    return web.Response(status=resp.status, body=await resp.read(),
                                        content_type=resp.content_type)
            except ClientConnectorError:
                continue  # not listening (dead, or not started yet): the next worker
            except (ClientError, asyncio.TimeoutError):
                return web.Response(status=502, text="worker failed")
        return web.Response(status=502, text="no worker")

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()


class RedeliveringStandIn(BotApiStandIn):
    """The stand-in, re-sending an update whose webhook call failed (a 5xx, a cut
    connection) after a short pause, as Telegram does, up to `redeliveries` times."""

    redeliveries = 20
    pause_s = 0.3

    async def _deliver_webhook(self, update: dict) -> None:
        for _ in range(self.redeliveries):
            start = len(self.webhook_deliveries)
            await super()._deliver_webhook(update)
            mine = [d for d in self.webhook_deliveries[start:]
                    if d.update_id == update["update_id"]]
            if mine and mine[-1].status is not None and 200 <= mine[-1].status < 300:
                return
            await asyncio.sleep(self.pause_s)


def free_socket() -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def free_port() -> int:
    with free_socket() as sock:
        return sock.getsockname()[1]


class Cluster:
    """N `python -m bot` webhook workers behind one Balancer."""

    def __init__(self, api: BotApiStandIn, *, database_url: str, data_dir: Path,
                 nominatim_url: str, municipality: str = "dores-do-indaia",
                 max_rate: float = 30.0, chat_interval_s: float = 1.0) -> None:
        self.api, self.database_url, self.data_dir = api, database_url, Path(data_dir)
        self.nominatim_url, self.municipality, self.max_rate = nominatim_url, municipality, max_rate
        self.chat_interval_s = chat_interval_s
        self.procs: list[asyncio.subprocess.Process] = []
        self.balancer: Balancer | None = None

    def _env(self, n: int, port: int, lb_port: int) -> dict[str, str]:
        return {**os.environ, "TELEGRAM_BOT_TOKEN": self.api.token,
                "TELEGRAM_API_URL": self.api.base_url, "NOMINATIM_URL": self.nominatim_url,
                "DATA_DIR": str(self.data_dir), "MUNICIPALITY": self.municipality,
                "DATABASE_URL": self.database_url, "TELEGRAM_MAX_RATE": str(self.max_rate),
                "TELEGRAM_CHAT_INTERVAL_S": str(self.chat_interval_s), "WEBHOOK_SECRET": SECRET,
                "WEBHOOK_URL": f"http://127.0.0.1:{lb_port}/telegram",
                "WEBHOOK_LISTEN": "127.0.0.1", "WEBHOOK_PORT": str(port)}

    async def start(self, n: int, timeout: float = 60.0) -> None:
        """Start `n` workers and wait until each registered the webhook (it is serving)."""
        ports = [free_port() for _ in range(n)]
        self.balancer = Balancer(ports)
        lb_port = await self.balancer.start()
        mark = self.api.mark()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        for port in ports:
            with (self.data_dir / f"worker-{len(self.procs)}.log").open("ab") as log:
                self.procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", cwd=ROOT, env=self._env(n, port, lb_port),
                    stdout=log, stderr=log))
        deadline = time.monotonic() + timeout
        while sum(c.method == "setWebhook" for c in self.api.calls[mark:]) < n:
            if time.monotonic() > deadline or any(p.returncode is not None for p in self.procs):
                await self.stop()
                raise RuntimeError(f"workers did not start: see {self.data_dir}/worker-*.log")
            await asyncio.sleep(0.1)

    def kill(self, i: int) -> None:
        self.procs[i].send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        for p in self.procs:
            if p.returncode is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                await asyncio.wait_for(p.wait(), 15)
            except asyncio.TimeoutError:
                p.kill()
                await p.wait()
        self.procs = []
        if self.balancer is not None:
            await self.balancer.close()


async def fresh_database(admin_url: str) -> str:
    """Create an empty PostgreSQL database next to `admin_url`'s; returns its URL."""
    name = f"vialivre_w_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await engine.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


async def drop_database(url: str) -> None:
    u = make_url(url)
    engine = create_engine(u.set(database="postgres").render_as_string(hide_password=False),
                           isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)'))
    finally:
        await engine.dispose()
