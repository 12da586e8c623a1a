"""Reading version stamps and cut lines back from a real card sheet PDF.

A stamp is a run of grey glyphs of 3 to 5 pt (``v1.2 · 3f9a1c``); the cut lines are the crop marks
(0.5 pt black lines at the sheet's margins), whose positions are the trims' edges.
"""

from __future__ import annotations

from dataclasses import dataclass

MM = 72 / 25.4


@dataclass
class Stamp:
    """One stamp on a page: its text and its glyphs' box in PDF points (origin bottom-left)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float


def stamps(page) -> list[Stamp]:
    """Every stamp on a pdfplumber page: 5 pt grey glyphs, grouped by baseline and nearness."""
    chars = [c for c in page.chars if 2.99 <= c["size"] <= 5.01
             and tuple(round(v, 3) for v in (c.get("non_stroking_color") or ())) in ((0.5,), (0.5, 0.5, 0.5))]
    chars.sort(key=lambda c: (round(c["top"], 2), c["x0"]))
    out: list[Stamp] = []
    for c in chars:
        y0, y1 = page.height - c["bottom"], page.height - c["top"]
        last = out[-1] if out else None
        if last and abs(last.y1 - y1) < 0.01 and c["x0"] - last.x1 < 2.0:
            last.text += c["text"]
            last.x1 = c["x1"]
        else:
            out.append(Stamp(c["text"], c["x0"], y0, c["x1"], y1))
    return out


def cuts(page) -> tuple[list[float], list[float]]:
    """The x positions of the vertical crop marks and the y positions (PDF points, origin
    bottom-left) of the horizontal ones, sorted: the trims' edges."""
    xs, ys = set(), set()
    for line in page.lines:
        if abs(line.get("linewidth", 0) - 0.5) > 0.01:
            continue
        if abs(line["x0"] - line["x1"]) < 0.01:
            xs.add(round(line["x0"], 2))
        elif abs(line["top"] - line["bottom"]) < 0.01:
            ys.add(round(page.height - line["top"], 2))
    return sorted(xs), sorted(ys)


def cell_of(stamp: Stamp, xs: list[float], ys: list[float]) -> tuple[float, float, float, float]:
    """The trim (x0, y0, x1, y1) between the cut lines that holds the stamp's centre
    horizontally and its top (a safe-zone stamp) or the cell above it (a slug stamp)."""
    cx = (stamp.x0 + stamp.x1) / 2
    col = max(i for i, x in enumerate(xs[:-1]) if x <= cx)
    row = max(i for i, y in enumerate(ys[:-1]) if y <= stamp.y1 + 1.0 * MM)
    return xs[col], ys[row], xs[col + 1], ys[row + 1]
