"""Token packing geometry: equal pieces in offset rows (circles, hexagons) or a plain grid
(squares, standees), grouped onto sheets, and where each piece's back goes.

Circles and hexagons go in offset rows (every other row shifted half a pitch, rows sqrt(3)/2 of
a pitch apart), which is the densest arrangement of equal circles and tiles hexagons exactly;
squares and standees go in a plain grid. Every piece keeps its own bleed, pieces of a group are
spaced by their bleed (and the sheet's ``gap``), and everything stays inside the ink-free
margin. Positions are computed from absolute coordinates (origin + index x pitch).

The pieces packed are token pieces (:class:`pnp.model.pieces.TokenPiece`): anything with
``component``, ``shape``, ``width``, ``height`` and ``base`` in pt, ``back`` (None for a
one-sided piece), ``face.label`` (for messages) and ``key`` (pieces with equal keys form one
group). Lengths are in pt, PDF coordinates (origin bottom-left, y up).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import BuildError
from ..core.units import MM, Size, to_mm
from .impose import DEFAULT_MARGIN, mirror

SQRT3 = math.sqrt(3.0)
CAPTION = 4.5 * MM
"""Height of the caption line above each group of tokens."""


@dataclass(frozen=True)
class Lattice:
    """How one group of equal pieces is packed, in pt.

    ``cell_w`` x ``cell_h`` is one piece with its bleed; ``pitch_x`` and ``pitch_y`` the distance
    between neighbouring centres in a row and between rows; every odd row is shifted right by
    ``shift``; ``cols_even`` and ``cols_odd`` are the pieces in even and odd rows.
    """

    cell_w: float
    cell_h: float
    pitch_x: float
    pitch_y: float
    shift: float
    cols_even: int
    cols_odd: int

    def per_rows(self, rows: int) -> int:
        """Pieces in the first ``rows`` rows."""
        return (rows + 1) // 2 * self.cols_even + rows // 2 * self.cols_odd

    def rows_fitting(self, height: float) -> int:
        """Rows that fit in ``height``."""
        if height + 1e-6 < self.cell_h:
            return 0
        return int((height - self.cell_h + 1e-6) // self.pitch_y) + 1

    @property
    def width(self) -> float:
        """Width of the packed rows (the wider of even and odd rows)."""
        even = self.cell_w + (self.cols_even - 1) * self.pitch_x
        odd = self.shift + self.cell_w + (self.cols_odd - 1) * self.pitch_x if self.cols_odd else 0.0
        return max(even, odd)

    def centre(self, index: int, left: float, top: float) -> tuple[float, float]:
        """Centre (PDF pt) of piece ``index`` of a group whose packed area starts at
        (``left``, ``top``): row r, column k from absolute coordinates."""
        pair, rest = divmod(index, self.cols_even + self.cols_odd)
        if rest < self.cols_even:
            row, col = 2 * pair, rest
        else:
            row, col = 2 * pair + 1, rest - self.cols_even
        x = left + (self.shift if row % 2 else 0.0) + self.cell_w / 2 + col * self.pitch_x
        y = top - self.cell_h / 2 - row * self.pitch_y
        return x, y

    def row_of(self, index: int) -> int:
        """The row (0-based) of piece ``index``."""
        pair, rest = divmod(index, self.cols_even + self.cols_odd)
        return 2 * pair + (0 if rest < self.cols_even else 1)


def lattice(piece: Any, width: float, bleed: float, gap: float) -> Lattice:
    """The packing of pieces like ``piece`` across ``width`` pt. Raises BuildError when not one
    piece fits the width."""
    if piece.shape == "circle":
        d = piece.width + 2 * bleed + gap
        cell_w = cell_h = piece.width + 2 * bleed
        pitch_x, pitch_y, shift = d, d * SQRT3 / 2, d / 2
    elif piece.shape == "hexagon":
        f = piece.width + 2 * bleed + gap          # across the flats, bleed and gap included
        cell_w = piece.width + 2 * bleed
        cell_h = 2 * cell_w / SQRT3
        pitch_x, pitch_y, shift = f, f * SQRT3 / 2, f / 2
    else:
        height = piece.height + (piece.height + 2 * piece.base if piece.shape == "standee" else 0.0)
        cell_w, cell_h = piece.width + 2 * bleed, height + 2 * bleed
        pitch_x, pitch_y, shift = cell_w + gap, cell_h + gap, 0.0
    cols_even = int((width - cell_w + 1e-6) // pitch_x) + 1 if width + 1e-6 >= cell_w else 0
    cols_odd = int((width - shift - cell_w + 1e-6) // pitch_x) + 1 if width - shift + 1e-6 >= cell_w else 0
    if shift == 0.0:
        cols_odd = cols_even
    if cols_even < 1:
        raise BuildError(f"a {piece.shape} token of {to_mm(piece.width):g} mm ({piece.face.label}) does not fit "
                         f"the sheet's printable width of {to_mm(width):g} mm",
                         hint="use larger paper, a smaller --margin or a smaller token",
                         rule="sheet.fit")
    if cols_odd < 1:  # offset rows do not fit: pack in a plain grid instead
        pitch_y, shift, cols_odd = cell_h + gap, 0.0, cols_even
    return Lattice(cell_w, cell_h, pitch_x, pitch_y, shift, cols_even, cols_odd)


def hexagon_points(cx: float, cy: float, across_flats: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top regular hexagon centred at (cx, cy), ``across_flats`` wide."""
    r = across_flats / SQRT3
    return [(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
            for k in range(6)]


@dataclass
class Placement:
    """One piece placed on a sheet: its centre (PDF pt)."""

    piece: Any
    x: float
    y: float


@dataclass
class TokenSheet:
    """One front sheet of tokens (and whether it needs a back sheet)."""

    placements: list[Placement]
    captions: list[tuple[float, float, str]]
    double: bool


def _groups(pieces: list[Any]) -> list[list[Any]]:
    groups: list[list[Any]] = []
    for tp in pieces:
        if groups and groups[-1][0].key == tp.key:
            groups[-1].append(tp)
        else:
            groups.append([tp])
    # one-sided groups first, then double-sided ones (they need back sheets)
    return [g for g in groups if g[0].back is None] + [g for g in groups if g[0].back is not None]


def back_insets(opts: Any) -> tuple[float, float, float, float]:
    """How much further than the margin, in pt, the fronts of double-sided pieces keep from the
    (left, bottom, right, top) paper edges, so that their backs, mirrored by the flip and moved
    by ``opts.back_offset``, stay inside the margin as well (docs/print-specs.md §8 checks 11 and 15).

    Long-edge flip mirrors x, so a back moved right needs room on the fronts' left; short-edge
    flip and gutter fold mirror y, so a back moved up needs room below the fronts."""
    ox, oy = opts.back_offset
    if opts.gutter_fold or opts.flip == "short":
        return max(0.0, -ox), max(0.0, oy), max(0.0, ox), max(0.0, -oy)
    return max(0.0, ox), max(0.0, -oy), max(0.0, -ox), max(0.0, oy)


def pack(pieces: list[Any], paper: Size, opts: Any, names: dict[str, str]) -> list[TokenSheet]:
    """Place ``pieces`` on sheets of ``paper``: group by group (same component, shape, size and
    sidedness), each group under a caption, as many as fit; a group continues on the next sheet.
    One-sided and double-sided groups never share a sheet. With gutter fold, double-sided groups
    use only the upper half (above the fold, keeping the margin from it). Double-sided groups
    keep the room their backs' offset needs (:func:`back_insets`; pieces already that far from
    an edge stay where they are). ``opts`` are the sheet
    options (``margin``, ``bleed``, ``gap``, ``back_offset`` in pt, ``flip``, ``gutter_fold``);
    ``names`` maps component ids to the names the captions show. Raises BuildError when a piece
    does not fit."""
    margin = opts.margin
    sheets: list[TokenSheet] = []
    current: TokenSheet | None = None
    y = 0.0
    for group in _groups(pieces):
        first = group[0]
        double = first.back is not None
        inset_l, inset_b, inset_r, inset_t = back_insets(opts) if double else (0.0, 0.0, 0.0, 0.0)
        width = paper.width - 2 * margin
        lat = lattice(first, width, opts.bleed, opts.gap)
        if lat.width > width - inset_l - inset_r + 1e-6:  # the rows are too wide to leave the room
            lat = lattice(first, width - inset_l - inset_r, opts.bleed, opts.gap)
        bottom = margin + inset_b
        if double and opts.gutter_fold:
            bottom = paper.height / 2 + DEFAULT_MARGIN + inset_b
        sheet_top = paper.height - margin - max(0.0, inset_t - CAPTION)  # the front's caption has no back
        if (sheet_top - bottom) < CAPTION + lat.cell_h:
            raise BuildError(f"a {first.shape} piece ({first.face.label}) does not fit on {paper} paper",
                             hint="use larger paper or a smaller piece",
                             rule="sheet.fit")
        # centred, unless that leaves less room than the backs need on one side
        left = margin + (width - lat.width) / 2
        left = min(max(left, margin + inset_l), paper.width - margin - inset_r - lat.width)
        placed = 0
        while placed < len(group):
            if current is None or current.double != double or y - CAPTION - lat.cell_h < bottom - 1e-6:
                current = TokenSheet([], [], double)
                sheets.append(current)
                y = sheet_top
            rows = lat.rows_fitting(y - CAPTION - bottom)
            n = min(len(group) - placed, lat.per_rows(rows))
            count = sum(1 for _ in group)
            size = f"{to_mm(first.width):g} mm" if first.shape != "standee" else \
                f"{to_mm(first.width):g} x {to_mm(first.height):g} mm"
            current.captions.append((left, y - CAPTION + 1.3 * MM,
                                     f"{names.get(first.component, first.component)}: {first.shape} {size}, "
                                     f"{'double-sided, ' if double else ''}{count} in the group"
                                     + (f" (continued, {placed} before)" if placed else "")))
            top = y - CAPTION
            for i in range(n):
                cx, cy = lat.centre(i, left, top)
                current.placements.append(Placement(group[placed + i], cx, cy))
            used_rows = lat.row_of(n - 1) + 1
            y = top - (used_rows - 1) * lat.pitch_y - lat.cell_h - opts.gap - 1.5 * MM
            placed += n
            if placed < len(group):
                current = None
    return sheets


def back_position(paper: Size, x: float, y: float, opts: Any) -> tuple[float, float, bool]:
    """Where the back of a piece centred at (x, y) goes, and whether it is turned 180°: long-edge
    flip mirrors x, short-edge flip mirrors y and turns it, gutter fold mirrors y about the fold
    and turns it; the back offset is added (docs/print-specs.md §8 checks 13-15, 18). ``opts`` are
    the sheet options (``flip``, ``gutter_fold``, ``back_offset`` in pt)."""
    ox, oy = opts.back_offset
    flip = "short" if opts.gutter_fold else opts.flip
    bx, by = mirror(paper, x, y, flip)
    return bx + ox, by + oy, flip == "short"
