"""The visual diff (``pnp diff --visual FILE``): each changed card as it was beside as it is,
with the region that prints differently framed in red on the new card, and its changed fields.

Each pair is drawn at full size from the two versions' own layouts and art; the region is the
bounding box of the pixels that differ between the two faces rasterised at :data:`COMPARE_DPI`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from ..core.units import MM, Size
from ..model.pieces import Piece
from ..render.canvas import new_canvas, text
from ..render.raster import pdf_to_png
from ..render.renderer import Renderer

COMPARE_DPI = 72
"""Resolution the two faces are compared at: a changed glyph or box shows, noise does not."""
HIGHLIGHT = (0.85, 0.1, 0.1)
MARGIN = 12 * MM
GAP = 8 * MM
CAPTION = 9 * MM


@dataclass
class Pair:
    """One changed card: its key (``deck/id``), its trim size (pt), its face before and now
    (None for a side that does not exist there) and the lines that say what changed."""

    key: str
    size: Size
    old: Piece | None
    new: Piece | None
    lines: list[str]


def _raster(renderer: Renderer, piece: Piece, size: Size):
    from PIL import Image

    buf = io.BytesIO()
    c = new_canvas(buf, size, scratch=True)
    renderer.draw(c, piece, (0, 0, size.width, size.height), (0, 0, 0, 0))
    c.showPage()
    c.save()
    return Image.open(io.BytesIO(pdf_to_png(buf.getvalue(), dpi=COMPARE_DPI))).convert("RGB")


def changed_region(old: Renderer, new: Renderer, pair: Pair) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) pt from the trim's bottom-left of the pixels that differ between the
    two faces, or None when they raster alike (or one side is missing)."""
    from PIL import ImageChops

    if pair.old is None or pair.new is None:
        return None
    a, b = _raster(old, pair.old, pair.size), _raster(new, pair.new, pair.size)
    if a.size != b.size:
        return 0.0, 0.0, pair.size.width, pair.size.height
    box = ImageChops.difference(a, b).getbbox()
    if box is None:
        return None
    scale = 72 / COMPARE_DPI
    left, top, right, bottom = box
    h = pair.size.height
    return left * scale, h - bottom * scale, right * scale, h - top * scale


def visual_pdf(title: str, since: str, pairs: list[Pair], old: Renderer, new: Renderer, paper: Size) -> bytes:
    """The visual diff as a PDF on ``paper`` (pt), one row per changed card: the old face, the
    new face with the changed region framed, the card's key and its changed fields."""
    buf = io.BytesIO()
    c = new_canvas(buf, paper, f"{title}: changes since {since}", f"Changed cards of {title}, old beside new")
    y = paper.height - MARGIN
    text(c, "sans-bold", 14, MARGIN, y - 14, f"{title}: changed cards since {since}")
    y -= 14 + GAP
    for pair in pairs:
        w, h = pair.size.width, pair.size.height
        if y - h - CAPTION < MARGIN and y < paper.height - MARGIN - 30:
            c.showPage()
            y = paper.height - MARGIN
        bottom = y - CAPTION - h
        text(c, "sans-bold", 9, MARGIN, y - 9, pair.key)
        for i, (label, piece, renderer) in enumerate((("old", pair.old, old), ("new", pair.new, new))):
            x = MARGIN + i * (w + GAP)
            text(c, "sans", 7, x, bottom + h + 1.5 * MM, label)
            c.saveState()
            c.setStrokeGray(0.6)
            c.setLineWidth(0.3)
            c.rect(x, bottom, w, h, stroke=1, fill=0)
            c.restoreState()
            if piece is not None:
                renderer.draw(c, piece, (x, bottom, w, h), (0, 0, 0, 0))
        region = changed_region(old, new, pair)
        if region is not None:
            x0, y0, x1, y1 = region
            c.saveState()
            c.setStrokeColorRGB(*HIGHLIGHT)
            c.setLineWidth(1.5)
            pad = 1 * MM
            c.rect(MARGIN + w + GAP + x0 - pad, bottom + y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad, stroke=1, fill=0)
            c.restoreState()
        tx = MARGIN + 2 * (w + GAP)
        ty = bottom + h - 10
        for line in pair.lines:
            text(c, "sans", 8, tx, ty, line[:90])
            ty -= 11
        y = bottom - GAP
    c.showPage()
    c.save()
    return buf.getvalue()
