"""The city's numbers (/indicadores): counts, durations and the depot over cases made by the
real services, each chart as SVG on the page and as CSV; bad filters (who may see it:
test_admin_security)."""
from __future__ import annotations

import csv
import io

from tests.support.panel_cases import indicator_city


async def test_the_page_shows_each_indicator_with_its_csv(panel, photo, clock):
    await indicator_city(panel.core, photo, clock)
    async with panel.client("bruno") as c:  # a staff member, not an admin
        r = await c.get("/indicadores")
        assert r.status == 200
        html = await r.text()
    assert html.count("<svg") >= 6 and "Baixar CSV" in html
    assert "12/2026" in html and "Indicadores" in html
    # the car: notice affixed two days after the report = inspection and notification
    assert "<td>Veículo automotor</td><td>até a notificação</td><td>2,0</td>" in html \
        or "até a notificação</td><td>2,0</td>" in html
    assert "No pátio municipal" in html  # the sofa is open in the depot
    assert "Prazo vencido — remoção autorizada" in html  # the car, after the sweep
    assert "Resolvido pelo proprietário" in html


async def test_csv_of_cases_per_month_and_of_the_depot(panel, photo, clock):
    await indicator_city(panel.core, photo, clock)
    async with panel.client("bruno") as c:
        r = await c.get("/indicadores.csv", params={"grafico": "casos-por-mes",
                                                    "date_from": "01/11/2026",
                                                    "date_to": "31/12/2026"})
        assert r.status == 200 and r.headers["Cache-Control"] == "no-store"
        rows = list(csv.reader(io.StringIO((await r.text()).lstrip("\ufeff")), delimiter=";"))
        assert rows[0][0] == "mês" and rows[0][-1] == "total"
        assert [row[0] for row in rows[1:]] == ["11/2026", "12/2026"]
        assert sum(int(row[-1]) for row in rows[1:]) == 3
        r = await c.get("/indicadores.csv", params={"grafico": "patio"})
        rows = list(csv.reader(io.StringIO((await r.text()).lstrip("\ufeff")), delimiter=";"))
        assert sum(int(row[1]) for row in rows[1:]) == 1  # one depot entry
        assert rows[-1][3] == "1"  # still there at the end of the month
        # one neighbourhood: only its case
        r = await c.get("/indicadores.csv", params={"grafico": "desfechos",
                                                    "neighbourhood": "Vila Nova"})
        rows = dict(csv.reader(io.StringIO((await r.text()).lstrip("\ufeff")), delimiter=";"))
        assert rows["Outros encerramentos"] == "1" and rows["Removido pela prefeitura"] == "0"


async def test_bad_filters_show_the_form_again_with_the_reason(panel):
    async with panel.client("bruno") as c:
        for params, reason in [({"date_from": "32/13/2026"}, "Data inicial"),
                               ({"date_from": "10/12/2026", "date_to": "01/12/2026"},
                                "anterior à data inicial"),
                               ({"date_from": "01/01/2000"}, "até 36 meses"),
                               ({"date_to": "31/12/9999"}, "Data final")]:
            r = await c.get("/indicadores", params=params)
            html = await r.text()
            assert r.status == 400 and reason in html, (params, html[-800:])
            assert 'name="date_from"' in html  # the form, with what was typed
        r = await c.get("/indicadores.csv", params={"grafico": "nada"})
        assert r.status == 400 and "Gráfico desconhecido" in await r.text()
