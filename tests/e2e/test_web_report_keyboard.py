"""The web report with the keyboard alone and without JavaScript, in a real headless
Chromium: Tab to each control, Enter or Space to act, the photo chosen through the file
picker the keyboard opens, the place typed as an address (geocoded by the local Nominatim
stand-in) and confirmed — up to the receipt with its protocol (Dores Art. 4º caput)."""
from __future__ import annotations

import asyncio
import re

from sandbox.standin.nominatim import NominatimStandIn
from tests.support.core_fixtures import jpeg


async def _tab_to(page, words: str, limit: int = 60) -> None:
    """Tab until the focused control reads `words` (as a keyboard user moves)."""
    for _ in range(limit):
        await page.keyboard.press("Tab")
        focused = await page.evaluate(
            "(() => { const e = document.activeElement; return e ? "
            "(e.innerText || e.value || e.getAttribute('aria-label') || e.id || '') : '' })()")
        if words in focused:
            return
    raise AssertionError(f"no control reads {words!r} within {limit} Tabs")


async def test_the_report_is_completed_with_the_keyboard_alone(chromium, serve, make_core,
                                                               clock, tmp_path):
    async with NominatimStandIn() as osm:
        core = await make_core(nominatim_url=osm.base_url)
        base = await serve(core)
        page = await chromium.page(java_script_enabled=False)
        # Subscribe to the file picker before any step: Playwright turns interception on
        # in the background, so a listener added just before the key press can miss it.
        choosers: asyncio.Queue = asyncio.Queue()
        page.on("filechooser", choosers.put_nowait)
        await page.goto(f"{base}/publico/denunciar")
        await _tab_to(page, "Veículo motorizado")
        await page.keyboard.press("Enter")
        await page.wait_for_selector("text=Envie de 1 a 10 fotos")

        picture = tmp_path / "carro.jpg"
        picture.write_bytes(jpeg((50, 60, 70)))
        await _tab_to(page, "photos")  # the file input (its id)
        await page.keyboard.press("Space")
        chooser = await asyncio.wait_for(choosers.get(), timeout=30)
        await chooser.set_files(str(picture))
        await _tab_to(page, "Continuar")
        await page.keyboard.press("Enter")

        await page.wait_for_selector("text=Ou digite o endereço")
        assert not await page.is_visible("#locate")  # no script: the address is asked for
        await _tab_to(page, "text")
        await page.keyboard.type("Rua Getúlio Vargas, 100")
        await page.keyboard.press("Enter")
        await page.wait_for_selector("text=É esse o local?")
        await _tab_to(page, "Sim, é aqui")
        await page.keyboard.press("Enter")

        await page.wait_for_selector("text=Qual é a placa?")
        await _tab_to(page, "text")
        await page.keyboard.type("ABC1D23")
        await page.keyboard.press("Enter")
        for question in ("Qual é a cor?", "Qual é a marca"):
            await page.wait_for_selector(f"text={question}")
            await _tab_to(page, "Pular")
            await page.keyboard.press("Enter")
        await page.wait_for_selector("text=Há quanto tempo")
        await _tab_to(page, "Mais de 30 dias")
        await page.keyboard.press("Enter")
        await page.wait_for_selector("text=Marque os sinais")
        await _tab_to(page, "missing_tyres")  # the checkbox (its value)
        await page.keyboard.press("Space")
        await _tab_to(page, "Continuar")
        await page.keyboard.press("Enter")
        await page.wait_for_selector("text=Quer acrescentar")
        await _tab_to(page, "text")
        await page.keyboard.type("Em frente à padaria")  # a text area: Enter is a new line
        await _tab_to(page, "Continuar")
        await page.keyboard.press("Enter")

        await page.wait_for_selector("text=Confira sua denúncia")
        facts = await page.inner_text("dl.facts")
        assert "Rua Getúlio Vargas, 100" in facts and "Faltando um ou mais pneus" in facts
        clock.advance(seconds=60)
        await _tab_to(page, "Confirmar")
        await page.keyboard.press("Enter")
        await page.wait_for_selector("text=Denúncia registrada")
        assert re.search(r"Protocolo \d{4}-\d{6}", await page.inner_text("main"))
