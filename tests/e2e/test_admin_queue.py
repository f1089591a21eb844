"""The staff's queue (/fila and the dashboard): open cases that need an inspector and have
none who knows of it — nobody competent active, refused by its inspector, task withdrawn,
inspector not told — counted per reason, oldest first, assigned from the list through the
core's assignment service (tasks.assign_case). Refusals go through tasks.refuse_task, as the
bot's Recusar button does."""
from __future__ import annotations


from core.services.staff.queue import staff_queue
from core.services.inspectors.tasks import deactivate_inspector, refuse_task
from core.storage.timeline import ActorRef
from tests.support.browser import login
from tests.support.panel import new_case, post_form
from tests.support.queue_cases import fiscal, task_of

STAFF = ActorRef("staff", 0, "seed")


async def test_each_reason_is_in_the_queue_counted_and_oldest_first(panel, photo, clock):
    core = panel.core
    nobody = await new_case(core, photo, 1, category="large_furniture")  # nobody competent
    clock.advance(hours=1)
    await fiscal(core, 701, "Joana Fiscal", "transito")  # vehicles only (Art. 3º, §2º)
    refused = await new_case(core, photo, 2)
    clock.advance(hours=1)
    await refuse_task(core, 701, (await task_of(core, refused.protocol)).id, "Estou de férias")
    clock.advance(hours=1)
    held = await new_case(core, photo, 3)  # Joana refused the other, not this one
    assert (await task_of(core, held.protocol)).status == "offered"
    clock.advance(hours=1)
    await deactivate_inspector(core, (await task_of(core, held.protocol)).inspector_id, STAFF)

    q = await staff_queue(core)
    assert [(i.protocol, i.reason) for i in q.items] == [
        (nobody.protocol, "none"), (refused.protocol, "refused"), (held.protocol, "withdrawn")]
    assert "Estou de férias" in q.items[1].detail and "Joana" in q.items[1].detail
    assert [(label, n) for _, label, n in q.counts] == [
        ("Sem fiscal ativo competente", 1), ("Recusado pelo fiscal", 1),
        ("Tarefa retirada do fiscal", 1)]
    async with panel.client("bruno") as c:
        home = await (await c.get("/")).text()
        assert "Todos os casos que precisam de fiscal estão atribuídos" not in home
        for shown in ("Aguardando fiscal (3)", "Recusado pelo fiscal", refused.protocol,
                      "Tarefa retirada do fiscal", 'href="/fila"'):
            assert shown in home
        page = await (await c.get("/fila")).text()
        assert page.index(nobody.protocol) < page.index(refused.protocol) \
            < page.index(held.protocol)
        # nobody active: the page says so instead of offering an empty choice
        assert "Nenhum fiscal ativo de órgão competente" in page


async def everyone_refuses(core, photo, i: int, why: str = "Fora da minha área") -> str:
    """Joana and Pedro are on duty; the case goes to one, then the other, and both refuse:
    it waits for staff (binding someone new would move it on by itself)."""
    case = await new_case(core, photo, i, address="Rua Goiás, 120")
    for _ in range(2):
        task = await task_of(core, case.protocol)
        tg = 701 if task.inspector_id == JOANA else 702
        await refuse_task(core, tg, task.id, why)
    return case.protocol


JOANA, PEDRO = 1, 2  # inspector ids, in binding order


async def test_assigning_from_the_queue_uses_the_core_service_and_returns_to_it(panel, photo):
    core = panel.core
    assert await fiscal(core, 701, "Joana Fiscal") == JOANA
    pedro = await fiscal(core, 702, "Pedro Fiscal")
    protocol = await everyone_refuses(core, photo, 1)
    async with panel.client("bruno") as c:
        r = await post_form(c, "/fila", f"/casos/{protocol}/atribuir",
                            {"inspector_id": str(pedro), "back": "fila"})
        assert r.status == 302 and r.headers["Location"] == "/fila"
        page = await (await c.get("/fila")).text()
        assert f"Caso {protocol} atribuído a Pedro Fiscal" in page
        assert f'data-protocol="{protocol}"' not in page
        # a bad inspector id is a 400 in Portuguese, never a 500
        r = await post_form(c, "/fila", f"/casos/{protocol}/atribuir",
                            {"inspector_id": "abc", "back": "fila"})
        assert r.status == 400 and "Fiscal: valor inválido" in await r.text()
    assert (await task_of(core, protocol)).inspector_id == pedro
    assert (await staff_queue(core)).items == []


async def test_refused_case_appears_in_the_queue_and_leaves_it_when_assigned(
        chromium, serve, panel, photo):
    core = panel.core
    assert await fiscal(core, 701, "Joana Fiscal") == JOANA
    pedro = await fiscal(core, 702, "Pedro Fiscal")
    # both refuse through the core service, as the bot's Recusar button does
    protocol = await everyone_refuses(core, photo, 4)
    base = await serve(core)
    page = await chromium.page()
    await login(page, base, "bruno")
    assert "1 Recusado pelo fiscal" in await page.inner_text("#fila")  # by both
    await page.click("#fila >> text=ver a fila e atribuir")
    await page.wait_for_url(f"{base}/fila")
    row = page.locator(f"tr[data-protocol='{protocol}']")
    assert "Fora da minha área" in await row.inner_text()
    await row.locator("select[name=inspector_id]").select_option(str(pedro))
    await row.locator("button:has-text('Atribuir')").click()
    await page.wait_for_selector(".flash.ok")
    assert "Pedro Fiscal" in await page.inner_text(".flash.ok")
    assert await page.locator(f"tr[data-protocol='{protocol}']").count() == 0
    assert "Nenhum caso aguardando fiscal" in await page.inner_text("main")
    assert (await task_of(core, protocol)).inspector_id == pedro
