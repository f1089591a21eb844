"""Killed worker, nothing lost: two real `python -m bot` workers in webhook
mode on one PostgreSQL database behind a round-robin balancer (sandbox.standin.cluster); citizens report
at once; one worker is SIGKILLed in the middle. Every report completes through the other
worker (what the dead one had accepted was never answered, so Telegram — here the stand-in
that redelivers like it — sends it again), and nothing is done twice: one case per citizen,
each update processed once.

A worker killed after its step committed and before its answer reached Telegram: the
redelivered update is, rightly, not handled again, but re-asks the pending question
(bot/redelivery.py). A step whose answer is a one-off (the protocol after "Confirmar"), or
whose re-asked question does not read like the step's own answer ("Já recebi 1 foto" for
"1 foto recebida"), still leaves the citizen here waiting: they do what a person does when
the bot goes quiet, send /denunciar again, and the bot repeats its current question
("/minhas" after confirming, and the bot lists the case). So a question may be asked twice
only right after such a nudge or a redelivery; otherwise each is asked once."""
from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter

import pytest
from sqlalchemy import text

from benchmarks.bot_bench import _jpeg
from sandbox.standin.cluster import Cluster, RedeliveringStandIn, drop_database, fresh_database
from sandbox.standin.botapi import User
from sandbox.standin.nominatim import NominatimStandIn, default_gazetteer
from core.storage.db import create_engine
from core.storage.evidence import EvidenceStore

PG_URL = os.environ.get("TEST_DATABASE_URL", "")
pytestmark = [
    pytest.mark.serial,  # real worker processes killed: alone on the machine
    pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL not set: several workers need "
                       "PostgreSQL (a shared database; SQLite is one process)"),
    pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")]
CITIZENS = 6
QUESTIONS = ["O que você quer denunciar", "Onde fica", "Qual é a placa", "Qual é a cor",
             "Há quanto tempo", "Confira sua denúncia", "Protocolo:"]


async def test_a_worker_killed_mid_reports_loses_and_duplicates_nothing(tmp_path):
    url = await fresh_database(PG_URL)
    try:
        async with RedeliveringStandIn() as api, \
                NominatimStandIn(default_gazetteer()) as osm:
            cluster = Cluster(api, database_url=url, data_dir=tmp_path,
                              nominatim_url=f"http://{osm.domain}", max_rate=10_000, chat_interval_s=0)
            users = [User(70_000 + i, f"Cidadã {i}") for i in range(CITIZENS)]
            try:
                await cluster.start(2)
                nudges: Counter = Counter()
                sent: dict[int, list[int]] = {u.id: [] for u in users}  # their update ids
                reports = [asyncio.create_task(_citizen(api, u, i, nudges, sent[u.id]))
                           for i, u in
                           enumerate(users)]
                await _when(lambda: _answers(api) >= CITIZENS * 5)  # about 40% done
                killed = cluster.procs[0]
                cluster.kill(0)
                await asyncio.wait_for(asyncio.gather(*reports), 120)
            finally:
                await cluster.stop()
        assert killed.returncode == -signal.SIGKILL
        deliveries = Counter(d.update_id for d in api.webhook_deliveries)
        for u in users:
            asked = Counter(q for c in api.sent(u, "sendMessage") for q in QUESTIONS
                            if q in (c.text or ""))
            again = nudges[u.id] + sum(deliveries[i] > 1 for i in sent[u.id])
            assert all(1 <= asked[q] <= 1 + again for q in QUESTIONS), (u.id, asked)
        injected = set(deliveries)
        redelivered = sum(n > 1 for n in deliveries.values())
        db = create_engine(url)
        try:
            async with db.connect() as conn:
                cases = (await conn.execute(text("SELECT count(*) FROM cases"))).scalar()
                marks = (await conn.execute(text(
                    "SELECT count(*) FROM processed_updates"))).scalar()
                photos = (await conn.execute(text("SELECT sha256 FROM evidence"))).scalars().all()
        finally:
            await db.dispose()
        print(f"\n[workers] SIGKILL 1 of 2 mid-report: citizens={CITIZENS} cases={cases} "
              f"updates={len(injected)} processed={marks} redelivered={redelivered} "
              f"nudges={sum(nudges.values())}")
        assert cases == CITIZENS
        assert marks == len(injected)
        # the evidence volume is shared (README: "Vários workers"): each photo, whichever
        # worker received it, is readable by all, under its content address
        store = EvidenceStore(tmp_path)
        assert len(photos) == 2 * CITIZENS
        assert all(store.exists(sha) for sha in photos)
    finally:
        await drop_database(url)


QUIET_S = 8.0  # no answer this long after a step: the citizen writes again


async def _citizen(api, user: User, i: int, nudges: Counter, sent: list[int]) -> None:
    """One vehicle report, answering each question at once. Each step is (act, its answer,
    what the repeated question says once the step took effect)."""
    la, lo = -19.4628 + (i // 20) * 0.001, -45.6003 + (i % 20) * 0.001
    last: list = [None]

    def tap(button: str):
        return lambda: api.press_button(user, last[0], text=button)

    steps = [
        (lambda: api.send_command(user, "denunciar"), "O que você quer denunciar", None),
        (tap("Veículo motorizado"), "Envie de 1 a 10 fotos", None),
        (lambda: api.send_photo(user, _jpeg(i * 3)), "1 foto recebida", "Já recebi 1 foto"),
        (lambda: api.send_photo(user, _jpeg(i * 3 + 1)), "2 fotos recebidas",
         "Já recebi 2 fotos"),
        (tap("Pronto"), "Onde fica", None),
        (lambda: api.send_location(user, la, lo), "Qual é a placa", None),
        (lambda: api.send_text(user, "ABC1D23"), "Qual é a cor", None),
        (lambda: api.send_text(user, "prata"), "marca e o modelo", None),
        (lambda: api.send_text(user, "VW Gol"), "Há quanto tempo", None),
        (tap("Mais de 30 dias"), "sinais de abandono", None),
        (tap("Continuar"), "acrescentar", None),
        (lambda: api.send_text(user, "perto da escola"), "Confira sua denúncia", None),
        (tap("Confirmar"), "Protocolo", None),
    ]
    for n, (act, expect, resumed) in enumerate(steps):
        mark = api.mark()
        sent.append((await act())["update_id"])
        try:
            last[0] = await api.wait_for(method="sendMessage", chat_id=user, text=expect,
                                         since=mark, timeout=QUIET_S)
        except AssertionError:
            # Quiet: the answer died with the worker (the step took effect), or is only slow
            # (a loaded machine). The citizen asks for the current question again, with a
            # command ("?" would be an answer to a question that takes text), and takes the
            # step's own answer, late, or the repeated question once it shows the step.
            nudges[user.id] += 1
            sent.append((await api.send_command(
                user, "minhas" if n == len(steps) - 1 else "denunciar"))["update_id"])
            shows = (expect, resumed or expect)
            last[0] = await api.wait_for(
                lambda c: any(t in (c.text or "") for t in shows), method="sendMessage",
                chat_id=user, since=mark, timeout=30)


def _answers(api) -> int:
    return sum(c.method == "sendMessage" for c in api.calls)


async def _when(predicate, timeout: float = 60) -> None:
    for _ in range(int(timeout * 20)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never happened")
