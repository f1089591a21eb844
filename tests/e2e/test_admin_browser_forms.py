"""Panel forms keep what was typed, in a real headless Chromium: a refused form comes back on
its own page with every value as typed and the error beside the field it concerns — the
tariff typed "35.00" (Dores Art. 9º, II: the Secretaria sets the fees), a holiday on a day
that does not exist, an inspector's matrícula, a user name already taken, a step's date on
the case page, and a caller's phone at the counter — and a corrected form goes through."""
from __future__ import annotations

from tests.support.browser import login
from tests.support.panel import new_case, to_notice_affixed


async def _error_beside(page, form: str, field: str) -> str:
    """The error shown right after the field's label in `form` (inline, not only on top)."""
    error = page.locator(f"{form} .field-error[data-field='{field}']")
    assert await error.count() == 1, f"no error beside {field}"
    follows = await page.evaluate(
        """([form, field]) => {
             const el = document.querySelector(`${form} [name='${field}']`);
             const err = document.querySelector(`${form} .field-error[data-field='${field}']`);
             return !!(el.compareDocumentPosition(err) & Node.DOCUMENT_POSITION_FOLLOWING);
           }""", [form, field])
    assert follows, f"the error is not after the {field} field"
    return await error.inner_text()


async def test_refused_admin_forms_keep_the_input_and_show_the_error_beside_it(
        chromium, serve, shots, panel):
    base = await serve(panel.core)
    page = await chromium.page()
    await login(page, base, "ana")

    # the tariff typed with a dot for centavos
    await page.goto(f"{base}/tarifas")
    form = "form[action='/tarifas']"
    await page.select_option(f"{form} select[name=code]", "daily_storage")
    await page.fill(f"{form} input[name=amount]", "35.00")
    await page.fill(f"{form} input[name=valid_from]", "01/02/2027")
    await page.fill(f"{form} input[name=source]", "Decreto nº 5/2027")
    await page.click("button:has-text('Cadastrar novo valor')")
    await page.wait_for_selector(f"{form} .field-error")
    assert "use vírgula: 35,00" in await _error_beside(page, form, "amount")
    assert await page.input_value(f"{form} input[name=amount]") == "35.00"
    assert await page.input_value(f"{form} input[name=valid_from]") == "01/02/2027"
    assert await page.input_value(f"{form} input[name=source]") == "Decreto nº 5/2027"
    assert await page.input_value(f"{form} select[name=code]") == "daily_storage"
    await page.screenshot(path=str(shots / "form_kept.png"), full_page=True)
    await page.fill(f"{form} input[name=amount]", "35,00")
    await page.click("button:has-text('Cadastrar novo valor')")
    await page.wait_for_selector(".flash.ok")
    assert "35,00" in await page.inner_text("main")

    # a holiday on 31/02: the other form on the page, its own values kept
    form = "form[action='/feriados']"
    await page.fill(f"{form} input[name=date]", "31/02/2027")
    await page.fill(f"{form} input[name=name]", "Aniversário da cidade")
    await page.fill(f"{form} input[name=source]", "Lei nº 1/1950")
    await page.click(f"{form} button")
    await page.wait_for_selector(f"{form} .field-error")
    assert (await _error_beside(page, form, "date")).startswith("Data:")
    assert await page.input_value(f"{form} input[name=name]") == "Aniversário da cidade"
    assert await page.input_value("form[action='/tarifas'] input[name=amount]") == ""

    # an inspector's invitation with a matrícula that cannot be printed
    await page.goto(f"{base}/fiscais")
    form = "form[action='/fiscais/convidar']"
    await page.fill(f"{form} input[name=name]", "Joana Fiscal")
    await page.fill(f"{form} input[name=matricula]", "12#34")
    await page.select_option(f"{form} select[name=agency]", "transito")
    await page.click(f"{form} button")
    await page.wait_for_selector(f"{form} .field-error")
    assert "Matrícula inválida" in await _error_beside(page, form, "matricula")
    assert await page.input_value(f"{form} input[name=name]") == "Joana Fiscal"
    assert await page.input_value(f"{form} select[name=agency]") == "transito"

    # a user name already taken
    await page.goto(f"{base}/usuarios")
    form = "form[action='/usuarios']"
    await page.fill(f"{form} input[name=username]", "bruno")
    await page.fill(f"{form} input[name=password]", "uma-senha-longa-o-bastante")
    await page.select_option(f"{form} select[name=role]", "admin")
    await page.click(f"{form} button")
    await page.wait_for_selector(f"{form} .field-error")
    assert "Já existe um usuário “bruno”" in await _error_beside(page, form, "username")
    assert await page.input_value(f"{form} input[name=username]") == "bruno"
    assert await page.input_value(f"{form} select[name=role]") == "admin"
    assert await page.input_value(f"{form} input[name=password]") == ""  # never sent back


async def test_a_refused_step_keeps_its_facts_on_the_case_page_art_4_II_b(
        chromium, serve, panel, photo):
    core = panel.core
    affixed = await new_case(core, photo, 10, plate="XYZ9A87", address="Av. Brasil, 45")
    await to_notice_affixed(core, affixed.protocol)
    base = await serve(core)
    page = await chromium.page()
    await login(page, base, "bruno")
    await page.goto(f"{base}/casos/{affixed.protocol}")
    form = "form[action$='/acao/record_publication']"
    await page.fill(f"{form} input[name=publication_date]", "31/11/2026")
    await page.fill(f"{form} input[name=publication_reference]", "DOM nº 88, p. 3")
    await page.click(f"{form} button")
    await page.wait_for_selector(f"{form} .field-error")
    assert affixed.protocol in await page.inner_text("h1")  # the case page again
    await _error_beside(page, form, "publication_date")
    assert await page.input_value(f"{form} input[name=publication_date]") == "31/11/2026"
    assert await page.input_value(f"{form} input[name=publication_reference]") == \
        "DOM nº 88, p. 3"
    await page.fill(f"{form} input[name=publication_date]", "30/11/2026")
    await page.click(f"{form} button")
    await page.wait_for_selector(".flash.ok")
    assert "Notificação publicada no Diário Oficial" in await page.inner_text("h1")
