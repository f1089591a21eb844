"""Termo de recolhimento (Dores Art. 6º, I, b): "ser preenchido o termo de recolhimento do
bem, conforme modelo anexo II, em 3 (três) vias, sendo que a 1ª via será destinada para
arquivo do órgão responsável pela remoção, a 2ª via será destinada ao
proprietário/responsável, a 3ª via será destinada ao pátio responsável pela guarda."
Layout of the annex "TERMO DE RECOLHIMENTO DE VEÍCULO"; one page per via."""
from __future__ import annotations

from core.documents.data import MISSING_PARTS, NOT_IDENTIFIED, RemovalTermData
from core.documents.fmt import short_hash
from core.documents.notification import motive, vehicle_rows
from core.documents.pdf import DocumentPDF

VIAS = (
    "1ª via — arquivo do órgão responsável pela remoção",
    "2ª via — proprietário/responsável",
    "3ª via — pátio responsável pela guarda",
)

# Adapted from the annex text (which repeats Anexo I's "10 dias para retirá-lo do espaço
# público"): the periods themselves (Art. 6º, caput: "o prazo previsto de 10 (dez) dias para
# sua retirada"; Art. 3º, caput: sixty days before auction, vehicles only) are stated once
# each, with their dates, in the paragraph that follows (RemovalTermData.dates).
REMOVAL_TEXT = (
    "Fica o Proprietário(a)/Responsável pelo acima identificado, a partir desta data, "
    "notificado por escrito de que o objeto, abandonado em espaço público de nossa cidade, "
    "foi removido ao pátio indicado abaixo, onde poderá retirá-lo nos prazos e nas condições "
    "a seguir, sob as penalidades legais cabíveis."
)


def removal_term_pdf(data: RemovalTermData) -> bytes:
    pdf = DocumentPDF("Termo de recolhimento " + data.number, data.generated_at, data.header)
    return pdf.copies(VIAS, lambda via: _via(pdf, data, via))


def _via(pdf: DocumentPDF, data: RemovalTermData, via: str) -> None:
    pdf.city_header()
    pdf.title_line("TERMO DE RECOLHIMENTO DE VEÍCULO", size=13)
    pdf.via_banner(via)
    size = 8.5
    pdf.labelled("NOTIFICAÇÃO Nº: ", f"{data.number}   (caso {data.case_code}; "
                 "Art. 6º, I, b, da Lei nº 3.043/2022)", size)
    pdf.labelled("NOTIFICANTE: ", data.header.prefeitura, size)
    pdf.labelled("NOTIFICADO: ", data.owner_name or NOT_IDENTIFIED, size)
    pdf.labelled("MOTIVO: ", motive(data.obj) + "   ", size)
    pdf.checks("IDENTIFICAÇÃO OBJETO:", [("IDENTIFICADO", data.object_identified),
                                         ("NÃO IDENTIFICADO", not data.object_identified)],
               size)
    pdf.grid(vehicle_rows(data.obj), height=8.5)
    pdf.labelled("ASSINALE AS CONDIÇÕES QUE CARACTERIZARAM O ABANDONO NO MOMENTO DA REMOÇÃO "
                 "(Art. 3º, § 4º, I)", "", size)
    pdf.checks("ESTÁ FALTANDO:", [(label, key in data.missing)
                                  for key, label in MISSING_PARTS.items()], size)
    pdf.checks("COM:", [("LANTERNAGEM AMASSADA", data.dented),
                        ("VIDROS QUEBRADOS", data.broken_glass)], size)
    pdf.labelled("OUTROS A ESPECIFICAR: ", data.others or "—", size)
    pdf.labelled("NÚMERO DO HODÔMETRO: ", data.odometer or "—", size)
    pdf.ln(1)
    pdf.labelled("REMOVIDO DE: ", data.removed_from, size)
    pdf.labelled("DATA E HORA DA REMOÇÃO: ", f"{data.removed_on}, às {data.removed_at}"
                 + (f" — reboque: {data.tow_operator}" if data.tow_operator else ""), size)
    pdf.labelled("PÁTIO DE GUARDA: ", f"{data.depot.name} — {data.depot.address} — "
                 f"atendimento: {data.depot.hours}"
                 + (f" — tel. {data.depot.phone}" if data.depot.phone else ""), size)
    if data.evidence:
        hashes = "; ".join(f"{e.label} {short_hash(e.sha256)}" for e in data.evidence)
        pdf.labelled("PROVAS (Art. 6º, I, a; SHA-256 abreviado): ", hashes, 7.5)
    pdf.ln(1)
    pdf.para("**NOTIFICAÇÃO:** " + REMOVAL_TEXT, size=8.5, markdown=True)
    pdf.para(" ".join(data.dates), size=8.5, bold=True)
    conditions = "; ".join(data.release_conditions) if data.release_conditions else (
        "identificação como proprietário(a) ou procuração pública, com prova da propriedade; "
        "pagamento do reboque e das diárias; para veículo automotor, multas, seguro "
        "obrigatório e demais taxas")
    pdf.para("Como retirar (Art. 3º, § 3º): " + conditions + ".", size=7.5)

    y = pdf.get_y()
    pdf.qr_block(data.link.url, size=26, x=pdf.w - pdf.r_margin - 27, y=y + 2, text_size=6.5)
    pdf.set_y(y)
    insp = data.inspector
    pdf.signatures_row([
        ("DADOS E ASSINATURA DO AUTUADOR", insp.name, insp.signs_as),
        ("PROPRIETÁRIO(A)/ RESPONSÁVEL", data.owner_name or "", ""),
        ("RESPONSÁVEL PELO PÁTIO", data.depot.name, ""),
    ], total=pdf.w - pdf.l_margin - pdf.r_margin - 32)
