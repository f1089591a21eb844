"""core/ is the rules core: it knows nothing of Telegram or HTTP (house rule), and outside
core/storage/ and core/services/ it does no I/O through database, HTTP or geocoding libraries.
Imports are parsed with ast, so a mention in a comment or string does not count.

One refinement of the brief: geopy's pure-math modules (geopy.distance, geopy.point — geodesic
distances, no network) are allowed in the rules core; its geocoders and adapters (I/O) are not."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core"
NEVER = {"telegram", "aiohttp"}
PURE_FORBIDDEN = NEVER | {"sqlalchemy", "httpx", "geopy"}
IO_PACKAGES = ("storage", "services")
PURE_GEOPY = {"geopy.distance", "geopy.point", "geopy.units"}


def _modules(path: Path) -> set[str]:
    """Full dotted names of the absolute imports of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "geopy":
                names.update(f"geopy.{a.name}" for a in node.names)
            else:
                names.add(node.module)
    return names


def _imports(path: Path) -> set[str]:
    """Top-level packages imported, ignoring geopy's pure-math modules."""
    return {m.split(".")[0] for m in _modules(path)
            if not any(m == g or m.startswith(g + ".") for g in PURE_GEOPY)}


MODULES = sorted(CORE.rglob("*.py"))


def _rel(p: Path) -> str:
    return p.relative_to(CORE).as_posix()


def test_the_parser_sees_imports(tmp_path):
    sample = tmp_path / "m.py"
    sample.write_text("import telegram.ext\nfrom aiohttp import web\n# import httpx\n"
                      "from geopy.distance import geodesic\nfrom geopy import Nominatim\n")
    assert _imports(sample) == {"telegram", "aiohttp", "geopy"}
    sample.write_text("from geopy.distance import geodesic\nfrom geopy import distance\n")
    assert _imports(sample) == set()


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_core_never_imports_telegram_or_aiohttp(path):
    assert _imports(path) & NEVER == set()


@pytest.mark.parametrize(
    "path", [p for p in MODULES if _rel(p).split("/")[0] not in IO_PACKAGES], ids=_rel)
def test_rules_core_does_no_io_imports(path):
    assert _imports(path) & PURE_FORBIDDEN == set()
