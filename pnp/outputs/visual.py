"""The visual diff (``pnp diff --visual FILE``): each changed card as it was beside as it is,
with the region that prints differently framed in red on the new card, and its changed fields.

Each pair is drawn at full size from the two versions' own layouts and art, or, for an old face
kept only in the card sheets of the last build, cut out of those sheets (:class:`SheetFace`,
a picture at :data:`PICTURE_DPI`); the region is the bounding box of the pixels that differ
between the two faces rasterised at :data:`COMPARE_DPI`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from ..core.units import MM, Size
from ..model.pieces import Piece
from ..render.art import PRINT_DPI
from ..render.canvas import new_canvas, text
from ..render.raster import pdf_to_png
from ..render.renderer import Renderer

COMPARE_DPI = 72
"""Resolution the two faces are compared at: a changed glyph or box shows, noise does not."""
PICTURE_DPI = PRINT_DPI
"""Resolution an old face cut out of the card sheets is embedded at: the resolution the sheets'
art is embedded at, so the picture keeps what the sheet holds."""
HIGHLIGHT = (0.85, 0.1, 0.1)
MARGIN = 12 * MM
GAP = 8 * MM
CAPTION = 9 * MM


class Sheets:
    """A card sheets PDF (its bytes) opened once with pdfium, to cut faces out of."""

    def __init__(self, pdf: bytes):
        import pypdfium2 as pdfium

        self.doc = pdfium.PdfDocument(pdf)

    def close(self) -> None:
        self.doc.close()

    def cut(self, page: int, trim: tuple[float, float, float, float], dpi: float):
        """The trim box ``trim`` (x0, y0, x1, y1 pt from the bottom-left) of page ``page``
        (index from 0) rasterised at ``dpi``: an RGB Pillow image of floor(width x dpi / 72) x
        floor(height x dpi / 72) px whose top-left pixel starts at the trim's top-left corner,
        as a page of the trim's size rendered at ``dpi`` has it (pdfium maps the crop box to the
        bitmap, so the two rasters agree pixel for pixel where they show the same)."""
        x0, y0, x1, y1 = trim
        sheet = self.doc[page]
        try:
            sheet.set_cropbox(x0, y0, x1, y1)
            image = sheet.render(scale=dpi / 72).to_pil().convert("RGB")
        finally:
            sheet.close()
        return image.crop((0, 0, int((x1 - x0) * dpi / 72 + 1e-6), int((y1 - y0) * dpi / 72 + 1e-6)))


@dataclass
class SheetFace:
    """A face as the last build printed it: page ``page`` (index from 0) of ``sheets``, in the
    trim box ``trim`` (x0, y0, x1, y1 pt from the page's bottom-left)."""

    sheets: Sheets
    page: int
    trim: tuple[float, float, float, float]

    def picture(self, dpi: float):
        """The face cut out of its sheet at ``dpi`` (:meth:`Sheets.cut`)."""
        return self.sheets.cut(self.page, self.trim, dpi)


@dataclass
class Pair:
    """One changed card: its key (``deck/id``), its trim size (pt), its face before and now
    (None for a side that does not exist there; the old face a :class:`SheetFace` when it is
    kept only in the last build's sheets) and the lines that say what changed."""

    key: str
    size: Size
    old: Piece | SheetFace | None
    new: Piece | None
    lines: list[str]


def _raster(renderer: Renderer | None, piece: Piece | SheetFace, size: Size):
    from PIL import Image

    if isinstance(piece, SheetFace):
        return piece.picture(COMPARE_DPI)
    buf = io.BytesIO()
    c = new_canvas(buf, size, scratch=True)
    renderer.draw(c, piece, (0, 0, size.width, size.height), (0, 0, 0, 0))
    c.showPage()
    c.save()
    return Image.open(io.BytesIO(pdf_to_png(buf.getvalue(), dpi=COMPARE_DPI))).convert("RGB")


def changed_region(old: Renderer | None, new: Renderer, pair: Pair) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) pt from the trim's bottom-left of the pixels that differ between the
    two faces, or None when they raster alike (or one side is missing)."""
    from PIL import ImageChops

    if pair.old is None or pair.new is None:
        return None
    a, b = _raster(old, pair.old, pair.size), _raster(new, pair.new, pair.size)
    if isinstance(pair.old, SheetFace) and a.width <= b.width and a.height <= b.height:
        b = b.crop((0, 0, a.width, a.height))  # a cut face leaves out the trim's last part pixel
    if a.size != b.size:
        return 0.0, 0.0, pair.size.width, pair.size.height
    box = ImageChops.difference(a, b).getbbox()
    if box is None:
        return None
    scale = 72 / COMPARE_DPI
    left, top, right, bottom = box
    h = pair.size.height
    return left * scale, h - bottom * scale, right * scale, h - top * scale


def _place_picture(c, image, x: float, top: float) -> None:
    """Draw the Pillow ``image`` at :data:`PICTURE_DPI` (its pixels as they are, none resampled)
    with its top-left corner at (x, top) pt."""
    from reportlab.lib.utils import ImageReader

    w, h = image.width * 72 / PICTURE_DPI, image.height * 72 / PICTURE_DPI
    c.drawImage(ImageReader(image), x, top - h, w, h)


def visual_pdf(title: str, since: str, pairs: list[Pair], old: Renderer | None, new: Renderer, paper: Size) -> bytes:
    """The visual diff as a PDF on ``paper`` (pt), one row per changed card: the old face, the
    new face with the changed region framed, the card's key and its changed fields. ``old``
    draws the old faces that are pieces (None when every one is a :class:`SheetFace`, placed
    as a picture at :data:`PICTURE_DPI` from the trim's top-left corner)."""
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
            if isinstance(piece, SheetFace):
                _place_picture(c, piece.picture(PICTURE_DPI), x, bottom + h)
            elif piece is not None:
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
