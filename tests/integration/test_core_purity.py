"""core/ is the rules core: it knows nothing of Telegram or HTTP (house rule), and outside
core/storage/ and core/services/ it does no I/O through database, HTTP or geocoding libraries.

Two checks:
- what each file imports, parsed with ast (a mention in a comment or string does not count);
- what importing each pure module really loads: each is imported in a fresh interpreter and
  `sys.modules` is read, so a library reached through another module (core.media once loaded
  SQLAlchemy through core.services.errors and core.storage's package; geopy.distance loads
  geopy's HTTP adapters, hence aiohttp) is caught too."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
NEVER = {"telegram", "aiohttp"}
PURE_FORBIDDEN = NEVER | {"sqlalchemy", "httpx", "geopy"}
IO_PACKAGES = ("storage", "services")
#: What importing a pure module must never load: database, HTTP and Telegram libraries.
HEAVY = ("sqlalchemy", "aiohttp", "telegram", "httpx", "asyncpg", "aiosqlite", "geopy",
         "alembic")
#: The command-line entry that migrates the database: I/O by nature, outside the pure rules.
NOT_PURE = {"core.migrate"}


def _modules(path: Path) -> set[str]:
    """Full dotted names of the absolute imports of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _imports(path: Path) -> set[str]:
    """Top-level packages imported."""
    return {m.split(".")[0] for m in _modules(path)}


MODULES = sorted(CORE.rglob("*.py"))


def _rel(p: Path) -> str:
    return p.relative_to(CORE).as_posix()


def _dotted(p: Path) -> str:
    parts = list(p.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PURE = sorted({_dotted(p) for p in MODULES
               if _rel(p).split("/")[0] not in IO_PACKAGES and p.name != "__main__.py"}
              - NOT_PURE)


def _loaded(module: str) -> list[str]:
    """The HEAVY libraries in sys.modules after importing `module` in a fresh interpreter."""
    script = (f"import json, sys, {module}\n"
              f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}}"
              f" & set({list(HEAVY)!r}))))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_parser_sees_imports(tmp_path):
    sample = tmp_path / "m.py"
    sample.write_text("import telegram.ext\nfrom aiohttp import web\n# import httpx\n"
                      "from geopy.distance import geodesic\n")
    assert _imports(sample) == {"telegram", "aiohttp", "geopy"}


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_core_never_imports_telegram_or_aiohttp(path):
    assert _imports(path) & NEVER == set()


@pytest.mark.parametrize(
    "path", [p for p in MODULES if _rel(p).split("/")[0] not in IO_PACKAGES], ids=_rel)
def test_rules_core_does_no_io_imports(path):
    assert _imports(path) & PURE_FORBIDDEN == set()


def test_the_pure_rules_are_all_checked():
    for named in ("core.media", "core.lifecycle", "core.legal_calendar", "core.fees",
                  "core.parsing", "core.laws", "core.laws.dracena", "core.documents.edital"):
        assert named in PURE


def test_the_fresh_interpreter_check_sees_a_database_library():
    """The check can fail: the storage module loads SQLAlchemy, and the check says so."""
    assert "sqlalchemy" in _loaded("core.storage.db")


@pytest.mark.parametrize("module", PURE)
def test_importing_a_pure_module_loads_no_database_http_or_telegram_library(module):
    assert _loaded(module) == []
