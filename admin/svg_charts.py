"""Charts drawn on the server as inline SVG: no script, no CDN, every value written as text
beside its bar or point, so the page reads the same with JavaScript off (and prints)."""
from __future__ import annotations

from typing import Callable, Sequence

from markupsafe import Markup, escape

COLOURS = ("#1f5fa8", "#e07b24", "#2e8b57", "#b03a48", "#7a5cb8", "#8c8c2a", "#3b9cb3",
           "#a0522d")
SCALE = 1.4  # drawn at this size on the page (narrower screens shrink it)
FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def _num(v: float) -> str:
    return f"{v:,.0f}".replace(",", ".") if float(v).is_integer() else \
        f"{v:,.1f}".replace(",", "X").replace(".", ",").replace("X", ".")


def _svg(width: int, height: int, title: str, body: list[str]) -> Markup:
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
                  f'width="{int(width * SCALE)}" height="{int(height * SCALE)}" style="max-width:100%;height:auto" role="img" aria-label="{escape(title)}" {FONT}>'
                  f'<title>{escape(title)}</title>{"".join(body)}</svg>')


def stacked_bars(title: str, labels: Sequence[str],
                 series: Sequence[tuple[str, Sequence[float]]]) -> Markup:
    """Vertical bars, one per label (e.g. "mm/aaaa"), stacked by series, total on top."""
    n = max(1, len(labels))
    step = max(28, min(60, 640 // n))
    left, top, h = 10, 30 + 16 * len(series), 180
    width = left * 2 + step * n
    totals = [sum(s[1][i] for s in series) for i in range(len(labels))]
    peak = max(totals, default=0) or 1
    body = []
    for k, (name, _) in enumerate(series):  # legend
        x, y = left, 14 + 16 * k
        body.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" '
                    f'fill="{COLOURS[k % len(COLOURS)]}"/><text x="{x + 14}" y="{y}">'
                    f'{escape(name)}</text>')
    base = top + h
    for i, label in enumerate(labels):
        x, y = left + i * step + 4, base
        for k, (_, values) in enumerate(series):
            bh = values[i] / peak * h
            if bh > 0:
                body.append(f'<rect x="{x}" y="{y - bh:.1f}" width="{step - 8}" '
                            f'height="{bh:.1f}" fill="{COLOURS[k % len(COLOURS)]}"/>')
            y -= bh
        body.append(f'<text x="{x + (step - 8) / 2}" y="{y - 3:.1f}" text-anchor="middle">'
                    f'{_num(totals[i])}</text>')
        body.append(f'<text x="{x + (step - 8) / 2}" y="{base + 14}" text-anchor="middle" '
                    f'font-size="9">{escape(label)}</text>')
    body.append(f'<line x1="{left}" y1="{base}" x2="{width - left}" y2="{base}" '
                'stroke="#555"/>')
    return _svg(width, base + 22, title, body)


def hbars(title: str, rows: Sequence[tuple[str, float]],
          fmt: Callable[[float], str] = _num) -> Markup:
    """Horizontal bars: a label, the bar and its value written after it."""
    label_w, bar_w, row_h = 360, 280, 20
    peak = max((v for _, v in rows), default=0) or 1
    body = []
    for i, (label, value) in enumerate(rows):
        y = 6 + i * row_h
        w = value / peak * bar_w
        body.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">'
                    f'{escape(label if len(label) <= 58 else label[:57] + "…")}</text>'
                    f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" '
                    f'fill="{COLOURS[0]}"/>'
                    f'<text x="{label_w + w + 4:.1f}" y="{y + 13}">{escape(fmt(value))}</text>')
    if not rows:
        body.append('<text x="10" y="20">Nenhum dado no período.</text>')
    return _svg(label_w + bar_w + 110, 12 + max(1, len(rows)) * row_h, title, body)


def line(title: str, labels: Sequence[str], values: Sequence[float],
         fmt: Callable[[float], str] = _num) -> Markup:
    """A line over the labels (e.g. months), each point's value written above it."""
    n = max(1, len(labels))
    step = max(40, min(70, 700 // n))
    left, top, h = 30, 20, 150
    peak = max(values, default=0) or 1
    pts = [(left + i * step, top + h - v / peak * h) for i, v in enumerate(values)]
    body = [f'<polyline fill="none" stroke="{COLOURS[0]}" stroke-width="2" points="'
            + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>']
    for (x, y), v, label in zip(pts, values, labels):
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{COLOURS[0]}"/>'
                    f'<text x="{x:.1f}" y="{y - 6:.1f}" text-anchor="middle" font-size="9">'
                    f'{escape(fmt(v))}</text>'
                    f'<text x="{x:.1f}" y="{top + h + 16}" text-anchor="middle" font-size="9">'
                    f'{escape(label)}</text>')
    body.append(f'<line x1="{left - 10}" y1="{top + h}" x2="{left + (n - 1) * step + 10}" '
                f'y2="{top + h}" stroke="#555"/>')
    return _svg(left * 2 + (n - 1) * step + 20, top + h + 24, title, body)
