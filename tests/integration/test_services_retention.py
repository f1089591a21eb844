"""Evidence retention: kept until the case's final destination (Dores Art. 6º, I, a), then for
EVIDENCE_RETENTION_DAYS, then purged — except files another live case still needs."""
from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from core.services.cases.transitions import apply_transition
from core.services.citizens.reports import ReportIn, submit_report
from core.services.cases.retention import purge_expired_evidence
from core.storage.models import Evidence, Event
from core.storage.timeline import ActorRef, verify_chain

STAFF = ActorRef("staff", "u1", "Maria")


async def _report(core, photos, lat=-19.4628):
    r = ReportIn(category="motor_vehicle", lat=lat, lon=-45.6003, photos=photos)
    return (await submit_report(core, 555, r)).protocol


async def test_evidence_kept_while_open_then_for_the_retention_period_art_6_I_a(core, photo,
                                                                                 clock):
    own, shared = photo(1), photo(2)
    closed = await _report(core, [own, shared])
    await _report(core, [shared], lat=-19.4700)  # still open: keeps the shared photo
    public_sha = core.evidence.public_copy(own.sha256).sha256
    clock.advance(days=4000)
    assert (await purge_expired_evidence(core)).files_deleted == []  # open cases: kept
    await apply_transition(core, closed, "close_unfounded", STAFF, {"reason": "não há nada"})
    clock.advance(days=core.settings.evidence_retention_days - 1)
    assert (await purge_expired_evidence(core)).files_deleted == []  # not yet
    clock.advance(days=2)
    report = await purge_expired_evidence(core)
    assert report.files_deleted == [own.sha256] and report.rows_deleted == 2
    assert not core.evidence.exists(own.sha256) and not core.evidence.exists(public_sha)
    assert core.evidence.exists(shared.sha256)  # the open case still needs it
    async with core.db.read() as s:
        left = (await s.execute(select(Evidence.sha256))).scalars().all()
        purged = (await s.execute(select(Event).where(Event.action == "evidence_purged"))
                  ).scalar_one()
        assert (await verify_chain(s, purged.case_id)).ok
    assert left == [shared.sha256]
    assert sorted(purged.data["sha256"]) == sorted([own.sha256, shared.sha256])
    assert (await purge_expired_evidence(core)).rows_deleted == 0  # idempotent


async def test_periodic_job_forgets_update_ids_older_than_a_week(core, clock):
    """Telegram never re-delivers an update after a day; week-old idempotency rows go."""
    from core.services.messaging.conversation import MARK, is_processed, write
    from core.services.periodic import run_periodic
    await write(core, 1, 100, MARK)
    clock.advance(days=8)
    await write(core, 1, 101, MARK)
    report = await run_periodic(core)
    assert report.forgotten_updates == 1
    assert not await is_processed(core, 100) and await is_processed(core, 101)


# -- deletion at the data subject's request (LGPD art. 18, VI; art. 16) ----------------------

_IDS = iter(range(10_000, 20_000))


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(closed=st.lists(st.booleans(), min_size=1, max_size=3))
async def test_deletion_keeps_open_processes_and_unlinks_closed_ones_art_16(core, photo, closed):
    """Whatever mix of open and closed reports a citizen has: deletion removes their tie to
    every closed case and to no open one (an administrative process: art. 16, I), leaves other
    citizens alone, does what its preview said, keeps each case's history valid, and records
    the request with the answer given."""
    from core.services.citizens.my_data import delete_my_data, preview_deletion
    from core.storage.models import Case, Person
    from core.storage.models_lgpd import DataRequest
    me, other = next(_IDS), next(_IDS)
    protocols = []
    for i, is_closed in enumerate(closed):
        r = ReportIn(category="motor_vehicle", lat=-19.4628 + (me % 100) * 1e-4 + i * 1e-5,
                     lon=-45.6003, photos=[photo(i)], description="Carro parado há meses")
        protocols.append((await submit_report(core, me, r)).protocol)
        if is_closed:
            await apply_transition(core, protocols[-1], "close_unfounded", STAFF,
                                   {"reason": "não há nada"})
    theirs = (await submit_report(core, other, ReportIn(
        category="motor_vehicle", lat=-19.47, lon=-45.6003, photos=[photo(9)]))).protocol
    await apply_transition(core, theirs, "close_unfounded", STAFF, {"reason": "não há nada"})
    preview = await preview_deletion(core, me)
    answer = "\n".join(await delete_my_data(core, me))
    said_removed = [ln for ln in preview.splitlines() if ln.startswith("• ")]
    assert [ln for ln in answer.splitlines() if ln.startswith("• ")] == said_removed
    async with core.db.read() as s:
        cases = {c.protocol: c for c in (await s.execute(select(Case))).scalars()}
        person = (await s.execute(select(Person).where(Person.telegram_id == me))
                  ).scalar_one_or_none()
        for protocol, is_closed in zip(protocols, closed):
            case = cases[protocol]
            assert (case.reporter_id is None) == is_closed, protocol
            assert case.description  # the case record itself stays
            assert (await verify_chain(s, case.id)).ok
            if not is_closed:
                assert f"sua denúncia {protocol}, em andamento" in answer
        assert (person is None) == all(closed)
        assert cases[theirs].reporter_id is not None  # another citizen: untouched
        request = (await s.execute(select(DataRequest).where(DataRequest.telegram_id == me))
                   ).scalar_one()
        assert request.kind == "deletion" and request.answer == answer
        assert request.status == ("answered" if all(closed) else "partial")
