"""Print-and-cut geometry: a cutting machine's registration marks and registration area on a
sheet, and pieces laid out inside that area. Pure functions, no drawing.

Lengths are PDF points with the sheet's bottom-left origin (y up), as everywhere in
:mod:`pnp.geometry`; a :class:`CutterSheet` is made from a profile's figures in mm measured from
the sheet's top-left corner, as the makers' templates give them (the profiles cite them). Every
position is computed from absolute coordinates: slot (row, col) of a run of pieces is at
``origin + index x pitch``.

A piece's *trim* is what the machine cuts; its art runs ``bleed`` past the trim, and neighbouring
pieces are ``2 x bleed`` apart so that each keeps its own bleed. The registration area holds the
pieces with their bleed; the keep-outs (the marks and the room the sensor needs around them) hold
none.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.units import MM, Size

Rect = tuple[float, float, float, float]
"""(x, y, w, h) in pt, bottom-left corner first."""


@dataclass(frozen=True)
class Mark:
    """One registration mark: ``kind`` ``square`` (a filled square ``size`` wide whose top-left
    corner is at (x, y)), ``corner`` (an L of two strokes ``size`` long meeting at (x, y),
    pointing ``dx``, ``dy`` = +1/-1 along x and y) or ``frame`` (a stroked rectangle ``size`` x
    ``height`` whose top-left corner is at (x, y)); ``width`` is the stroke width. All in pt."""

    kind: str
    x: float
    y: float
    size: float
    width: float = 0.0
    dx: int = 1
    dy: int = -1
    height: float = 0.0

    def segments(self) -> list[tuple[float, float, float, float]]:
        """The strokes (x1, y1, x2, y2) of a corner mark; none for a square or a frame."""
        if self.kind != "corner":
            return []
        return [(self.x, self.y, self.x + self.dx * self.size, self.y),
                (self.x, self.y, self.x, self.y + self.dy * self.size)]


@dataclass(frozen=True)
class CutterSheet:
    """A sheet as one cutter registers it: the paper, its marks, the registration area (where
    pieces and their bleed may print and be cut) and the keep-outs inside it."""

    paper: Size
    marks: tuple[Mark, ...]
    area: Rect
    keepouts: tuple[Rect, ...] = ()


def from_top_left(paper: Size, x_mm: float, y_mm: float) -> tuple[float, float]:
    """A point given in mm from the sheet's top-left corner (y down), in pt from its
    bottom-left corner (y up)."""
    return x_mm * MM, paper.height - y_mm * MM


def rect_from_top_left(paper: Size, left_mm: float, top_mm: float, width_mm: float, height_mm: float) -> Rect:
    """A rectangle given by its top-left corner in mm from the sheet's top-left corner and its
    size in mm, as an (x, y, w, h) pt rectangle from the bottom-left corner."""
    x, top = from_top_left(paper, left_mm, top_mm)
    return x, top - height_mm * MM, width_mm * MM, height_mm * MM


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] - 1e-6 and b[0] < a[0] + a[2] - 1e-6 and \
        a[1] < b[1] + b[3] - 1e-6 and b[1] < a[1] + a[3] - 1e-6


def fits(sheet: CutterSheet, width: float, height: float, bleed: float) -> bool:
    """Whether one piece of trim ``width`` x ``height`` with ``bleed`` all round fits the
    registration area at all (keep-outs aside)."""
    return width + 2 * bleed <= sheet.area[2] + 1e-6 and height + 2 * bleed <= sheet.area[3] + 1e-6


@dataclass(frozen=True)
class Slot:
    """Where one piece goes: the sheet (0 first) and its trim rectangle (x, y, w, h) in pt."""

    sheet: int
    trim: Rect


def layout(sheet: CutterSheet, sizes: list[tuple[float, float]], bleed: float) -> list[Slot]:
    """Slots for pieces of trim sizes ``sizes`` (w, h pt, in order), each with ``bleed`` all round,
    inside the registration area of ``sheet``, skipping any slot whose bleed touches a keep-out.

    Pieces fill rows from the top-left of the area; a run of one size shares a row pitch
    (``w + 2 bleed``), and a piece of another size starts a new row under the tallest of the
    row before, or a new sheet when no row fits below. Raises ValueError naming the size when a
    piece does not fit the area at all (check :func:`fits` first)."""
    ax, ay, aw, ah = sheet.area
    top = ay + ah
    slots: list[Slot] = []
    index = 0
    page = 0
    on_page = 0  # pieces placed on the current sheet
    row_top = top  # top edge of the current row's bleed
    while index < len(sizes):
        w, h = sizes[index]
        if not fits(sheet, w, h, bleed):
            raise ValueError(f"{w / MM:.2f} x {h / MM:.2f} mm")
        pitch_x, pitch_y = w + 2 * bleed, h + 2 * bleed
        if row_top - pitch_y < ay - 1e-6:  # no room for a row of this size: next sheet
            if not on_page:  # every row of a fresh sheet is blocked by the keep-outs
                raise ValueError(f"{w / MM:.2f} x {h / MM:.2f} mm")
            page, on_page, row_top = page + 1, 0, top
        for col in range(int((aw + 1e-6) // pitch_x)):
            if index >= len(sizes) or sizes[index] != (w, h):
                break
            box = (ax + col * pitch_x, row_top - pitch_y, pitch_x, pitch_y)
            if any(_overlaps(box, k) for k in sheet.keepouts):
                continue
            slots.append(Slot(page, (box[0] + bleed, box[1] + bleed, w, h)))
            index += 1
            on_page += 1
        row_top -= pitch_y
    return slots


def rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> list[tuple]:
    """A closed outline of the rectangle (x, y, w, h) with corners of radius ``r`` (0: square),
    as drawing commands in the same units as given: ``("M", x, y)``, ``("L", x, y)`` and
    ``("A", r, x, y, sweep)`` (a quarter circle to (x, y), ``sweep`` 1 counter-clockwise in a
    y-up frame), ending back at the start. Starts at the bottom edge, right of the corner."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r <= 1e-9:
        return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("L", x, y)]
    return [("M", x + r, y), ("L", x + w - r, y), ("A", r, x + w, y + r, 1),
            ("L", x + w, y + h - r), ("A", r, x + w - r, y + h, 1),
            ("L", x + r, y + h), ("A", r, x, y + h - r, 1),
            ("L", x, y + r), ("A", r, x + r, y, 1)]
