"""Notificação, Dores Anexo I (Art. 4º, I), also used for Art. 4º, II, b (owner not
identified, published in the Diário Oficial) and Art. 5º, I (large furniture/machinery:
Anexo IV is not printed in the law, so the Anexo I layout is adapted and says so)."""
from __future__ import annotations

from core.documents.data import (
    FURNITURE, NOT_IDENTIFIED, OWNER_IDENTIFIED, OWNER_UNIDENTIFIED, NotificationData,
    ObjectData,
)
from core.documents.legal_texts import DORES_ANEXO_I_TEXT
from core.documents.pdf import DocumentPDF

_BASIS = {
    # Art. 4º, I: "Será emitida notificação, conforme modelo previsto no Anexo I desta lei, ao
    # proprietário, comprador, possuidor ou depositário ... no prazo de 10 dias."
    OWNER_IDENTIFIED: "Art. 4º, I, da Lei nº 3.043/2022 (modelo do Anexo I)",
    # Art. 4º, II, b: notification "contendo qualquer dado que identifique o veículo ...,
    # endereço de depósito, data e hora", published in the Diário Oficial; 10 days from
    # the publication date.
    OWNER_UNIDENTIFIED: "Art. 4º, II, b, da Lei nº 3.043/2022 (modelo do Anexo I)",
    # Art. 5º, I: "conforme modelo previsto no Anexo IV" — not printed in the law.
    FURNITURE: "Art. 5º, I, da Lei nº 3.043/2022",
}


def vehicle_rows(obj: ObjectData) -> list[list[tuple[str, str]]]:
    """DADOS DO VEÍCULO as in the annex (the OCR's "RENAVAN" is RENAVAM)."""
    return [
        [("PLACA", obj.plate), ("MUNICÍPIO", obj.municipality), ("UF", obj.uf),
         ("MARCA", obj.make)],
        [("MODELO", obj.model), ("COR", obj.colour), ("CHASSI", obj.chassis),
         ("RENAVAM", obj.renavam)],
    ]


def motive(obj: ObjectData) -> str:
    if obj.is_vehicle:
        return "VEÍCULO/CHASSI/CARROCERIA ABANDONADO."
    return "MÓVEL DE GRANDE PORTE/MAQUINÁRIO ABANDONADO."


def notification_text(data: NotificationData) -> str:
    """The Anexo I wording; for Art. 4º, II, b the 10 days count from publication."""
    text = DORES_ANEXO_I_TEXT
    if data.track == OWNER_UNIDENTIFIED:
        text = text.replace(
            "concede-lhe um prazo de 10 (dez) dias",
            "concede-lhe um prazo de 10 (dez) dias, contados da data da publicação desta "
            "notificação no Diário Oficial do Município (Art. 4º, II, b),")
    return text


def notification_pdf(data: NotificationData) -> bytes:
    pdf = DocumentPDF("Notificação " + data.number, data.generated_at, data.header)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line("NOTIFICAÇÃO")
    pdf.note("Fundamento: " + _BASIS[data.track] + f". Caso {data.case_code}.")
    if data.track == FURNITURE:
        pdf.note("Modelo do Anexo I adaptado: o Anexo IV, previsto no Art. 5º, I, não foi "
                 "publicado com a lei.")

    pdf.field("NOTIFICAÇÃO N.º", data.number)
    pdf.field("NOTIFICANTE", data.header.prefeitura)
    pdf.field("NOTIFICADO", data.owner_name or NOT_IDENTIFIED)
    pdf.field("MOTIVO", motive(data.obj))
    pdf.checks("IDENTIFICAÇÃO OBJETO:", [("IDENTIFICADO", data.object_identified),
                                         ("NÃO IDENTIFICADO", not data.object_identified)])
    pdf.field("LOCAL DO OBJETO", data.address)
    if data.obj.is_vehicle:
        pdf.section("DADOS DO VEÍCULO")
        pdf.grid(vehicle_rows(data.obj))
        if data.obj.description:
            pdf.field("OBSERVAÇÕES", data.obj.description, size=9)
    else:
        pdf.section("DADOS DO BEM")
        pdf.field("DESCRIÇÃO", data.obj.description)
    if data.depot_address:
        pdf.field("ENDEREÇO DE DEPÓSITO", data.depot_address)

    pdf.ln(1)
    pdf.para("**NOTIFICAÇÃO:** " + notification_text(data), markdown=True)

    pdf.section("PRAZO")
    d = data.deadline
    pdf.para(f"O prazo de 10 (dez) dias vence em {d.due_in_full} ({d.due_date}) — {d.article}.",
             bold=True)
    pdf.note(d.explanation)

    y = pdf.get_y() + 2
    pdf.set_y(y)
    pdf.field("LOCAL E DATA", f"{data.place}, {data.issued_on}, às {data.issued_at}")
    left_width = 105
    pdf.signature(data.inspector.name, data.inspector.signs_as, width=left_width,
                  caption="DADOS E ASSINATURA DO AUTUADOR")
    if data.owner_name:
        pdf.signature(data.owner_name, "Ciente em ___/___/______", width=left_width,
                      caption="PROPRIETÁRIO(A)/RESPONSÁVEL")
    signed = pdf.get_y()
    pdf.qr_block(data.link.url, size=34, x=pdf.w - pdf.r_margin - 38, y=y + 8,
                 caption="Acompanhe o caso\npelo Telegram")
    if data.link.whatsapp_url:  # the printed link, to type or tap: the QR stays Telegram's
        pdf.set_y(max(pdf.get_y(), signed) + 1)
        pdf.para("Ou pelo WhatsApp: " + data.link.whatsapp_url, size=9, align="R")
    return bytes(pdf.output())
