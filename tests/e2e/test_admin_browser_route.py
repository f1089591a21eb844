"""The inspector's route page and the assignment by area in a real headless Chromium
(tests/support/browser.py): the route reads the same with JavaScript off (the sketch is an SVG
drawn by the server); the area is drawn as a box on the map, or typed without JavaScript, and
a bad box comes back with the reason and what was typed."""
from __future__ import annotations

import os

from sqlalchemy import select

from core.services.inspectors.accounts import update_location
from core.storage.models import Case, Task
from tests.support.task_cases import fiscal
from tests.integration.test_services_tasks import report
from tests.support.browser import login

WEST = [(-19.4600, -45.6000 - 0.0060 * k) for k in (1, 2, 3, 4)]


def _keep(shots, *names: str) -> None:
    if os.environ.get("KEEP_SHOTS"):
        import shutil
        for name in names:
            shutil.copy(shots / name, os.environ["KEEP_SHOTS"])


async def test_route_page_in_chromium_without_javascript(chromium, serve, shots, panel,
                                                         photo):
    core = panel.core
    await fiscal(core, 901, "Ana Fiscal", "posturas")
    protocols = [await report(core, photo, where=WEST[k]) for k in (2, 0, 3, 1)]
    await update_location(core, 901, -19.4600, -45.5990)  # at the east end, near the office
    base = await serve(core)
    page = await chromium.page(java_script_enabled=False)
    await login(page, base, "ana")
    await page.click("nav >> text=Fiscais")
    await page.click("text=Rota do dia")
    assert "/rota" in page.url
    assert "Rota do dia 01/12/2026 — Ana Fiscal" in await page.inner_text("h1")
    head = await page.inner_text("section.route-head")
    assert "4 paradas" in head and "em linha reta" in head
    assert "localização enviada pelo fiscal hoje às 13:00" in head
    stops = page.locator("ol.route > li")
    assert await stops.count() == 4
    # from the east end westwards: the reports' order was 3rd, 1st, 4th, 2nd spot
    expected = [protocols[1], protocols[3], protocols[0], protocols[2]]
    for n, protocol in enumerate(expected, 1):
        text = await stops.nth(n - 1).inner_text()
        assert text.startswith(f"{n}. {protocol}") and "Vistoria" in text
        assert "sem prazo fixado em lei" in text and "Vistoriar o local" in text
    first = stops.nth(0)
    lat, lon = WEST[0]
    assert await first.locator("text=Google Maps").get_attribute("href") == (
        f"https://www.google.com/maps/search/?api=1&query={lat:.6f},{lon:.6f}")
    assert (await first.locator("text=app de mapas do celular").get_attribute("href")
            ).startswith(f"geo:{lat:.6f},{lon:.6f}")
    assert await page.locator("svg.route-sketch circle").count() == 4
    assert await page.locator("svg.route-sketch").is_visible()
    assert await page.locator("button:has-text('Imprimir as notificações do dia')").is_visible()
    await page.screenshot(path=str(shots / "route.png"), full_page=True)
    _keep(shots, "route.png")


async def _holders(core) -> dict[str, int]:
    async with core.db.read() as s:
        return {p: i for p, i in (await s.execute(select(Case.protocol, Task.inspector_id)
                                                 .join(Task).where(
            Task.status.in_(("offered", "accepted"))))).all()}


async def test_area_is_drawn_on_the_map_and_the_cases_inside_are_assigned(
        chromium, serve, shots, panel, photo):
    """Art. 3º, §2º and Art. 10 (vehicles) vs Art. 5º, caput (furniture): a Saúde inspector
    given an area takes its furniture; its vehicle is listed as not assigned, with why."""
    core = panel.core
    await fiscal(core, 901, "Ana Fiscal", "posturas")
    car = await report(core, photo, where=WEST[0])
    sofa = await report(core, photo, where=WEST[1], category="large_furniture")
    away = await report(core, photo, where=(-19.4800, -45.6050))
    sara = await fiscal(core, 902, "Sara Saúde", "saude")
    base = await serve(core)
    page = await chromium.page()
    await login(page, base, "bruno")
    await page.goto(f"{base}/fila")
    await page.click("text=Atribuir casos por área no mapa")
    await page.wait_for_url(f"{base}/fiscais/atribuir-area")
    assert await page.locator("#area-map path.case").count() == 3  # every open case
    await page.select_option("select[name=inspector_id]", str(sara))
    await page.click("#draw-box")  # scrolls the map into view: measure after
    boxes = [await page.locator(f"#area-map path.case-{p}").bounding_box() for p in (car, sofa)]
    left = min(b["x"] for b in boxes) - 15
    top = min(b["y"] for b in boxes) - 15
    right = max(b["x"] + b["width"] for b in boxes) + 15
    bottom = max(b["y"] + b["height"] for b in boxes) + 15
    await page.mouse.move(left, top)
    await page.mouse.down()
    await page.mouse.move((left + right) / 2, (top + bottom) / 2, steps=4)
    await page.mouse.move(right, bottom, steps=4)
    await page.mouse.up()
    south = float(await page.input_value("input[name=south]"))
    east = float(await page.input_value("input[name=east]"))
    assert south < min(WEST[0][0], WEST[1][0]) and east > WEST[0][1]
    await page.screenshot(path=str(shots / "area_drawn.png"), full_page=True)
    await page.click("button:has-text('Atribuir os casos da área')")
    done = await page.inner_text("main")
    assert "Atribuídos a Sara Saúde (1)" in done and sofa in done
    assert "Não atribuídos (1)" in done and car in done and "competência" in done
    assert away not in done
    holders = await _holders(core)
    assert holders[sofa] == sara and holders[car] != sara and holders[away] != sara
    await page.screenshot(path=str(shots / "area_done.png"), full_page=True)
    _keep(shots, "area_drawn.png", "area_done.png")


async def test_area_without_javascript_typed_limits_and_a_bad_box(chromium, serve, panel,
                                                                  photo):
    core = panel.core
    await fiscal(core, 901, "Ana Fiscal", "posturas")
    car = await report(core, photo, where=WEST[0])
    tito = await fiscal(core, 903, "Tito Trânsito", "transito")
    base = await serve(core)
    page = await chromium.page(java_script_enabled=False)
    await login(page, base, "bruno")
    await page.goto(f"{base}/fiscais/atribuir-area")
    assert not await page.locator("#area-map").is_visible()  # no map: the limits are typed
    assert "Sem o mapa: digite os limites" in await page.inner_text("main")
    await page.select_option("select[name=inspector_id]", str(tito))
    for name, value in (("north", "-19,45"), ("south", "-19,40"), ("west", "-45,61"),
                        ("east", "-45,60")):
        await page.fill(f"input[name={name}]", value)
    await page.click("button:has-text('Atribuir os casos da área')")
    alert = page.locator("[role=alert][data-field=south]")
    assert "O limite Sul deve ser menor que o Norte" in await alert.inner_text()
    assert await page.input_value("input[name=south]") == "-19,40"  # kept as typed
    assert await page.input_value("input[name=west]") == "-45,61"
    assert await page.input_value("select[name=inspector_id]") == str(tito)
    await page.fill("input[name=south]", "-19,47")
    await page.click("button:has-text('Atribuir os casos da área')")
    done = await page.inner_text("main")
    assert "Atribuídos a Tito Trânsito (1)" in done and car in done
    assert (await _holders(core))[car] == tito
