"""The staff panel passes axe-core (tests/support/axe.py: WCAG 2 A/AA and best practices) at a
phone's size (390×844) and a desktop's (1280×800), in a real headless Chromium, logged in as
the installation's administrator (who sees every page of the navigation), on a city with
cases in many states (tests/support/axe_world.py). A new panel page is one more line in
PAGES."""
from __future__ import annotations

from core.services.staff.accounts import create_user
from tests.support.axe import report, sweep
from tests.support.axe_world import TILES, axe_city, tiles
from tests.support.browser import login
from tests.support.panel import PASSWORD

PAGES = [
    "/",  # the dashboard
    "/fila",  # the staff's queue
    "/casos",  # the list of cases
    "/casos/{protocol}",  # a case with a long history (in the depot)
    "/casos/{affixed}",  # a case with the notice affixed
    "/casos/{refused}",  # a case both inspectors refused
    "/casos/{closed}",  # a closed case
    "/balcao",  # counter and phone intake
    "/diario-oficial",  # the editais
    "/patio",  # depot and auction
    "/indicadores",
    "/entregas",  # messages not delivered
    "/fotos",  # photos before they are public
    "/lgpd/pedidos",
    "/fiscais",
    "/fiscais/{inspector}/rota",  # an inspector's route
    "/fiscais/atribuir-area",
    "/tarifas",  # tariffs and calendar
    "/usuarios",
    "/municipios",
    "/municipios/novo",
    "/municipios/editar?municipio={municipality}",  # a city's record, to correct
    "/senha",
]


async def test_panel_pages_pass_axe(chromium, serve, shots, make_core, photo):
    core = await make_core(map_tile_url=TILES)
    await core.load_cities(adopt=True)  # as the panel starts: the city's record, to edit
    await create_user(core, "ana", PASSWORD, "admin")
    objects = {**await axe_city(core, photo), "municipality": core.municipality}
    base = await serve(core)
    page = await chromium.page(route=tiles)
    await login(page, base, "ana")
    violations = await sweep(page, base, PAGES, objects, shots)
    assert not violations, report(violations)
