"""Dores do Indaiá documents (Lei 3.043/2022): Anexo I notification, affixed notice
(Art. 4º, II, a), termo de recolhimento (Art. 6º, I, b), owner summary."""
import io
import re

import pytest
from PIL import Image
from pypdf import PdfReader

from core.documents import (
    affixed_notice_pdf, notification_pdf, owner_summary_pdf, removal_term_pdf,
)
from tests.support import document_samples as s
from core.documents.qr import qr_png


def pages(blob: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages]


def text(blob: bytes) -> str:
    return "\n".join(pages(blob))


def flat(t: str) -> str:
    return re.sub(r"\s+", " ", t.replace("\xa0", " "))


def test_anexo_i_notification_art_4_I_fields_and_deadline():
    """Art. 4º, I: Anexo I fields, the 10-day text, the due date in full and its article."""
    t = flat(text(notification_pdf(s.notification())))
    assert "PREFEITURA MUNICIPAL DE DORES DO INDAIÁ" in t
    assert "NOTIFICAÇÃO N.º: 2026/0042" in t
    assert "NOTIFICADO: Maria da Silva" in t
    assert "MOTIVO: VEÍCULO/CHASSI/CARROCERIA ABANDONADO." in t
    assert "IDENTIFICADO (X)" in t and "NÃO IDENTIFICADO ( )" in t
    for label in ("PLACA", "MUNICÍPIO", "UF", "MARCA", "MODELO", "COR", "CHASSI", "RENAVAM"):
        assert label in t
    assert "RENAVAN" not in t  # OCR typo corrected
    assert "ABC1D23" in t and "9BWZZZ377VT004251" in t and "00123456789" in t
    assert ("concede-lhe um prazo de 10 (dez) dias para retirá-lo do espaço público, sob pena "
            "de remoção, leilão e demais penalidades legais cabíveis.") in t
    assert "vence em quinta-feira, 10 de dezembro de 2026 (10/12/2026)" in t
    assert "Art. 4º, I" in t
    assert "DADOS E ASSINATURA DO AUTUADOR" in t and "João Pereira" in t
    assert "Secretaria Municipal de Administração" in t
    assert "Dores do Indaiá/MG, 30/11/2026, às 14:35" in t
    # the office's contact and the inspector's matrícula, never an id
    assert "tel. (37) 3551-0000" in t and "Matr. 12.345-6" in t


def test_notification_unidentified_owner_art_4_II_b():
    """Art. 4º, II, b: NÃO IDENTIFICADO, depot address, 10 days from publication."""
    t = flat(text(notification_pdf(s.notification_unidentified())))
    assert "NOTIFICADO: NÃO IDENTIFICADO" in t
    assert "Art. 4º, II, b" in t
    assert "contados da data da publicação" in t
    assert "ENDEREÇO DE DEPÓSITO: Pátio Municipal" in t
    assert "14 de dezembro de 2026" in t


def test_furniture_notification_art_5_I_says_anexo_iv_missing():
    """Art. 5º, I: Anexo IV is not printed; the adapted layout says so."""
    t = flat(text(notification_pdf(s.notification_furniture())))
    assert "Anexo IV" in t and "Art. 5º, I" in t
    assert "MÓVEL DE GRANDE PORTE/MAQUINÁRIO ABANDONADO." in t
    assert "Geladeira branca" in t
    assert "PLACA" not in t


def test_affixed_notice_art_4_II_a():
    """Art. 4º, II, a: notice on the object, 10 days, case code and link."""
    t = flat(text(affixed_notice_pdf(s.affixed())))
    assert "NOTIFICAÇÃO — OBJETO EM ESTADO DE ABANDONO" in t
    assert "prazo máximo de 10 (dez) dias" in t and "Art. 4º, II, a" in t
    assert "quinta-feira, 10 de dezembro de 2026" in t
    assert "CASO: K7QM-42XD" in t
    assert "Informações: Setor de fiscalização da Prefeitura Municipal de Dores do Indaiá" in t
    assert s.LINK.url in t


def test_removal_term_three_vias_art_6_I_b():
    """Art. 6º, I, b: 3 vias, one page each, labelled with their destination."""
    ps = [flat(p) for p in pages(removal_term_pdf(s.removal()))]
    assert len(ps) == 3
    labels = ["1ª VIA — ARQUIVO DO ÓRGÃO RESPONSÁVEL PELA REMOÇÃO",
              "2ª VIA — PROPRIETÁRIO/RESPONSÁVEL",
              "3ª VIA — PÁTIO RESPONSÁVEL PELA GUARDA"]
    for page, label in zip(ps, labels):
        assert label in page
        assert [other for other in labels if other in page] == [label]
        assert "TERMO DE RECOLHIMENTO DE VEÍCULO" in page


def test_removal_term_content_art_6_and_art_3():
    """Checklist (Art. 3º §4º I), odometer, depot, time, evidence hashes (Art. 6º, I, a),
    retrieval (Art. 3º §3º; Art. 6º caput) and the 60-day auction rule (Art. 3º; CTB 328)."""
    page = flat(pages(removal_term_pdf(s.removal()))[1])
    for item in ("PORTAS ( )", "BANCOS ( )", "CAPÔ ( )", "MOTOR ( )", "PARA-CHOQUES ( )",
                 "VIDROS (X)", "PNEUS/RODAS (X)", "LANTERNAGEM AMASSADA (X)",
                 "VIDROS QUEBRADOS ( )"):
        assert item in page
    assert "OUTROS A ESPECIFICAR: retrovisores" in page
    assert "NÚMERO DO HODÔMETRO: 123.456 km" in page
    assert "11/12/2026, às 09:15" in page
    assert "Pátio Municipal — Av. Brasil, 900" in page
    assert "3f3f3f3f3f3f" in page and "3f" * 32 not in page  # short hashes
    assert "Art. 3º, § 3º" in page and "Art. 6º" in page
    assert "21 de dezembro de 2026" in page
    assert "60 dias contados do recolhimento" in page and "CTB art. 328" in page
    assert "9 de fevereiro de 2027" in page


def test_removal_term_relates_its_dates_once_each_art_6_and_art_3():
    """The termo states the retrieval date (Art. 6º, caput) and the auction-not-before date
    (Art. 3º, caput) once each, and how they relate: after the 10 days the vehicle stays in
    the depot and may still be retrieved until the 60th day."""
    for page in pages(removal_term_pdf(s.removal())):
        page = flat(page)
        assert page.count("21/12/2026") == 1 and page.count("09/02/2027") == 1
        assert page.count("10 dias") == 1 and page.count("60 dias") == 1
        assert "10 (dez) dias" not in page
        assert "Pedir a retirada em até 60 dias" not in page
        assert "Depois desse prazo, o veículo continua no pátio" in page
        assert "só depois dessa data pode ir a leilão (Art. 3º, caput; CTB art. 328)" in page


def test_furniture_termo_has_no_vehicles_60_days_art_5_iii():
    """Setting furniture_release_until_disposal: the 60 days of Art. 3º are the vehicles';
    a sofa's termo says its 10 days count from the publication (Art. 5º, III)."""
    for page in pages(removal_term_pdf(s.removal_furniture())):
        page = flat(page)
        assert "60" not in page.replace("2026", "") and "sessenta" not in page
        assert "Diário Oficial do Município (Art. 5º, III)" in page


def test_owner_summary_fees_and_deadlines():
    """Fees line by line with article, unit value, valid-from date; total; per-day cost."""
    t = flat(text(owner_summary_pdf(s.owner_summary())))
    assert "K7QM-42XD" in t and "Removido ao pátio" in t
    assert "segunda-feira, 21 de dezembro de 2026" in t and "Art. 6º, caput" in t
    assert "Reboque até o pátio" in t and "R$ 180,00" in t
    assert "R$ 25,50" in t and "01/01/2026" in t and "Art. 3º, § 3º, II" in t
    assert "TOTAL R$ 307,50" in t
    assert "Cada dia a mais no pátio custa R$ 25,50" in t
    assert "CRLV" in t and "Procuração pública" in t
    assert "terça-feira, 9 de fevereiro de 2027" in t
    assert "segunda a sexta, das 8h às 17h" in t


@pytest.mark.parametrize("build", [
    lambda: notification_pdf(s.notification()),
    lambda: affixed_notice_pdf(s.affixed()),
    lambda: removal_term_pdf(s.removal()),
    lambda: owner_summary_pdf(s.owner_summary()),
], ids=["notificacao", "afixada", "termo", "resumo"])
def test_qr_carries_the_printed_owner_link(build):
    """The embedded QR image is exactly segno's QR of the link printed below it."""
    blob = build()
    page = PdfReader(io.BytesIO(blob)).pages[0]
    printed = re.search(r"https://t\.me/\S+", page.extract_text()).group(0)
    assert printed == s.LINK.url == "https://t.me/ViaLivreDoresBot?start=K7QM-42XD"
    embedded = page.images[0].image.convert("L")
    expected = Image.open(qr_png(printed)).convert("L")
    assert embedded.size == expected.size
    assert embedded.tobytes() == expected.tobytes()


def test_footer_page_numbers_and_generation_time():
    ps = pages(removal_term_pdf(s.removal()))
    assert "Página 1/3" in ps[0] and "Página 3/3" in ps[2]
    assert "Gerado em 11/12/2026 09:30" in ps[0]


def test_same_data_same_bytes():
    """Deterministic output, so the caller's SHA-256 identifies the document."""
    assert notification_pdf(s.notification()) == notification_pdf(s.notification())
