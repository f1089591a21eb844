"""Layer contracts, read from the imports (ast, function-level imports included):
- the faces (bot/, admin/) use core services, never core.storage directly (not even for a
  type annotation under TYPE_CHECKING: a face names the services' types);
- the core (services included) never imports a face (bot, admin);
- core modules import each other without cycles (notifications live in their own module, so
  cases ↔ owners and inspectors ↔ tasks no longer import each other);
- core/services/ keeps at most MAX_TOP entries at its top (packages and modules), and each
  room (a package's __init__, or a top-level module) says in its docstring what it may import
  ("May import: ... core.services.{a, b}" or "every ... services package"), which holds;
- no module imports another module's private name (`from x import _name`, `x._name`): a
  helper two modules share is public in the right place.
The stand-ins, the harness and the sandbox live in the top-level sandbox/ package: test and
demo infrastructure, neither a face nor part of the product (tests/unit/test_product_alone.py)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FACES = ("bot", "admin", "whatsapp")
SERVICES = ROOT / "core" / "services"
MAX_TOP = 15


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


def _imports(path: Path, typing: bool = False) -> set[str]:
    """Every module a file imports at run time, anywhere in it (dotted; `from a import b`
    gives a.b); imports only for type annotations (TYPE_CHECKING) count only with `typing`."""
    out: set[str] = set()
    tree = ast.parse(path.read_text("utf-8"), str(path))
    skip = set() if typing else _typing_only(tree)
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


def test_the_checker_sees_type_only_imports_when_asked(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                 "    from core.storage.db import Database\n")
    assert "core.storage.db" not in _imports(f)
    assert "core.storage.db" in _imports(f, typing=True)


def test_faces_use_services_never_storage():
    found = [f"{p.relative_to(ROOT)} imports {m}" for top in FACES for p in _files(top)
             for m in sorted(_imports(p, typing=True))
             if m == "core.storage" or m.startswith("core.storage.")]
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



# -- the services' rooms ---------------------------------------------------------------------

def _rooms() -> dict[str, Path]:
    """Each room of core/services: a package (its __init__) or a top-level module."""
    rooms = {p.name: p / "__init__.py" for p in SERVICES.iterdir()
             if p.is_dir() and (p / "__init__.py").exists()}
    rooms.update({p.stem: p for p in SERVICES.glob("*.py") if p.stem != "__init__"})
    return rooms


def _declared(doc: str, rooms: set[str], own: str) -> set[str] | None:
    """The rooms a docstring's "May import:" paragraph allows; None when it has none."""
    found = re.search(r"May import:(.*?)(?:\n\s*\n|$)", doc or "", re.S)
    if not found:
        return None
    text = " ".join(found.group(1).split())
    if re.search(r"every (other )?services package", text):
        return rooms - {own}
    named = re.search(r"core\.services\.\{([^}]*)\}", text)
    return {n.strip() for n in named.group(1).split(",")} if named else set()


def _room_files(room: str, path: Path) -> list[Path]:
    return sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]


def test_the_declaration_reader():
    rooms = {"a", "b", "c"}
    assert _declared("What.\n\nMay import: core's pure rules, core.storage, and\n"
                     "core.services.{a,\n b} (why).", rooms, "c") == {"a", "b"}
    assert _declared("May import: core's pure rules and core.storage; no other service.",
                     rooms, "c") == set()
    assert _declared("May import: core.storage and every other services package.",
                     rooms, "c") == {"a", "b"}
    assert _declared("Nothing declared.", rooms, "c") is None


def test_services_keep_few_entries_at_the_top():
    top = [p.name for p in SERVICES.iterdir()
           if (p.is_dir() and (p / "__init__.py").exists())
           or (p.suffix == ".py" and p.stem != "__init__")]
    assert len(top) <= MAX_TOP, sorted(top)


def test_each_room_says_what_it_may_import():
    rooms = _rooms()
    silent = [name for name, path in rooms.items()
              if _declared(ast.get_docstring(ast.parse(path.read_text("utf-8"))) or "",
                           set(rooms), name) is None]
    assert silent == []


def test_each_room_imports_only_the_rooms_it_declares():
    rooms = _rooms()
    found = []
    for name, path in sorted(rooms.items()):
        allowed = _declared(ast.get_docstring(ast.parse(path.read_text("utf-8"))) or "",
                            set(rooms), name) or set()
        for f in _room_files(name, path):
            for m in sorted(_imports(f, typing=True)):
                parts = m.split(".")
                if (parts[:2] == ["core", "services"] and len(parts) > 2
                        and parts[2] in rooms and parts[2] != name
                        and parts[2] not in allowed):
                    found.append(f"{f.relative_to(ROOT)} imports {m} ({name} declares "
                                 f"{sorted(allowed)})")
    assert sorted(set(found)) == []


# -- private names -------------------------------------------------------------------------

def _private_uses(path: Path) -> list[str]:
    """`from x import _name` and `x._name` where x is one of our modules (core, bot, admin)."""
    ours = ("core", "bot", "admin", "whatsapp")
    tree = ast.parse(path.read_text("utf-8"), str(path))
    aliases: dict[str, str] = {}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in ours:
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    out.append(f"from {node.module} import {a.name}")
                else:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in ours:
                    aliases[a.asname or a.name.split(".")[0]] = a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in aliases and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            out.append(f"{aliases[node.value.id]}.{node.attr}")
    return out


def test_the_private_name_finder_finds_both_forms(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("from core.services.owners.view import _build_view, owner_view\n"
                 "from core.services.owners import view\nview._deadline(1)\n"
                 "import argparse\nargparse._SubParsersAction\n")
    assert _private_uses(f) == ["from core.services.owners.view import _build_view",
                                "core.services.owners.view._deadline"]


def test_no_module_uses_another_modules_private_name():
    found = [f"{p.relative_to(ROOT)}: {use}" for top in ("core", *FACES) for p in _files(top)
             for use in _private_uses(p)]
    assert found == []


# -- one definition ------------------------------------------------------------------------

def _defined_once(pred) -> list[str]:
    return [str(p.relative_to(ROOT)) for top in ("core", *FACES) for p in _files(top)
            for n in ast.walk(ast.parse(p.read_text("utf-8"))) if pred(n)]


def test_the_time_zone_is_named_in_one_place():
    """core.formatting.TZ_NAME; the services use Core.tz, the pure rules core.formatting.TZ."""
    assert _defined_once(lambda n: isinstance(n, ast.Constant)
                         and n.value == "America/Sao_Paulo") == ["core/formatting.py"]


def test_one_way_to_join_a_transaction_is_defined_once():
    """core.services.context.SessionHook (and Core.transaction for `session=`)."""
    assert _defined_once(lambda n: isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "SessionHook" for t in n.targets)) \
        == ["core/services/context.py"]
