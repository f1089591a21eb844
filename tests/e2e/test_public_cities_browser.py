"""The public face of an installation serving two cities, in a real headless Chromium
(tests/support/browser.py): /publico lists the cities with their open cases; a city's map
(/publico/dracena/mapa) draws its own cases only, with no console error, and its marker's
popup leads to the case's status page under the city. Screenshots: public_cities.png and
public_city_map.png (with SAVE_SCREENSHOTS=1, in docs/screenshots/)."""
from __future__ import annotations

from tests.e2e.test_public_browser import TILES, _tile
from tests.support.panel import new_case
from tests.support.two_cities import DRACENA, photo_of, report, two_cities


async def test_the_cities_page_and_a_citys_map_in_chromium(chromium, serve, shots,
                                                           make_two_cities):
    t = await two_cities(make_two_cities, map_tile_url=TILES)
    await new_case(t.dores, lambda i: photo_of(t.dores, i), 5)
    second = await report(t.dracena, "abandoned_thing", (DRACENA[0] + 0.002, DRACENA[1]), 7,
                          "Jardim Palmeiras")
    tile = _tile()

    async def network(route):
        url = route.request.url
        if url.startswith("https://tiles.example.test/"):
            await route.fulfill(status=200, content_type="image/png", body=tile)
        elif url.startswith(("http://127.0.0.1", "http://localhost")):
            await route.continue_()
        else:
            await route.abort()

    base = await serve(t.dores)
    errors: list[str] = []
    page = await chromium.page(route=network, viewport={"width": 1280, "height": 1000})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    await page.goto(f"{base}/publico/")
    rows = await page.locator("#public-cities tbody tr").all_inner_texts()
    assert [r.split("\t") for r in rows] == [["Dores do Indaiá", "MG", "2"],
                                             ["Dracena", "SP", "2"]]
    await page.screenshot(path=str(shots / "public_cities.png"), full_page=True)

    await page.click("a:has-text('Dracena')")
    await page.wait_for_url(f"{base}/publico/dracena")
    await page.goto(f"{base}/publico/dracena/mapa")
    mine = [t.dracena_case.protocol, second.protocol]
    for protocol in mine:
        await page.locator(f"path.vl-{protocol}").wait_for(state="attached")
    assert await page.locator("path.vl-case").count() == 2
    assert "Dracena" in await page.inner_text("h1")
    listed = await page.locator("#public-list tbody tr").all_inner_texts()
    assert sorted(r.split("\t")[0].strip() for r in listed) == sorted(mine)
    assert t.dores_case.protocol not in await page.content()
    await page.screenshot(path=str(shots / "public_city_map.png"), full_page=True)

    await page.locator(f"path.vl-{second.protocol}").dispatch_event("click")
    link = page.locator(".leaflet-popup a", has_text=second.protocol)
    await link.wait_for()
    await link.click()
    await page.wait_for_url(f"{base}/publico/dracena/protocolo/{second.protocol}")
    assert "Protocolo " + second.protocol in await page.inner_text("h1")
    assert not errors, errors
