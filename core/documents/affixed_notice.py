"""Notice affixed on the glass or body of the object (Dores Art. 4º, II, a): "Afixada uma
notificação ... no vidro ou lataria do veículo, chassi ou carroceria, para que o
proprietário/responsável pelo bem o remova do espaço público no prazo máximo de 10 dias".
Large type, readable from outside the car. The law calls this "Anexo II" but the annex printed
under that name is the termo de recolhimento, so this layout is our own."""
from __future__ import annotations

from core.documents.data import AffixedNoticeData
from core.documents.pdf import DocumentPDF

PUBLICATION_DEADLINE = (
    "PRAZO: esta notificação também será publicada no Diário Oficial do Município. A remoção "
    "ao pátio só poderá ocorrer depois de 10 (dez) dias contados da data dessa publicação "
    "(Art. 4º, II, b). Acompanhe a data pelo código abaixo ou no setor de fiscalização.")


#: The code's side, largest first: the largest that leaves the whole notice on its one page,
#: clear of the footer (the office's contact may take several lines).
QR_SIDES = (70, 62, 54, 46, 40)


def affixed_notice_pdf(data: AffixedNoticeData) -> bytes:
    for side in QR_SIDES:
        pdf = _notice(data, side)
        if pdf.get_y() <= pdf.h - 16:  # the footer starts at 13 mm from the bottom
            break
    return bytes(pdf.output())


def _notice(data: AffixedNoticeData, qr_side: float) -> DocumentPDF:
    pdf = DocumentPDF("Notificação afixada " + data.case_code, data.generated_at, data.header)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line("NOTIFICAÇÃO — OBJETO EM ESTADO DE ABANDONO", size=24)
    pdf.para("O proprietário(a)/responsável por este objeto deve removê-lo do espaço público "
             "no prazo máximo de 10 (dez) dias, sob pena de remoção ao pátio, leilão e demais "
             "penalidades legais cabíveis (Art. 4º, II, a, da Lei nº 3.043/2022).",
             size=15, align="L")
    d = data.deadline
    if data.removal_after_publication:
        # Art. 4º, II, b: the 10 days that allow the removal start from the publication in
        # the Diário Oficial, a date not known when the notice is affixed.
        pdf.para(PUBLICATION_DEADLINE, size=15, align="L", bold=True)
    else:
        pdf.para(f"PRAZO: vence em {d.due_in_full} ({d.due_date}) — {d.article}", size=17,
                 align="L", bold=True)
    pdf.para(f"CASO: {data.case_code}", size=20, align="L", bold=True)
    pdf.labelled("Objeto: ", data.obj.short(), size=12)
    pdf.labelled("Local: ", data.address, size=12)
    pdf.labelled("Afixada em: ", f"{data.issued_on}, às {data.issued_at}, por "
                 f"{data.inspector.name} ({data.inspector.signs_as})", size=12)
    pdf.ln(3)
    pdf.qr_block(data.link.url, size=qr_side, text_size=11,
                 caption="Proprietário(a)? Aponte a câmera do celular para o código:\n"
                         "prazos, documentos e custos no Telegram")
    pdf.ln(2)
    pdf.para("Informações: " + data.info, size=12, align="C")
    if not data.removal_after_publication:
        pdf.note(d.explanation)
    return pdf
