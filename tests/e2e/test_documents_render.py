"""Every document renders to PNG (pdftoppm, when installed), and the samples in docs/samples
come from the real flow (docs/samples.py: the real bot and panel, driven as a citizen, the
inspectors, the staff and the owner would) for both laws, each category family and every kind
of document a user can get. Regenerate: `python -m docs.samples docs/samples`."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from core.documents.data import EDITAL_KINDS
from core.laws import get_law
from core.services.papers.kinds import SHARED
from docs import samples as generator
from tests.support import document_samples as samples

ROOT = Path(__file__).resolve().parents[2]
#: Every document a user can get: the steps' documents, the editais, the owner's summary and
#: the inspector's day's notices.
KINDS = {*SHARED, *(f"edital_{k}" for k in EDITAL_KINDS), "resumo_proprietario",
         "notificacoes_do_dia"}


@pytest.mark.parametrize("name", sorted(samples.builders()))
def test_renders_first_page(name, tmp_path):
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm not installed")
    pdf = tmp_path / name
    pdf.write_bytes(samples.builders()[name]())
    subprocess.run(["pdftoppm", "-r", "30", "-png", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "page")], check=True, timeout=30)
    pngs = list(tmp_path.glob("page*.png"))
    assert len(pngs) == 1 and pngs[0].stat().st_size > 1000


def test_the_generator_covers_every_document_both_laws_and_each_category_family():
    scenarios = generator.SCENARIOS.values()
    yielded = {kind for _, _, files in scenarios for _, kind in files}
    assert yielded >= KINDS, KINDS - yielded
    for slug in ("dores-do-indaia", "dracena"):
        law = get_law(slug)
        families = {c.track for c in law.categories.values()}
        driven = {law.categories[category].track for s, category, _ in scenarios if s == slug}
        assert driven == families, (slug, families - driven)
    assert set(generator.RUN) == set(generator.SCENARIOS)  # each listed scenario is driven


def test_docs_samples_hold_each_generated_file_and_the_readme_its_previews():
    folder = ROOT / "docs" / "samples"
    stems = [stem for _, _, files in generator.SCENARIOS.values() for stem, _ in files]
    assert len(stems) == len(set(stems))
    for stem in stems:
        assert (folder / f"{stem}.pdf").read_bytes().startswith(b"%PDF"), stem
    readme = (ROOT / "README.md").read_text()
    shown = set(re.findall(r"docs/samples/png/([a-z-]+)\.png", readme))
    assert shown and shown <= set(generator.PREVIEWS) <= set(stems)
    for stem in shown:
        assert (folder / "png" / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
    assert "python -m docs.samples docs/samples" in (folder / "README.md").read_text()
    source = (ROOT / "docs" / "samples.py").read_text()
    assert "apply_transition" not in source and "submit_report" not in source  # no facts
    # written by hand: the documents come from the bot's and the panel's answers


def test_one_scenario_runs_through_the_real_bot_and_panel(tmp_path):
    """The generator itself, on its shortest scenario (a street vendor's goods in Dracena,
    Art. 4º, §1º): the note comes out of the bot's chat, dated by the generator's clock; the
    goods released after the PIX (Art. 7º): the termo de liberação the panel serves."""
    written = generator.write(tmp_path, ["dracena_street_vendor"])
    assert set(written) == {"nota-de-apreensao", "termo-de-liberacao"}
    from pypdf import PdfReader
    text = " ".join((p.extract_text() or "")
                    for p in PdfReader(written["nota-de-apreensao"]).pages)
    assert "30/11/2026" in text and "Art. 4º" in text
    termo = " ".join((p.extract_text() or "")
                     for p in PdfReader(written["termo-de-liberacao"]).pages)
    assert "TERMO DE LIBERAÇÃO" in termo and "Art. 7º" in termo and "30/11/2026" in termo
