"""Measuring card sheets in a real PDF: marker rectangles, crop marks, fonts, boxes.

The tiny fixture's layouts draw a 1 x 1 mm marker 2 mm from the trim's left edge and 3 mm below
its top edge, black (#000000) on faces and #000001 on backs, so each card's trim position can be
read back from the PDF as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import pdfplumber
import pikepdf

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


def art_boxes(doc, index: int) -> list[tuple[float, float, float, float]]:
    """The clip rectangles (x0, y0, x1, y1, pt, page coordinates) set on page ``index`` of a
    pikepdf document outside forms: each placed piece's trim and bleed, as the PDF clips its
    art."""
    boxes = []
    ctm = [(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)]  # one per graphics state

    def at(m, x, y):
        return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]

    ops = pikepdf.parse_content_stream(doc.pages[index])
    for i, (operands, op) in enumerate(ops):
        name = str(op)
        if name == "q":
            ctm.append(ctm[-1])
        elif name == "Q":
            ctm.pop()
        elif name == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            m = ctm[-1]
            ctm[-1] = (a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                       e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5])
        elif name == "re" and i + 1 < len(ops) and str(ops[i + 1][1]) in ("W", "W*"):
            x, y, w, h = (float(v) for v in operands)
            corners = [at(ctm[-1], px, py) for px in (x, x + w) for py in (y, y + h)]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def extent(boxes) -> tuple[float, float, float, float]:
    """The bounding box (x0, y0, x1, y1) of ``boxes``."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def stitched_board(pdf, plan, first_page: int, scale: float = 1.0):
    """A tiled board put back together from the real boards PDF: each tile page (from page
    index ``first_page``, in ``plan.tiles()`` order) rasterised with pdfium at ``scale`` px per
    pt, its window cut out and pasted where ``plan`` says it lies on the board. Returns a PIL
    RGB image of the board's trim, ``scale`` px per pt."""
    import pypdfium2 as pdfium
    from PIL import Image

    board_w, board_h = plan.board.width, plan.board.height
    out = Image.new("RGB", (round(board_w * scale), round(board_h * scale)), (255, 0, 255))
    doc = pdfium.PdfDocument(pdf)
    try:
        for k, tile in enumerate(plan.tiles()):
            page = doc[first_page + k]
            height = page.get_height()
            image = page.render(scale=scale).to_pil().convert("RGB")
            bx0, by0 = max(tile.x, 0.0), max(tile.y, 0.0)
            bx1, by1 = min(tile.x + tile.width, board_w), min(tile.y + tile.height, board_h)
            sx0, sy0 = tile.to_sheet(bx0, by0)
            sx1, sy1 = tile.to_sheet(bx1, by1)
            part = image.crop((round(sx0 * scale), round((height - sy0) * scale),
                               round(sx1 * scale), round((height - sy1) * scale)))
            out.paste(part, (round(bx0 * scale), round(by0 * scale)))
            page.close()
    finally:
        doc.close()
    return out
