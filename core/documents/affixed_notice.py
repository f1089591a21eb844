"""Notice affixed on the glass or body of the object (Dores Art. 4º, II, a): "Afixada uma
notificação ... no vidro ou lataria do veículo, chassi ou carroceria, para que o
proprietário/responsável pelo bem o remova do espaço público no prazo máximo de 10 dias".
Large type, readable from outside the car. The law calls this "Anexo II" but the annex printed
under that name is the termo de recolhimento, so this layout is our own.

A fiscal in the street has no printer: the notices are printed before going out (the day's
notices: a cover listing them, then each notice exactly as recorded, day_notices_pdf), the hour
of affixing left blank for the pen; or a blank form is filled by hand, and the system's copy
says so."""
from __future__ import annotations

from core.formatting import plural

import io

from core.documents.data import (PAPER_HANDWRITTEN, PAPER_PREPARED, AffixedNoticeData,
                                 DayNoticesCover)
from core.documents.pdf import DocumentPDF

PUBLICATION_DEADLINE = (
    "PRAZO: esta notificação também será publicada no Diário Oficial do Município. A remoção "
    "ao pátio só poderá ocorrer depois de 10 (dez) dias contados da data dessa publicação "
    "(Art. 4º, II, b). Acompanhe a data pelo código abaixo ou no setor de fiscalização.")
BLANK_HOUR = "____:____"
HANDWRITTEN_NOTE = (
    "Via do sistema. A notificação afixada no objeto foi preenchida à mão pelo fiscal, em "
    "formulário impresso, com este mesmo número; a foto dela afixada está registrada no "
    "processo e vale como registro do papel afixado.")


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
    pdf.para((f"Nº {data.number} — " if data.number else "") + f"CASO: {data.case_code}",
             size=18 if data.number else 20, align="L", bold=True)
    pdf.labelled("Objeto: ", data.obj.short(), size=12)
    pdf.labelled("Local: ", data.address, size=12)
    hour = BLANK_HOUR if data.paper == PAPER_PREPARED else data.issued_at
    pdf.labelled("Afixada em: ", f"{data.issued_on}, às {hour}, por "
                 f"{data.inspector.name} ({data.inspector.signs_as})", size=12)
    pdf.ln(3)
    if data.link.whatsapp_url:
        _two_codes(pdf, data, qr_side)
    else:
        pdf.qr_block(data.link.url, size=qr_side, text_size=11,
                     caption="Proprietário(a)? Aponte a câmera do celular para o código:\n"
                             "prazos, documentos e custos no Telegram")
    pdf.ln(2)
    pdf.para("Informações: " + data.info, size=12, align="C")
    if data.paper == PAPER_HANDWRITTEN:
        pdf.note(HANDWRITTEN_NOTE)
    if not data.removal_after_publication:
        pdf.note(d.explanation)
    return pdf


def _two_codes(pdf: DocumentPDF, data: AffixedNoticeData, qr_side: float) -> None:
    """Telegram's code and WhatsApp's side by side, the owner choosing the app they have;
    each opens the same case (the WhatsApp chat with its code already typed)."""
    pdf.para("Proprietário(a)? Aponte a câmera do celular para um dos códigos: prazos, "
             "documentos e custos no aplicativo que você usa", size=12, align="C", bold=True)
    side = min(qr_side, 58.0)
    column = (pdf.w - pdf.l_margin - pdf.r_margin) / 2
    y = pdf.get_y() + 1
    for i, (app, url) in enumerate((("Telegram", data.link.url),
                                    ("WhatsApp", data.link.whatsapp_url))):
        x = pdf.l_margin + column * (i + 0.5) - side / 2
        pdf.qr_block(url, size=side, x=x, y=y, text_size=9, caption=f"No {app}")


def day_notices_pdf(cover: DayNoticesCover, notices: list[bytes]) -> bytes:
    """The day's notices in one PDF to print: a cover listing them (number, case, object,
    place, a box to tick), then each notice's pages exactly as recorded (same bytes as the
    document the step records, so the same SHA-256)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for blob in (_cover_pdf(cover), *notices):
        writer.append(PdfReader(io.BytesIO(blob)))
    writer.add_metadata({"/Title": f"Notificações do dia {cover.day} — {cover.inspector.name}",
                         "/Creator": "Via Livre"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _cover_pdf(cover: DayNoticesCover) -> bytes:
    pdf = DocumentPDF(f"Notificações do dia {cover.day}", cover.generated_at, cover.header)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line(f"NOTIFICAÇÕES A AFIXAR — {cover.day}", size=16)
    pdf.labelled("Fiscal: ", f"{cover.inspector.name} ({cover.inspector.agency})"
                 + (f" — matrícula {cover.inspector.registration}"
                    if cover.inspector.registration else ""), size=11)
    pdf.ln(2)
    pdf.para(f"{plural(len(cover.lines), 'notificação', 'notificações')} nas páginas seguintes, uma por caso "
             "(Art. 4º, II, a). Afixe cada uma no vidro ou na lataria do objeto, escreva a hora "
             "no espaço em branco e registre no bot: “Afixar notificação” → “Impressa do dia”; "
             "depois envie a foto dela afixada. Não afixada hoje, não vale em outro dia: "
             "descarte-a (a data impressa é a de hoje).", size=10, align="L")
    for k, line in enumerate(cover.lines, 1):
        pdf.ln(1.5)
        pdf.labelled(f"☐ {k}. Nº {line.number} — caso {line.case_code}", "", size=11)
        pdf.labelled("     Objeto: ", line.obj or "—", size=10)
        pdf.labelled("     Local: ", line.address, size=10)
        pdf.labelled("     SHA-256 da via do sistema: ", line.sha256, size=7)
    return bytes(pdf.output())
