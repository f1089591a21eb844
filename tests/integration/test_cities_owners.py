"""The owner of a Dracena case served by a process whose default city is Dores do Indaiá: the
case is found by its code in any city (codes are unique in the installation), then everything
is Dracena's — the fees from Dracena's tariff book (Lei 56/1951, Art. 7º), the PIX BR Code with
Dracena's key and merchant, the papers' header (Dracena/SP, Lei nº 56, de 09/10/1951)."""
from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from core.services.installation.municipalities import set_municipality
from core.services.owners import owner_view
from core.services.owners.summary import owner_summary_pdf
from core.services.papers.documents import issue_apprehension
from tests.support.owner_cases import FISCAL, OWNER, dracena_apprehension
from tests.support.payments import PIX, official_tariffs

DRACENA_PIX = {"pix_key": "financas@dracena.sp.gov.br",
               "pix_merchant_name": "Prefeitura de Dracena",
               "pix_merchant_city": "Dracena"}
DRACENA_LAW = "Lei nº 56, de 09/10/1951"


def text_of(blob: bytes) -> str:
    return "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(blob)).pages)


@pytest.fixture
async def cities(make_two_cities, photo, clock):
    core = await make_two_cities(telegram_bot_username="ViaLivreBot", **PIX)  # Dores's PIX
    await set_municipality(core, "dracena", **DRACENA_PIX)
    dracena = core.for_city("dracena")
    sub = await dracena_apprehension(dracena, photo, clock)  # 3 head of cattle, Art. 4º
    await official_tariffs(core)
    core.invalidate()
    dracena.invalidate()
    return core, dracena, sub


async def test_the_owner_gets_dracenas_fees_and_pix_from_a_dores_process_art_7(cities):
    core, dracena, sub = cities
    assert core.municipality == "dores-do-indaia"
    seen = await owner_view(core, OWNER, sub.case_code)
    own = await owner_view(dracena, OWNER, sub.case_code)  # as Dracena itself would show it
    fees = seen.depot.fees
    assert fees.total > 0 and fees.total == own.depot.fees.total
    assert [(f.label, f.article, f.amount) for f in fees.lines] == \
        [(f.label, f.article, f.amount) for f in own.depot.fees.lines]
    assert all("Art. 7º" in f.article for f in fees.lines)  # Dracena's, never Dores's Art. 3º
    pay = seen.depot.payment
    assert pay is not None and pay.pix == own.depot.payment.pix
    assert "financas@dracena.sp.gov.br" in pay.pix and PIX["pix_key"] not in pay.pix
    assert "DRACENA" in pay.pix.upper() and "DORES" not in pay.pix.upper()
    assert seen.depot.address == own.depot.address


async def test_a_dracena_paper_from_a_dores_process_carries_dracenas_header(
        cities, tmp_path):
    core, _dracena, sub = cities
    summary = await owner_summary_pdf(core, OWNER, sub.case_code)
    _, filename, term = await issue_apprehension(core, sub.protocol, FISCAL)
    for blob in (summary, term):
        text = text_of(blob)
        assert "Dracena" in text and "SP" in text and DRACENA_LAW in text
        assert "Dores do Indaiá" not in text and "3.043" not in text
    assert "financas@dracena.sp.gov.br" in text_of(summary).replace("\n", "")
    if shutil.which("pdftoppm"):  # the header as printed (looked at once by eye too)
        (tmp_path / filename).write_bytes(term)
        subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1",
                        str(tmp_path / filename), str(tmp_path / "page")], check=True)
        assert list(tmp_path.glob("page*.png"))
