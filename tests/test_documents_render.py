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
