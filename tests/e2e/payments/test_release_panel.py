"""The release at the depot over HTTP (Dores Art. 3º, §3º, I–III; Art. 9º, I): the case page
of a paid case in the depot shows the "Liberar" form with each condition and its article;
a refusal comes back with its reason beside the field and everything typed kept (400); the
release closes the case, and the Termo de liberação is in Documentos. The generic step form
cannot go around the checklist."""
from __future__ import annotations

import re

from sqlalchemy import select

from core.services.staff.accounts import create_user
from core.services.staff.payment_records import record_payment
from core.storage.models import Event
from core.storage.timeline import ActorRef
from tests.support.owner_chat import depot_case
from tests.support.payments import official_tariffs
from tests.support.panel import PASSWORD, Panel, csrf_of

E2E = "E00038166202612281200abcDEF12345"
CONDITIONS = ("within_deadline", "owner_identified", "towing_and_storage_paid",
              "fines_insurance_fees_paid")


def flat(html: str) -> str:
    return re.sub(r"\s+", " ", html.replace("&nbsp;", " ").replace("\xa0", " "))


async def post_release(client, protocol: str, **data):
    page = await client.get(f"/casos/{protocol}")
    return await client.post(f"/casos/{protocol}/liberar",
                             data={**data, "csrf": csrf_of(await page.text())},
                             headers={"Referer": str(client.make_url(f"/casos/{protocol}"))},
                             allow_redirects=False)


def filled(**over) -> dict:
    base = {f"cond_{c}": "1" for c in CONDITIONS}
    base.update(name="José da Silva", document="529.982.247-25", id_kind="CNH",
                id_number="01234567890")
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


async def test_the_clerk_releases_a_paid_case_and_the_termo_is_kept(core, photo, clock):
    sub, _ = await depot_case(core, photo, clock)
    await official_tariffs(core)
    await create_user(core, "bruno", PASSWORD, "staff")
    async with Panel(core).client("bruno") as staff:
        page = flat(await (await staff.get(f"/casos/{sub.protocol}")).text())
        assert f'action="/casos/{sub.protocol}/liberar"' in page
        for code in CONDITIONS:
            assert f'name="cond_{code}"' in page
        assert "Art. 3º, §3º, III" in page and "Venda comunicada ao DETRAN" in page
        assert 'action="/casos/{}/acao/release"'.format(sub.protocol) not in page
        # not paid yet: refused with what is missing, the typed values kept
        unpaid = await post_release(staff, sub.protocol, **filled())
        text = flat(await unpaid.text())
        assert unpaid.status == 400 and "falta pagar R$ 440,00" in text
        assert 'value="José da Silva"' in text and 'value="529.982.247-25"' in text
        await record_payment(core, sub.protocol, "440,00", "28/12/2026", E2E,
                             ActorRef("staff", "1", "bruno"))
        # an invalid CPF: beside its field, nothing lost
        bad = await post_release(staff, sub.protocol, **filled(document="529.982.247-24"))
        text = flat(await bad.text())
        assert bad.status == 400 and "CPF inválido" in text
        assert 'data-field="document"' in text and 'value="01234567890"' in text
        # an unchecked condition: named with its article, beside its checkbox
        unchecked = await post_release(staff, sub.protocol,
                                       **filled(cond_fines_insurance_fees_paid=None))
        text = flat(await unchecked.text())
        assert unchecked.status == 400 and "(Art. 3º, §3º, III)" in text
        assert 'data-field="cond_fines_insurance_fees_paid"' in text
        # sale communicated, not transferred (Art. 3º, §3º, III, a): refused
        sold = await post_release(staff, sub.protocol, **filled(sale_communicated="1"))
        text = flat(await sold.text())
        assert sold.status == 400 and "Art. 3º, §3º, III, a" in text
        assert 'name="sale_communicated" value="1" checked' in text
        # the generic step form cannot skip the checklist
        generic = await staff.post(f"/casos/{sub.protocol}/acao/release",
                                   data={"release_checklist_confirmed": "true",
                                         "fees_paid": "x", "csrf": csrf_of(page)},
                                   headers={"Referer": str(staff.make_url(
                                       f"/casos/{sub.protocol}"))}, allow_redirects=False)
        assert generic.status == 400 and "formulário “Liberar”" in await generic.text()
        ok = await post_release(staff, sub.protocol, **filled())
        assert ok.status in (302, 303), await ok.text()
        page = flat(await (await staff.get(f"/casos/{sub.protocol}")).text())
        assert "Devolvido ao proprietário" in page and "Termo de liberação" in page
        assert "Liberação registrada: quem retirou, valores e pagamentos" in page
        assert "***.982.247-**" in page and "529.982.247-25" not in page
        assert "Total pago: R$ 440,00" in page
        assert f'action="/casos/{sub.protocol}/liberar"' not in page
    async with core.db.read() as s:
        assert [e.action for e in (await s.execute(select(Event).where(
            Event.action.in_(("release", "release_recorded"))).order_by(Event.seq))
        ).scalars()] == ["release", "release_recorded"]
