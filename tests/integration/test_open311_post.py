"""An Open311 POST a city can leave open to its partners: the bot's duplicate check (identical
POSTs make one case and one inspector task, Dores Art. 4º), a rate limit per API key, text
XML cannot carry refused at input (the public requests.xml stays readable for every client),
and a refused report leaves no file in the evidence store; the periodic job removes any
orphan a crash left."""
from __future__ import annotations

import asyncio
import os

import xmltodict
from sqlalchemy import func, select

from core.services.messaging.conversation import save
from core.services.periodic import run_periodic
from core.services.citizens.reports import ReportIn, submit_report
from core.storage.models import Case, Evidence, SupportingReport, Task
from tests.support.core_fixtures import jpeg
from tests.support.panel import CENTRE, Panel
from tests.support.open311 import KEY, PUBLIC_NAME, PhotoHost, SPEC_POST, panel_with
from tests.support.task_cases import fiscal

API = "/open311/v2"
OUTSIDE = {"lat": "-23.5505", "long": "-46.6333"}  # São Paulo: not in Dores do Indaiá


async def _count(core, model) -> int:
    async with core.db.read() as s:
        return (await s.execute(select(func.count()).select_from(model))).scalar_one()


def _files(core) -> list[str]:
    root = core.evidence.root
    return sorted(p.name for p in root.rglob("*") if p.is_file()) if root.exists() else []


async def test_identical_posts_make_one_case_and_one_inspector_task_art_4(make_core):
    """15 identical POSTs at one point, sent together: one case, one diligence task; the
    other 14 are joined to it as supporting reports, and each answer says so."""
    core = await make_core(open311_api_key=KEY)
    await fiscal(core, 901, "Fiscal", "transito", CENTRE)
    async with Panel(core).client() as c:
        answers = await asyncio.gather(*(c.post(f"{API}/requests.json", data=SPEC_POST)
                                         for _ in range(15)))
        bodies = [(r.status, (await r.json())[0]) for r in answers]
    assert {status for status, _ in bodies} == {201}
    assert len({b["service_request_id"] for _, b in bodies}) == 1
    joined = [b for _, b in bodies if "juntada" in b["service_notice"]]
    assert len(joined) == 14
    assert await _count(core, Case) == 1 and await _count(core, Task) == 1
    assert await _count(core, SupportingReport) == 14


async def test_a_post_far_enough_away_is_a_new_case(make_core):
    core = await make_core(open311_api_key=KEY)
    async with Panel(core).client() as c:
        first = await c.post(f"{API}/requests.json", data=SPEC_POST)
        apart = {**SPEC_POST, "lat": str(CENTRE[0] - 0.003)}  # ~330 m
        second = await c.post(f"{API}/requests.json", data=apart)
        other = await c.post(f"{API}/requests.json", data={**SPEC_POST, "service_code": "trailer"})
        ids = {(await r.json())[0]["service_request_id"] for r in (first, second, other)}
    assert len(ids) == 3 and await _count(core, Case) == 3


async def test_each_api_key_has_a_rate_limit(make_core, clock):
    core = await make_core(open311_api_key=KEY, open311_post_limit=3, open311_post_window_s=600)
    async with Panel(core).client() as c:
        statuses = []
        for i in range(5):
            form = {**SPEC_POST, "lat": str(CENTRE[0] - 0.001 * i)}
            statuses.append((await c.post(f"{API}/requests.xml", data=form)).status)
        r = await c.post(f"{API}/requests.xml", data=SPEC_POST)
        refused = xmltodict.parse(await r.text())["errors"]["error"]
        wrong_key = await c.post(f"{API}/requests.json", data={**SPEC_POST, "api_key": "x"})
        clock.advance(minutes=11)
        later = await c.post(f"{API}/requests.json",
                             data={**SPEC_POST, "lat": str(CENTRE[0] - 0.006)})
    assert statuses == [201, 201, 201, 429, 429]
    assert r.status == 429 and refused["code"] == "429"
    assert "Limite de solicitações desta api_key" in refused["description"]
    assert wrong_key.status == 403  # the key is checked first
    assert later.status == 201
    assert await _count(core, Case) == 4


async def test_text_xml_cannot_carry_is_refused_and_the_feed_stays_readable(make_core, photo):
    core = await make_core(open311_api_key=KEY)
    async with Panel(core).client() as c:
        refused = {}
        for name, value in (("description", "carro \ufffe velho"),
                            ("address_string", "Rua \x01 A"),
                            ("attribute[colour]", "azul\uffff"), ("account_id", "a\x1fb")):
            r = await c.post(f"{API}/requests.json", data={**SPEC_POST, name: value})
            refused[name] = (r.status, (await r.json())[0]["description"])
        # the bot's own input drops them too (core.text), so no face can break the feed
        await submit_report(core, 77, ReportIn(
            category="trailer", lat=CENTRE[0], lon=CENTRE[1], photos=[photo(3)],
            address="Rua \ufffe\x02 das Flores, 12"))
        feed = await c.get(f"{API}/requests.xml")
        parsed = xmltodict.parse(await feed.text())
    assert {k: v[0] for k, v in refused.items()} == dict.fromkeys(refused, 400)
    assert all("caracteres" in v[1] and "inválidos" in v[1] for v in refused.values()), refused
    request = parsed["service_requests"]["request"]
    assert request["service_code"] == "trailer"  # the feed parses, the case listed
    async with core.db.read() as s:  # the typed address (staff only) kept without them
        assert (await s.execute(select(Case.address))).scalar_one() == "Rua das Flores, 12"
    assert await _count(core, Case) == 1


async def test_a_refused_report_leaves_no_file(make_core):
    """Photos sent with a report outside the city, or with a file that is not a photo, or
    whose second media_url fails: every file the POST stored is removed."""
    host = PhotoHost()
    async with host.server:
        core = await make_core(open311_api_key=KEY, open311_fetch_media=True,
                               open311_fetch_timeout_s=1)
        async with panel_with(core).client() as c:
            outside = {**SPEC_POST, **OUTSIDE}
            outside.pop("media_url")
            r1 = await c.post(f"{API}/requests.json", data={
                **outside, "media": [jpeg((1, 2, 3)), jpeg((4, 5, 6))]})
            form = {**SPEC_POST}
            form.pop("media_url")
            r2 = await c.post(f"{API}/requests.json", data={
                **form, "media": [jpeg((7, 8, 9)), b"<html>not a photo</html>"]})
            r3 = await c.post(f"{API}/requests.json", data={**SPEC_POST, "media_url": [
                host.url("foto.jpg", PUBLIC_NAME), host.url("lenta.jpg", PUBLIC_NAME)]})
    assert [r.status for r in (r1, r2, r3)] == [400, 400, 400]
    assert _files(core) == []
    assert await _count(core, Case) == 0 and await _count(core, Evidence) == 0


async def test_a_photo_already_kept_survives_a_refused_post(make_core, photo):
    core = await make_core(open311_api_key=KEY)
    kept = photo(5)
    await submit_report(core, 77, ReportIn(category="trailer", lat=CENTRE[0], lon=CENTRE[1],
                                           photos=[kept]))
    before = _files(core)
    async with Panel(core).client() as c:
        form = {**SPEC_POST, **OUTSIDE}
        form.pop("media_url")
        r = await c.post(f"{API}/requests.json",
                         data={**form, "media": [core.evidence.get(kept.sha256)]})
    assert r.status == 400 and _files(core) == before


async def test_the_periodic_job_removes_orphans_left_by_a_crash(core, photo, clock):
    """Files no case, draft or event names and older than two days are removed once a day;
    a kept photo, a draft's photo and a fresh upload stay."""
    orphan, _ = core.evidence.put_image(jpeg((9, 9, 9)))  # with its public copy
    fresh = core.evidence.put(jpeg((8, 8, 8)))
    drafted = photo(1)
    case_photo = photo(2)
    await submit_report(core, 77, ReportIn(category="trailer", lat=CENTRE[0], lon=CENTRE[1],
                                           photos=[case_photo]))
    async with core.db.unit_of_work() as s:  # a citizen's draft, photos sent, not reported yet
        await save(s, 78, "photos", {"photos": [drafted.sha256]})
    old = (clock.now.timestamp() - 3 * 86400,) * 2
    for p in core.evidence.root.rglob("*"):
        if p.is_file():
            os.utime(p, old)
    os.utime(core.evidence.path_of(fresh), (clock.now.timestamp(),) * 2)
    public = core.evidence.public_sha(orphan)
    files = len(_files(core))
    report = await run_periodic(core)
    assert report.orphans.removed == [orphan]
    assert not core.evidence.exists(orphan) and not core.evidence.exists(public)
    assert len(_files(core)) == files - 3  # the photo, its public copy and its pointer
    for sha in (fresh, drafted.sha256, case_photo.sha256):
        assert core.evidence.exists(sha)
    assert (await run_periodic(core)).orphans.removed == []  # once a day
