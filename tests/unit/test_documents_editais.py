"""Editais for the Diário Oficial: Dores Art. 4º, II, b; Art. 6º, § 1º; Art. 3º/8º; Dracena
Art. 6º, § 1º. Only what the law requires: never the owner's CPF, never the reporter."""
import io
import re

import pytest
from pypdf import PdfReader

from core.documents import edital_pdf, edital_text
from tests.support import document_samples as s
from core.documents.data import EDITAL_KINDS, EDITAL_LEILAO, EDITAL_NOTIFICACAO, EDITAL_REMOCAO

CPF = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")


def pdf_text(blob: bytes) -> str:
    return re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages))


@pytest.mark.parametrize("kind", EDITAL_KINDS)
def test_editais_never_carry_cpf_or_reporter(kind):
    """LGPD: editais carry only what the law requires (no owner CPF, never the reporter)."""
    for out in (edital_text(s.edital_entries(), kind, s.edital_info()),
                pdf_text(edital_pdf(s.edital_entries(), kind, s.edital_info()))):
        assert s.OWNER_CPF not in out
        assert not [m for m in CPF.findall(out) if m not in ("00123456789",)]  # RENAVAM only
        assert s.REPORTER not in out
        assert "Maria da Silva" not in out


def test_edital_notificacao_art_4_II_b():
    t = edital_text(s.edital_entries(), EDITAL_NOTIFICACAO, s.edital_info())
    assert "Art. 4º, II, b" in t
    assert "10 (dez) dias, contados da data desta publicação" in t
    assert "placa: ABC1D23" in t and "Volkswagen" in t and "Prata" in t
    assert "Local em que se encontra abandonado: Rua Tiradentes, 120, Centro." in t


def test_edital_remocao_art_6_p1_a_b_c():
    t = edital_text(s.edital_entries(), EDITAL_REMOCAO, s.edital_info())
    assert "Art. 6º, § 1º" in t
    assert "chassi: 9BWZZZ377VT004251" in t  # a) dados possíveis do veículo
    assert "Local onde se encontrava abandonado: Rua Goiás, 45" in t  # b)
    assert "Local de destino da remoção: Pátio Municipal, Av. Brasil, 900" in t  # c)


def test_edital_leilao_dores_art_3_and_8():
    t = edital_text(s.edital_entries(), EDITAL_LEILAO, s.edital_info())
    assert "Art. 3º e do Art. 8º" in t and "art. 328" in t and "60 (sessenta) dias" in t
    assert "Leilão: 15/02/2027, às 9h, em Pátio Municipal" in t


def test_edital_leilao_dracena_art_6_p1():
    t = edital_text(s.edital_entries(), EDITAL_LEILAO, s.edital_info(s.DRACENA))
    assert "PREFEITURA MUNICIPAL DE DRACENA" in t
    assert "Art. 6º, § 1º" in t and "Art. 7º" in t


def test_edital_pdf_matches_text_content():
    t = pdf_text(edital_pdf(s.edital_entries(), EDITAL_REMOCAO, s.edital_info()))
    assert "EDITAL DE REMOÇÃO" in t and "Nº 015/2026" in t and "DORES DO INDAIÁ" in t
    assert "Carlos Souza" in t and "Dores do Indaiá/MG, 14/12/2026." in t


def test_unknown_kind_rejected():
    with pytest.raises(ValueError):
        edital_text(s.edital_entries(), "multa", s.edital_info())


def test_edital_notificacao_bens_art_5_III():
    """Dores Art. 5º, III: furniture/machinery removed at once — characteristics, the address
    where it was abandoned, the depot's address, date and time; 10 days from publication."""
    from core.documents.data import EditalEntry, ObjectData
    from core.documents.edital import EDITAL_NOTIFICACAO_BENS
    entry = EditalEntry("K7P2QX", ObjectData(description="Maquinário — características: "
                                             "betoneira laranja, dono CPF 529.982.247-25",
                                             is_vehicle=False),
                        "Rua Bahia, 300", destination="Pátio Municipal, Av. Brasil, 900",
                        removed_on="20/11/2026, às 09:30")
    for out in (edital_text([entry], EDITAL_NOTIFICACAO_BENS, s.edital_info()),
                pdf_text(edital_pdf([entry], EDITAL_NOTIFICACAO_BENS, s.edital_info()))):
        assert "Art. 5º, III" in out and "MAQUINÁRIOS" in out
        assert "10 (dez) dias, contados da data desta publicação" in out
        assert "betoneira laranja" in out and "Rua Bahia, 300" in out
        assert "Pátio Municipal, Av. Brasil, 900" in out and "20/11/2026, às 09:30" in out
        assert s.OWNER_CPF not in out
