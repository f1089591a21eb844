"""PIX test data (no tests here): the city's PIX settings, the tariffs confirmed by the city, the
total read from a fee statement."""
from __future__ import annotations

import re
from decimal import Decimal

from sqlalchemy import update

from core.storage.models import Tariff

PIX = {"pix_key": "financas@doresdoindaia.mg.gov.br",
       "pix_merchant_name": "Prefeitura Municipal de Dores do Indaiá",
       "pix_merchant_city": "Dores do Indaiá"}


async def official_tariffs(core):
    """The city confirmed every value (no estimate): the seeded rows become the city's."""
    async with core.db.unit_of_work() as s:
        await s.execute(update(Tariff).values(created_by="admin"))
    core.invalidate()


def total_in(text: str) -> Decimal:
    m = re.search(r"Total: R\$\xa0([\d.]+,\d\d)", text)
    assert m, text
    return Decimal(m.group(1).replace(".", "").replace(",", "."))


async def owner_page(core, sub) -> str:
    """The owner's web page of `sub`'s case, reached with its code and plate (the HTML)."""
    from tests.support.panel import Panel, csrf_of
    async with Panel(core).client() as client:
        form = await client.get("/publico/proprietario")
        resp = await client.post("/publico/proprietario", data={
            "codigo": sub.case_code, "placa": "ABC1D23", "csrf": csrf_of(await form.text())})
        assert resp.status == 200
        return await resp.text()
