"""One installation, two cities, in a real headless Chromium (tests/support/browser.py): the
installation administrator sees "Agindo como: Dores do Indaiá (MG)" in the header, switches to
Dracena (SP) with the header's selector and sees Dracena's queue (and no case of Dores)."""
from __future__ import annotations

from tests.support.browser import login
from tests.support.city_panel import DRACENA, INSTALLATION_ADMIN, cities_panel

_ = cities_panel


async def test_installation_admin_switches_the_city_in_the_header(chromium, serve, shots,
                                                                  cities_panel):
    panel = cities_panel
    dores, dracena = panel.objects["dores-do-indaia"], panel.objects[DRACENA]
    base = await serve(panel.core)
    page = await chromium.page()
    await login(page, base, INSTALLATION_ADMIN)
    await page.goto(f"{base}/fila")
    header = await page.inner_text("header.top")
    assert "Agindo como: Dores do Indaiá (MG)" in header
    queue = await page.inner_text("main")
    assert dores.protocol in queue and dracena.protocol not in queue

    await page.select_option("select[name=municipio]", DRACENA)
    await page.click("button:has-text('Trocar município')")
    await page.wait_for_selector(".flash.ok")
    assert page.url == f"{base}/fila"  # back on the same page, now for Dracena
    assert "Agora você está agindo como Dracena (SP)." in await page.inner_text(".flash.ok")
    assert "Agindo como: Dracena (SP)" in await page.inner_text("header.top")
    queue = await page.inner_text("main")
    assert dracena.protocol in queue and dores.protocol not in queue
    await page.screenshot(path=str(shots / "panel-city-switch.png"), full_page=True)

    # a case of the city left behind is now "não encontrado", as a missing one
    await page.goto(f"{base}/casos/{dores.protocol}")
    assert "Não encontramos esse caso" in await page.inner_text("main")
