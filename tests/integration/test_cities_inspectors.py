"""One installation, several cities: an inspector belongs to one city (the invite's), and only
that city's tasks reach them; another city's case is answered exactly as a missing one (the
rule of every service: an id or protocol of another city behaves as one that does not exist).
Dores do Indaiá (Lei 3.043/2022), Dracena (Lei 56/1951) and Estrela do Indaiá, a third city
recorded under Dores's law, so that competence alone (the agency) would not keep the cities
apart."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from core.services.cases.transitions import NOT_FOUND
from core.services.errors import Forbidden, NotFound
from core.services.inspectors.accounts import inspector_for, require_inspector
from core.services.inspectors.queue_flow import move_queue
from core.services.inspectors.step_forms import step_form
from core.services.inspectors.task_list import case_card, open_tasks
from core.services.inspectors.tasks import accept_task, assign_case
from core.services.installation.municipalities import add_municipality
from core.services.periodic import run_periodic
from core.storage.models import Case, OutboxMessage, Task
from core.storage.timeline import ActorRef
from tests.support.owner_cases import report
from tests.support.task_cases import fiscal

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
DORES, DRACENA = (-19.4628, -45.6003), (-21.4843, -51.5353)
NEAR_DORES = (-19.4630, -45.6005)  # ~30 m from the report
FAR_IN_DORES = (-19.4800, -45.6200)  # ~2.8 km away
ANA, DANI, ELI = 901, 902, 903  # Dores, Dracena, Estrela


async def _estrela(core) -> None:
    await add_municipality(core, "estrela-do-indaia", law="dores-do-indaia",
                           name="Estrela do Indaiá", uf="MG", ibge_code="3124708",
                           centre_lat=-19.5167, centre_lon=-45.7833, radius_m=5000)


async def _offers_to(core, chat: int) -> list[str]:
    async with core.db.read() as s:
        rows = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.chat_id == chat, OutboxMessage.kind == "task_offer"))).scalars().all()
    return [m.payload["protocol"] for m in rows]


async def _task(core, protocol) -> Task | None:
    async with core.db.read() as s:
        return (await s.execute(select(Task).join(Case).where(Case.protocol == protocol)
                                .order_by(Task.id.desc()).limit(1))).scalar_one_or_none()


async def test_an_inspector_belongs_to_the_city_of_the_invite(make_two_cities):
    core = await make_two_cities()
    await fiscal(core.for_city("dracena"), DANI, "Dani", "fiscalizacao")
    await fiscal(core, ANA, "Ana", "posturas")
    assert (await inspector_for(core, DANI)).municipality == "dracena"
    assert (await inspector_for(core, ANA)).municipality == "dores-do-indaia"


async def test_a_dracena_inspector_never_receives_or_sees_a_dores_task(make_two_cities, photo):
    """Art. 4º (Dores): the diligence goes to a competent inspector of the city. An inspector
    of another city of the same law (Estrela, posturas, idle and 30 m away) is never offered
    it, neither when it comes in nor when the queue moves; nor is Dracena's."""
    core = await make_two_cities()
    await _estrela(core)
    dracena, estrela = core.for_city("dracena"), core.for_city("estrela-do-indaia")
    await fiscal(dracena, DANI, "Dani", "fiscalizacao", DRACENA)
    await fiscal(estrela, ELI, "Eli", "posturas", NEAR_DORES)
    waiting = (await report(core, photo, plate="ABC1D23")).protocol
    assert await _task(core, waiting) is None  # nobody of Dores: it waits for staff
    await run_periodic(core)  # the queue moves in every city: still nobody of Dores
    assert await _task(core, waiting) is None
    assert await _offers_to(core, ELI) == [] and await _offers_to(core, DANI) == []

    ana = await fiscal(core, ANA, "Ana", "posturas", FAR_IN_DORES)
    await run_periodic(core)  # the queue moves: Dores's waiting case to Dores's inspector
    assert (await _task(core, waiting)).inspector_id == ana
    second = (await report(core, photo, plate="DEF1G23")).protocol
    assert (await _task(core, second)).inspector_id == ana  # the farther, but of Dores
    theirs = (await report(dracena, photo, category="infraction", where=DRACENA)).protocol
    assert await _offers_to(core, ANA) == [waiting, second]
    assert await _offers_to(core, DANI) == [theirs]
    assert await _offers_to(core, ELI) == []
    assert [t.protocol for t in await open_tasks(core, DANI)] == [theirs]
    assert [t.protocol for t in await open_tasks(dracena, ANA)] == [waiting, second]
    assert await open_tasks(core, ELI) == []
    await move_queue(estrela)
    assert await _offers_to(core, ELI) == []


async def test_another_citys_case_is_answered_as_a_missing_one(make_two_cities, photo):
    """A Dores inspector pressing a Dracena case's button, typing its protocol or taking a
    step on it gets exactly the answer of a protocol that does not exist."""
    core = await make_two_cities()
    dracena = core.for_city("dracena")
    await fiscal(core, ANA, "Ana", "posturas", DORES)
    await fiscal(dracena, DANI, "Dani", "fiscalizacao", DRACENA)
    theirs = (await report(dracena, photo, category="infraction", where=DRACENA)).protocol
    task = await _task(core, theirs)

    for who in (core, dracena):  # whichever city the process acts for
        with pytest.raises(NotFound) as missing:
            await case_card(who, ANA, "2026-999999")
        with pytest.raises(NotFound) as other:
            await case_card(who, ANA, theirs)
        assert other.value.message == missing.value.message == NOT_FOUND
        with pytest.raises(NotFound) as other:
            await step_form(who, ANA, theirs, "issue_auto")
        assert other.value.message == NOT_FOUND
        with pytest.raises(NotFound) as other:
            await require_inspector(who, ANA, "issue_auto", theirs)
        assert other.value.message == NOT_FOUND
    with pytest.raises(Forbidden) as other:
        await accept_task(core, ANA, task.id)
    with pytest.raises(Forbidden) as missing:
        await accept_task(core, ANA, task.id + 1000)
    assert other.value.message == missing.value.message
    # Dores's staff cannot give it to a Dores inspector either: a missing case
    ana = (await inspector_for(core, ANA)).id
    with pytest.raises(NotFound) as other:
        await assign_case(core, theirs, ana, STAFF)
    assert other.value.message == NOT_FOUND


async def test_the_inspector_works_with_the_law_of_their_own_city(make_two_cities, photo):
    """A Dracena inspector served by a process whose default city is Dores: the card offers
    Dracena's steps (Lei 56/1951, Art. 2º: the auto), not Dores's."""
    core = await make_two_cities()
    dracena = core.for_city("dracena")
    await fiscal(dracena, DANI, "Dani", "fiscalizacao", DRACENA)
    theirs = (await report(dracena, photo, category="infraction", where=DRACENA)).protocol
    card = await case_card(core, DANI, theirs)
    assert "issue_auto" in {a.code for a in card.actions}
    assert all(a.article.startswith("Art.") for a in card.actions)
    form = await step_form(core, DANI, theirs, "issue_auto")
    assert form.article == "Art. 2º" or form.article.startswith("Art. 2º")
