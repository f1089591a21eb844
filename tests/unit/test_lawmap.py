"""The law map (docs/lawmap.md) covers every article of both laws (read from their texts in docs/law/)
and points at files that cite them."""
from __future__ import annotations

import re

import pytest

from docs.lawmap import ROOT, cites, load, render

LAW_DIR = ROOT / "docs" / "law"
LAWMAP = load()
ENTRIES = [(slug, e) for slug, entries in LAWMAP.items() for e in entries]

# Every article (and the numbered parts the procedures turn on) of the two laws.
DORES_ARTICLES = {f"Art. {n}º" for n in range(1, 10)} | {"Art. 10", "Art. 11", "Art. 12",
                                                       "Art. 13", "Art. 14"}
DRACENA_ARTICLES = {f"Art. {n}º" for n in range(1, 9)}


def _articles_in_law_text(name: str) -> set[str]:
    text = (LAW_DIR / name).read_text(encoding="utf-8")
    return {f"Art. {n}º" if int(n) < 10 else f"Art. {n}"
            for n in re.findall(r"^(?:Art\.|Artigo)\s*(\d+)", text, re.M)}


@pytest.mark.parametrize("slug,articles,source", [
    ("dores-do-indaia", DORES_ARTICLES, "dores-do-indaia-lei-3043-2022.txt"),
    ("dracena", DRACENA_ARTICLES, "dracena-lei-56-1951.txt"),
])
def test_every_article_of_the_law_is_mapped(slug, articles, source):
    assert _articles_in_law_text(source) == articles
    mapped = {re.match(r"Art\. \d+º?", e["art"]).group(0) for e in LAWMAP[slug]}
    assert articles <= mapped, f"unmapped: {sorted(articles - mapped)}"


@pytest.mark.parametrize("slug,entry", ENTRIES, ids=[f"{s}:{e['art']}" for s, e in ENTRIES])
def test_mapped_files_exist_and_cite_the_article(slug, entry):
    if "none" in entry:
        assert len(entry["none"]) > 20, "say why no code is needed"
        return
    assert entry["code"], "an implemented article names its code"
    for path in [*entry["code"], *entry.get("tests", [])]:
        file = ROOT / path
        assert file.is_file(), f"{path} does not exist"
        assert cites(file, entry["art"]), f"{path} does not cite {entry['art']}"


def test_the_law_map_page_is_current():
    page = (ROOT / "docs" / "lawmap.md").read_text(encoding="utf-8")
    assert render() in page, "docs/lawmap.md is stale: run `python -m docs.lawmap`"


def test_the_law_texts_and_their_reading_aid_are_in_the_repo():
    """The texts the code cites travel with it: a fresh clone has them (docs/law/), with the
    reading aid's gaps (each one a named setting in core/laws/<city>/settings.py)."""
    aid = (LAW_DIR / "README.md").read_text(encoding="utf-8")
    assert "Gaps a program must decide explicitly" in aid
    for name in ("dores-do-indaia-lei-3043-2022.txt", "dracena-lei-56-1951.txt"):
        assert f"`{name}`" in aid and (LAW_DIR / name).stat().st_size > 4000


def test_code_cites_the_law_by_repo_path():
    """No file points outside the repository for the law (e.g. a machine's shared folder)."""
    outside = re.compile("/" + r"shared/law|\.\./" + "shared")  # split: this file is scanned too
    offenders = [str(f.relative_to(ROOT)) for d in ("core", "bot", "admin", "whatsapp", "tests", "docs")
                 for f in (ROOT / d).rglob("*.py") if outside.search(f.read_text(encoding="utf-8"))]
    assert offenders == []
