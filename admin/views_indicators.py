"""The city's numbers (/indicadores): the indicators of core.services.staff.indicators drawn as SVG
on the server, each chart also as CSV (/indicadores.csv?grafico=...). Staff and admins."""
from __future__ import annotations

import csv
import io
from decimal import Decimal
from urllib.parse import urlencode

from aiohttp import web

from admin import params
from admin import svg_charts as svg
from admin.files import FILE_CSP
from admin.views_export import csv_cell
from admin.web import core_of, render, require
from core.formatting import fmt_date, fmt_money
from core.services.staff import indicators as ind
from core.services.errors import InvalidInput

CHARTS = {"casos-por-mes": "Casos por mês, por categoria",
          "abertos-por-situacao": "Casos em aberto, por situação",
          "tempos": "Dias desde a denúncia (mediana e 90º percentil), por categoria",
          "desfechos": "Como os casos encerrados terminaram",
          "patio": "Pátio: entradas, saídas, ocupação e taxas por mês",
          "prazos-vencidos": "Prazos vencidos sem providência (casos em aberto)",
          "resposta-do-cidadao": "Depois do encerramento: o objeto saiu? (resposta de quem "
                                 "denunciou)"}


def _period(request: web.Request):
    """(period, raw filters, error): bad input gives the error text, never an exception."""
    core = core_of(request)
    q = request.query
    raw = {k: (q.get(k) or "").strip() for k in ("date_from", "date_to", "neighbourhood")}
    try:
        start = params.date_br(raw["date_from"], "Data inicial")
        end = params.date_br(raw["date_to"], "Data final")
        nb = params.text(raw["neighbourhood"], "Bairro", 120)
    except InvalidInput as exc:
        return None, raw, str(exc)
    period, error = ind.check_period(start, end, core, nb)
    return period, raw, error


def _month(m) -> str:
    return f"{m.month:02d}/{m.year}"


def _days(v: float) -> str:
    return f"{v:.1f}".replace(".", ",")


def _share(n: int, rows: list[tuple[str, int]]) -> str:
    total = sum(k for _, k in rows)
    return f"{100 * n / total:.0f}%" if total else ""


def _tables(core, data: ind.Indicators) -> dict[str, tuple[list[str], list[list]]]:
    """Each chart's figures as (header, rows): the CSV and the page's tables."""
    months = [_month(m) for m in data.months]
    cat_label = dict(data.categories)
    t = {"casos-por-mes": (["mês", *cat_label.values(), "total"],
                           [[m, *(data.per_month[c][i] for c in cat_label),
                             sum(data.per_month[c][i] for c in cat_label)]
                            for i, m in enumerate(months)]),
         "abertos-por-situacao": (["situação", "casos"], [list(r) for r in data.open_by_state]),
         "desfechos": (["desfecho", "casos"], [list(r) for r in data.outcomes]),
         "prazos-vencidos": (["prazo", "casos"], [list(r) for r in data.overdue]),
         "resposta-do-cidadao": (["resposta", "casos", "% dos perguntados"],
                                 [[label, n, _share(n, data.followups)]
                                  for label, n in data.followups])}
    rows = []
    for c, label in data.categories:
        for m in ind.MILESTONES:
            d = data.durations[c][m]
            rows.append([label, ind.MILESTONE_LABELS[m], *((_days(d[0]), _days(d[1]), d[2])
                                                          if d else ("", "", 0))])
    t["tempos"] = (["categoria", "etapa", "mediana (dias)", "90º percentil (dias)", "casos"],
                   rows)
    t["patio"] = (["mês", "entradas", "saídas", "no pátio ao fim do mês", "taxas (R$)"],
                  [[m, *data.depot[i], fmt_money(data.fees[i])] for i, m in enumerate(months)])
    return t


def _charts(data: ind.Indicators) -> dict:
    months = [_month(m) for m in data.months]
    cats = [(label, data.per_month[c]) for c, label in data.categories
            if any(data.per_month[c])]
    med = []
    for c, label in data.categories:
        for m in ind.MILESTONES:
            d = data.durations[c][m]
            if d:
                row = f"{label.split(' (')[0]}: {ind.MILESTONE_LABELS[m]}"
                med.append((row, d[0]))
    return {
        "casos-por-mes": svg.stacked_bars(CHARTS["casos-por-mes"], months, cats),
        "abertos-por-situacao": svg.hbars(CHARTS["abertos-por-situacao"], data.open_by_state),
        "tempos": svg.hbars(CHARTS["tempos"], med, lambda v: _days(v) + " dias (mediana)"),
        "desfechos": svg.hbars(CHARTS["desfechos"], data.outcomes),
        "patio": svg.line("Objetos no pátio ao fim de cada mês", months,
                          [d[2] for d in data.depot]),
        "taxas": svg.stacked_bars("Taxas devidas na saída do pátio (R$)", months,
                                  [("Taxas (R$)", [float(f) for f in data.fees])]),
        "prazos-vencidos": svg.hbars(CHARTS["prazos-vencidos"], data.overdue),
        "resposta-do-cidadao": svg.hbars(CHARTS["resposta-do-cidadao"],
                                         [r for r in data.followups if r[1]]),
    }


@require()
async def indicators_page(request: web.Request) -> web.Response:
    core = core_of(request)
    period, raw, error = _period(request)
    ctx = {"raw": raw, "error": error, "charts_meta": CHARTS, "data": None,
           "sample": ind.SAMPLE}
    if error:
        return render(request, "indicators.html", ctx, status=400)
    data = await ind.compute(core, period)
    qs = urlencode({"date_from": fmt_date(period.start), "date_to": fmt_date(period.end),
                    **({"neighbourhood": period.neighbourhood} if period.neighbourhood else {})})
    ctx.update(data=data, charts=_charts(data), tables=_tables(core, data),
               period_text=f"{fmt_date(period.start)} a {fmt_date(period.end)}",
               csv_query=qs, neighbourhood=period.neighbourhood or "",
               total_fees=sum(data.fees, Decimal(0)))
    return render(request, "indicators.html", ctx)


@require()
async def indicators_csv(request: web.Request) -> web.Response:
    core = core_of(request)
    chart = request.query.get("grafico") or ""
    if chart not in CHARTS:
        raise InvalidInput("Gráfico desconhecido. Use os links “Baixar CSV” da página de "
                           "indicadores.")
    period, _, error = _period(request)
    if error:
        raise InvalidInput(error)
    header, rows = _tables(core, await ind.compute(core, period))[chart]
    buf = io.StringIO()
    buf.write("\ufeff")  # Excel opens UTF-8 with accents correctly
    w = csv.writer(buf, delimiter=";")
    w.writerow(header)
    for r in rows:
        w.writerow([csv_cell(v) for v in r])
    return web.Response(body=buf.getvalue().encode(), headers={
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": f'attachment; filename="indicadores-{chart}.csv"',
        "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
        "Content-Security-Policy": FILE_CSP})
