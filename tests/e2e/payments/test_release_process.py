"""From the street to the street again (Dores Art. 3º, §3º; Art. 9º): a reported vehicle goes to
the depot; the owner, from the notice's QR code, sees the PIX of today's total in the bot and on
the web owner page (decoded by an independent decoder: the amount is the statement's total, the
txid the case); the clerk records the payment in the panel and releases the vehicle with the
Termo de liberação; the owner and the reporter are told in Telegram."""
from __future__ import annotations

import io
import re
from decimal import Decimal

from brcode.utils.brcodeId import jsonFromBrcode
from pypdf import PdfReader

from sandbox.standin.botapi.values import User
from core.identifiers import format_case_code
from core.services.staff.accounts import create_user
from tests.support.owner_chat import depot_case
from tests.support.owner_chat import JOSE, open_by_qr
from tests.support.payments import official_tariffs, owner_page
from tests.e2e.payments.test_release_panel import filled, flat, post_release
from tests.support.panel import PASSWORD, Panel, csrf_of
from tests.support.owner_cases import REPORTER

E2E = "E00038166202612281200abcDEF12345"


async def test_report_depot_pix_payment_release_and_everyone_told(bot, core, photo, clock):
    bot.api.add_user(User(REPORTER, "Maria"))  # the citizen who reported, in Telegram
    sub, _ = await depot_case(core, photo, clock)
    await official_tariffs(core)
    await create_user(core, "bruno", PASSWORD, "staff")
    txid = re.sub(r"[^A-Z0-9]", "", sub.case_code.upper())
    # the owner: the PIX in the bot and on the web page, both today's total for this case
    await open_by_qr(bot, JOSE, sub.case_code)
    code = await bot.api.wait_for(method="sendMessage", chat_id=JOSE, text="br.gov.bcb.pix")
    fields = jsonFromBrcode(code.params["text"])
    assert Decimal(fields["54"]) == Decimal("440.00") and fields["62"]["05"] == txid
    html = await owner_page(core, sub)
    web = re.search(r'<pre class="pix-code" id="pix-code">([^<]+)</pre>', html).group(1)
    assert jsonFromBrcode(web)["54"] == fields["54"] and jsonFromBrcode(web)["62"]["05"] == txid
    async with Panel(core).client("bruno") as staff:
        page = await staff.get(f"/casos/{sub.protocol}")
        paid = await staff.post(f"/casos/{sub.protocol}/pagamento", data={
            "reference": E2E, "amount": "440,00", "paid_on": "28/12/2026",
            "csrf": csrf_of(await page.text())},
            headers={"Referer": str(staff.make_url(f"/casos/{sub.protocol}"))},
            allow_redirects=False)
        assert paid.status in (302, 303), await paid.text()
        done = await post_release(staff, sub.protocol, **filled())
        assert done.status in (302, 303), await done.text()
        page = await (await staff.get(f"/casos/{sub.protocol}")).text()
        link = re.search(r'<a href="(/evidencias/[0-9a-f]{64})">Termo de liberação</a>', page)
        assert link, flat(page)
        blob = await (await staff.get(link.group(1))).read()
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages)
                    .split()).replace("\xa0", " ")
    assert "1ª VIA: PÁTIO" in text and "2ª VIA: QUEM RETIROU" in text
    assert f"PIX {E2E}" in text and "Total pago R$ 440,00" in text
    # Telegram: the owner and the reporter hear the vehicle was handed back
    owner = await bot.api.wait_for(method="sendMessage", chat_id=JOSE,
                                   text="Devolvido ao proprietário")
    assert format_case_code(sub.case_code) in owner.text
    reporter = await bot.api.wait_for(method="sendMessage", chat_id=REPORTER,
                                      text="Devolvido ao proprietário")
    assert sub.protocol in reporter.text and "José" not in reporter.text

