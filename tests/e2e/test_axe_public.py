"""The public pages pass axe-core (tests/support/axe.py: WCAG 2 A/AA and best practices) at a
phone's size (390×844) and a desktop's (1280×800), in a real headless Chromium, without
logging in, on a city with cases in many states (tests/support/axe_world.py). A new public
page is one more line in PAGES. The owner's form is filled and sent with the keyboard alone
(Tab, typing, Enter), as a form of the public face must be."""
from __future__ import annotations

from tests.support.axe import VIEWPORTS, audit, fill_by_keyboard, report, sweep
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
    "/publico/denunciar",  # the web report's first question
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


async def test_every_step_of_the_web_report_passes_axe(chromium, serve, make_core, photo, clock,
                                                       tmp_path):
    """Each page of the web report, walked as a citizen walks it, at both sizes: the
    category, the photos, the place (the map and its button), a typed question, the signs,
    the summary with the privacy notice and the e-mail field, and the receipt."""
    from tests.support.core_fixtures import jpeg
    core = await make_core(map_tile_url=TILES, nominatim_url="http://127.0.0.1:9",
                           smtp_url="smtp://127.0.0.1:9", public_url="https://v.example")
    base = await serve(core)
    page = await chromium.page(route=tiles, geolocation={"latitude": -19.4628,
                                                          "longitude": -45.6003},
                               permissions=["geolocation"])
    violations: list[str] = []

    async def check(step: str) -> None:
        for label, size in VIEWPORTS.items():
            await page.set_viewport_size(size)
            violations.extend(await audit(page, f"/publico/denunciar ({step}, {label})"))

    await page.goto(f"{base}/publico/denunciar")
    await page.click("button:has-text('Veículo motorizado')")
    await check("fotos")
    picture = tmp_path / "a.jpg"
    picture.write_bytes(jpeg((1, 2, 3)))
    await page.set_input_files("#photos", str(picture))
    await page.click("button:has-text('Continuar')")
    await page.click("#locate")
    await page.wait_for_function("document.getElementById('lat').value !== ''")
    await check("local")
    await page.click("button:has-text('Continuar')")
    await check("placa")
    for question in ("Qual é a placa?", "Qual é a cor?", "Qual é a marca"):
        await page.wait_for_selector(f"text={question}")
        await page.click("button:has-text('Pular')")
    await page.click("button:has-text('Mais de 30 dias')")
    await check("sinais")
    await page.click("button:has-text('Continuar')")
    await page.click("button:has-text('Pular')")
    await check("resumo")
    clock.advance(seconds=60)
    await page.click("button:has-text('Confirmar')")
    await page.wait_for_selector("text=Denúncia registrada")
    await check("recibo")
    assert not violations, report(violations)
