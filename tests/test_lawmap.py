"""The README's law map covers every article of both laws and points at files that cite them."""
from __future__ import annotations

import re

import pytest

from docs.lawmap import ROOT, cites, load, render

LAWMAP = load()
ENTRIES = [(slug, e) for slug, entries in LAWMAP.items() for e in entries]

# Every article (and the numbered parts the procedures turn on) of the two laws.
DORES_ARTICLES = {f"Art. {n}º" for n in range(1, 10)} | {"Art. 10", "Art. 11", "Art. 12",
                                                       "Art. 13", "Art. 14"}
DRACENA_ARTICLES = {f"Art. {n}º" for n in range(1, 9)}


def _articles_in_law_text(name: str) -> set[str]:
    text = (ROOT.parent / "shared" / "law" / name).read_text(encoding="utf-8")
    return {f"Art. {n}º" if int(n) < 10 else f"Art. {n}"
            for n in re.findall(r"^(?:Art\.|Artigo)\s*(\d+)", text, re.M)}


@pytest.mark.parametrize("slug,articles,source", [
    ("dores-do-indaia", DORES_ARTICLES, "dores-do-indaia-lei-3043-2022.txt"),
    ("dracena", DRACENA_ARTICLES, "dracena-lei-56-1951.txt"),
])
def test_every_article_of_the_law_is_mapped(slug, articles, source):
    law_text = ROOT.parent / "shared" / "law" / source
    if law_text.exists():
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


def test_readme_shows_the_current_law_map():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert render() in readme, "README law map is stale: run `python -m docs.lawmap`"
