"""The public pages pass axe-core (tests/support/axe.py: WCAG 2 A/AA and best practices) at a
phone's size (390×844) and a desktop's (1280×800), in a real headless Chromium, without
logging in, on a city with cases in many states (tests/support/axe_world.py). A new public
page is one more line in PAGES. The owner's form is filled and sent with the keyboard alone
(Tab, typing, Enter), as a form of the public face must be."""
from __future__ import annotations

from tests.support.axe import audit, fill_by_keyboard, report, sweep
from tests.support.axe_world import TILES, axe_city, tiles

PAGES = [
    "/publico",  # the map and the list of cases
    "/publico?situacao=encerrados&categoria=motor_vehicle",  # the list, filtered
    "/publico/protocolo/{protocol}",  # a case's status page (in the depot)
    "/publico/protocolo/{affixed}",  # a case with the notice affixed
    "/publico/protocolo/{closed}",  # a closed case
    "/publico/proprietario",  # the owner's form
    "/publico/proprietario/{code}",  # the notice's QR code: the case, asking for the proof
    ("/publico/proprietario/{code}", {"placa": "ABC1D23"}),  # the owner's page
    "/login",  # the panel's sign-in
]


async def test_public_pages_pass_axe(chromium, serve, shots, make_core, photo):
    core = await make_core(map_tile_url=TILES)
    objects = await axe_city(core, photo)
    base = await serve(core)
    page = await chromium.page(route=tiles)
    violations = await sweep(page, base, PAGES, objects, shots)
    assert not violations, report(violations)


async def test_owner_form_is_completed_with_the_keyboard_alone(chromium, serve, make_core,
                                                               photo):
    core = await make_core(map_tile_url=TILES)
    objects = await axe_city(core, photo)
    base = await serve(core)
    page = await chromium.page(route=tiles)
    await page.goto(f"{base}/publico/proprietario")
    await fill_by_keyboard(page, {"codigo": objects["code"], "placa": "ABC1D23"},
                           "Abrir meu caso")
    assert objects["protocol"] in await page.inner_text("main")
    assert not await audit(page, "/publico/proprietario (enviado pelo teclado)")
