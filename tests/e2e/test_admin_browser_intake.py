"""Counter intake in a real headless Chromium: a clerk clicks the map, then types the
citizen's address (geocoded by the local Nominatim stand-in) and confirms it, uploads a photo,
answers the category's questions, leaves the citizen's phone, and gets the protocol; the case
is in the list and the citizen in the list of people to tell."""
from __future__ import annotations

import re

import pytest

from sandbox.standin.nominatim import NominatimStandIn
from core.services.staff.accounts import create_user
from tests.support.browser import login
from tests.support.core_fixtures import jpeg
from tests.support.panel import PASSWORD


@pytest.fixture
async def osm():
    async with NominatimStandIn() as server:
        yield server


async def test_clerk_registers_a_phoned_report_in_chromium(chromium, serve, shots, make_core,
                                                            osm):
    core = await make_core(nominatim_url=osm.base_url)
    await create_user(core, "bruno", PASSWORD, "staff")
    base = await serve(core)
    page = await chromium.page(viewport={"width": 1280, "height": 1000})
    await login(page, base, "bruno")
    await page.click("nav >> text=Registrar caso")
    await page.wait_for_url(f"{base}/balcao")

    # a click on the map marks the point (Leaflet, vendored)
    await page.click("#pick", position={"x": 200, "y": 150})
    assert re.match(r"^-19\.\d+$", await page.input_value("#lat"))

    await page.check("input[name=channel][value=telefone]")
    await page.select_option("#category", "motor_vehicle")
    assert await page.locator("input[name=colour]").is_visible()  # a vehicle's question
    await page.fill("#address", "Rua Getúlio Vargas, 100")
    await page.set_input_files("input[name=photos]", files=[
        {"name": "carro.jpg", "mimeType": "image/jpeg", "buffer": jpeg()}])
    await page.click("button:has-text('Buscar endereço')")
    await page.wait_for_selector("text=Endereço encontrado")
    assert await page.input_value("#lat") == "-19.462120"
    assert "1 foto recebida" in await page.inner_text("#photos-kept")

    await page.fill("input[name=colour]", "prata")
    await page.fill("input[name=make_model]", "VW Gol")
    await page.select_option("select[name=time_there]", "Mais de 30 dias")
    await page.fill("input[name=contact_name]", "Maria")
    await page.fill("input[name=contact_phone]", "37 99999-1234")
    await page.screenshot(path=str(shots / "intake.png"), full_page=True)
    await page.click("button:has-text('Registrar caso')")
    await page.wait_for_url(re.compile(r".*/casos/\d{4}-\d{6}$"))
    flash = await page.inner_text(".flash.ok")
    protocol = re.search(r"protocolo (\d{4}-\d{6})", flash).group(1)
    assert page.url.endswith(protocol)

    await page.click("nav >> text=Casos")
    assert protocol in await page.inner_text("table.list")
    await page.click("nav >> text=Registrar caso")
    row = page.locator("#to-tell tr", has_text=protocol)
    assert "(37) 99999-1234" in await row.inner_text()
    await row.locator("button:has-text('Marcar como avisado')").click()
    await page.wait_for_selector(".flash.ok")
    assert await page.locator("#to-tell tr", has_text=protocol).count() == 0
