"""The pages a person meets off the main paths pass axe-core too (tests/support/axe.py), at a
phone's and a desktop's size in a real headless Chromium: the error pages (a protocol that
does not exist, an unknown address, a stop link that is not valid), the e-mails' one-click
stop page before and after the click, and the public list of cities of an installation
serving two. The panel's municipality editor is in test_axe_panel's PAGES."""
from __future__ import annotations

from sqlalchemy import select

from admin.security import load_secret
from admin.views_email import STOP_PREFIX
from core.services.cases.transitions import apply_transition
from core.services.messaging import email as mail
from core.storage.models_email import EmailMessage
from core.storage.timeline import ActorRef
from tests.support.axe import VIEWPORTS, audit, report
from tests.support.panel import counter_case
from tests.support.smtp import SmtpServer
from tests.support.two_cities import two_cities


async def _audit_both(page, url: str, label: str, status: int | None = None) -> list[str]:
    out = []
    for size_label, size in VIEWPORTS.items():
        await page.set_viewport_size(size)
        resp = await page.goto(url)
        assert resp is not None
        if status is not None:
            assert resp.status == status, f"{label}: HTTP {resp.status}"
        out += await audit(page, f"{label} [{size_label}]")
    return out


async def test_error_pages_pass_axe(chromium, serve, make_core):
    core = await make_core()
    base = await serve(core)
    page = await chromium.page()
    violations = []
    violations += await _audit_both(page, f"{base}/publico/protocolo/2026-999999",
                                    "protocolo inexistente", 404)
    violations += await _audit_both(page, f"{base}/publico/nada-por-aqui",
                                    "endereço desconhecido", 404)
    violations += await _audit_both(page, f"{base}{STOP_PREFIX}7.nao-assinado",
                                    "link de parar inválido", 404)
    assert "Link inválido" in await page.inner_text("main")
    assert not violations, report(violations)


async def test_the_email_stop_page_passes_axe_before_and_after_the_click(
        chromium, serve, make_core, photo):
    with SmtpServer() as smtp:
        core = await make_core(smtp_url=smtp.url, public_url="https://v.example",
                               smtp_from="Prefeitura <avisos@dores.example>")
        protocol = await counter_case(core, photo)
        await apply_transition(core, protocol, "open_diligence",
                               ActorRef("staff", 0, "Clara"))
        async with core.db.read() as s:
            message_id = (await s.scalars(select(EmailMessage.id))).first()
        assert message_id is not None
        secret = load_secret(core.settings.admin_secret_key, core.settings.data_dir)
        base = await serve(core)
        page = await chromium.page()
        url = f"{base}{STOP_PREFIX}{mail.stop_token(secret, message_id)}"
        violations = await _audit_both(page, url, "parar os e-mails (pergunta)", 200)
        await page.click("button:has-text('Parar de receber')")
        await page.wait_for_selector("text=Pronto: e-mails parados")
        for size_label, size in VIEWPORTS.items():
            await page.set_viewport_size(size)
            violations += await audit(page, f"parar os e-mails (feito) [{size_label}]")
        assert not violations, report(violations)


async def test_the_list_of_cities_passes_axe(chromium, serve, make_two_cities):
    t = await two_cities(make_two_cities)
    base = await serve(t.dores)
    page = await chromium.page()
    violations = await _audit_both(page, f"{base}/publico/", "lista de municípios", 200)
    assert "Dracena" in await page.inner_text("main")
    assert not violations, report(violations)
