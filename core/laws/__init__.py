"""Registry of municipal law modules, by slug.

Every module in this package that defines `LAW` (a core.laws.base.Law) is registered under
`LAW.slug`. A third city's law is one new module here; nothing else changes.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from core.laws.base import Law


@lru_cache(maxsize=1)
def registry() -> dict[str, Law]:
    laws: dict[str, Law] = {}
    for mod in pkgutil.iter_modules(__path__):
        if mod.name.startswith("_") or mod.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        law = getattr(module, "LAW", None)
        if isinstance(law, Law):
            laws[law.slug] = law
    return laws


def get_law(slug: str) -> Law:
    try:
        return registry()[slug]
    except KeyError:
        known = ", ".join(sorted(registry())) or "nenhuma"
        raise KeyError(f"Unknown municipality {slug!r}; known: {known}") from None
