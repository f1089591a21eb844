"""The web report end to end, in a real headless Chromium at a phone's size (390×844): a
citizen with no app and no account reports an abandoned car (Dores Art. 4º caput) with a
photo from the phone and its position ("Usar minha localização", the browser's geolocation
mocked), answers the bots' questions, leaves an e-mail and gets the receipt with its
protocol; the case is in the panel's list, the inspector on duty gets the task in Telegram,
and once the citizen opens the link of the confirmation e-mail (a real local SMTP server),
the next step of the case (the notice affixed, Art. 4º, II, a) reaches that e-mail."""
from __future__ import annotations

import re

import pytest

from core.services.staff.accounts import create_user
from tests.e2e.inspector.test_admin_counter_flow import _inspect
from tests.support.core_fixtures import jpeg
from tests.support.inspector import ANA, BOT_NAME, NEAR, bind, task_message
from tests.support.panel import PASSWORD, Panel
from tests.support.smtp import SmtpServer, bodies

PHONE = {"width": 390, "height": 844}
PUBLIC = "https://vialivre.dores.example"
MARIA = "maria@example.com"


@pytest.fixture
def smtp():
    with SmtpServer() as server:
        yield server


@pytest.fixture
async def core(make_core, smtp):
    return await make_core(telegram_bot_username=BOT_NAME, smtp_url=smtp.url,
                           public_url=PUBLIC, nominatim_url="http://127.0.0.1:9")


async def test_a_phone_reports_on_the_web_and_the_inspector_gets_the_task(
        chromium, serve, shots, bot, core, smtp, clock, tmp_path):
    await create_user(core, "bruno", PASSWORD, "staff")
    await bind(bot, ANA, "Ana Fiscal", "posturas", NEAR)
    base = await serve(core)
    page = await chromium.page(viewport=PHONE, is_mobile=True, has_touch=True,
                               geolocation={"latitude": NEAR[0], "longitude": NEAR[1]},
                               permissions=["geolocation"])
    await page.goto(f"{base}/publico")
    await page.click("nav >> text=Fazer uma denúncia")
    await page.wait_for_url(f"{base}/publico/denunciar")
    await page.click("button:has-text('Veículo motorizado')")

    picture = tmp_path / "carro.jpg"
    picture.write_bytes(jpeg((90, 20, 20)))
    await page.set_input_files("#photos", str(picture))
    await page.click("button:has-text('Continuar')")

    await page.click("#locate")  # the phone's position, marked on the map
    await page.wait_for_function("document.getElementById('lat').value !== ''")
    assert abs(float(await page.input_value("#lat")) - NEAR[0]) < 1e-5
    await page.screenshot(path=str(shots / "web-report-location-phone.png"), full_page=True)
    await page.click("button:has-text('Continuar')")

    await page.fill("#text", "ABC1D23")
    await page.keyboard.press("Enter")  # the keyboard alone sends an answer
    await page.wait_for_selector("text=Qual é a cor?")
    await page.click("button:has-text('Pular')")  # the colour
    await page.wait_for_selector("text=Qual é a marca")
    await page.click("button:has-text('Pular')")  # the make and model
    await page.click("button:has-text('Mais de 30 dias')")
    await page.check("input[name=sign][value=missing_tyres]")
    await page.click("button:has-text('Continuar')")
    await page.click("button:has-text('Pular')")  # description
    await page.wait_for_selector("text=Confira sua denúncia")
    assert "ABC1D23" in await page.inner_text("dl.facts")
    await page.fill("#email", MARIA)
    await page.screenshot(path=str(shots / "web-report-summary-phone.png"), full_page=True)
    clock.advance(seconds=60)  # the time a person takes
    await page.click("button:has-text('Confirmar')")
    await page.wait_for_selector("text=Denúncia registrada")
    receipt = await page.inner_text("main")
    protocol = re.search(r"Protocolo (\d{4}-\d{6})", receipt).group(1)
    assert "Enviamos um link para m***@example.com" in receipt
    await page.screenshot(path=str(shots / "web-report-receipt-phone.png"), full_page=True)
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing wider than the phone

    assert "Nova tarefa" in (await task_message(bot, ANA, protocol)).text
    async with Panel(core).client("bruno") as client:
        listed = await (await client.get("/casos")).text()
    assert protocol in listed

    ask = (await smtp.wait_for(1))[0]
    link = re.search(r"https://vialivre\.dores\.example(/publico/email/confirmar/\S+)",
                     bodies(ask)[0]).group(1)
    await page.goto(base + link)
    assert "E-mail confirmado" in await page.inner_text("main")
    await _inspect(bot, protocol, "N-7/2026")
    update = (await smtp.wait_for(2))[-1]
    assert update["To"] == MARIA and protocol in update["Subject"]
