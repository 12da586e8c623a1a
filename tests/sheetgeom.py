"""Measuring card sheets in a real PDF: marker rectangles, crop marks, fonts, boxes.

The tiny fixture's layouts draw a 1 x 1 mm marker 2 mm from the trim's left edge and 3 mm below
its top edge, black (#000000) on faces and #000001 on backs, so each card's trim position can be
read back from the PDF as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import pdfplumber

MM = 72 / 25.4
MARK = 1 * MM


@dataclass
class Placed:
    """A card found on a page: trim left and bottom in pt (PDF origin bottom-left)."""

    x: float
    y: float


def markers(page, back: bool) -> list[Placed]:
    """Trim origins of the cards drawn on a pdfplumber page, found from their marker rects."""
    want = (0, 0, 1 / 255) if back else (0, 0, 0)
    out = []
    for r in page.rects:
        colour = tuple(round(v, 4) for v in (r.get("non_stroking_color") or ()))
        if abs(r["width"] - MARK) > 0.01 or abs(r["height"] - MARK) > 0.01:
            continue
        if len(colour) != 3 or any(abs(a - b) > 0.002 for a, b in zip(colour, want)):
            continue
        x_left = r["x0"] - 2 * MM
        top_pdf = page.height - r["top"]  # marker top edge in PDF coordinates
        out.append((x_left, top_pdf + 3 * MM))
    return out


def trims(page, back: bool, card_h: float) -> list[Placed]:
    """Trim origins (left, bottom) of every card on the page, in reading order."""
    found = [Placed(x, top - card_h) for x, top in markers(page, back)]
    return sorted(found, key=lambda p: (-round(p.y, 2), round(p.x, 2)))


def open_pdf(path):
    return pdfplumber.open(path)
