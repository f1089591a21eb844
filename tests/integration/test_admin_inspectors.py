"""The panel's inspectors page shows each inspector's matrícula (documents
carry the inspector's registration number, never a database id) and lets an admin set it for an
inspector invited without one, or correct it; a bad one is refused with a 400 and its reason."""
from __future__ import annotations

import html

from sqlalchemy import select

from core.services.inspectors.accounts import bind_inspector, invite_inspector
from core.storage.models import Inspector
from tests.support.panel import post_form


async def _inspector(core, telegram_id: int, name: str, registration: str | None) -> int:
    code = await invite_inspector(core, name, "posturas", "ana", registration=registration)
    return (await bind_inspector(core, telegram_id, code, name)).inspector_id


async def _registration(core, inspector_id: int) -> str | None:
    async with core.db.read() as s:
        return (await s.execute(select(Inspector.registration).where(
            Inspector.id == inspector_id))).scalar_one()


async def test_the_list_shows_the_matricula_and_staff_set_a_missing_one(panel):
    core = panel.core
    joana = await _inspector(core, 555, "Joana Fiscal", "12.345-6")
    pedro = await _inspector(core, 556, "Pedro Fiscal", None)  # invited before it was asked
    async with panel.client("ana") as c:
        page = html.unescape(await (await c.get("/fiscais")).text())
        assert "Matrícula" in page and 'value="12.345-6"' in page
        assert "sem matrícula" in page  # Pedro's is missing, and the page says so
        r = await post_form(c, "/fiscais", f"/fiscais/{pedro}/matricula",
                            {"matricula": "  98.765-4 "})
        assert r.status == 302
        page = html.unescape(await (await c.get("/fiscais")).text())
        assert 'value="98.765-4"' in page and "sem matrícula" not in page
        r = await post_form(c, "/fiscais", f"/fiscais/{joana}/matricula",
                            {"matricula": "12.345-7"})  # a typo corrected
        assert r.status == 302
    assert await _registration(core, pedro) == "98.765-4"
    assert await _registration(core, joana) == "12.345-7"


async def test_a_bad_or_empty_matricula_is_a_400_and_nothing_changes(panel):
    core = panel.core
    joana = await _inspector(core, 555, "Joana Fiscal", "12.345-6")
    async with panel.client("ana") as c:
        for bad in ("", "   ", "12<345>", "x" * 41, "12;drop"):
            r = await post_form(c, "/fiscais", f"/fiscais/{joana}/matricula", {"matricula": bad})
            assert r.status == 400, bad
            assert "matrícula" in html.unescape(await r.text()).lower()
        r = await post_form(c, "/fiscais", "/fiscais/9999/matricula", {"matricula": "1"})
        assert r.status == 404 and "Fiscal não encontrado" in await r.text()
    assert await _registration(core, joana) == "12.345-6"


async def test_only_an_admin_sets_a_matricula(panel):
    core = panel.core
    joana = await _inspector(core, 555, "Joana Fiscal", "12.345-6")
    async with panel.client("bruno") as c:  # staff, not admin: the page itself is refused
        r = await c.post(f"/fiscais/{joana}/matricula", data={"matricula": "1", "csrf": "x"},
                         allow_redirects=False)
        assert r.status in (302, 403)
    assert await _registration(core, joana) == "12.345-6"
