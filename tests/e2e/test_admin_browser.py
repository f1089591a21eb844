"""The panel in a real headless Chromium (tests/support/browser.py): log in, filter cases, open one,
assign it, record a publication date, change a tariff, and see a forged CSRF token and a
staff user's admin action refused. With SAVE_SCREENSHOTS=1 it refreshes the README
screenshots in docs/screenshots/; otherwise they go to a temp dir."""
from __future__ import annotations

from sqlalchemy import select

from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.services.inspectors.tasks import refuse_task
from core.storage.models import Case, Tariff, Task
from tests.support.browser import login
from tests.support.panel import new_case, to_notice_affixed


async def test_staff_workflow_in_chromium(chromium, serve, shots, panel, photo):
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

    base = await serve(core)
    page = await chromium.page()
    await login(page, base, "ana")
    assert "1 Recusado pelo fiscal" in await page.inner_text("#fila")
    await page.screenshot(path=str(shots / "dashboard.png"), full_page=True)

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
    await page.screenshot(path=str(shots / "case.png"), full_page=True)

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
    spage = await chromium.page()
    await login(spage, base, "bruno")
    assert await spage.locator("nav >> text=Tarifas").count() == 0
    resp = await spage.goto(f"{base}/tarifas")
    assert resp.status == 403
    assert "só para administradores" in await spage.inner_text("main")

    async with core.db.read() as s:
        state = (await s.execute(select(Case.state).where(
            Case.protocol == affixed.protocol))).scalar_one()
        amounts = set((await s.execute(select(Tariff.amount).where(
            Tariff.code == "daily_storage"))).scalars().all())
    assert state == "published"
    assert {float(a) for a in amounts} == {30.0, 35.0}  # the forged 99,00 never landed
