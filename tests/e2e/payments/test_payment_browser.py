"""The payment form on the case page in a real headless Chromium: the clerk types the PIX
end-to-end id, an amount other than the statement's and the date; a mistyped amount comes
back beside its field with everything else kept; the recorded payment shows the difference in
words beside the statement (what the release needs, Dores Art. 3º, §3º, II)."""
from __future__ import annotations

from tests.support.browser import login
from tests.support.owner_chat import depot_case
from tests.support.payments import official_tariffs

E2E = "E00038166202612281200abcDEF12345"


async def test_the_clerk_records_a_larger_payment_and_sees_the_difference(
        chromium, serve, shots, panel, photo, clock):
    sub, _ = await depot_case(panel.core, photo, clock)
    await official_tariffs(panel.core)
    base = await serve(panel.core)
    page = await chromium.page()
    await login(page, base, "bruno")
    await page.goto(f"{base}/casos/{sub.protocol}")
    form = f"form[action='/casos/{sub.protocol}/pagamento']"
    await page.fill(f"{form} input[name=reference]", E2E)
    await page.fill(f"{form} input[name=amount]", "450.00")
    await page.fill(f"{form} input[name=paid_on]", "28/12/2026")
    await page.click(f"{form} button")
    await page.wait_for_selector(f"{form} .field-error")
    assert "Valor pago" in await page.inner_text(f"{form} .field-error[data-field='amount']")
    assert await page.input_value(f"{form} input[name=reference]") == E2E
    await page.fill(f"{form} input[name=amount]", "450,00")
    await page.click(f"{form} button")
    await page.wait_for_selector(".flash.ok")
    text = " ".join((await page.inner_text("main")).replace("\xa0", " ").split())
    assert "R$ 10,00 a mais que o total devido (R$ 440,00)" in text
    assert f"Pago R$ 450,00 em 28/12/2026 por PIX ({E2E})" in text
    await page.screenshot(path=str(shots / "payment_recorded.png"), full_page=True)
