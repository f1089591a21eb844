"""Layer contracts, read from the imports (ast, function-level imports included):
- the faces (bot/, admin/) use core services, never core.storage directly;
- the core (services included) never imports a face (bot, admin);
- core modules import each other without cycles (notifications live in their own module, so
  cases ↔ owners and inspectors ↔ tasks no longer import each other).
The stand-ins, the harness and the sandbox live in the top-level sandbox/ package: test and
demo infrastructure, neither a face nor part of the product (tests/unit/test_product_alone.py)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FACES = ("bot", "admin")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _typing_only(tree: ast.AST) -> set[int]:
    """ids of the nodes inside `if TYPE_CHECKING:` blocks (annotations, never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(n) for child in node.body for n in ast.walk(child))
    return out


def _imports(path: Path) -> set[str]:
    """Every module a file imports at run time, anywhere in it (dotted; `from a import b`
    gives a.b); imports only for type annotations (TYPE_CHECKING) do not count."""
    out: set[str] = set()
    tree = ast.parse(path.read_text("utf-8"), str(path))
    skip = _typing_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def _files(top: str) -> list[Path]:
    return sorted((ROOT / top).rglob("*.py"))


def test_the_checker_sees_nested_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from core.storage.models import Case\n")
    assert "core.storage.models" in _imports(f)


def test_faces_use_services_never_storage():
    found = [f"{p.relative_to(ROOT)} imports {m}" for top in FACES for p in _files(top)
             for m in sorted(_imports(p)) if m == "core.storage" or m.startswith("core.storage.")]
    assert found == []


def test_the_core_never_imports_a_face():
    found = [f"{p.relative_to(ROOT)} imports {m}" for p in _files("core")
             for m in sorted(_imports(p)) if m.split(".")[0] in FACES]
    assert found == []


def test_the_product_never_imports_the_sandbox():
    """core/, bot/ and admin/ ship in the wheel; sandbox/ (stand-ins, harness) does not."""
    found = [f"{p.relative_to(ROOT)} imports {m}" for top in ("core", *FACES) for p in _files(top)
             for m in sorted(_imports(p)) if m.split(".")[0] == "sandbox"]
    assert found == []


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in _files("core")}
    return {m: {i for i in _imports(p) if i in modules and i != m}
            for m, p in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_core_modules_import_each_other_without_cycles():
    assert _cycles(_graph()) == []
