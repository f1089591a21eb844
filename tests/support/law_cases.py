"""Each law's YAML cases live beside the law, in its package's `cases/` folder
(core/laws/<package>/cases/*.yaml), as OpenFisca keeps a country's tests in the country
package; the cases of the generic engines (calendar, storage days) stay in tests/cases. The
loaders find the folders through the law registry, so a third city's folder brings its own
cases. The law's cases travel with it: the wheel ships them (setuptools finds `cases/` as a
namespace package and package-data takes its YAML files), as OpenFisca ships a country's tests."""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import yaml

import core.laws
from core.laws import registry

GENERIC = Path(__file__).parents[1] / "cases"


def law_folders() -> dict[str, Path]:
    """slug → the law package's `cases/` folder, for every registered law that has one."""
    folders: dict[str, Path] = {}
    for mod in pkgutil.iter_modules(core.laws.__path__):
        if not mod.ispkg:
            continue
        module = importlib.import_module(f"core.laws.{mod.name}")
        law = getattr(module, "LAW", None)
        folder = Path(module.__path__[0]) / "cases"
        if law is not None and law.slug in registry() and folder.is_dir():
            folders[law.slug] = folder
    return dict(sorted(folders.items()))


def read(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def law_files(pattern: str) -> list[tuple[str, Path]]:
    """(slug, path) of every registered law's case files matching `pattern`."""
    return [(slug, path) for slug, folder in law_folders().items()
            for path in sorted(folder.glob(pattern))]


def law_case(slug: str, name: str):
    """One law's case file, read: `law_case("dracena", "fees.yaml")`."""
    return read(law_folders()[slug] / name)


def generic_case(name: str):
    """A case file of a generic engine, in tests/cases."""
    return read(GENERIC / name)
