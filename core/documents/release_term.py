"""Termo de liberação: the paper the depot hands over with the object (Dores Art. 3º, §3º and
Art. 9º, I: the Secretaria "gerenciar a liberação"; Dracena Art. 7º: "poderão ser retirados
pelos infratores, antes do leilão, desde que paguem"). It says who collected (name, CPF or
CNPJ, the document shown, owner or attorney with the procuração), each condition of the law
the clerk checked with its article, the statement of fees at the release (line by line) and
the payments recorded. Two vias, one page each: the depot keeps the first, who collected the
second; both signed by the clerk and by who collected."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.documents.data import CityHeader, ObjectData
from core.documents.notification import vehicle_rows
from core.documents.pdf import DocumentPDF

VIAS = ("1ª via: pátio", "2ª via: quem retirou")


@dataclass(frozen=True)
class FeeRow:
    label: str
    article: str
    detail: str  # quantity × value, "" for a given amount
    amount: str  # formatted


@dataclass(frozen=True)
class PaymentRow:
    method: str  # "PIX", "guia"
    reference: str
    paid_on: str  # dd/mm/aaaa
    amount: str  # formatted


@dataclass(frozen=True)
class ReleaseTermData:
    header: CityHeader
    number: str  # the case's protocol
    case_code: str  # formatted
    law_name: str  # "Lei nº 3.043/2022"
    step_article: str  # the release step's article ("Art. 3º, §3º")
    obj: ObjectData
    goods: str  # what was seized, as recorded ("" when the object's boxes describe it)
    depot: str  # name and address
    collector_name: str
    collector_document: str  # CPF or CNPJ, formatted
    id_document: str  # the document shown: kind and number
    capacity: str  # "Proprietário(a)", "Procurador(a) de …", "Infrator(a)"
    power_of_attorney: str  # the procuração's reference ("" when none)
    conditions: tuple[tuple[str, str], ...]  # (label, article), each checked by the clerk
    fees_as_of: str  # dd/mm/aaaa às HH:MM
    fees: tuple[FeeRow, ...]
    fees_total: str
    payments: tuple[PaymentRow, ...]
    paid_total: str
    staff_name: str
    released_at: str  # dd/mm/aaaa às HH:MM
    generated_at: datetime


def release_term_pdf(data: ReleaseTermData) -> bytes:
    pdf = DocumentPDF("Termo de liberação " + data.number, data.generated_at, data.header)
    return pdf.copies(VIAS, lambda via: _via(pdf, data, via))


def _via(pdf: DocumentPDF, data: ReleaseTermData, via: str) -> None:
    pdf.city_header()
    pdf.title_line("TERMO DE LIBERAÇÃO", size=13)
    pdf.via_banner(via)
    size = 8.5
    pdf.labelled("PROTOCOLO: ", f"{data.number}   (caso {data.case_code}; {data.step_article} "
                 f"da {data.law_name})", size)
    pdf.labelled("LIBERADO EM: ", f"{data.released_at}, por {data.staff_name}", size)
    pdf.labelled("PÁTIO: ", data.depot, size)
    if data.obj.is_vehicle:
        pdf.ln(0.5)
        pdf.grid(vehicle_rows(data.obj), height=8.5)
        if data.obj.description:
            pdf.labelled("OBJETO: ", data.obj.description, size)
    else:
        pdf.labelled("OBJETO: ", data.obj.short(), size)
    if data.goods:
        pdf.labelled("BENS DEVOLVIDOS: ", data.goods, size)

    pdf.section("QUEM RETIROU")
    pdf.labelled("NOME: ", data.collector_name, size)
    pdf.labelled("CPF/CNPJ: ", data.collector_document, size)
    pdf.labelled("DOCUMENTO APRESENTADO: ", data.id_document, size)
    pdf.labelled("NA QUALIDADE DE: ", data.capacity, size)
    if data.power_of_attorney:
        pdf.labelled("PROCURAÇÃO: ", data.power_of_attorney, size)

    pdf.section(f"CONDIÇÕES DA LIBERAÇÃO CONFERIDAS ({data.law_name})")
    for label, article in data.conditions:
        pdf.para(f"(X) {label} ({article})", size=8)

    pdf.section(f"VALORES DEVIDOS NA LIBERAÇÃO ({data.fees_as_of})")
    rows = [[f.label, f.article, f.detail or "—", f.amount] for f in data.fees]
    rows.append(["Total devido", "", "", data.fees_total])
    pdf.boxed_table([("Descrição", 78, "L"), ("Artigo", 34, "L"), ("Cálculo", 32, "L"),
               ("Valor", 30, "R")], rows, size=8)
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", 8.5)
    pdf.cell(0, 5, "PAGAMENTOS REGISTRADOS", new_x="LMARGIN", new_y="NEXT")
    prow = [[p.method, p.reference, p.paid_on, p.amount] for p in data.payments]
    prow.append(["Total pago", "", "", data.paid_total])
    pdf.boxed_table([("Forma", 22, "L"), ("Identificador do pagamento", 92, "L"),
               ("Pago em", 30, "L"), ("Valor", 30, "R")], prow, size=8)
    pdf.ln(2)
    pdf.para("Declaro que recebi, nesta data, o bem acima descrito, nas condições em que se "
             "encontrava no pátio, e que apresentei os documentos indicados. A Prefeitura "
             "declara conferidas as condições da lei e pagos os valores acima.", size=8.5)
    pdf.signatures_row([
        ("SERVIDOR RESPONSÁVEL PELA LIBERAÇÃO", data.staff_name, ""),
        ("QUEM RETIROU", data.collector_name, f"CPF/CNPJ {data.collector_document}"),
    ])
