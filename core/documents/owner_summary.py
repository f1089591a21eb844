"""The owner's one-page summary, to forward or print: where the object is, what to bring,
what is owed (line by line, with each tariff's valid-from date) and the deadlines."""
from __future__ import annotations

from core.documents.data import OwnerSummaryData
from core.documents.fmt import money, quantity
from core.documents.pdf import FAMILY, NL, DocumentPDF
from core.documents.qr import qr_png


def owner_summary_pdf(data: OwnerSummaryData) -> bytes:
    pdf = DocumentPDF("Resumo do caso " + data.case_code, data.generated_at, data.header)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line("RESUMO PARA O PROPRIETÁRIO(A)/RESPONSÁVEL", size=13)
    top = pdf.get_y()
    pdf.set_right_margin(pdf.r_margin + 62)
    pdf.labelled("Caso: ", data.case_code, 11)
    pdf.labelled("Objeto: ", data.obj.short(), 10)
    pdf.labelled("Situação: ", data.state, 10)
    d = data.deadline
    pdf.ln(1)
    if d.due_date != "—" or not data.dates:  # else the dates below state it
        pdf.para(f"Prazo: vence em {d.due_in_full} ({d.due_date}) — {d.article}.", bold=True,
                 align="L")
        pdf.note(d.explanation)
    a = data.auction_after
    for sentence in data.dates:  # the law's dates, each once with its article
        pdf.para(sentence, size=9.5, align="L")
    if not data.dates and a.due_date != "—":
        pdf.para(f"Não reclamado, poderá ir a leilão após {a.due_in_full} ({a.due_date}) — "
                 f"{a.article}.", size=9.5, align="L")
    left_bottom = pdf.get_y()
    pdf.set_right_margin(18)
    pdf.qr_block(data.link.url, size=34, x=pdf.w - pdf.r_margin - 46, y=top, text_size=6.5)
    pdf.set_y(max(pdf.get_y(), left_bottom) + 1)  # below both columns

    pdf.section("PARA RETIRAR: CONDIÇÕES E DOCUMENTOS")
    for item in data.release:
        pdf.labelled("• ", f"{item.label} ({item.article})", 9.5)
        for doc in item.documents:
            pdf.set_x(pdf.l_margin + 5)
            pdf.set_font(FAMILY, "", 9)
            pdf.multi_cell(0, 4.4, "– " + doc, **NL)
    pdf.section("VALORES DEVIDOS" + (f" ATÉ {data.fees_as_of}" if data.fees_as_of else "")
                + (" — ESTIMATIVA (VALORES A CONFIRMAR)" if data.estimate else ""))
    _fees_table(pdf, data)
    if data.per_day:
        basis = f": {data.per_day_basis}." if data.per_day_basis else f" ({data.per_day_article})."
        pdf.para(f"Cada dia a mais no pátio custa {money(data.per_day)}{basis}", size=9.5,
                 bold=True)
    _payment(pdf, data)
    pdf.section("ONDE E QUANDO")
    dep = data.depot
    pdf.labelled("Pátio: ", f"{dep.name} — {dep.address}", 9.5)
    pdf.labelled("Atendimento: ", dep.hours + (f" — tel. {dep.phone}" if dep.phone else ""), 9.5)
    return bytes(pdf.output())


def _fees_table(pdf: DocumentPDF, data: OwnerSummaryData) -> None:
    """One row a fee, wrapping between words only (DocumentPDF.table: no date or amount is
    broken), then the total."""
    cols = [("Item", 52, "L"), ("Artigo", 34, "L"), ("Qtd.", 16, "R"), ("Valor unit.", 22, "R"),
            ("Vigente desde", 22, "C"), ("Valor", 28, "R")]
    rows = [[f.label, f.article, quantity(f.quantity) + (f" {f.unit}" if f.unit else ""),
             money(f.unit_value), f.valid_from, money(f.amount)] for f in data.fees]
    widths = pdf.boxed_table(cols, rows)
    pdf.set_font(FAMILY, "B", 9)
    pdf.cell(sum(widths[:-1]), 7, "TOTAL", border=1, align="R")
    pdf.cell(widths[-1], 7, money(data.total), border=1, align="R", **NL)
    pdf.ln(2)
    pdf.set_font(FAMILY, "", 10)


def _payment(pdf: DocumentPDF, data: OwnerSummaryData) -> None:
    """The PIX of today's total (its QR code and the "copia e cola" text, one value for both),
    or the city's guia instructions."""
    if data.guia:
        pdf.section("COMO PAGAR (GUIA DA PREFEITURA)")
        pdf.para(data.guia, size=9.5, align="L")
        return
    if not data.pix:
        return
    pdf.section(f"PAGAR POR PIX: {money(data.total)} (TOTAL DE HOJE)")
    size, top = 30.0, pdf.get_y()
    pdf.image(qr_png(data.pix), x=pdf.l_margin, y=top, w=size, h=size)
    pdf.set_left_margin(pdf.l_margin + size + 4)
    pdf.set_xy(pdf.l_margin, top + 1)
    pdf.para(f"Leia o QR code no aplicativo do banco ou use o PIX copia e cola abaixo "
             f"(identificador {data.pix_txid}). O valor vale para o dia "
             f"{data.fees_as_of or 'de emissão'}; depois, cada dia no pátio aumenta o total.",
             size=9, align="L")
    pdf.set_font("Courier", "", 7.5)
    pdf.multi_cell(0, 3.6, data.pix, **NL)
    pdf.set_left_margin(pdf.l_margin - size - 4)
    pdf.set_y(max(pdf.get_y(), top + size) + 1)
    pdf.set_x(pdf.l_margin)
