"""The panel's route page (/fiscais/{id}/rota) and the assignment by area
(/fiscais/atribuir-area) over HTTP: what staff read, and bad input answered with a 400 and the
form kept."""
from __future__ import annotations

import html

from sqlalchemy import select

from core.services.inspectors.accounts import update_location
from core.storage.models import Case, Task
from tests.support.panel import post_form
from tests.support.task_cases import fiscal
from tests.integration.test_services_tasks import report

WEST = [(-19.4600, -45.6000 - 0.0095 * k) for k in (1, 2, 3)]
AREA = "/fiscais/atribuir-area"
BOX = {"south": "-19,47", "west": "-45,625", "north": "-19,45", "east": "-45,60"}


async def test_route_page_lists_the_stops_in_order_with_map_links_and_the_pdf(panel, photo):
    core = panel.core
    ana = await fiscal(core, 901, "Ana Fiscal", "posturas")
    far, near = (await report(core, photo, where=WEST[2]), await report(core, photo,
                                                                        where=WEST[0]))
    await update_location(core, 901, -19.4600, -45.5990)  # just east of the first stop
    async with panel.client("bruno") as c:  # staff, not only admins
        r = await c.get(f"/fiscais/{ana}/rota")
        assert r.status == 200
        page = html.unescape(await r.text())
        assert "Rota do dia 01/12/2026 — Ana Fiscal" in page
        assert "Saída: localização enviada pelo fiscal hoje às 13:00" in page.replace(
            "</b>", "")
        assert page.index(f'1. <a href="/casos/{near}">') < page.index(
            f'2. <a href="/casos/{far}">')
        assert f"https://www.google.com/maps/search/?api=1&query={WEST[0][0]:.6f}," in page
        assert f"geo:{WEST[0][0]:.6f},{WEST[0][1]:.6f}" in page
        assert "sem prazo fixado em lei" in page and "Vistoriar o local" in page
        assert f'action="/fiscais/{ana}/notificacoes-do-dia"' in page
        assert "<svg class=\"route-sketch\"" in page
        gone = await c.get(f"/fiscais/{ana + 50}/rota")
        assert gone.status == 404 and "Fiscal não encontrado" in await gone.text()
    async with panel.client("ana") as c:
        listing = html.unescape(await (await c.get("/fiscais")).text())
        assert f'href="/fiscais/{ana}/rota"' in listing and f'href="{AREA}"' in listing


async def _holders(core) -> dict[str, int]:
    async with core.db.read() as s:
        return {p: i for p, i in (await s.execute(select(Case.protocol, Task.inspector_id)
                                                 .join(Task).where(
            Task.status.in_(("offered", "accepted"))))).all()}


async def test_area_bad_input_is_a_400_with_the_form_kept_then_the_cases_are_assigned(
        panel, photo):
    core = panel.core
    await fiscal(core, 901, "Ana Fiscal", "posturas")
    car = await report(core, photo, where=WEST[0])
    sofa = await report(core, photo, where=WEST[1], category="large_furniture")
    sara = await fiscal(core, 902, "Sara Saúde", "saude")
    async with panel.client("bruno") as c:
        back = {"Referer": f"http://{c.host}:{c.port}{AREA}"}  # as a browser sends it
        r = await post_form(c, AREA, AREA, {**BOX, "south": "-19,40", "inspector_id": str(sara)},
                            headers=back)
        assert r.status == 400
        page = html.unescape(await r.text())
        assert 'data-field="south">O limite Sul deve ser menor que o Norte.' in page
        assert 'value="-19,40"' in page and 'value="-45,625"' in page
        assert f'<option value="{sara}" selected>' in page
        r = await post_form(c, AREA, AREA, {**BOX, "inspector_id": "abc"}, headers=back)
        assert r.status == 400 and 'data-field="inspector_id"' in await r.text()
        r = await post_form(c, AREA, AREA, {**BOX, "inspector_id": str(sara)}, headers=back)
        assert r.status == 200
        page = html.unescape(await r.text())
    assert "Atribuídos a Sara Saúde (1)" in page and sofa in page
    assert "Não atribuídos (1)" in page and "competência" in page
    holders = await _holders(core)
    assert holders[sofa] == sara and holders[car] != sara
