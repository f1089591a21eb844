"""core/ is the rules core: it knows nothing of Telegram or HTTP (house rule), and outside
core/storage/ and core/services/ it does no I/O through database, HTTP or geocoding libraries.
Imports are parsed with ast, so a mention in a comment or string does not count."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "core"
NEVER = {"telegram", "aiohttp"}
PURE_FORBIDDEN = NEVER | {"sqlalchemy", "httpx", "geopy"}
IO_PACKAGES = ("storage", "services")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


MODULES = sorted(CORE.rglob("*.py"))


def _rel(p: Path) -> str:
    return p.relative_to(CORE).as_posix()


def test_the_parser_sees_imports(tmp_path):
    sample = tmp_path / "m.py"
    sample.write_text("import telegram.ext\nfrom aiohttp import web\n# import geopy\n")
    assert _imports(sample) == {"telegram", "aiohttp"}


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_core_never_imports_telegram_or_aiohttp(path):
    assert _imports(path) & NEVER == set()


@pytest.mark.parametrize(
    "path", [p for p in MODULES if _rel(p).split("/")[0] not in IO_PACKAGES], ids=_rel)
def test_rules_core_does_no_io_imports(path):
    assert _imports(path) & PURE_FORBIDDEN == set()
