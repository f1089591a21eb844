"""Payment confirmed by staff: the depot clerk records the PIX end-to-end id from the receipt,
the amount and the date on the case page; the payment goes on the timeline and beside the
statement (what the release needs, Dores Art. 3º, §3º, II: "Pagar o reboque até o pátio e as
diárias"); the owner is told in the bot. A payment of another amount than the statement's is
recorded with the difference in words, never silently taken as the total."""
from __future__ import annotations

import re
from decimal import Decimal

from brcode.utils.brcodeId import jsonFromBrcode
from sqlalchemy import select

from core.services.staff.accounts import create_user
from core.storage.models import Event
from tests.support.panel import PASSWORD, Panel, csrf_of
from tests.support.owner_chat import JOSE, depot_case, open_by_qr
from tests.support.payments import official_tariffs

E2E = "E00038166202612281200abcDEF12345"


async def _post(client, protocol: str, **data):
    page = await client.get(f"/casos/{protocol}")
    assert page.status == 200
    return await client.post(f"/casos/{protocol}/pagamento",
                             data={**data, "csrf": csrf_of(await page.text())},
                             headers={"Referer": str(client.make_url(f"/casos/{protocol}"))},
                             allow_redirects=False)


async def _payments(core):
    async with core.db.read() as s:
        return (await s.execute(select(Event).where(Event.action == "payment_recorded"))
                ).scalars().all()


async def test_a_short_payment_is_recorded_with_the_difference_and_the_owner_told(
        bot, core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)
    await official_tariffs(core)
    await create_user(core, "bruno", PASSWORD, "staff")
    await open_by_qr(bot, JOSE, sub.case_code)
    code = await bot.api.wait_for(method="sendMessage", chat_id=JOSE, text="br.gov.bcb.pix")
    due = Decimal(jsonFromBrcode(code.params["text"])["54"])
    assert due == Decimal("440.00")
    async with Panel(core).client("bruno") as staff:
        page = await (await staff.get(f"/casos/{sub.protocol}")).text()
        assert "Nenhum pagamento registrado" in page and 'action="/casos/' in page
        # bad input: Portuguese beside the field, what was typed kept, nothing recorded
        bad = await _post(staff, sub.protocol, reference=E2E, amount="quatrocentos",
                          paid_on="28/12/2026")
        text = await bad.text()
        assert bad.status == 400 and "Valor pago" in text and 'value="quatrocentos"' in text
        wrong_ref = await _post(staff, sub.protocol, reference="12345", amount="440,00",
                                paid_on="28/12/2026")
        assert wrong_ref.status == 400 and "Identificador do PIX" in await wrong_ref.text()
        future = await _post(staff, sub.protocol, reference=E2E, amount="440,00",
                             paid_on="29/12/2026")
        assert future.status == 400 and "futuro" in await future.text()
        assert await _payments(core) == []
        # R$ 400,00 against R$ 440,00: recorded, with the difference in words
        ok = await _post(staff, sub.protocol, reference=" e" + E2E[1:], amount="400,00",
                         paid_on="28/12/2026")
        assert ok.status in (302, 303), await ok.text()
        page = await (await staff.get(f"/casos/{sub.protocol}")).text()
        flat = re.sub(r"\s+", " ", page.replace("&nbsp;", " ").replace("\xa0", " "))
        assert f"Pago R$ 400,00 em 28/12/2026 por PIX ({E2E})" in flat
        assert "Valor pago: R$ 400,00" in flat  # the timeline, in words
        # the release form shows it against the total (Art. 3º, §3º, II)
        assert "pagamentos registrados: <b>R$ 400,00</b> · falta pagar <b>R$ 40,00</b>" in flat
        assert "R$ 40,00 a menos que o total devido (R$ 440,00): falta pagar R$ 40,00" in flat
        again = await _post(staff, sub.protocol, reference=E2E, amount="40,00",
                            paid_on="28/12/2026")
        assert again.status == 400 and "já foi registrado" in await again.text()
    [ev] = await _payments(core)
    assert ev.public is False and ev.actor_name == "bruno"
    assert ev.data["paid_amount"] == "400.00" and ev.data["amount_due"] == "440.00"
    assert "falta pagar" in ev.data["payment_difference"]
    told = await bot.api.wait_for(method="sendMessage", chat_id=JOSE,
                                  text="Pagamento registrado no seu caso")
    assert "R$\xa0400,00 por PIX" in told.text and "falta pagar R$\xa040,00" in told.text
    # the owner's view shows it; no second PIX of the whole total is offered
    await bot.api.press_button(JOSE, told_message(bot), text="Ver meu caso")
    view = await bot.api.wait_for(method="sendMessage", chat_id=JOSE, text="Pagamento registrado:")
    assert "falta pagar R$\xa040,00" in view.text and "Pagar por PIX" not in view.text


def told_message(bot):
    return next(m for m in reversed(bot.api.messages(JOSE))
                if "Pagamento registrado no seu caso" in (m.text or ""))


async def test_anonymous_cannot_record_a_payment(core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)
    async with Panel(core).client() as anon:
        page = await anon.get("/login")
        r = await anon.post(f"/casos/{sub.protocol}/pagamento", data={
            "reference": E2E, "amount": "440,00", "paid_on": "28/12/2026",
            "csrf": csrf_of(await page.text())}, allow_redirects=False)
        assert r.status == 302 and r.headers["Location"].startswith("/login")
    assert await _payments(core) == []
