"""The panel in a real headless Chromium (Debian's /usr/bin/chromium via Playwright): log in,
filter cases, open one, assign it, record a publication date, change a tariff, and see a
forged CSRF token and a staff user's admin action refused. With SAVE_SCREENSHOTS=1 it
refreshes the README screenshots in docs/screenshots/; otherwise they go to a temp dir."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from sqlalchemy import select

from admin.app import create_app
from core.services.inspectors import bind_inspector, invite_inspector
from core.services.tasks import refuse_task
from core.storage.models import Case, Tariff, Task
from tests.core_fixtures import clock, core, make_core, photo  # noqa: F401
from tests.test_admin_fixtures import PASSWORD, new_case, panel, to_notice_affixed  # noqa: F401

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run"]
SHOTS = (Path(__file__).resolve().parent.parent / "docs" / "screenshots"
         if os.environ.get("SAVE_SCREENSHOTS") else Path(tempfile.mkdtemp(prefix="vl-shots-")))

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="no browser: /usr/bin/chromium not installed "
                                       "(apt-get install chromium)")


async def _offline(route):
    """No test touches the internet: map tiles and Leaflet from unpkg are refused."""
    url = route.request.url
    if url.startswith("http://127.0.0.1") or url.startswith("http://localhost"):
        await route.continue_()
    else:
        await route.abort()


async def _login(page, base, username):
    await page.goto(f"{base}/login")
    await page.fill("input[name=username]", username)
    await page.fill("input[name=password]", PASSWORD)
    await page.click("button:has-text('Entrar')")
    await page.wait_for_url(f"{base}/")


async def test_staff_workflow_in_chromium(panel, photo):
    from playwright.async_api import async_playwright
    core = panel.core
    ids = {}
    for tid, name in ((701, "Joana Fiscal"), (702, "Pedro Fiscal")):
        code = await invite_inspector(core, name, "posturas", "ana")
        ids[name] = (await bind_inspector(core, tid, code, name)).inspector_id
    for i in range(6):
        await new_case(core, photo, i, neighbourhood="Centro" if i % 2 else "Vila Nova")
    target = await new_case(core, photo, 9, plate="ABC1D23", address="Rua Goiás, 120")
    affixed = await new_case(core, photo, 10, plate="XYZ9A87", address="Av. Brasil, 45")
    await to_notice_affixed(core, affixed.protocol)
    # a case both inspectors refused waits in the staff's queue (the dashboard shows it)
    refused = await new_case(core, photo, 11, address="Rua Pará, 8")
    for _ in range(2):
        async with core.db.read() as s:
            task = (await s.execute(select(Task).join(Case).where(
                Case.protocol == refused.protocol).order_by(Task.id.desc()))).scalars().first()
        tg = 701 if task.inspector_id == ids["Joana Fiscal"] else 702
        await refuse_task(core, tg, task.id, "Fora da minha área")

    server = TestServer(create_app(core))
    await server.start_server()
    base = str(server.make_url("")).rstrip("/")
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS,
                                               headless=True)
            ctx = await browser.new_context(viewport={"width": 1360, "height": 900},
                                            locale="pt-BR")
            await ctx.route("**/*", _offline)
            page = await ctx.new_page()
            await _login(page, base, "ana")
            assert "1 Recusado pelo fiscal" in await page.inner_text("#fila")
            SHOTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(SHOTS / "dashboard.png"), full_page=True)

            # filter the list by plate and open the case
            await page.click("nav >> text=Casos")
            await page.fill("input[name=q]", "ABC1D23")
            await page.click("button:has-text('Filtrar')")
            rows = page.locator("table.list tbody tr")
            assert await rows.count() == 1
            await page.click(f"text={target.protocol}")
            await page.wait_for_url(f"{base}/casos/{target.protocol}")

            # assign (or reassign) to an inspector
            await page.select_option("select[name=inspector_id]", str(ids["Pedro Fiscal"]))
            await page.click("form[action$='/atribuir'] button")
            await page.wait_for_selector(".flash.ok")
            assert "Pedro Fiscal" in await page.inner_text(".case-head")

            # record the Diário Oficial publication on the affixed case (Art. 4º, II, b)
            await page.goto(f"{base}/casos/{affixed.protocol}")
            form = page.locator("form[action$='/acao/record_publication']")
            await form.locator("input[name=publication_date]").fill("30/11/2026")
            await form.locator("input[name=publication_reference]").fill("DOM nº 88, p. 3")
            await form.locator("button").click()
            await page.wait_for_selector(".flash.ok")
            assert "Notificação publicada no Diário Oficial" in await page.inner_text("h1")
            await page.screenshot(path=str(SHOTS / "case.png"), full_page=True)

            # change a tariff (a new dated row)
            await page.goto(f"{base}/tarifas")
            await page.select_option("select[name=code]", "daily_storage")
            await page.fill("input[name=amount]", "35,00")
            await page.fill("input[name=valid_from]", "01/02/2027")
            await page.fill("input[name=source]", "Decreto nº 5/2027")
            await page.click("button:has-text('Cadastrar novo valor')")
            await page.wait_for_selector(".flash.ok")
            assert "35,00" in await page.inner_text("main")

            # a forged CSRF token is refused
            await page.goto(f"{base}/tarifas")
            await page.eval_on_selector("form[action='/tarifas'] input[name=csrf]",
                                        "el => el.value = 'forjado'")
            await page.fill("input[name=amount]", "99,00")
            await page.fill("input[name=valid_from]", "01/03/2027")
            await page.fill("input[name=source]", "Decreto falso")
            await page.click("button:has-text('Cadastrar novo valor')")
            assert "CSRF" in await page.inner_text("main")

            # a staff user cannot do an admin's action
            staff = await browser.new_context()
            await staff.route("**/*", _offline)
            spage = await staff.new_page()
            await _login(spage, base, "bruno")
            assert await spage.locator("nav >> text=Tarifas").count() == 0
            resp = await spage.goto(f"{base}/tarifas")
            assert resp.status == 403
            assert "só para administradores" in await spage.inner_text("main")
            await browser.close()
    finally:
        await server.close()

    async with core.db.read() as s:
        state = (await s.execute(select(Case.state).where(
            Case.protocol == affixed.protocol))).scalar_one()
        amounts = set((await s.execute(select(Tariff.amount).where(
            Tariff.code == "daily_storage"))).scalars().all())
    assert state == "published"
    assert {float(a) for a in amounts} == {30.0, 35.0}  # the forged 99,00 never landed
