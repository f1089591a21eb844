"""Each case's deadline is counted with its own city's calendar, whichever city the process acts
for (Lei 9.784/1999, art. 66, § 1º: a deadline ending on a day without office hours runs to the
next business day). 09/07 is a São Paulo state holiday (Revolução Constitucionalista, Lei
estadual 9.497/1997): a deadline ending on 09/07/2027 moves in Dracena (SP) and not in Dores do
Indaiá (MG). Checked by examples and as a property over cases in both cities and clock moves,
on every engine, through the real services of a process whose default city is Dores."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.formatting import TZ
from core.services.cases.deadline_recount import recount_for_closure
from core.services.cases.evidence import EvidenceIn
from core.services.cases.sweep import sweep_deadlines
from core.services.cases.transitions import apply_transition, load_case
from core.services.context import Core
from core.services.installation.municipalities import add_municipality
from core.storage.models import Case, Closure
from tests.conftest import ENGINES
from tests.support.core_fixtures import jpeg
from tests.support.engine_world import EngineWorld
from tests.support.owner_cases import ABANDONED, DRACENA, FISCAL, STAFF, report

SP_HOLIDAY = date(2027, 7, 9)  # Revolução Constitucionalista (SP only)
AUTO = {"offender_name": "Fulano de Tal", "infraction_fact": "Entulho sobre a calçada",
        "place": "Rua Brasil, 100", "provision_violated": "Código de Posturas, art. 10",
        "fine_amount": "200.00", "agent_signature": True, "copy_delivered": True,
        "offender_signature": True, "witnesses": ["Pedro Souza", "Joana Lima"]}
NOTICE = {**ABANDONED, "owner_name": "José da Silva", "owner_document": "529.982.247-25",
          "notification_number": "1/2027"}


def local(y, m, d, h=10) -> datetime:
    return datetime(y, m, d, h, 0, tzinfo=TZ).astimezone(timezone.utc)


async def dores_notified(core, photo, clock, when: datetime):
    """Dores Art. 4º, I: the owner notified, 10 days to remove."""
    clock.now = when
    sub = await report(core, photo, plate="ABC1D23")
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "notify_owner", FISCAL, NOTICE, agency="posturas")
    return sub


async def dracena_auto(core, photo, clock, when: datetime):
    """Dracena Art. 3º: the auto drawn up, 5 days to pay or appeal. Taken through a Core
    bound to Dores (the process's default city): the case's own law and calendar apply."""
    clock.now = when
    sub = await report(core.for_city("dracena"), photo, category="infraction", where=DRACENA)
    await apply_transition(core, sub.protocol, "open_diligence", STAFF)
    await apply_transition(core, sub.protocol, "issue_auto", FISCAL,
                           {**AUTO, "occurred_at": when.isoformat()}, agency="fiscalizacao")
    return sub


async def case_of(core, protocol) -> Case:
    async with core.db.read() as s:
        return await load_case(s, protocol)


async def test_a_sp_state_holiday_moves_a_deadline_in_dracena_not_in_dores_lei_9784_art_66(
        make_two_cities, photo, clock):
    core = await make_two_cities()
    dores = await dores_notified(core, photo, clock, local(2027, 6, 29))  # + 10 days: 09/07
    dracena = await dracena_auto(core, photo, clock, local(2027, 7, 4))  # + 5 days: 09/07
    d = (await case_of(core, dores.protocol)).deadline_json
    assert d["due"] == "2027-07-09" and d["article"] == "Art. 4º, I"  # a business day in MG
    d = (await case_of(core, dracena.protocol)).deadline_json
    assert d["due"] == "2027-07-12" and d["article"] == "Art. 3º"  # 09/07 holiday, weekend
    assert [day for day, _ in d["skipped"]][0] == SP_HOLIDAY.isoformat()
    assert "Revolução Constitucionalista" in d["skipped"][0][1]


async def test_the_sweep_counts_each_case_with_its_own_citys_calendar(
        make_two_cities, photo, clock):
    """Both deadlines recorded as ending on 09/07/2027 (the Dracena one as a process counting
    with Dores's calendar would have): on 10/07 the sweep lapses Dores's (Art. 4º, I → removal
    due) and recounts Dracena's to 12/07 (Lei 9.784/1999, art. 66, § 1º: 09/07 had no office
    hours there)."""
    core = await make_two_cities()
    dores = await dores_notified(core, photo, clock, local(2027, 6, 29))
    dracena = await dracena_auto(core, photo, clock, local(2027, 7, 4))
    async with core.db.unit_of_work() as s:  # as counted with the wrong (MG) calendar
        case = await load_case(s, dracena.protocol, for_update=True)
        wrong = {**case.deadline_json, "due": "2027-07-09", "skipped": [],
                 "due_at": datetime(2027, 7, 9, 23, 59, 59, tzinfo=TZ).isoformat()}
        case.deadline_json = wrong
        case.next_deadline_at = datetime.fromisoformat(wrong["due_at"]).astimezone(timezone.utc)
    clock.now = local(2027, 7, 10, 8)
    report_ = await sweep_deadlines(core)
    assert report_.moved == [(dores.protocol, "lapse_deadline")]
    assert report_.recounted == [dracena.protocol]
    assert (await case_of(core, dores.protocol)).state == "removal_due"
    case = await case_of(core, dracena.protocol)
    assert case.is_open
    assert case.deadline_json["due"] == "2027-07-12"
    clock.now = local(2027, 7, 13, 8)
    assert (await sweep_deadlines(core)).moved == [(dracena.protocol, "confirm_fine")]


async def test_a_closure_of_one_city_recounts_only_its_own_cases_lei_9784_art_66(
        make_two_cities, photo, clock):
    """A closure decreed in Dores on 09/07/2027 moves Dores's deadline ending that day to the
    next business day, never a Dracena one ending the same day."""
    core = await make_two_cities()
    dores = await dores_notified(core, photo, clock, local(2027, 6, 29))
    dracena = await dracena_auto(core, photo, clock, local(2027, 7, 4))
    async with core.db.unit_of_work() as s:  # Dracena's, as if due on 09/07 too
        case = await load_case(s, dracena.protocol, for_update=True)
        case.deadline_json = {**case.deadline_json, "due": "2027-07-09"}
        case.next_deadline_at = datetime(2027, 7, 9, 23, 59, 59, tzinfo=TZ)
    async with core.db.unit_of_work() as s:
        s.add(Closure(municipality="dores-do-indaia", date=SP_HOLIDAY, name="Ponto facultativo",
                      kind="decree", source="Decreto municipal"))
        await s.flush()
        moved = await recount_for_closure(core, s, SP_HOLIDAY)
    assert [m.protocol for m in moved] == [dores.protocol]
    assert (await case_of(core, dores.protocol)).deadline_json["due"] == "2027-07-12"
    assert (await case_of(core, dracena.protocol)).deadline_json["due"] == "2027-07-09"


# -- the invariant, as a property -----------------------------------------------------------

class World(EngineWorld):
    """A Core bound to Dores in an installation that also serves Dracena, on its own event
    loop (hypothesis drives a plain function), on one engine."""

    def __init__(self, engine: str, tmp_path):
        super().__init__(engine, tmp_path, local(2027, 1, 4))

    async def prepare(self, core: Core) -> Core:
        await core.load_cities(adopt=True)
        await add_municipality(core, "dracena")
        return core

    def photo(self, i: int = 0) -> EvidenceIn:
        sha, _ = self.core.evidence.put_image(jpeg((i * 7 % 256, 30, 30)))
        return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")


async def _play(world: World, city: str, day: int, hour: int, moves: list[int]) -> None:
    """A case of `city` given its deadline on day `day` of 2027 at `hour`, then the clock moves
    forward by `moves` hours with the sweep after each: whenever the case has a running
    deadline, it ends on a business day of the case's own city."""
    core, clock = world.core, world.clock
    world.n += 1
    when = local(2027, 1, 1, hour) + timedelta(days=day)
    photo = world.photo
    sub = await (dores_notified if city == "dores" else dracena_auto)(core, photo, clock, when)
    for hours in [0, *moves]:
        clock.advance(hours=hours)
        await sweep_deadlines(core)
        case = await case_of(core, sub.protocol)
        own = await core.for_case(case).calendar()
        d = case.deadline_json
        if d and d.get("due") and case.is_open:
            due = date.fromisoformat(d["due"])
            assert own.is_business_day(due), (city, d["due"], d.get("skipped"))
            if city == "dracena":
                assert due != SP_HOLIDAY


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deadline_never_ends_on_a_day_without_office_hours_in_its_own_city(engine, tmp_path):
    """Lei 9.784/1999, art. 66, § 1º, over both cities' cases: their state holidays (09/07 in
    SP; 21/04, 01/05, ... everywhere), weekends, and the clock moving through the sweep."""
    world = World(engine, tmp_path)
    try:
        @settings(max_examples=20, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(city=st.sampled_from(["dores", "dracena"]),
               day=st.one_of(st.integers(0, 364), st.sampled_from([177, 178, 183, 184])),
               hour=st.integers(8, 17),
               moves=st.lists(st.integers(1, 24 * 6), max_size=4))
        def prop(city, day, hour, moves):
            world.run(_play(world, city, day, hour, moves))

        prop()
    finally:
        world.close()
