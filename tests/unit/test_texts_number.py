"""Every count a person reads agrees in number ("1 parada", "2 paradas"; core.formatting.plural):
no "(s)", "(es)", "(ões)" or "(ã)" left in what the bot, the core and the panel say — their
Python string literals (docstrings and log messages aside: those are for developers) and the
panel's templates and scripts."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from core.formatting import plural
from core.services.messaging.delivery import ROLE_LABELS

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = re.compile(r"\w+\((s|es|ões|ã)\)")
TECHNICAL = ("http(s)",)  # a scheme, not a plural
LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}


def _offending(text: str) -> list[str]:
    for word in TECHNICAL:
        text = text.replace(word, "")
    return [m.group(0) for m in SUFFIX.finditer(text)]


def _developer_strings(tree: ast.AST) -> set[int]:
    """ids of the constants that are docstrings or log messages."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in LOG_CALLS and node.args:
            skip.update(id(n) for n in ast.walk(node.args[0]))
    return skip


def python_texts(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text("utf-8"))
    skip = _developer_strings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip]


def findings() -> list[str]:
    found = []
    for face in ("core", "bot", "admin"):
        for path in sorted((ROOT / face).rglob("*.py")):
            for line, text in python_texts(path):
                found += [f"{path.relative_to(ROOT)}:{line}: {bad}" for bad in _offending(text)]
    for pattern in ("templates/**/*.html", "static/*.js"):
        for path in sorted((ROOT / "admin").glob(pattern)):
            text = re.sub(r"\{#.*?#\}", "", path.read_text("utf-8"), flags=re.S)
            for n, line in enumerate(text.splitlines(), 1):
                found += [f"{path.relative_to(ROOT)}:{n}: {bad}" for bad in _offending(line)]
    return found


def test_no_count_reads_with_a_parenthesised_plural() -> None:
    assert findings() == []


def test_the_walk_reads_what_a_person_reads(tmp_path: Path) -> None:
    """The check catches a plural in a message, in an f-string and in a template, and leaves
    docstrings and log messages alone."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""Doc with caso(s)."""\nimport logging\nlog = logging.getLogger()\n'
                      'log.info("%s message(s)", 2)\nA = "3 parada(s)"\nB = f"{n} foto(s)"\n',
                      "utf-8")
    texts = [t for _, t in python_texts(sample) for _ in _offending(t)]
    assert sorted(texts) == [" foto(s)", "3 parada(s)"]
    assert _offending("{{ n }} caso(s) nesta área") == ["caso(s)"]
    assert _offending("um endereço http(s) completo") == []


def test_counts_agree_in_number() -> None:
    assert plural(1, "parada", "paradas") == "1 parada"
    assert plural(2, "parada", "paradas") == "2 paradas"
    assert plural(0, "parada", "paradas") == "0 paradas"


def test_the_citizen_is_called_cidadao() -> None:
    assert ROLE_LABELS["citizen"] == "Cidadão"
