"""The panel's side of "documents a clerk would sign": "Emitir de novo" per
document on the case page, the matrícula asked in the invite form, and the banner while the
depot address or a tariff is still a placeholder (Dores Art. 9º, II)."""
from __future__ import annotations

from admin.__main__ import main as admin_cli
from core.services.inspectors.accounts import actor_ref, bind_inspector, invite_inspector
from core.services.cases.steps import take_step
from core.storage.models import Inspector
from tests.support.panel import new_case, post_form

ABANDONED = {"abandonment_criteria": ["days_in_place", "missing_tyres", "no_bumpers"]}


async def test_each_issued_document_can_be_issued_again_from_the_case_page_art_4_II_a(panel,
                                                                                       photo):
    core = panel.core
    core.settings.telegram_bot_username = "ViaLivreTesteBot"
    code = await invite_inspector(core, "Ana Fiscal", "transito", "ana", registration="55.1")
    bound = await bind_inspector(core, 777, code)
    async with core.db.read() as s:
        ana = actor_ref(await s.get(Inspector, bound.inspector_id))
    s = await new_case(core, photo)
    taken = await take_step(core, s.protocol, "affix_notice", ana,
                            {**ABANDONED, "notice_photo": "ab" * 32,
                             "notification_number": "N-1"}, agency="transito")
    _sha, _name, first = taken.documents[0]
    url = f"/casos/{s.protocol}"
    async with panel.client("bruno") as c:
        page = await (await c.get(url)).text()
        assert "Emitir de novo: Notificação afixada no objeto" in page
        r = await post_form(c, url, f"{url}/documentos/notificacao_afixada", {})
        assert r.status == 200 and r.headers["Content-Type"] == "application/pdf"
        assert await r.read() == first  # the same document
        r = await post_form(c, url, f"{url}/documentos/termo_recolhimento", {})
        assert r.status == 400 and "ainda não foi emitido" in await r.text()
        r = await post_form(c, url, f"{url}/documentos/passaporte", {})
        assert r.status == 400


async def test_the_banner_lists_what_documents_cannot_print_yet_art_9_II(panel):
    async with panel.client("bruno") as c:
        page = await (await c.get("/")).text()
    assert "Documentos legais incompletos" in page
    assert "Reboque até o pátio" in page and "DEPOT_ADDRESS" in page


async def test_the_invite_form_asks_the_matricula(panel):
    async with panel.client("ana") as c:
        page = await (await c.get("/fiscais")).text()
        assert 'name="matricula"' in page
        r = await post_form(c, "/fiscais", "/fiscais/convidar",
                            {"name": "Rui Fiscal", "agency": "posturas", "matricula": ""})
        assert r.status == 400 and "matrícula" in await r.text()
        r = await post_form(c, "/fiscais", "/fiscais/convidar",
                            {"name": "Rui Fiscal", "agency": "posturas", "matricula": "7/2020"})
        assert r.status == 200


def test_the_cli_requires_the_matricula(capsys):
    try:
        admin_cli(["invite-inspector", "--name", "Rui", "--agency", "posturas"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "--matricula" in capsys.readouterr().err
