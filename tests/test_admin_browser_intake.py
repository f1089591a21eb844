"""Counter intake in a real headless Chromium: a clerk clicks the map, then types the
citizen's address (geocoded by the local Nominatim stand-in) and confirms it, uploads a photo,
answers the category's questions, leaves the citizen's phone, and gets the protocol; the case
is in the list and the citizen in the list of people to tell."""
from __future__ import annotations

import os
import re

import pytest
from aiohttp.test_utils import TestServer

from admin.app import create_app
from bot.standin.nominatim import NominatimStandIn
from core.services.staff import create_user
from tests.core_fixtures import clock, jpeg, make_core  # noqa: F401
from tests.test_admin_browser import ARGS, CHROMIUM, SHOTS, _login, _offline
from tests.test_admin_fixtures import PASSWORD

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="no browser: /usr/bin/chromium not installed "
                                       "(apt-get install chromium)")


@pytest.fixture
async def osm():
    async with NominatimStandIn() as server:
        yield server


async def test_clerk_registers_a_phoned_report_in_chromium(make_core, osm):
    from playwright.async_api import async_playwright
    core = await make_core(nominatim_url=osm.base_url)
    await create_user(core, "bruno", PASSWORD, "staff")
    server = TestServer(create_app(core))
    await server.start_server()
    base = str(server.make_url("")).rstrip("/")
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS,
                                               headless=True)
            ctx = await browser.new_context(viewport={"width": 1280, "height": 1000},
                                            locale="pt-BR")
            await ctx.route("**/*", _offline)
            page = await ctx.new_page()
            await _login(page, base, "bruno")
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
            SHOTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(SHOTS / "intake.png"), full_page=True)
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
            await browser.close()
    finally:
        await server.close()
