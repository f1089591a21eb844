"""Citizen reports through the services, on every engine (SQLite always, PostgreSQL when set)."""
from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from core.services.errors import InvalidInput
from core.services.citizens.reports import ReportIn, find_nearby, submit_report, support_case
from core.services.citizens.case_status import my_cases, status_view, set_notifications
from core.storage.models import Case, Evidence, Event, Subscription, SupportingReport
from core.storage.timeline import verify_chain
from tests.support.lgpd_fixtures import approve_photos

CENTRE = (-19.4628, -45.6003)


def report(photo, **kw) -> ReportIn:
    base = dict(category="motor_vehicle", lat=CENTRE[0], lon=CENTRE[1], photos=[photo(1)],
                address="Rua Getúlio Vargas, 100", plate="abc-1d23", colour="prata",
                make_model="VW Gol", time_there="3 meses", signs=("missing_tyres",))
    base.update(kw)
    return ReportIn(**base)


async def test_submit_gives_protocol_and_records_evidence_art_4_caput(core, photo):
    done = await submit_report(core, 111, report(photo, photos=[photo(1), photo(2)]))
    assert done.protocol == "2026-000001"
    assert len(done.case_code) == 8 and done.case_code not in done.protocol
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
        assert case.plate == "ABC1D23" and case.state == "reported"
        assert (await s.scalar(select(func.count()).select_from(Evidence))) == 2
        ev = (await s.execute(select(Event))).scalar_one()
        assert ev.action == "report" and len(ev.data["photos"]) == 2
        assert (await verify_chain(s, case.id)).ok


async def test_protocols_are_sequential_under_concurrent_submissions(core, photo):
    results = await asyncio.gather(*[submit_report(core, 200 + i, report(photo))
                                     for i in range(12)])
    assert sorted(r.protocol for r in results) == [f"2026-{n:06d}" for n in range(1, 13)]


@pytest.mark.parametrize("field,value,needle", [
    ("category", "spaceship", "Categoria"),
    ("lat", -19.9167, "fora da área"),  # Belo Horizonte
    ("plate", "12345", "Placa inválida"),
    ("description", "x" * 5000, "longo demais"),
    ("signs", ("made_up",), "desconhecido"),
])
async def test_bad_report_is_refused_before_anything_is_written(core, photo, field, value, needle):
    kw = {field: value}
    if field == "lat":
        kw["lon"] = -43.9345
    with pytest.raises(InvalidInput) as err:
        await submit_report(core, 111, report(photo, **kw))
    assert needle in err.value.message
    async with core.db.read() as s:
        assert (await s.scalar(select(func.count()).select_from(Case))) == 0


async def test_report_needs_one_to_ten_photos(core, photo):
    with pytest.raises(InvalidInput):
        await submit_report(core, 111, report(photo, photos=[]))
    with pytest.raises(InvalidInput):
        await submit_report(core, 111, report(photo, photos=[photo(i) for i in range(11)]))


async def test_nearby_finds_same_category_within_radius_only(core, photo):
    await submit_report(core, 1, report(photo))
    await submit_report(core, 2, report(photo, category="large_furniture", signs=()))
    far = (CENTRE[0] + 0.001, CENTRE[1])  # ~111 m north
    await submit_report(core, 3, report(photo, lat=far[0], lon=far[1]))
    found = await find_nearby(core, "motor_vehicle", CENTRE[0] + 0.0002, CENTRE[1])
    assert [f.protocol for f in found] == ["2026-000001"]
    # another citizen sees the photo only once staff approved it (LGPD, art. 6º, III)
    assert 20 < found[0].distance_m < 25 and found[0].photo_sha256 is None
    await approve_photos(core)
    found = await find_nearby(core, "motor_vehicle", CENTRE[0] + 0.0002, CENTRE[1])
    assert found[0].photo_sha256
    # another citizen's case: its public projection, never the address they typed
    assert found[0].address == "bairro não informado" and found[0].state_label


async def test_supporting_report_subscribes_without_new_case(core, photo):
    first = await submit_report(core, 1, report(photo))
    await support_case(core, first.protocol, 2, [photo(9)], "Continua lá")
    async with core.db.read() as s:
        assert (await s.scalar(select(func.count()).select_from(Case))) == 1
        assert (await s.scalar(select(func.count()).select_from(SupportingReport))) == 1
        assert (await s.scalar(select(func.count()).select_from(Subscription))) == 2
    assert [v.protocol for v in await my_cases(core, 2)] == [first.protocol]


async def test_status_view_shows_state_and_steps_not_reporter(core, photo):
    done = await submit_report(core, 111, report(photo))
    view = await status_view(core, done.protocol)
    assert view.state_label == "Denúncia recebida"
    assert [s.label for s in view.steps] == ["Denúncia registrada"]
    assert "111" not in repr(view)


async def test_notifications_can_be_turned_off_per_case(core, photo):
    done = await submit_report(core, 111, report(photo))
    assert await set_notifications(core, 111, done.protocol, False)
    assert (await my_cases(core, 111))[0].notify is False
    assert not await set_notifications(core, 999, done.protocol, False)


async def test_a_failing_submission_in_a_group_fails_alone(core, photo):
    """Concurrent submissions are committed together; one whose own step fails leaves no trace
    and the others get sequential protocols with no gap."""
    async def broken(session):
        raise RuntimeError("the bot's draft could not be cleared")

    results = await asyncio.gather(
        *[submit_report(core, 300 + i, report(photo), also=broken if i == 2 else None)
          for i in range(6)], return_exceptions=True)
    failed = [r for r in results if isinstance(r, Exception)]
    assert len(failed) == 1 and "draft" in str(failed[0])
    assert sorted(r.protocol for r in results if not isinstance(r, Exception)) == [
        f"2026-{n:06d}" for n in range(1, 6)]
    async with core.db.read() as s:
        assert (await s.scalar(select(func.count()).select_from(Case))) == 5
        assert (await s.scalar(select(func.count()).select_from(Subscription))) == 5


async def test_free_text_is_kept_trimmed_without_nul_on_every_engine(core, photo):
    """A NUL typed (or sent through Open311) is dropped, not a database error (PostgreSQL
    refuses it in text); blanks are no answer; the description keeps its line breaks."""
    await submit_report(core, 111, report(photo, colour="  pra\x00ta ", make_model="   ",
                                          description=" Sem rodas.\r\nHá lixo. \x00"))
    async with core.db.read() as s:
        case = (await s.execute(select(Case))).scalar_one()
    assert case.description == "Sem rodas.\nHá lixo."
    assert case.details["report"]["colour"] == "prata"
    assert case.details["report"]["make_model"] is None
