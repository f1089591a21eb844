"""The law contract: a city's rules live in its module under core/laws/, so nothing outside
core/laws/ branches on a city — no comparison of a slug with a city's name, no import of a
city's own package (core.laws.<slug>), no importlib of one — in code or in the panel's
templates. A third city is one module (tests/integration/test_law_registry.py)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from core.laws import registry

ROOT = Path(__file__).resolve().parents[2]
LAWS = ROOT / "core" / "laws"
#: Modules of core/laws/ every face may import: the contract and its shared helpers.
SHARED = {"core.laws", "core.laws.base", "core.laws.common"}
SLUGS = set(registry()) | {s.replace("-", "_") for s in registry()}
TEMPLATE_BRANCH = re.compile(r"\bslug\s*(==|!=|\bin\b)|(==|!=)\s*law\.slug")


def _city_branches(source: str, filename: str = "<src>") -> list[str]:
    """Lines that branch on a city: a comparison involving a `slug` and a string constant or a
    city's name, an import of core.laws.<city>, an importlib call naming core.laws."""
    out = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            names_slug = any(isinstance(p, ast.Attribute) and p.attr == "slug" or
                             isinstance(p, ast.Name) and p.id.endswith("slug") for p in parts)
            constant = any(isinstance(p, ast.Constant) and isinstance(p.value, str)
                           for p in parts)
            city = any(isinstance(p, ast.Constant) and p.value in SLUGS for p in parts)
            if (names_slug and constant) or city:
                out.append(f"{filename}:{node.lineno}: compares with a city")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mods = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            if any(m.startswith("core.laws.") and m not in SHARED and
                   m.split(".")[2] in SLUGS for m in mods):
                out.append(f"{filename}:{node.lineno}: imports a city's law package")
        elif isinstance(node, ast.Import):
            if any(a.name.startswith("core.laws.") and a.name not in SHARED for a in node.names):
                out.append(f"{filename}:{node.lineno}: imports a city's law package")
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            text = ast.unparse(node)
            if name in ("import_module", "__import__") and "core.laws" in text:
                out.append(f"{filename}:{node.lineno}: imports a law module by name")
    return out


def _sources() -> list[Path]:
    files = [p for d in ("core", "bot", "admin", "whatsapp") for p in (ROOT / d).rglob("*.py")]
    return sorted(p for p in files if LAWS not in p.parents)


@pytest.mark.parametrize("src", [
    'if law.slug == "dracena":\n    pass\n',
    'x = "a" if core.law.slug != "dores-do-indaia" else "b"\n',
    'from core.laws.dracena import fees\n',
    'import core.laws.dores_do_indaia.fees\n',
    'importlib.import_module(f"core.laws.{slug}.fees")\n',
    'if municipality == "dracena":\n    pass\n',
])
def test_the_detector_sees_a_city_branch(src):
    assert _city_branches(src)


def test_the_detector_lets_the_contract_through():
    assert _city_branches("from core.laws.base import Law\nfrom core.laws import get_law\n"
                          "q = Case.municipality == core.law.slug\n") == []


def test_no_python_file_outside_core_laws_branches_on_a_city():
    found = [hit for p in _sources()
             for hit in _city_branches(p.read_text("utf-8"), str(p.relative_to(ROOT)))]
    assert found == []


def test_no_panel_template_branches_on_a_city():
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in (ROOT / "admin").rglob("*.html")
             for m in TEMPLATE_BRANCH.finditer(p.read_text("utf-8"))]
    assert found == []
