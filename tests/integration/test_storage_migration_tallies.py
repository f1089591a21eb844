"""Migration 0021 on a database in use by two cities: the indicators' tallies are counted from
the cases and timelines already there, each reporter's answer after the closing becomes
`cases.followup`, and the triggers keep both from then on. Going back to 0020 loses no case
and no step."""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select, text, update

from core.storage.db import migrate
from core.storage.models import Case
from core.storage.models_tally import CaseTally, EventTally
from core.storage.tallies import tally_day
from tests.support.migrations import downgrade

T0 = datetime(2026, 5, 31, 2, 30, tzinfo=timezone.utc)  # 30/05 23:30 in Brasília


async def _event(s, case_id: int, seq: int, action: str, at: datetime) -> None:
    await s.execute(text(
        "INSERT INTO events (case_id, seq, at, actor_kind, action, data, public, hash) "
        "VALUES (:c, :q, :at, 'system', :a, '{}', true, 'x')"),
        {"c": case_id, "q": seq, "at": at if s.bind.dialect.name != "sqlite"
         else at.replace(tzinfo=None).isoformat(" "), "a": action})


async def _rows(s):
    cases = (await s.execute(text(
        "SELECT id, municipality, created_at, category, neighbourhood, state FROM cases "
        "ORDER BY id"))).all()
    events = (await s.execute(text(
        "SELECT case_id, seq, action, at FROM events ORDER BY case_id, seq"))).all()
    return cases, events


def _instant(value) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value


def _expected(rows, followup) -> Counter:
    """The case tallies counted from the rows: each case once per dimension."""
    out: Counter = Counter()
    for i, m, at, cat, nb, st in rows:
        day = tally_day(_instant(at))
        for dim, value in (("category", cat), ("state", st), ("followup", followup[i] or "")):
            out[(m, dim, day, nb or "", value)] += 1
    return out


async def _tallies(s) -> tuple[Counter, Counter]:
    cases = Counter({r[:-1]: r[-1] for r in (await s.execute(select(
        CaseTally.municipality, CaseTally.dimension, CaseTally.day, CaseTally.neighbourhood,
        CaseTally.value, CaseTally.n))).all() if r[-1]})
    steps = Counter({r[:-1]: r[-1] for r in (await s.execute(select(
        EventTally.municipality, EventTally.action, EventTally.day, EventTally.neighbourhood,
        EventTally.n))).all() if r[-1]})
    return cases, steps


async def test_tallies_are_counted_from_a_database_in_use_and_kept_after(db_factory, add_old_case):
    db = db_factory()
    await migrate(db.engine, "0020_city_indexes")
    async with db.unit_of_work() as s:
        ids = []
        for i in range(10):  # either side of a Brasília midnight, both cities, 3 neighbourhoods
            city = ("dores-do-indaia", "dracena")[i % 2]
            case = await add_old_case(s, municipality=city, category="vehicle",
                                  neighbourhood=[None, "Centro", "Vila Nova"][i % 3],
                                  created_at=T0 + timedelta(minutes=20 * i),
                                  state="closed_removed" if i < 6 else "reported")
            ids.append(case.id)
            await _event(s, case.id, 1, "open_diligence", T0 + timedelta(hours=i))
        for i, answers in enumerate([["followup_asked"], ["followup_asked", "followup_gone"],
                                     ["followup_asked", "reopen"], ["reopen"]]):
            for seq, action in enumerate(answers, start=2):
                await _event(s, ids[i], seq, action, T0 + timedelta(days=3, minutes=seq))
    async with db.read() as s:
        before = await _rows(s)

    await migrate(db.engine)

    async with db.read() as s:
        assert await _rows(s) == before  # nothing lost
        followup = dict((await s.execute(text("SELECT id, followup FROM cases"))).all())
        cases, steps = await _tallies(s)
    assert [followup[i] for i in ids[:5]] == ["asked", "gone", "there", "there", None]
    rows, events = before
    assert cases == _expected(rows, followup)
    city_nb = {r[0]: (r[1], r[4] or "") for r in rows}
    assert steps == Counter((city_nb[c][0], a, tally_day(_instant(at)), city_nb[c][1])
                            for c, _, a, at in events)
    # a case reported at 23:30 in Brasília counts on its own day, not the next
    assert cases[("dores-do-indaia", "followup", tally_day(T0), "", "asked")] == 1
    assert tally_day(T0).isoformat() == "2026-05-30"

    async with db.unit_of_work() as s:  # the triggers keep them from now on
        await add_old_case(s, municipality="dracena", category="vehicle", created_at=T0)
        await s.execute(update(Case).where(Case.id == ids[9])
                        .values(state="in_depot", neighbourhood="Centro"))
        await _event(s, ids[4], 2, "followup_asked", T0 + timedelta(days=4))
        await _event(s, ids[4], 3, "followup_gone", T0 + timedelta(days=4, hours=1))
    async with db.read() as s:
        after, after_events = await _rows(s)
        followup = dict((await s.execute(text("SELECT id, followup FROM cases"))).all())
        cases, steps = await _tallies(s)
    assert followup[ids[4]] == "gone"
    assert cases == _expected(after, followup)
    city_nb = {r[0]: (r[1], r[4] or "") for r in after}
    assert steps == Counter((city_nb[c][0], a, tally_day(_instant(at)), city_nb[c][1])
                            for c, _, a, at in after_events)

    await downgrade(db, "0020_city_indexes")  # and back: every case and step stays
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(text("cases"))) == 11
        assert await s.scalar(select(func.count()).select_from(text("events"))) == 18
        columns = (await s.execute(text("SELECT * FROM cases LIMIT 1"))).keys()
        assert "followup" not in set(columns)
