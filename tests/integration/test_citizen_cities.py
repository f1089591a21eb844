"""A citizen of an installation serving two cities (Dores do Indaiá, MG, Lei 3.043/2022, and
Dracena, SP, Lei 56/1951): the pin decides the city and its law, a point in neither is refused
naming both, duplicates are looked for only within the case's city, and /status, /minhas and
/meusdados find a case of any city and tell it under its own city's law. SQLite always,
PostgreSQL when TEST_DATABASE_URL is set."""
from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from core.services.citizens.case_status import my_cases, status_view
from core.services.citizens.my_data import delete_my_data, my_data, requests_list
from core.services.citizens.reports import ReportIn, find_nearby, submit_report, support_case
from core.services.errors import InvalidInput, NotFound
from core.storage.models import Case

DORES = (-19.4628, -45.6003)
DRACENA = (-21.4843, -51.5353)
SAO_PAULO = (-23.5505, -46.6333)


def dores_report(photo, **kw) -> ReportIn:
    return ReportIn(**{"category": "large_furniture", "lat": DORES[0], "lon": DORES[1],
                       "photos": [photo(1)], **kw})


def dracena_report(photo, **kw) -> ReportIn:
    return ReportIn(**{"category": "abandoned_vehicle", "lat": DRACENA[0], "lon": DRACENA[1],
                       "photos": [photo(2)], **kw})


async def _case(core, protocol: str) -> Case:
    async with core.db.read() as s:
        return (await s.execute(select(Case).where(Case.protocol == protocol))).scalar_one()


async def test_the_pin_decides_the_city_and_its_law(make_two_cities, photo):
    """Dracena Art. 4º (coisas abandonadas) in Dracena, Dores Art. 1º (móvel de grande porte)
    in Dores: each case is written with its city's slug and its law's first state."""
    dores = await make_two_cities()
    dracena = dores.for_city(dores.city_at(*DRACENA))
    assert dracena.municipality == "dracena" and dores.city_at(*DORES).slug == "dores-do-indaia"
    a = await submit_report(dores, 1, dores_report(photo))
    b = await submit_report(dracena, 1, dracena_report(photo))
    case_a, case_b = await _case(dores, a.protocol), await _case(dores, b.protocol)
    assert (case_a.municipality, case_a.track) == ("dores-do-indaia", "dores_furniture")
    assert (case_b.municipality, case_b.track) == ("dracena", "dracena_apprehension")
    assert case_b.state == dracena.law.tracks["dracena_apprehension"].initial
    assert b.next_steps == tuple(dracena.law.next_steps.get("dracena_apprehension", ()))


async def test_reports_of_two_cities_committed_together_keep_each_its_law(make_two_cities,
                                                                           photo):
    """Concurrent reports are written in groups: one group may hold both cities' reports, and
    each is still its own city's case."""
    dores = await make_two_cities()
    dracena = dores.for_city("dracena")
    done = await asyncio.gather(*[
        submit_report(dracena if i % 2 else dores, 10 + i,
                      dracena_report(photo) if i % 2 else dores_report(photo))
        for i in range(8)])
    async with dores.db.read() as s:
        cases = {c.protocol: c for c in (await s.execute(select(Case))).scalars()}
    for i, d in enumerate(done):
        case = cases[d.protocol]
        assert case.municipality == ("dracena" if i % 2 else "dores-do-indaia")
        assert case.category == ("abandoned_vehicle" if i % 2 else "large_furniture")
    assert len({d.protocol for d in done}) == 8  # protocols unique in the installation


async def test_a_point_in_no_city_served_is_refused_naming_both(make_two_cities, photo):
    dores = await make_two_cities()
    for core, made in ((dores, dores_report), (dores.for_city("dracena"), dracena_report)):
        with pytest.raises(InvalidInput) as err:
            await submit_report(core, 1, made(photo, lat=SAO_PAULO[0], lon=SAO_PAULO[1]))
        assert "Dores do Indaiá (MG) e Dracena (SP)" in err.value.message
    assert dores.city_at(*SAO_PAULO) is None


async def test_a_point_in_the_other_city_is_not_written_to_this_one(make_two_cities, photo):
    """Bound to Dores, a point in Dracena is refused (said where it is), never written as a
    Dores case."""
    dores = await make_two_cities()
    with pytest.raises(InvalidInput) as err:
        await submit_report(dores, 1, dores_report(photo, lat=DRACENA[0], lon=DRACENA[1]))
    assert "Dracena (SP)" in err.value.message
    async with dores.db.read() as s:
        assert (await s.execute(select(Case))).first() is None


async def test_duplicates_are_looked_for_only_within_the_case_s_city(make_two_cities, photo):
    """The same category code, the same spot: only the city's own cases are offered, and
    "É este" on another city's protocol is answered as a missing one."""
    dores = await make_two_cities()
    dracena = dores.for_city("dracena")
    b = await submit_report(dracena, 1, dracena_report(photo))
    assert [f.protocol for f in await find_nearby(dracena, "abandoned_vehicle", *DRACENA)] \
        == [b.protocol]
    assert await find_nearby(dores, "abandoned_vehicle", *DRACENA) == []
    with pytest.raises(NotFound) as other:
        await support_case(dores, b.protocol, 2, [photo(3)])
    with pytest.raises(NotFound) as missing:
        await support_case(dores, "2026-999999", 2, [photo(3)])
    assert other.value.message == missing.value.message
    assert await support_case(dracena, b.protocol, 2, [photo(3)]) == b.protocol


async def test_status_finds_a_case_of_any_city_under_its_own_law(make_two_cities, photo):
    """/status PROTOCOLO is installation-wide (protocols are unique): asked through the bot's
    Core (Dores), a Dracena case is told with Dracena's category, words and name."""
    dores = await make_two_cities()
    dracena = dores.for_city("dracena")
    a = await submit_report(dores, 7, dores_report(photo))
    b = await submit_report(dracena, 7, dracena_report(photo))
    view = await status_view(dores, b.protocol)
    assert view.category_label == "Veículo abandonado (coisa abandonada)"
    assert view.city == "Dracena (SP)"
    assert (await status_view(dracena, a.protocol)).city == "Dores do Indaiá (MG)"
    with pytest.raises(NotFound):
        await status_view(dores, "2026-999999")
    mine = {v.protocol: v for v in await my_cases(dores, 7)}
    assert mine[a.protocol].category_label == "Móvel de grande porte"
    assert mine[b.protocol].city == "Dracena (SP)"


async def test_my_data_names_each_case_s_city(make_two_cities, photo):
    """LGPD art. 18, II: /meusdados lists the reports of both cities, each with its city."""
    dores = await make_two_cities()
    a = await submit_report(dores, 7, dores_report(photo))
    b = await submit_report(dores.for_city("dracena"), 7, dracena_report(photo))
    text = "\n".join(await my_data(dores, 7))
    assert "Prefeituras de Dores do Indaiá (MG) e Dracena (SP)" in text
    assert f"{a.protocol} — Móvel de grande porte em Dores do Indaiá (MG)" in text
    assert f"{b.protocol} — Veículo abandonado (coisa abandonada) em Dracena (SP)" in text


async def test_a_data_request_is_read_only_by_the_cities_that_hold_the_person(
        make_two_cities, photo):
    """LGPD art. 18 and 37: the answer a person got, word for word, lists their cases; the
    panel of a city shows it only when that city's records hold the person, also after a
    deletion removed the links it had."""
    dores = await make_two_cities()
    dracena = dores.for_city("dracena")
    b = await submit_report(dracena, 8, dracena_report(photo))  # only Dracena holds person 8
    await submit_report(dores, 9, dores_report(photo))
    await submit_report(dracena, 9, dracena_report(photo))  # both hold person 9
    await my_data(dores, 8)
    await my_data(dores, 9)
    await delete_my_data(dracena, 8)
    in_dores = [r.telegram_id for r in await requests_list(dores)]
    in_dracena = [r.telegram_id for r in await requests_list(dracena)]
    assert in_dores == [9]
    assert in_dracena == [8, 9, 8]
    assert not any(b.protocol in r.answer for r in await requests_list(dores))


async def test_one_city_speaks_as_before(core, photo):
    """A single-city installation: no city named in the answers, the old refusal."""
    a = await submit_report(core, 7, dores_report(photo))
    assert (await status_view(core, a.protocol)).city == ""
    with pytest.raises(InvalidInput) as err:
        await submit_report(core, 1, dores_report(photo, lat=SAO_PAULO[0], lon=SAO_PAULO[1]))
    assert "fora da área de Dores do Indaiá" in err.value.message
    assert "Prefeitura de Dores do Indaiá (LGPD" in "\n".join(await my_data(core, 7))


async def test_the_question_after_closing_speaks_the_case_s_city_art_1(make_two_cities, photo,
                                                                         clock):
    """Dracena Art. 1º: a Dracena case closed as "no infraction" is asked about by Dracena's
    run of the periodic job only, and the reporter's "Não, continua lá", answered through the
    bot's Core (bound to Dores), takes Dracena's reopen step."""
    from core.laws.common import REOPEN
    from core.services.cases.transitions import apply_transition
    from core.services.citizens import followup
    from core.services.inspectors.accounts import bind_inspector, invite_inspector
    from core.storage.models import Event, OutboxMessage
    from core.storage.timeline import ActorRef
    dores = await make_two_cities()
    dracena = dores.for_city("dracena")
    bound = await bind_inspector(dracena, 901, await invite_inspector(
        dracena, "Ana", "fiscalizacao", "clara"))
    b = await submit_report(dracena, 555, dracena_report(photo))
    await apply_transition(dracena, b.protocol, "inspect_no_infraction",
                           ActorRef("inspector", bound.inspector_id, "Ana"),
                           {"inspection_notes": "nada irregular"}, agency="fiscalizacao")
    clock.advance(days=3, minutes=1)
    assert (await followup.ask_due(dores)).asked == []
    assert (await followup.ask_due(dracena)).asked == [b.protocol]
    async with dores.db.read() as s:
        asked = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.kind == "followup_question"))).scalar_one()
    assert "Veículo abandonado" in asked.payload["text"]
    assert "infração não constatada" in asked.payload["text"]
    await followup.answer_still_there(dores, 555, b.protocol)
    async with dores.db.read() as s:
        article = (await s.execute(select(Event.article).where(Event.action == REOPEN))
                   ).scalar_one()
    assert article == "Art. 1º" and (await _case(dores, b.protocol)).state == "diligence"
