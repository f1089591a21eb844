"""Dracena, Lei 56/1951: auto de infração (Art. 2º) and its verso (Art. 5º), the note for
low-value goods (Art. 4º, § 1º) and the intimação (Art. 2º, § 3º)."""
import io
import re

from pypdf import PdfReader

from core.documents import auto_infracao_pdf, intimacao_pdf, low_value_note_pdf
from tests.support import document_samples as s


def pages(blob: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", p.extract_text().replace("\xa0", " "))
            for p in PdfReader(io.BytesIO(blob)).pages]


def test_auto_front_art_2_a_to_d():
    front = pages(auto_infracao_pdf(s.auto()))[0]
    assert "PREFEITURA MUNICIPAL DE DRACENA" in front
    assert "a) Infrator: José Ambulante" in front
    assert "b) Fato: Comércio ambulante sem licença" in front
    assert "03/12/2026, às 10:20" in front
    assert "c) Preceito violado: Código de Posturas" in front
    assert "Multa imposta: R$ 250,00" in front
    for who in ("AUTUANTE", "INFRATOR", "TESTEMUNHA 1", "TESTEMUNHA 2", "Pedro Lima", "Rita Alves"):
        assert who in front
    assert "terça-feira, 8 de dezembro de 2026" in front and "Art. 3º" in front


def test_auto_company_liability_art_2_p1():
    front = pages(auto_infracao_pdf(s.auto()))[0]
    assert "Art. 2º, § 1º" in front and "empregado de Frutas Boa Safra Ltda." in front
    assert "Frutas Boa Safra" not in pages(auto_infracao_pdf(s.auto(company=None)))[0]


def test_auto_refusal_to_sign_art_2_p2():
    front = pages(auto_infracao_pdf(s.auto(refused_to_sign=True)))[0]
    assert "recusou a assinar" in front and "duas testemunhas" in front
    signed = pages(auto_infracao_pdf(s.auto(refused_to_sign=False)))[0]
    assert "recusou a assinar" not in signed


def test_auto_not_in_presence_mentions_intimacao_art_2_p3():
    front = pages(auto_infracao_pdf(s.auto(in_presence=False, refused_to_sign=False)))[0]
    assert "Art. 2º, § 3º" in front and "intimado por escrito" in front


def test_auto_verso_art_5_legal_texts():
    """Art. 5º: appeals (Art. 3º, 5 days; Art. 4º § 2º, 48 hours), return of seized things
    (Art. 7º), fate when unclaimed (Art. 6º), copy to the offender (§ único)."""
    ps = pages(auto_infracao_pdf(s.auto()))
    assert len(ps) == 2
    verso = ps[1]
    assert "VERSO" in verso
    assert "Art. 3º O infrator autuado" in verso and "prazo de cinco dias" in verso
    assert "Art. 4º, § 2º" in verso and "quarenta e oito horas" in verso
    assert "Art. 7º As mercadorias" in verso and "paguem a multa" in verso
    assert "R$ 35,00" in verso  # current values beside the 1951 figures
    assert "Art. 6º O objeto da apreensão" in verso and "posto em leilão" in verso
    assert "Uma cópia do auto será entregue ao infrator" in verso


def test_low_value_note_art_4_p1():
    """Art. 4º, § 1º: list of goods, fine and law transgressed, signed; 48-hour appeal."""
    (page,) = pages(low_value_note_pdf(s.low_value_note()))
    assert "Art. 4º, § 1º" in page
    assert "Óculos de sol — 12 unidades" in page and "Capinhas de celular" in page
    assert "Multa imposta: R$ 80,00" in page
    assert "Lei transgredida: Código de Posturas" in page
    assert "FISCAL (assinatura)" in page and "Paula Ramos" in page
    assert "quarenta e oito horas" in page and "Art. 4º, § 2º" in page


def test_intimacao_art_2_p3_whole_content_and_5_days():
    ps = pages(intimacao_pdf(s.intimacao()))
    page = ps[0]
    assert "INTIMAÇÃO Nº I-0044/2026" in page and "Art. 2º, § 3º" in page
    assert "inteiro teor do Auto de Infração nº 0317/2026" in page
    assert "b) Fato: Comércio ambulante" in page and "Multa imposta: R$ 250,00" in page
    assert "quarta-feira, 9 de dezembro de 2026" in page and "Art. 3º" in page
    assert "Dracena, 04/12/2026." in page
    assert "Uma cópia do auto será entregue ao infrator" in ps[-1]
