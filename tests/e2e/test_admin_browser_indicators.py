"""The indicators page in a real headless Chromium (tests/support/browser.py): the charts are drawn
on the server, so they read the same with JavaScript off; a bad date shows the form again
with the reason; each chart downloads as CSV."""
from __future__ import annotations

import os

from tests.support.browser import login
from tests.support.panel_cases import indicator_city


async def test_indicators_in_chromium_without_javascript(chromium, serve, shots, panel, photo,
                                                         clock):
    await indicator_city(panel.core, photo, clock)
    base = await serve(panel.core)
    page = await chromium.page(java_script_enabled=False, accept_downloads=True)
    await login(page, base, "bruno")
    await page.click("nav >> text=Indicadores")
    await page.wait_for_url(f"{base}/indicadores")
    charts = page.locator("section.chart svg")
    assert await charts.count() >= 6
    assert await charts.first.is_visible()
    cases = await page.inner_text("#casos-por-mes")
    assert "12/2026" in cases and "Baixar CSV" in cases
    assert "No pátio municipal" in await page.inner_text("#abertos-por-situacao")
    await page.screenshot(path=str(shots / "indicators.png"), full_page=True)

    # one chart as CSV, with the page's filters
    async with page.expect_download() as info:
        await page.click("#desfechos >> text=Baixar CSV")
    download = await info.value
    assert download.suggested_filename == "indicadores-desfechos.csv"
    text = (await download.path()).read_text(encoding="utf-8-sig")
    assert text.startswith("desfecho;casos") and "Outros encerramentos;1" in text

    # a neighbourhood: only its case
    await page.fill("input[name=neighbourhood]", "Vila Nova")
    await page.click("button:has-text('Filtrar')")
    assert "Vila Nova" in await page.inner_text("main")
    assert "Nenhum dado no período" in await page.inner_text("#abertos-por-situacao")

    # a date the parser refuses: the same form, the reason beside it, what was typed kept
    await page.fill("input[name=date_from]", "31/02/2026")
    await page.click("button:has-text('Filtrar')")
    assert "Data inicial" in await page.inner_text("form.filters [role=alert]")
    assert await page.input_value("input[name=date_from]") == "31/02/2026"
    await page.screenshot(path=str(shots / "indicators_error.png"), full_page=True)
    if os.environ.get("KEEP_SHOTS"):
        import shutil
        for name in ("indicators.png", "indicators_error.png"):
            shutil.copy(shots / name, os.environ["KEEP_SHOTS"])
