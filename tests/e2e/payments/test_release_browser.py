"""The release form on the case page in a real headless Chromium (Dores Art. 3º, §3º): the
clerk ticks the conditions, types who collects; a mistyped CPF comes back beside its field
with every tick and every value kept; corrected, the case is released and the Termo de
liberação is listed in Documentos."""
from __future__ import annotations

from core.services.staff.payment_records import record_payment
from core.storage.timeline import ActorRef
from tests.support.browser import login
from tests.support.owner_chat import depot_case
from tests.support.payments import official_tariffs

E2E = "E00038166202612281200abcDEF12345"
CONDITIONS = ("within_deadline", "owner_identified", "towing_and_storage_paid",
              "fines_insurance_fees_paid")


async def test_the_clerk_fills_the_release_form_and_gets_the_termo(
        chromium, serve, shots, panel, photo, clock):
    sub, _ = await depot_case(panel.core, photo, clock)
    await official_tariffs(panel.core)
    await record_payment(panel.core, sub.protocol, "440,00", "28/12/2026", E2E,
                         ActorRef("staff", "1", "bruno"))
    base = await serve(panel.core)
    page = await chromium.page()
    await login(page, base, "bruno")
    await page.goto(f"{base}/casos/{sub.protocol}")
    form = f"form[action='/casos/{sub.protocol}/liberar']"
    for code in CONDITIONS:
        await page.check(f"{form} input[name=cond_{code}]")
    await page.fill(f"{form} input[name=name]", "José da Silva")
    await page.fill(f"{form} input[name=document]", "529.982.247-24")
    await page.select_option(f"{form} select[name=id_kind]", "CNH")
    await page.fill(f"{form} input[name=id_number]", "01234567890")
    await page.click(f"{form} button")
    await page.wait_for_selector(f"{form} .field-error")
    assert "CPF inválido" in await page.inner_text(f"{form} .field-error[data-field='document']")
    assert await page.input_value(f"{form} input[name=name]") == "José da Silva"
    assert await page.input_value(f"{form} select[name=id_kind]") == "CNH"
    for code in CONDITIONS:
        assert await page.is_checked(f"{form} input[name=cond_{code}]")
    await page.screenshot(path=str(shots / "release_refused.png"), full_page=True)
    await page.fill(f"{form} input[name=document]", "529.982.247-25")
    await page.click(f"{form} button")
    await page.wait_for_selector(".flash.ok")
    text = " ".join((await page.inner_text("main")).replace("\xa0", " ").split())
    assert "Liberado:" in text and "Devolvido ao proprietário" in text
    assert "Termo de liberação" in text
    assert await page.query_selector(form) is None
    await page.screenshot(path=str(shots / "release_done.png"), full_page=True)
