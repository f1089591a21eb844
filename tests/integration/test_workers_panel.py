"""Panel replicas: wrong passwords are counted in the database, so two
panel processes on one database throttle a (username, IP) pair as one, and a restarted
panel still remembers them."""
from __future__ import annotations

from tests.support.panel import PASSWORD, Panel, login

from admin.security import MAX_FAILURES


async def test_two_panel_replicas_throttle_one_pair_as_one(panel):
    replicas = [Panel(panel.core), Panel(panel.core)]  # two processes' apps, one database
    async with replicas[0].client() as a, replicas[1].client() as b:
        for i in range(MAX_FAILURES):  # the failures alternate between the replicas
            r = await login(a if i % 2 else b, "ana", "senha-errada")
            assert r.status == 401
        for client in (a, b):  # even the right password waits now, on either replica
            r = await login(client, "ana", PASSWORD)
            assert r.status == 429
            assert "Muitas tentativas" in await r.text()
    async with Panel(panel.core).client() as restarted:  # a new process: still throttled
        assert (await login(restarted, "ana", PASSWORD)).status == 429
    async with Panel(panel.core).client() as other:  # another user is not affected
        assert (await login(other, "bruno", PASSWORD)).status == 302
