"""The indicators' tallies (migration 0021, core.storage.tallies) as properties, on both
engines: after any sequence of reports, state changes, timeline steps (the reporter's answers
after the closing among them) and moves to another neighbourhood or city,

- every tally equals the count of the rows it stands for, and `cases.followup` is the
  reporter's last answer, also after one UPDATE over many cases;
- the counts over any buckets, their limits at a local midnight or at any minute, equal the
  rows counted one by one: a chart never gains or loses a case at a month's edge."""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from core.storage.models import Case, Event
from core.storage.models_tally import CaseTally, EventTally
from core.storage.protocol import allocate_protocol, new_case_code
from core.storage.tallies import case_counts, event_counts, tally_day
from core.storage.timeline import ActorRef, append_event
from tests.conftest import ENGINES
from tests.support.engine_world import EngineWorld

BASE = datetime(2027, 3, 1, 3, tzinfo=timezone.utc)  # 01/03/2027 00:00 in Brasília
CITIES = ["dores-do-indaia", "dracena"]
NBS = [None, "Centro", "Vila Nova"]
STATES = ["reported", "in_diligence", "in_depot", "closed_removed"]
ACTIONS = ["open_diligence", "depot_entry", "release", "followup_asked", "followup_gone",
           "reopen"]
SYSTEM = ActorRef("system")

minutes = st.integers(-3 * 24 * 60, 3 * 24 * 60)  # about BASE, across tally-day edges
steps = st.lists(st.one_of(
    st.tuples(st.just("case"), minutes, st.sampled_from(["vehicle", "furniture"]),
              st.sampled_from(NBS), st.sampled_from(CITIES)),
    st.tuples(st.just("state"), st.integers(0, 50), st.sampled_from(STATES)),
    st.tuples(st.just("event"), st.integers(0, 50), st.sampled_from(ACTIONS), minutes),
    st.tuples(st.just("move"), st.integers(0, 50), st.sampled_from(NBS),
              st.sampled_from(CITIES)),
    # one statement over many cases (PostgreSQL's statement triggers see them all at once)
    st.tuples(st.just("bulk"), st.integers(2, 4), st.sampled_from(STATES), st.sampled_from(NBS)),
), min_size=1, max_size=25)
#: bucket limits: local midnights (no sliver) or any minute (slivers at the ends)
limits = st.lists(st.one_of(st.integers(-4, 4).map(lambda d: d * 24 * 60), minutes),
                  min_size=2, max_size=6, unique=True).map(sorted)


DIMENSIONS = ("category", "state", "followup")


def value(case: Case, dimension: str) -> str:
    return getattr(case, dimension) or ""


def _at(minute: int) -> datetime:
    return BASE + timedelta(minutes=minute)


async def _apply(core, ops) -> None:
    async with core.db.unit_of_work() as s:
        ids = list((await s.execute(select(Case.id).order_by(Case.id))).scalars())
        for op in ops:
            if op[0] == "case":
                _, minute, category, nb, city = op
                case = Case(protocol=await allocate_protocol(s, 2027), case_code=new_case_code(),
                            municipality=city, category=category, track=category,
                            state="reported", lat=-19.46, lon=-45.6, cell=1, neighbourhood=nb,
                            created_at=_at(minute))
                s.add(case)
                await s.flush()
                ids.append(case.id)
            elif ids and op[0] == "state":
                await s.execute(update(Case).where(Case.id == ids[op[1] % len(ids)])
                                .values(state=op[2]))
            elif ids and op[0] == "event":
                await append_event(s, ids[op[1] % len(ids)], SYSTEM, op[2], at=_at(op[3]))
            elif op[0] == "bulk":
                await s.execute(update(Case).where(Case.id % op[1] == 0)
                                .values(state=op[2], neighbourhood=op[3]))
            elif ids and op[0] == "move":
                await s.execute(update(Case).where(Case.id == ids[op[1] % len(ids)])
                                .values(neighbourhood=op[2], municipality=op[3]))


def _followup(events) -> str | None:
    """The reporter's last answer, else "asked" if asked (migration 0021's rule)."""
    answers = [a for _, a in sorted(events) if a in ("followup_gone", "reopen")]
    if answers:
        return "gone" if answers[-1] == "followup_gone" else "there"
    return "asked" if any(a == "followup_asked" for _, a in events) else None


async def _check(core, bounds: list[datetime]) -> None:
    async with core.db.read() as s:
        cases = (await s.execute(select(Case))).scalars().all()
        events = (await s.execute(select(Event))).scalars().all()
        tallies = Counter({r[:-1]: r[-1] for r in (await s.execute(select(
            CaseTally.municipality, CaseTally.dimension, CaseTally.day,
            CaseTally.neighbourhood, CaseTally.value, CaseTally.n))).all() if r[-1]})
        steps_ = Counter({r[:-1]: r[-1] for r in (await s.execute(select(
            EventTally.municipality, EventTally.action, EventTally.day,
            EventTally.neighbourhood, EventTally.n))).all() if r[-1]})
        buckets = list(zip([None, *bounds[1:-1]] if bounds[0] is None else bounds[:-1],
                           bounds[1:]))
        counted = {(city, nb): (
            {dim: await case_counts(s, city, buckets, dim, nb) for dim in DIMENSIONS},
            await event_counts(s, city, buckets, set(ACTIONS), nb))
            for city in CITIES for nb in [None, "Centro"]}
    by_case = {c.id: c for c in cases}
    timeline: dict[int, list] = {}
    for e in events:
        timeline.setdefault(e.case_id, []).append((e.seq, e.action))
    for c in cases:
        assert c.followup == _followup(timeline.get(c.id, []))
    assert tallies == Counter(
        (c.municipality, dim, tally_day(c.created_at), c.neighbourhood or "", value(c, dim))
        for c in cases for dim in DIMENSIONS)
    assert steps_ == Counter(
        (by_case[e.case_id].municipality, e.action, tally_day(e.at),
         by_case[e.case_id].neighbourhood or "") for e in events)

    def bucket(at: datetime) -> int | None:
        return next((i for i, (lo, hi) in enumerate(buckets)
                     if (lo is None or lo <= at) and at < hi), None)

    for (city, nb), (case_n, event_n) in counted.items():
        mine = [c for c in cases
                if c.municipality == city and (nb is None or c.neighbourhood == nb)]
        for dim in DIMENSIONS:
            assert case_n[dim] == Counter((bucket(c.created_at), value(c, dim)) for c in mine
                                          if bucket(c.created_at) is not None)
        ids = {c.id for c in mine}
        assert event_n == Counter((bucket(e.at), e.action) for e in events
                                  if e.case_id in ids and bucket(e.at) is not None)


@pytest.mark.parametrize("engine", ENGINES)
def test_tallies_count_every_row_and_every_bucket_exactly(engine, tmp_path):
    world = EngineWorld(engine, tmp_path, BASE)
    try:
        @settings(max_examples=30, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(ops=steps, cuts=limits, from_start=st.booleans())
        def prop(ops, cuts, from_start):
            world.run(_apply(world.core, ops))
            bounds = [_at(m) for m in cuts]
            world.run(_check(world.core, [None, *bounds] if from_start else bounds))

        prop()
    finally:
        world.close()
