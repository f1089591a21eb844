"""Dracena, Lei nº 56/1951: auto de infração (Art. 2º) with its verso (Art. 5º), the note
for low-value goods seized from street vendors (Art. 4º, § 1º) and the intimação when the
auto is not drawn up in the offender's presence (Art. 2º, § 3º)."""
from __future__ import annotations

from core.documents.data import (
    AutoInfracaoData, IntimacaoData, LowValueNoteData, NOT_IDENTIFIED, SeizedItem,
)
from core.documents.fmt import money
from core.documents.legal_texts import (
    DRACENA_ART_2_P2_DECLARATION, DRACENA_ART_3, DRACENA_ART_4_P2, DRACENA_ART_5_COPY,
    DRACENA_ART_6, DRACENA_ART_7,
)
from core.documents.pdf import DocumentPDF


def _items(items: tuple[SeizedItem, ...]) -> str:
    return "; ".join(f"{i.description}" + (f" ({i.quantity})" if i.quantity else "")
                     for i in items)


#: Width kept at the right of the signatures for the QR code and its link (mm).
QR_COLUMN = 64


def _title(name: str) -> str:
    """"Auto de Infração e Apreensão"."""
    return " ".join(w if w in ("de", "e") else w.capitalize() for w in name.split())


def _to(depot: str) -> str:
    """"ao Pátio Municipal", "ao Depósito Municipal": the depot's name with its article."""
    first = depot.split(" ", 1)[0].lower() if depot else ""
    if first in ("pátio", "patio", "depósito", "deposito", "galpão", "almoxarifado"):
        return f"ao {depot}"
    return f"ao depósito municipal ({depot})" if depot else "ao depósito municipal"


def _auto_front(pdf: DocumentPDF, data: AutoInfracaoData, show_deadline: bool = True) -> None:
    """Art. 2º: a) nome do infrator; b) o fato constitutivo da infração, bem como o lugar, o
    dia e a hora em que se verificou; c) o preceito de lei violado e a multa imposta;
    d) a assinatura do autuante, do infrator e de duas testemunhas."""
    off = data.offender
    pdf.labelled("a) Infrator: ", off.name if off else NOT_IDENTIFIED + " (Art. 4º)")
    if off and (off.document or off.address):
        pdf.labelled("    Documento / endereço: ", " — ".join(p for p in (off.document, off.address) if p), 9)
    if data.company:
        # Art. 2º, § 1º: "tal circunstância constará do auto para o efeito de serem essas
        # pessoas responsabilizadas".
        pdf.labelled("    Responsabilidade (Art. 2º, § 1º): ",
                     f"infração cometida na qualidade de {data.company.relation} de "
                     f"{data.company.company}, que responde nos termos da lei.", 9)
    pdf.labelled("b) Fato: ", data.fact)
    pdf.labelled("    Lugar, dia e hora: ", f"{data.place} — {data.day}, às {data.hour}")
    pdf.labelled("c) Preceito violado: ", data.provision)
    pdf.labelled("    Multa imposta: ", money(data.fine))
    if data.seized:
        pdf.labelled("Apreensão: ", _items(data.seized) + f" — {'recolhido' if len(data.seized) == 1 else 'recolhidos'} "
                     f"{_to(data.depot.name)}"
                     f", {data.depot.address} (Art. 6º)")
    for sentence in data.dates:  # Art. 6º, §2º: gêneros and semoventes within three days
        pdf.para(sentence, bold=True, size=10)
    if not show_deadline:
        return
    d = data.appeal_deadline
    pdf.ln(1)
    pdf.para(f"Prazo para recurso ao Prefeito: vence em {d.due_in_full} ({d.due_date}) — "
             f"{d.article}.", bold=True, size=10)
    pdf.note(d.explanation)
    if not data.in_presence:
        pdf.note("Auto não lavrado em presença do infrator: será intimado por escrito do seu "
                 "inteiro teor (Art. 2º, § 3º).")


def _signatures(pdf: DocumentPDF, data: AutoInfracaoData) -> None:
    a = data.agent
    w = list(data.witnesses) + [None, None]
    wit = [("TESTEMUNHA 1", w[0].name if w[0] else "", w[0].document if w[0] else ""),
           ("TESTEMUNHA 2", w[1].name if w[1] else "", w[1].document if w[1] else "")]
    if data.refused_to_sign:
        pdf.ln(2)
        pdf.para(DRACENA_ART_2_P2_DECLARATION, size=9.5, bold=True)
        infrator = ("INFRATOR — RECUSOU-SE A ASSINAR (Art. 2º, § 2º)", "", "")
    elif not data.in_presence:
        infrator = ("INFRATOR — AUSENTE (intimação, Art. 2º, § 3º)", "", "")
    else:
        infrator = ("INFRATOR", data.offender.name if data.offender else "", "")
    pdf.section("d) ASSINATURAS (Art. 2º, d)")
    _with_qr(pdf, data, [[("AUTUANTE", a.name, a.signs_as), infrator], wit])


def _with_qr(pdf: DocumentPDF, data: AutoInfracaoData,
             rows: list[list[tuple[str, str, str]]]) -> None:
    """Signature rows with the QR code beside them, as on the Dores notification and termo:
    the offender's copy (Art. 5º, § único) opens the case in the bot."""
    y = pdf.get_y()
    total = pdf.w - pdf.l_margin - pdf.r_margin
    if data.link:
        total -= QR_COLUMN
        if y + 50 > pdf.page_break_trigger:
            pdf.add_page()
            y = pdf.get_y()
    for row in rows:
        pdf.signatures_row(row, total)
    if data.link:
        bottom, size = pdf.get_y(), 28
        pdf.qr_block(data.link.url, size=size,
                     x=pdf.w - pdf.r_margin - size - (QR_COLUMN - size) / 2, y=y,
                     caption="Acompanhe o caso\npelo Telegram", text_size=6.5)
        pdf.set_y(max(bottom, pdf.get_y()))


def _verso(pdf: DocumentPDF, data: AutoInfracaoData) -> None:
    """Art. 5º: "trazer no verso os textos legais que dispõem sobre os recursos cabíveis, as
    formalidades a serem preenchidas para a devolução das coisas ou semovente apreendidos, e
    o seu destino quando não reclamados"; § único: cópia ao infrator."""
    pdf.add_page()
    pdf.footer_note = "verso (Art. 5º)"
    pdf.title_line("VERSO — TEXTOS LEGAIS (Art. 5º da Lei nº 56/1951)", size=11)
    pdf.section("RECURSOS")
    pdf.para(DRACENA_ART_3, size=8.5)
    pdf.para(DRACENA_ART_4_P2, size=8.5)
    pdf.section("DEVOLUÇÃO DAS COISAS APREENDIDAS")
    pdf.para(DRACENA_ART_7, size=8.5)
    if data.current_costs:
        pdf.para("Os valores do Art. 7º são de 1951 (cruzeiros). Valores vigentes: "
                 + "; ".join(data.current_costs) + ".", size=8.5, bold=True)
    pdf.para(f"Depósito: {data.depot.name} — {data.depot.address} — atendimento: "
             f"{data.depot.hours}" + (f" — tel. {data.depot.phone}" if data.depot.phone else ""),
             size=8.5)
    pdf.section("DESTINO QUANDO NÃO RECLAMADAS")
    pdf.para(DRACENA_ART_6, size=8.5)
    pdf.ln(2)
    pdf.para(DRACENA_ART_5_COPY, size=10, bold=True)


def auto_infracao_pdf(data: AutoInfracaoData) -> bytes:
    """Front (Art. 2º) and verso (Art. 5º), under one name (AutoInfracaoData.name)."""
    pdf = DocumentPDF(data.name.capitalize() + " " + data.number, data.generated_at,
                      data.header)
    pdf.add_page()
    pdf.footer_note = "frente (Art. 2º)"
    pdf.city_header()
    pdf.title_line(f"{data.name.upper()} Nº {data.number}", size=13)
    pdf.note("Lavrado nos termos dos Arts. 1º e 2º da Lei nº 56, de 09/10/1951. Verso: textos "
             "legais sobre recursos, devolução e destino das coisas apreendidas (Art. 5º).")
    _auto_front(pdf, data)
    _signatures(pdf, data)
    pdf.ln(2)
    pdf.note(DRACENA_ART_5_COPY)
    _verso(pdf, data)
    return bytes(pdf.output())


def low_value_note_pdf(data: LowValueNoteData) -> bytes:
    """Art. 4º, § 1º: "uma nota contendo a relação das mercadorias apreendidas e mencionando a
    multa imposta e a lei transgredida, dispensada a lavratura do respectivo auto"."""
    pdf = DocumentPDF("Nota de apreensão " + data.number, data.generated_at, data.header)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line(f"NOTA DE APREENSÃO DE MERCADORIAS Nº {data.number}", size=13)
    pdf.note("Mercadorias de valor medíocre apreendidas de ambulante: dispensada a lavratura "
             "do auto (Art. 4º, § 1º, da Lei nº 56/1951).")
    pdf.field("Ambulante", data.vendor_name or NOT_IDENTIFIED)
    pdf.field("Lugar, dia e hora", f"{data.place} — {data.day}, às {data.hour}")
    pdf.section("RELAÇÃO DAS MERCADORIAS APREENDIDAS")
    for i, item in enumerate(data.goods, 1):
        pdf.labelled(f"{i}. ", item.description + (f" — {item.quantity}" if item.quantity else ""))
    pdf.ln(1)
    pdf.field("Multa imposta", money(data.fine))
    pdf.field("Lei transgredida", data.law_transgressed)
    pdf.field("Depósito", f"{data.depot.name} — {data.depot.address} — {data.depot.hours}")
    d = data.appeal_deadline
    pdf.para(f"Prazo para recurso: vence em {d.due_in_full} ({d.due_date}) — {d.article}.",
             bold=True)
    pdf.para(DRACENA_ART_4_P2, size=8.5)
    pdf.para(DRACENA_ART_7, size=8.5)
    a = data.agent
    pdf.signatures_row([("FISCAL (assinatura)", a.name, a.signs_as),
                        ("RECEBI A NOTA", data.vendor_name or "", "")])
    return bytes(pdf.output())


def intimacao_pdf(data: IntimacaoData) -> bytes:
    """Art. 2º, § 3º: "Se pela circunstância especial da infração não for o auto lavrado em
    presença do infrator, será este intimado por escrito do seu inteiro teor." The appeal
    runs 5 days from the intimação (Art. 3º)."""
    auto = data.auto
    pdf = DocumentPDF("Intimação " + data.number, data.generated_at, auto.header)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line(f"INTIMAÇÃO Nº {data.number}", size=13)
    pdf.field("Intimado(a)", data.addressee.name)
    if data.addressee.address:
        pdf.field("Endereço", data.addressee.address)
    pdf.para(f"Fica V. Sa. INTIMADO(A), nos termos do Art. 2º, § 3º, da Lei nº 56/1951, do "
             f"inteiro teor do {_title(auto.name)} nº {auto.number}, lavrado em {auto.day}, às "
             f"{auto.hour}, fora de sua presença, transcrito a seguir.")
    pdf.section(f"TEOR DO {auto.name.upper()} Nº {auto.number}")
    _auto_front(pdf, auto, show_deadline=False)
    pdf.labelled("Autuante: ", f"{auto.agent.name} — {auto.agent.signs_as}")
    pdf.ln(2)
    d = data.appeal_deadline
    pdf.para(f"Recurso ao Prefeito em 5 (cinco) dias a contar desta intimação (Art. 3º): vence "
             f"em {d.due_in_full} ({d.due_date}) — {d.article}.", bold=True)
    pdf.note(d.explanation)
    pdf.para(f"{auto.header.city}, {data.issued_on}.", align="R")
    _with_qr(pdf, auto, [[("AUTUANTE", auto.agent.name, auto.agent.signs_as),
                          ("RECEBI A INTIMAÇÃO EM ___/___/______", data.addressee.name, "")]])
    _verso(pdf, auto)
    return bytes(pdf.output())
