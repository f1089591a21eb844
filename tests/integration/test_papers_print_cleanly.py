"""What leaves the system is right: every paper of both laws, produced by real cases
(tests/support/paper_flow.py: the citizen's report, the inspector's forms, the staff's steps and
editais, the sweep, the owner's link), carries the facts the steps recorded and prints
cleanly (tests/support/pdf_layout.py: no two printed lines overlap; no date, amount, plate, protocol
or case code is split across lines).

Set PAPERS_OUT=/some/dir to keep the PDFs (to render them with pdftoppm and look at them)."""
from __future__ import annotations

import io
import os
import re
from pathlib import Path

from pypdf import PdfReader

from tests.support.paper_flow import CITIZEN_NOTE, dores_papers, dracena_papers
from tests.support.pdf_layout import layout_problems

#: The inspector's form wording, and the law's clause letters ("dados possíveis do veículo
#: (a)"), never reach a paper.
FORM_WORDING = re.compile(r"se não foi o início da remoção|contam daqui|\s\([a-e]\)[\s,.;]")


def text_of(blob: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(blob)).pages)
                    .split())


def keep(papers: dict[str, bytes], law: str) -> None:
    out = os.environ.get("PAPERS_OUT")
    if out:
        (Path(out) / law).mkdir(parents=True, exist_ok=True)
        for name, blob in papers.items():
            (Path(out) / law / f"{name}.pdf").write_bytes(blob)


def assert_clean(papers: dict[str, bytes]) -> None:
    problems = {name: layout_problems(blob) for name, blob in papers.items()}
    assert {k: v for k, v in problems.items() if v} == {}
    for name, blob in papers.items():
        text = text_of(blob)
        assert CITIZEN_NOTE not in text, name  # a free text is never a reviewed fact
        assert not FORM_WORDING.search(text), (name, FORM_WORDING.search(text))


async def test_every_paper_of_dores_prints_cleanly_with_the_recorded_facts(
        make_core, photo, clock):
    """One walk of the cases (it takes a while), every check on its papers."""
    core = await make_core(telegram_bot_username="ViaLivreDoresBot")
    dores = await dores_papers(core, photo, clock)
    keep(dores, "dores")
    assert set(dores) == {"notificacao", "notificacao_afixada", "edital_notificacao",
                          "notificacao_publicada", "notificacao_bens", "termo", "termo_bens",
                          "edital_remocao", "edital_notificacao_bens", "resumo",
                          "edital_leilao", "termo_liberacao"}
    assert_clean(dores)
    vehicle_boxes(dores)
    matricula(dores)
    collection(dores)


def vehicle_boxes(dores: dict[str, bytes]) -> None:
    """Anexo I's DADOS DO VEÍCULO (Art. 4º, I; the termo, Art. 6º, I, b): every box from the
    inspector's facts — the citizen's "Fiat Uno Mille", "branco" as confirmed, the chassis,
    RENAVAM and the plate's municipality/UF typed at the inspection."""
    for name in ("notificacao", "termo"):
        text = text_of(dores[name])
        for box in ("PLACA ABC1D23", "MUNICÍPIO Dores do Indaiá", "UF MG", "MARCA Fiat",
                    "MODELO Uno Mille", "COR branco", "CHASSI 9BD15822AB4012345",
                    "RENAVAM 00123456789"):
            assert box in text, (name, box)
        assert "OBSERVAÇÕES" not in text
    assert "Fiat Uno Mille, branco, placa QWE-1234" in text_of(dores["notificacao_afixada"])
    for name in ("edital_notificacao", "edital_remocao", "edital_leilao"):
        assert "marca: Fiat; modelo: Uno Mille; cor: branco" in text_of(dores[name]), name


def matricula(dores: dict[str, bytes]) -> None:
    """The inspector's matrícula on every paper he signs."""
    for name in ("notificacao", "notificacao_afixada", "termo"):
        assert "Matr. 12.345" in text_of(dores[name]), name
    assert "Matr. 7.001" in text_of(dores["notificacao_bens"])
    assert "Matr. 7.001" in text_of(dores["termo_bens"])


def collection(dores: dict[str, bytes]) -> None:
    """The entry registered on 17/12 takes the collection offered by the form (the removal's
    start, 15/12 09:15): the termo prints it, 10 days to retrieve run to 25/12 → Monday
    28/12 (Christmas and the weekend), the 60 days (Art. 3º, caput) to 13/02/2027 → Monday
    15/02/2027."""
    text = text_of(dores["termo"])
    assert "DATA E HORA DA REMOÇÃO: 15/12/2026, às 09:15" in text
    assert "15/02/2027" in text
    assert "Diária de pátio — 3 dias (15/12/2026 a 17/12/2026)" in text_of(dores["resumo"])


async def test_every_paper_of_dracena_prints_cleanly_with_the_agents_matricula(
        make_core, photo, clock):
    core = await make_core("dracena", telegram_bot_username="ViaLivreDracenaBot")
    papers = await dracena_papers(core, photo, clock)
    keep(papers, "dracena")
    assert set(papers) == {"auto_infracao", "intimacao", "nota_apreensao", "auto_apreensao",
                           "resumo", "edital_leilao", "termo_liberacao"}
    assert_clean(papers)
    for name in ("auto_infracao", "intimacao", "nota_apreensao", "auto_apreensao"):
        assert "Matr. 3.210" in text_of(papers[name]), name


def test_every_sample_prints_cleanly():
    """docs/samples (core.documents.samples: long names, several fees, both laws)."""
    from tests.support import document_samples as samples
    problems = {name: layout_problems(blob) for name, blob in ((n, b()) for n, b in samples.builders().items())}
    assert {k: v for k, v in problems.items() if v} == {}


def test_the_checker_sees_an_overprint_and_a_split_date():
    """The checker itself: a date drawn over the next cell, and a date and an amount broken
    across lines, as the issue saw them ("(14/12/202A6r)t.", "01/12/20 26", "R$ 30, 00")."""
    from fpdf import FPDF

    from core.documents.pdf import FAMILY, FONT_DIR
    pdf = FPDF()
    pdf.add_font(FAMILY, "", str(FONT_DIR / "DejaVuSans.ttf"))
    pdf.add_page()
    pdf.set_font(FAMILY, "", 8)
    pdf.cell(10, 6, "14/12/2026", border=1)
    pdf.cell(20, 6, "Art. 3º", border=1, new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(12, 4, "01/12/2026")
    pdf.multi_cell(9, 4, "R$ 30,00")
    problems = layout_problems(bytes(pdf.output()))
    assert any("sobreposto" in p and "14/12" in p for p in problems)
    assert any("date partido" in p for p in problems)
    assert any("amount partido" in p for p in problems)


def test_a_long_footer_keeps_its_two_halves_apart():
    """The termo's footer (its number and via, then the generation moment and the page) never
    runs together ("…pela remoçãoGerado em"): too long for one line, the name goes above."""
    from dataclasses import replace

    from tests.support import document_samples as samples
    from core.documents.removal_term import removal_term_pdf
    from tests.support.pdf_layout import page_lines
    blob = removal_term_pdf(replace(samples.removal(), number="2026/000042-SEC-ADM-FISC-POSTURAS"))
    lines = page_lines(blob)
    assert [line for line in lines if line.startswith("Gerado em")]
    assert not [line for line in lines if "remoçãoGerado" in line or "remoção Gerado" in line]
    assert layout_problems(blob) == []


def test_a_deadline_recorded_with_the_form_label_prints_the_event():
    """A deadline counted before the papers had their own wording still prints the event's
    name, never the form's question."""
    from core.services.papers.documents import paper_wording
    recorded = ("Prazo de 60 dias (Art. 3º, caput), contado de 01/12/2026 (data e hora do "
                "recolhimento, se não foi o início da remoção (os prazos e as diárias contam "
                "daqui)), excluído o dia do início")
    assert paper_wording(recorded) == ("Prazo de 60 dias (Art. 3º, caput), contado de "
                                       "01/12/2026 (recolhimento), excluído o dia do início")
