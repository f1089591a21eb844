"""The numbers a monitor (Prometheus) scrapes at `/metrics` on the panel and on the bot's
listener, in Prometheus text (prometheus-client), answered only to
`Authorization: Bearer <METRICS_TOKEN>` (`allowed`; nothing at all while it is unset).

Two kinds, with no personal data in any label:
- counted by this process (`REGISTRY`): the updates each face handled and how long each took
  (`UPDATES`, by face: telegram, whatsapp, panel), the panel's refused logins (`LOGINS_REFUSED`), the
  periodic job's last duration here (`SWEEP_DURATION`);
- read from the database at each scrape (`render`), the same whichever process answers: the
  outboxes' depth, oldest age and dead letters by channel (telegram, email), the periodic job's
  last run, the deadlines lapsed without action and the cases by state, by city.
"""
from __future__ import annotations

import hmac
from datetime import datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from sqlalchemy import func, select

from core.services.context import Core
from core.services.installation.health import OUTBOXES, last_sweep, oldest_waiting
from core.settings import Settings
from core.storage.models import Case
from core.storage.types import utcnow

CONTENT_TYPE = CONTENT_TYPE_LATEST
REGISTRY = CollectorRegistry(auto_describe=True)
UPDATES = Histogram("vialivre_updates_handled_seconds",
                    "Updates (bot) or requests (panel) handled, and how long each took",
                    ["face"], registry=REGISTRY,
                    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
LOGINS_REFUSED = Counter("vialivre_panel_logins_refused",
                         "Panel logins refused (wrong user or password, or throttled)",
                         registry=REGISTRY)
SWEEP_DURATION = Gauge("vialivre_sweep_duration_seconds",
                       "How long this process's last run of the periodic job took",
                       registry=REGISTRY)


def allowed(settings: Settings, authorization: str | None) -> bool:
    """Whether a scrape carries the metrics token; never while METRICS_TOKEN is unset."""
    token = settings.metrics_token.strip()
    if not token or not authorization:
        return False
    return hmac.compare_digest(authorization.encode("utf-8", "surrogateescape"),
                               f"Bearer {token}".encode())


class _Snapshot(Collector):
    """The database's numbers read once for one scrape (`render`)."""

    def __init__(self, families: list[GaugeMetricFamily]):
        self.families = families

    def collect(self):
        return iter(self.families)


async def database_families(core: Core, now: datetime | None = None) -> list[GaugeMetricFamily]:
    now = now or utcnow()
    depth = GaugeMetricFamily("vialivre_outbox_depth", "Messages waiting to be delivered",
                              labels=["channel"])
    age = GaugeMetricFamily("vialivre_outbox_oldest_age_seconds",
                            "How long the oldest waiting message has waited (0: none)",
                            labels=["channel"])
    for channel, (count, oldest) in (await oldest_waiting(core)).items():
        depth.add_metric([channel], count)
        age.add_metric([channel], max(0.0, (now - oldest).total_seconds()) if oldest else 0.0)
    dead = GaugeMetricFamily("vialivre_dead_letters",
                             "Messages given up on (the panel's Mensagens não entregues)",
                             labels=["channel"])
    async with core.db.read() as s:
        for channel, (model, rows) in OUTBOXES.items():
            dead.add_metric([channel], (await s.execute(select(func.count()).where(
                rows, model.status == "failed"))).scalar() or 0)
        by_state = (await s.execute(select(Case.municipality, Case.state, func.count())
                                    .group_by(Case.municipality, Case.state))).all()
        lapsed = (await s.execute(select(Case.municipality, func.count()).where(
            Case.is_open.is_(True), Case.next_deadline_at.is_not(None),
            Case.next_deadline_at < now).group_by(Case.municipality))).all()
    cases = GaugeMetricFamily("vialivre_cases", "Cases by state, by city",
                              labels=["municipality", "state"])
    for city, state, count in by_state:
        cases.add_metric([city, state], count)
    late = GaugeMetricFamily("vialivre_deadlines_lapsed",
                             "Open cases whose deadline has passed and that nothing has moved on",
                             labels=["municipality"])
    for city in sorted({c for c, _s, _n in by_state} | {c for c, _n in lapsed}):
        late.add_metric([city], dict(lapsed).get(city, 0))
    ran = await last_sweep(core)
    last = GaugeMetricFamily("vialivre_sweep_last_run_timestamp_seconds",
                             "When the periodic job last ran (any worker; 0: never)")
    last.add_metric([], ran.timestamp() if ran else 0.0)
    return [depth, age, dead, cases, late, last]


async def render(core: Core) -> bytes:
    """The Prometheus text of a scrape: this process's counters, then the database's numbers."""
    snapshot = CollectorRegistry(auto_describe=False)
    snapshot.register(_Snapshot(await database_families(core)))
    return generate_latest(REGISTRY) + generate_latest(snapshot)
