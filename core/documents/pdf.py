"""Shared page furniture for the documents: fonts, city header, footer, fields, QR block.

Fonts: DejaVu Sans (regular and bold) is shipped in core/documents/fonts/ (free licence in
LICENSE-DejaVu.txt) and embedded (subset) in every PDF, so every Unicode character the
texts use (º ª accents, curly quotes, dashes, "…", the no-break space babel puts after R$)
renders the same on any machine, without relying on system fonts."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence, TypedDict, cast

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from core.documents.data import CityHeader
from core.documents.fmt import stamp
from core.documents.qr import qr_png

FONT_DIR = Path(__file__).parent / "fonts"
_KEEP_MONEY = re.compile(r"R\$[ \t]+(?=\d)")
FAMILY = "DejaVu"


class NewLine(TypedDict):
    """fpdf2's "then go to the next line at the left margin", as keyword arguments."""
    new_x: XPos
    new_y: YPos


NL: NewLine = {"new_x": XPos.LMARGIN, "new_y": YPos.NEXT}


class DocumentPDF(FPDF):
    """A4 portrait document with the city's header helper and a footer carrying
    page x/y and the generation date/time."""

    def __init__(self, title: str, generated_at: datetime, header: CityHeader,
                 orientation: str = "P") -> None:
        super().__init__(orientation=orientation, unit="mm", format="A4")
        self.doc_title = title
        self.generated_at = generated_at
        self.city = header
        self.add_font(FAMILY, "", str(FONT_DIR / "DejaVuSans.ttf"))
        self.add_font(FAMILY, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
        self.set_margins(18, 15, 18)
        self.set_auto_page_break(True, margin=18)
        self.set_title(title)
        self.set_author(header.prefeitura)
        self.set_creator("Via Livre")
        created = generated_at if generated_at.tzinfo else generated_at.replace(tzinfo=timezone.utc)
        self.set_creation_date(created)  # deterministic bytes for the caller's SHA-256
        self.set_font(FAMILY, size=10)
        self.footer_note = ""

    def normalize_text(self, text: str) -> str:
        """Every text drawn: an amount's "R$" stays on the line of its number (a no-break
        space), wherever the text came from (a law's costs, a typed value)."""
        return super().normalize_text(_KEEP_MONEY.sub("R$\u00a0", text))

    # --- page furniture -----------------------------------------------------------------
    def footer(self) -> None:
        """The document's name (and via) on the left, the generation moment and the page on
        the right; when both do not fit on one line with a clear gap, the name goes on the
        line above (never run together)."""
        self.set_font(FAMILY, size=7)
        self.set_text_color(90)
        left = f"{self.doc_title}{(' — ' + self.footer_note) if self.footer_note else ''}"
        right = f"Gerado em {stamp(self.generated_at)}  ·  Página {self.page_no()}/{{nb}}"
        room = self.w - self.l_margin - self.r_margin
        # "{nb}" is replaced by the page count (at most a few digits) when the file is output
        apart = self.get_string_width(left) + self.get_string_width(right) + 6 <= room
        self.set_y(-13 if apart else -16.5)
        self.set_x(self.l_margin)
        self.cell(0, 3.5, left, align="L")
        if not apart:
            self.set_y(-13)
        self.set_x(self.l_margin)
        self.cell(0, 3.5, right, align="R")
        self.set_text_color(0)

    def city_header(self, subtitle: str = "") -> None:
        self.set_font(FAMILY, "B", 13)
        self.cell(0, 7, self.city.prefeitura, align="C", **NL)
        self.set_font(FAMILY, "", 9)
        line = f"{self.city.city}/{self.city.uf} — {self.city.law_title}"
        self.cell(0, 5, line, align="C", **NL)
        if self.city.department:  # the office's contact (address, phone, hours)
            self.set_font(FAMILY, "", 8)
            self.multi_cell(0, 4, self.city.department, align="C", **NL)
            self.set_font(FAMILY, "", 9)
        if subtitle:
            self.cell(0, 5, subtitle, align="C", **NL)
        self.ln(1)
        self.hline()
        self.ln(2)

    def hline(self) -> None:
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())

    # --- text blocks --------------------------------------------------------------------
    def copies(self, vias: tuple[str, ...], draw: Callable[[str], None]) -> bytes:
        """A paper printed in several vias (copies), one page each: `draw(via)` fills the
        page; the via also goes in the page's footer. Returns the PDF's bytes."""
        for via in vias:
            self.add_page()
            self.footer_note = via  # after add_page: the previous page's footer is already drawn
            draw(via)
        return bytes(self.output())

    def via_banner(self, via: str) -> None:
        """The dark band under the title naming which via this page is."""
        self.set_font(FAMILY, "B", 9)
        self.set_fill_color(30)
        self.set_text_color(255)
        self.cell(0, 6, via.upper(), align="C", fill=True, new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(0)
        self.ln(1)

    def title_line(self, text: str, size: float = 15) -> None:
        self.set_font(FAMILY, "B", size)
        self.multi_cell(0, size * 0.5, text, align="C", **NL)
        self.ln(2)
        self.set_font(FAMILY, "", 10)

    def section(self, text: str) -> None:
        self.ln(1.5)
        self.set_font(FAMILY, "B", 10)
        self.set_fill_color(230)
        self.cell(0, 6, text, fill=True, **NL)
        self.set_font(FAMILY, "", 10)
        self.ln(1)

    def field(self, label: str, value: str, size: float = 10) -> None:
        """LABEL: value, wrapping."""
        self.labelled(f"{label}: ", value or "—", size)
        self.ln(0.6)

    def labelled(self, label: str, value: str, size: float = 10) -> None:
        """Bold label then plain value, flowing and wrapping to the left margin (no markdown,
        so case data can never be read as formatting)."""
        self.set_x(self.l_margin)
        self.set_font(FAMILY, "B", size)
        self.write(size * 0.5, label)
        self.set_font(FAMILY, "", size)
        self.write(size * 0.5, value)
        self.ln(size * 0.5)

    def para(self, text: str, size: float = 10, align: str = "J", bold: bool = False,
             markdown: bool = False) -> None:
        self.set_font(FAMILY, "B" if bold else "", size)
        self.multi_cell(0, size * 0.48, text, align=align, markdown=markdown, **NL)
        self.ln(1)
        self.set_font(FAMILY, "", 10)

    def note(self, text: str) -> None:
        self.set_font(FAMILY, "", 8)
        self.set_text_color(70)
        self.multi_cell(0, 4, text, align="L", **NL)
        self.set_text_color(0)
        self.set_font(FAMILY, "", 10)
        self.ln(0.5)

    def grid(self, rows: list[list[tuple[str, str]]], height: float = 9) -> None:
        """Boxed label/value cells: each row is a list of (label, value) of equal widths."""
        width = self.w - self.l_margin - self.r_margin
        for row in rows:
            cw = width / len(row)
            y = self.get_y()
            if y + height > self.page_break_trigger:
                self.add_page()
                y = self.get_y()
            for i, (label, value) in enumerate(row):
                x = self.l_margin + i * cw
                self.rect(x, y, cw, height)
                self.set_xy(x + 1, y + 0.6)
                self.set_font(FAMILY, "B", 6.5)
                self.cell(cw - 2, 3, label)
                self.set_xy(x + 1, y + 3.8)
                self.set_font(FAMILY, "", 9.5)
                self.cell(cw - 2, 4.6, _fit(self, value or "—", cw - 2))
            self.set_xy(self.l_margin, y + height)
        self.ln(1)
        self.set_font(FAMILY, "", 10)

    def checks(self, label: str, items: list[tuple[str, bool]], size: float = 9.5) -> None:
        """LABEL: ITEM (X) ITEM ( ) … as in the annexes."""
        marks = "   ".join(f"{name} ({'X' if on else ' '})" for name, on in items)
        self.labelled(f"{label} " if label else "", marks, size)
        self.ln(0.8)

    def signature(self, name: str, role: str, width: float = 0, x: float | None = None,
                  caption: str = "") -> None:
        width = width or (self.w - self.l_margin - self.r_margin)
        x = self.l_margin if x is None else x
        self.ln(10)
        y = self.get_y()
        self.line(x, y, x + width, y)
        self.set_xy(x, y + 0.8)
        self.set_font(FAMILY, "B", 8)
        if caption:
            self.cell(width, 4, caption, align="C")
            self.set_xy(x, self.get_y() + 4)
        self.set_font(FAMILY, "", 8.5)
        self.multi_cell(width, 4, "\n".join(p for p in (name, role) if p), align="C",
                        new_x=XPos.LEFT, new_y=YPos.NEXT)
        self.set_x(self.l_margin)
        self.set_font(FAMILY, "", 10)

    def signatures_row(self, people: list[tuple[str, str, str]], total: float = 0) -> None:
        """Side-by-side signature lines: (caption, name, role)."""
        gap = 6
        total = total or (self.w - self.l_margin - self.r_margin)
        width = (total - gap * (len(people) - 1)) / len(people)
        self.ln(12)
        y = self.get_y()
        if y + 16 > self.page_break_trigger:
            self.add_page()
            self.ln(12)
            y = self.get_y()
        bottom = y
        for i, (caption, name, role) in enumerate(people):
            x = self.l_margin + i * (width + gap)
            self.line(x, y, x + width, y)
            self.set_xy(x, y + 0.8)
            self.set_font(FAMILY, "B", 8)
            self.multi_cell(width, 3.8, caption, align="C", new_x=XPos.LEFT, new_y=YPos.NEXT)
            self.set_font(FAMILY, "", 8)
            text = "\n".join(p for p in (name, role) if p)
            if text:
                self.multi_cell(width, 3.8, text, align="C", new_x=XPos.LEFT, new_y=YPos.NEXT)
            bottom = max(bottom, self.get_y())
        self.set_xy(self.l_margin, bottom + 1)
        self.set_font(FAMILY, "", 10)

    def boxed_table(self, columns: Sequence[tuple[str, float, str]], rows: list[list[str]],
                    size: float = 8, line: float = 3.6) -> list[float]:
        """A boxed table whose cells wrap between words only: a column is widened (taking
        from the first, the widest text) until its longest word, date or amount fits, so no
        number is ever broken across lines. `columns`: (heading, width, align)."""
        widths = [w for _, w, _ in columns]
        for k in range(len(columns)):
            self.set_font(FAMILY, "B", size)
            need = max((self.get_string_width(w) for w in columns[k][0].split(" ")), default=0)
            self.set_font(FAMILY, "", size)
            need = max([need, *(self.get_string_width(word) for r in rows
                                for word in r[k].split(" ") if word)]) + 2.4
            if need > widths[k] and k:
                widths[0] -= need - widths[k]
                widths[k] = need
        self._table_row([h for h, _, _ in columns], widths, ["C"] * len(columns), size, line,
                        bold=True)
        for r in rows:
            self._table_row(r, widths, [a for _, _, a in columns], size, line)
        self.set_font(FAMILY, "", 10)
        return widths

    def _table_row(self, cells: list[str], widths: list[float], aligns: list[str],
                   size: float, line: float, bold: bool = False) -> None:
        self.set_font(FAMILY, "B" if bold else "", size)
        lines = [len(cast(list[str], self.multi_cell(w - 2, line, t, dry_run=True,
                                                     output="LINES")))
                 for t, w in zip(cells, widths)]
        height = max(lines) * line + 2
        if self.get_y() + height > self.page_break_trigger:
            self.add_page()
        y, x = self.get_y(), self.l_margin
        for text, w, align in zip(cells, widths, aligns):
            if bold:
                self.set_fill_color(235)
            self.rect(x, y, w, height, style="DF" if bold else "D")
            self.set_xy(x + 1, y + 1)
            self.multi_cell(w - 2, line, text, align=align, new_x=XPos.LEFT, new_y=YPos.NEXT)
            x += w
        self.set_xy(self.l_margin, y + height)

    # --- QR -----------------------------------------------------------------------------
    def qr_block(self, url: str, size: float = 32, caption: str = "",
                 x: float | None = None, y: float | None = None, text_size: float = 8) -> None:
        """QR code carrying `url`, with the same `url` printed below it (one value for both)."""
        x = (self.w - size) / 2 if x is None else x
        y = self.get_y() if y is None else y
        if caption:
            cw = min(size + 40, self.w - self.r_margin - (x - 20))
            self.set_xy(x + size / 2 - cw / 2, y)
            self.set_font(FAMILY, "B", text_size + 1)
            self.multi_cell(cw, text_size * 0.5, caption, align="C",
                            new_x=XPos.LEFT, new_y=YPos.NEXT)
            y = self.get_y() + 0.5
        self.image(qr_png(url), x=x, y=y, w=size, h=size)
        self.set_font(FAMILY, "", text_size)
        tw = self.get_string_width(url) + 1
        tx = min(max(x + size / 2 - tw / 2, self.l_margin), self.w - self.r_margin - tw)
        self.set_xy(tx, y + size + 0.5)
        self.cell(tw, text_size * 0.5, url, align="C", link=url)
        self.set_xy(self.l_margin, y + size + text_size * 0.5 + 2)
        self.set_font(FAMILY, "", 10)


def _fit(pdf: FPDF, text: str, width: float) -> str:
    """Shrink-free truncation so a long value never spills out of its grid cell."""
    if pdf.get_string_width(text) <= width:
        return text
    while text and pdf.get_string_width(text + "…") > width:
        text = text[:-1]
    return text + "…"
