"""Render docs/lawmap.yaml as docs/lawmap.md, the law map: `python -m docs.lawmap` rewrites it."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
TITLES = {"dores-do-indaia": "Dores do Indaiá — Lei 3.043/2022",
          "dracena": "Dracena — Lei 56/1951"}


def load() -> dict[str, list[dict]]:
    return yaml.safe_load((ROOT / "docs" / "lawmap.yaml").read_text(encoding="utf-8"))


def normalise(text: str) -> str:
    """Citation spelling varies ("Art. 6º, § 1º", "Art. 6º §1º)", "Parágrafo único"): compare
    with commas and parentheses as spaces, single spaces, and "§" glued to its number."""
    text = text.replace("Parágrafo único", "§ único").replace("parágrafo único", "§ único")
    text = re.sub(r"\s+", " ", re.sub(r"[,()]", " ", text))
    return re.sub(r"§ ", "§", text)


def cites(path: Path, article: str) -> bool:
    """True if the file cites `article` ("Art. 1º, I" is not cited by "Art. 1º, IV"). A
    "caput" reference is also cited by the bare article."""
    text = normalise(path.read_text(encoding="utf-8"))
    wanted = [normalise(article).strip()]
    if article.endswith(", caput"):
        wanted.append(normalise(article[: -len(", caput")]).strip())
    for w in wanted:
        for m in re.finditer(re.escape(w), text):
            nxt = text[m.end(): m.end() + 1]
            if not nxt.isalnum():
                return True
    return False


def render() -> str:
    out = []
    for slug, entries in load().items():
        out += [f"### {TITLES[slug]}", "", "| Article | What | Code | Tests |", "|---|---|---|---|"]
        for e in entries:
            if "none" in e:
                out.append(f"| {e['art']} | — | none: {e['none']} | — |")
                continue
            code = ", ".join(f"`{c}`" for c in e["code"])
            tests = ", ".join(f"`{t}`" for t in e.get("tests", [])) or "—"
            out.append(f"| {e['art']} | {e['what']} | {code} | {tests} |")
        out.append("")
    return "\n".join(out)


HEADER = """# Law map

Every article of both laws, the code that implements it and the tests that check it (each file
cites the article; tests/unit/test_lawmap.py checks both). The source is docs/lawmap.yaml; this
page is generated from it with `python -m docs.lawmap`. How a law becomes code: docs/law.md.

"""


def page() -> str:
    return HEADER + render()


if __name__ == "__main__":
    (ROOT / "docs" / "lawmap.md").write_text(page(), encoding="utf-8")
