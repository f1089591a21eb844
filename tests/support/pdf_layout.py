"""Reading a PDF as its reader does, from the printed characters' positions (pdfplumber), for
any test that checks a paper prints cleanly (no tests here):

    problems = layout_problems(pdf_bytes)    # [] when it prints cleanly

- no two printed things overlap: a glyph drawn over a glyph of another line or cell (a date
  over the next cell's article, a paragraph over the heading below, the footer's two halves
  running into each other);
- no date, amount, plate, protocol or case code is split across lines ("01/12/20" above
  "26", "R$ 30," above "00").

Lines are runs of characters on one baseline; a run continues on the next line when the next
run starts just below it within the same column."""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

import pdfplumber

#: What must never be split across lines, as printed.
WHOLE = {
    "date": re.compile(r"\d{2}/\d{2}/\d{4}"),
    "amount": re.compile(r"(?:R\$\s?)?\d{1,3}(?:\.\d{3})*,\d{2}"),
    "plate": re.compile(r"\b[A-Z]{3}-?\d[A-Z0-9]\d{2}\b"),
    "protocol": re.compile(r"\b\d{4}-\d{6}\b"),
    "case code": re.compile(r"\b[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}\b"),
    "time": re.compile(r"\b\d{2}:\d{2}\b"),
}


@dataclass
class Run:
    """Characters printed one after the other on one baseline."""

    page: int
    chars: list[dict] = field(default_factory=list)
    text: str = ""
    x0: float = 0.0
    x1: float = 0.0
    top: float = 0.0
    bottom: float = 0.0
    size: float = 0.0

    def close(self) -> "Run":
        self.text = "".join(c["text"] for c in self.chars)
        self.x0 = min(c["x0"] for c in self.chars)
        self.x1 = max(c["x1"] for c in self.chars)
        self.top = min(c["top"] for c in self.chars)
        self.bottom = max(c["bottom"] for c in self.chars)
        self.size = max(c["size"] for c in self.chars)
        return self


def runs(blob: bytes) -> list[Run]:
    """Every run of characters, page by page, in the order they were drawn: a run goes on
    while the next character sits on the same baseline just after the previous one."""
    out: list[Run] = []
    with pdfplumber.open(io.BytesIO(blob)) as pdf:
        for n, page in enumerate(pdf.pages, 1):
            current: Run | None = None
            for c in page.chars:  # content-stream order
                if current is not None:
                    last = current.chars[-1]
                    same_line = abs(last["bottom"] - c["bottom"]) < 0.3
                    near = -0.5 <= c["x0"] - last["x1"] < max(c["size"], last["size"]) * 0.9
                    if same_line and near:
                        current.chars.append(c)
                        continue
                    out.append(current.close())
                current = Run(n, [c])
            if current is not None:
                out.append(current.close())
    return out


def _shrunk(c: dict, k: float = 0.2) -> tuple[float, float, float, float]:
    """A glyph's box, shrunk a little: glyphs that merely touch (kerning, accents above a
    capital on a tight line) are not an overprint."""
    w, h = c["x1"] - c["x0"], c["bottom"] - c["top"]
    return c["x0"] + w * k, c["top"] + h * k, c["x1"] - w * k, c["bottom"] - h * k


def overlaps(blob: bytes) -> list[str]:
    """Glyphs of different runs drawn over each other."""
    problems = []
    all_runs = runs(blob)
    for i, a in enumerate(all_runs):
        for b in all_runs[i + 1:]:
            if b.page != a.page or b.top > a.bottom or a.top > b.bottom or b.x0 > a.x1 \
                    or b.x1 < a.x0:
                continue
            if _hit(a, b):
                problems.append(f"página {a.page}: “{a.text.strip()}” sobreposto a "
                                f"“{b.text.strip()}”")
    return problems


def _hit(a: Run, b: Run) -> bool:
    for ca in a.chars:
        if not ca["text"].strip():
            continue
        ax0, ay0, ax1, ay1 = _shrunk(ca)
        for cb in b.chars:
            if not cb["text"].strip():
                continue
            bx0, by0, bx1, by1 = _shrunk(cb)
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                return True
    return False


def splits(blob: bytes) -> list[str]:
    """A date, amount, plate, protocol, case code or time begun at the end of one line and
    ended at the start of the next line of the same column."""
    problems = []
    all_runs = runs(blob)
    for a in all_runs:
        for b in all_runs:
            if b.page != a.page or b is a:
                continue
            below = 0 <= b.top - a.bottom < a.size * 1.2
            same_column = abs(b.x0 - a.x0) < 2 or (b.x0 >= a.x0 - 1 and b.x0 < a.x1)
            if not (below and same_column):
                continue
            head, tail = a.text.rstrip(), b.text.lstrip()
            joined = head + tail
            for name, pattern in WHOLE.items():
                for m in pattern.finditer(joined):
                    if m.start() < len(head) < m.end() \
                            and not pattern.search(head[m.start():]) \
                            and not pattern.search(tail[:m.end() - len(head)]):
                        problems.append(f"página {a.page}: {name} partido entre linhas: "
                                        f"“{head[-25:]}” / “{tail[:25]}”")
    return problems


def layout_problems(blob: bytes) -> list[str]:
    return overlaps(blob) + splits(blob)


def page_lines(blob: bytes) -> list[str]:
    """The printed lines (runs), in reading order: for messages and spot checks."""
    return [r.text for r in runs(blob)]
