"""The product (core/, bot/, admin/) stands without the sandbox package (the Bot API and
Nominatim stand-ins, the harness, the terminal chat): importing every product module in a
fresh interpreter loads no `sandbox` module, and the wheel leaves the package out."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("core", "bot", "admin", "whatsapp")


def _modules(top: str) -> list[str]:
    out = []
    for path in sorted((ROOT / top).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] != "__main__" and "migrations" not in parts:
            out.append(".".join(parts))
    return out


def _loaded_after_importing(modules: list[str]) -> list[str]:
    code = ("import importlib, json, sys\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_the_checker_sees_the_sandbox_when_it_is_imported():
    loaded = _loaded_after_importing(["core.settings", "sandbox.demo"])
    assert "sandbox" in loaded and "sandbox.demo" in loaded


def test_no_product_module_imports_the_sandbox():
    modules = [m for top in PRODUCT for m in _modules(top)]
    assert "bot.app" in modules and "bot.__main__" not in modules  # __main__ runs main()
    loaded = _loaded_after_importing(modules)
    assert [m for m in loaded if m == "sandbox" or m.startswith("sandbox.")] == []


def test_bot_main_reaches_the_sandbox_only_as_another_program():
    """`python -m bot` without a token, at a terminal, runs `python -m sandbox` as its own
    process (exec), never by importing it."""
    code = ("import runpy, sys, json\n"
            "runpy.run_module('bot.__main__', run_name='not_main')\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'sandbox')))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_the_wheel_holds_the_product_without_the_sandbox():
    find = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
        "packages"]["find"]
    packages = find_packages(str(ROOT), include=find["include"], exclude=find["exclude"])
    assert {"core", "bot", "admin", "bot.citizen"} <= set(packages)
    assert [p for p in packages if p.split(".")[0] not in PRODUCT] == []
