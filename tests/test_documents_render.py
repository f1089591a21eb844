"""Every document renders to PNG (pdftoppm, when installed) and its sample is in docs/samples."""
import shutil
import subprocess
from pathlib import Path

import pytest

from core.documents import samples


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


def test_samples_in_docs_are_current():
    """docs/samples/ holds every document (regenerate: python -m core.documents.samples)."""
    folder = Path(__file__).resolve().parent.parent / "docs" / "samples"
    for name, blob in samples.build_all().items():
        assert (folder / name).read_bytes() == blob, name


def test_the_generator_writes_every_sample_and_the_readme_previews(tmp_path):
    """`python -m core.documents.samples docs/samples` (samples.write) writes every PDF, the
    same bytes as docs/samples, and the PNG previews the README shows (with pdftoppm)."""
    written = samples.write(tmp_path)
    folder = Path(__file__).resolve().parent.parent / "docs" / "samples"
    for name in samples.builders():
        assert (tmp_path / name).read_bytes() == (folder / name).read_bytes(), name
    if shutil.which("pdftoppm"):
        readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
        for name in samples.PREVIEWS:
            png = tmp_path / "png" / name.replace(".pdf", ".png")
            assert png in written and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        for shown in ("notificacao.png", "termo-de-recolhimento.png", "auto-de-infracao.png"):
            assert f"docs/samples/png/{shown}" in readme and (tmp_path / "png" / shown).exists()
    # the printed owner code and the office's contact, as today's documents carry them
    assert samples.CASE == "K7QM-42XD" and samples.DORES.department.startswith("Setor de")
