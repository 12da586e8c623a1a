"""Imposition geometry for home print-and-play sheets: pure functions, no drawing.

Every position is computed from absolute coordinates (origin + index x pitch), never by adding
increments. All lengths are in points with the PDF's bottom-left origin; rows count from the top
of the sheet. Defaults follow docs/print-specs.md §8 and README.md "Printing the card sheets": a 5 mm ink-free margin, cards
butted edge to edge (one cut serves two cards) and centred, crop marks outside the card grid
only, 1/8 in bleed where the space allows.

With a ``gap`` between cards each card is cut on its own, and the gap gives it bleed on its
inner edges (half the gap, up to the bleed asked for). A grid whose outer edges would get less
bleed than that, because the gaps took the room beside it, gives way to one with fewer columns
or rows that keeps the bleed on every edge (:func:`fit_grid`; :meth:`Grid.gap_note` says what
changed). Butted cards (no gap) have no bleed between them, so the paper's room beside the grid
is all the outer edges get, as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Collection

from ..core.errors import BuildError
from ..core.units import MM, Size, to_mm

DEFAULT_MARGIN = 5 * MM
"""Ink-free margin at every paper edge (README.md "Printing the card sheets", docs/print-specs.md §8 check 11)."""
DEFAULT_BLEED = 9.0
"""1/8 in (3.175 mm) of art past the trim, the US print norm (docs/print-specs.md §2)."""
MARK_GAP = 0.5 * MM
"""Distance between a crop mark's inner end and the bleed it points at (none without bleed)."""
MARK_PREF = 3 * MM
"""Crop mark length kept before the space beside the grid is given to bleed."""
MARK_MIN = 0.5 * MM
"""Shortest crop mark drawn; a side with less room than this has none."""
MARK_WIDTH = 0.5
"""Crop mark stroke width in pt (0.18 mm; docs/print-specs.md §8 check 12 allows 0.425-1 pt)."""

FLIPS = ("long", "short")


@dataclass(frozen=True)
class Grid:
    """Cards of one trim size placed on one paper size.

    ``origin`` is the bottom-left corner of the whole grid of trims. ``gap`` is the space
    between neighbouring trims. ``bleed_outer`` and ``bleed_inner`` are (x, y) bleeds in pt:
    towards the paper edge, and towards a neighbouring card (at most half the gap).
    """

    paper: Size
    card: Size
    cols: int
    rows: int
    gap: float
    origin_x: float
    origin_y: float
    margin: float
    bleed_outer: tuple[float, float]
    bleed_inner: tuple[float, float]
    most: tuple[int, int] = (0, 0)
    """The columns and rows the paper holds inside the margins, before any were given up to keep
    the outer bleed (:func:`fit_grid`); (0, 0) means the same as ``cols`` and ``rows``."""
    bleed_open: float = 0.0
    """The bleed asked for (pt): what an edge towards an empty slot of a sheet not full gets
    (:meth:`bleed`)."""

    @property
    def per_sheet(self) -> int:
        """Cards on one sheet."""
        return self.cols * self.rows

    @property
    def most_cols(self) -> int:
        """The columns the paper holds, bleed or not."""
        return self.most[0] or self.cols

    @property
    def most_rows(self) -> int:
        """The rows the paper holds, bleed or not."""
        return self.most[1] or self.rows

    @property
    def max_bleed(self) -> float:
        """The largest bleed of any slot on any side."""
        return max(self.bleed_outer + self.bleed_inner)

    @property
    def width(self) -> float:
        """Width of the grid of trims."""
        return self.cols * self.card.width + (self.cols - 1) * self.gap

    @property
    def height(self) -> float:
        """Height of the grid of trims."""
        return self.rows * self.card.height + (self.rows - 1) * self.gap

    def trim(self, row: int, col: int, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float, float, float]:
        """The trim rectangle (x, y, w, h) of slot (row, col); row 0 is the top row."""
        x = self.origin_x + col * (self.card.width + self.gap) + offset[0]
        y = self.origin_y + (self.rows - 1 - row) * (self.card.height + self.gap) + offset[1]
        return x, y, self.card.width, self.card.height

    def bleed(self, row: int, col: int, occupied: Collection[tuple[int, int]] | None = None
              ) -> tuple[float, float, float, float]:
        """How far (left, bottom, right, top), in pt, slot (row, col)'s art may run past its trim.

        ``occupied`` holds the (row, col) slots that hold a card on this sheet (None: every
        slot). An edge towards a neighbour gets the inner bleed, an edge of the grid the outer
        one; an edge towards an empty slot of a sheet not full gets the bleed asked for
        (``bleed_open``): nothing shares that edge and a whole card's room lies beyond it, so
        the cut there has the same bleed to fall in as any other."""
        ox, oy = self.bleed_outer
        ix, iy = self.bleed_inner

        def side(on_edge: bool, neighbour: tuple[int, int], inner: float, outer: float) -> float:
            if on_edge:
                return outer
            return inner if occupied is None or neighbour in occupied else max(inner, self.bleed_open)

        return (side(col == 0, (row, col - 1), ix, ox), side(row == self.rows - 1, (row + 1, col), iy, oy),
                side(col == self.cols - 1, (row, col + 1), ix, ox), side(row == 0, (row - 1, col), iy, oy))

    def filled_slots(self, filled: int) -> frozenset[tuple[int, int]]:
        """The (row, col) slots of the first ``filled`` cards of a sheet, in reading order."""
        return frozenset(divmod(i, self.cols) for i in range(min(filled, self.per_sheet)))

    def back_slots(self, filled: int, flip: str) -> frozenset[tuple[int, int]]:
        """The (row, col) slots of the backs of the first ``filled`` cards of a sheet on its back
        sheet (:meth:`back_slot`)."""
        return frozenset(self.back_slot(row, col, flip) for row, col in self.filled_slots(filled))

    def back_slot(self, row: int, col: int, flip: str) -> tuple[int, int]:
        """Where the back of the card at (row, col) goes on the following back sheet.

        Long-edge flip mirrors the columns; short-edge flip mirrors the rows (docs/print-specs.md §8
        checks 13 and 14).
        """
        if flip == "long":
            return row, self.cols - 1 - col
        if flip == "short":
            return self.rows - 1 - row, col
        raise ValueError(flip)

    def cut_positions(self, filled: int | None = None) -> tuple[list[float], list[float]]:
        """x positions of vertical cut lines and y positions of horizontal ones (trim edges).

        With ``filled`` cards placed in reading order, only the columns and rows that hold a
        card count.
        """
        n = self.per_sheet if filled is None else filled
        cols = min(n, self.cols)
        rows = min(self.rows, -(-n // self.cols))
        xs: list[float] = []
        for col in range(cols):
            x = self.origin_x + col * (self.card.width + self.gap)
            xs += [x, x + self.card.width]
        ys: list[float] = []
        for row in range(rows):
            y = self.origin_y + (self.rows - 1 - row) * (self.card.height + self.gap)
            ys += [y, y + self.card.height]
        return sorted(set(round(v, 6) for v in xs)), sorted(set(round(v, 6) for v in ys))

    def trims(self, filled: int | None = None) -> list[tuple[float, float, float, float]]:
        """The trim rectangles (x, y, w, h) of the first ``filled`` slots in reading order (all
        slots when None): where the cut lines of ``--cut-lines`` are drawn."""
        n = self.per_sheet if filled is None else min(filled, self.per_sheet)
        return [self.trim(*divmod(i, self.cols)) for i in range(n)]

    def crop_marks(self, filled: int | None = None) -> list[tuple[float, float, float, float]]:
        """Crop mark segments (x1, y1, x2, y2), all in the margin outside the card grid.

        Each cut line of a filled row or column gets a mark at both ends, from just beyond the
        outer bleed (or from the trim itself where there is no bleed) to the ink-free margin.
        A side with less room than MARK_MIN gets none.
        """
        xs, ys = self.cut_positions(filled)
        left, bottom = self.origin_x, self.origin_y
        right, top = left + self.width, bottom + self.height
        ox, oy = self.bleed_outer
        gx = ox + (MARK_GAP if ox else 0.0)
        gy = oy + (MARK_GAP if oy else 0.0)
        marks = []
        lo, hi = bottom - gy, top + gy
        if lo - self.margin >= MARK_MIN:
            marks += [(x, self.margin, x, lo) for x in xs]
        if self.paper.height - self.margin - hi >= MARK_MIN:
            marks += [(x, hi, x, self.paper.height - self.margin) for x in xs]
        lo, hi = left - gx, right + gx
        if lo - self.margin >= MARK_MIN:
            marks += [(self.margin, y, lo, y) for y in ys]
        if self.paper.width - self.margin - hi >= MARK_MIN:
            marks += [(hi, y, self.paper.width - self.margin, y) for y in ys]
        return marks

    def gap_note(self, requested_bleed: float, rows: bool = True) -> tuple[str, str] | None:
        """(message, hint) when the gap left the outer edges no room for the bleed it gives every
        card between cards: either columns or rows were given up to keep it (the grid holds
        fewer cards than the paper could), or no grid keeps it and the outer bleed is less.
        None when every card has at least its inner bleed on every edge. ``requested_bleed`` is
        the bleed asked for (pt); ``rows`` False leaves the rows out (a gutter-fold sheet, whose
        one row's bleed the fold sets). The texts give lengths in mm."""
        inner = self.bleed_inner[0]
        if inner <= 1e-6:
            return None
        axes = [("columns", self.most_cols, self.cols, self.paper.width, self.card.width, self.bleed_outer[0],
                 "left and right")]
        if rows:
            axes.append(("rows", self.most_rows, self.rows, self.paper.height, self.card.height, self.bleed_outer[1],
                         "top and bottom"))
        gave, short, keep = [], [], []
        for name, most, n, length, card, outer, edges in axes:
            space = (length - most * card - (most - 1) * self.gap) / 2 - self.margin
            if n < most:
                gave.append(f"{_mm(space)} mm beside {most} {name} of cards, no room for the {_mm(inner)} mm of "
                            f"bleed it gives each card and a crop mark at the {edges} edges")
                largest = largest_gap(length, card, most, self.margin, requested_bleed)
                keep.append(f"{most} {name}" + (f" with a --gap of {_mm(largest, down=True)} mm or less"
                                               if largest > 0.005 * MM else " only with --gap 0"))
            elif outer + 1e-6 < inner:
                short.append(f"{_mm(outer)} mm of bleed at the {edges} edges, less than the {_mm(inner)} mm the gap "
                             f"gives each card: even one card has no more room beside it")
        if not gave and not short:
            return None
        gap = f"--gap {_mm(self.gap)} mm"
        if gave:
            held = " and ".join(f"{n} {name}" for name, most, n, *_ in axes if n < most)
            most = self.most_cols * (self.most_rows if rows else self.rows)
            message = (f"{gap} leaves " + "; and ".join(gave) + f": the sheets hold {held} instead, "
                       f"{self.per_sheet} cards a sheet instead of {most}, so that every card keeps its bleed "
                       "on every edge")
            hint = "the paper holds " + " and ".join(keep) + "; --gap 0 butts the cards edge to edge, one cut between two"
        else:
            message = f"{gap} leaves " + "; and ".join(short)
            hint = "a larger paper, or a smaller --margin if the printer prints that close to the edge"
        return message, hint

    def back_room(self, filled: int, flip: str) -> tuple[float, float, float, float]:
        """How far (left, bottom, right, top), in pt, the backs of the first ``filled`` cards of a
        sheet may move before their art (trim and bleed) reaches the ink-free margin.

        The back sheet has no crop marks, so the room is the space between the backs' bleed and
        the margin. The first sheet of a run holds the most cards and later sheets use a subset
        of its slots, so its room holds for every sheet.
        """
        boxes = []
        backs = self.back_slots(filled, flip)
        for i in range(min(filled, self.per_sheet)):
            row, col = self.back_slot(*divmod(i, self.cols), flip)
            x, y, w, h = self.trim(row, col)
            bl, bb, br, bt = self.bleed(row, col, backs)
            boxes.append((x - bl, y - bb, x + w + br, y + h + bt))
        return _room(boxes, self.paper, self.margin)

    def notes(self, requested_bleed: float) -> list[str]:
        """Plain-language notes where the paper leaves less room than asked for bleed or marks."""
        out = []
        for axis, space, bleed, edges in (("x", self.origin_x - self.margin, self.bleed_outer[0], "left and right"),
                                          ("y", self.origin_y - self.margin, self.bleed_outer[1], "top and bottom")):
            if bleed + 1e-6 < requested_bleed:
                out.append(f"the {edges} margins leave {to_mm(space):.2f} mm beside the cards: "
                           f"{to_mm(bleed):.2f} mm of bleed and crop marks "
                           f"{to_mm(space - bleed - (MARK_GAP if bleed else 0)):.2f} mm long on those edges")
        return out


def _room(boxes: list[tuple[float, float, float, float]], paper: Size, margin: float,
          top: float | None = None) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) space in pt between the boxes (x1, y1, x2, y2) taken together
    and the ink-free margin; ``top`` replaces the upper limit (the fold of a gutter-fold sheet)."""
    upper = paper.height - margin if top is None else top
    return (min(b[0] for b in boxes) - margin, min(b[1] for b in boxes) - margin,
            paper.width - margin - max(b[2] for b in boxes), upper - max(b[3] for b in boxes))


def mirror(paper: Size, x: float, y: float, flip: str) -> tuple[float, float]:
    """Where a point (x, y) of a front sheet lands on its back sheet after a duplex flip: the
    long-edge flip mirrors x about the sheet's vertical centre line, the short-edge flip mirrors
    y about its horizontal one (docs/print-specs.md §8 checks 13 and 14)."""
    return (paper.width - x, y) if flip == "long" else (x, paper.height - y)


def _mm(length: float, down: bool = False) -> str:
    """A length in pt as millimetres to 0.01 mm (rounded half up, or ``down``)."""
    value = to_mm(length)
    return f"{math.floor(value * 100 + 1e-6) / 100:.2f}" if down else f"{value + 1e-9:.2f}"


def _outer_bleed(space: float, bleed: float) -> float:
    """Bleed towards the paper edge: as much as asked once a crop mark of MARK_PREF fits."""
    room = space - MARK_GAP - MARK_PREF
    return max(0.0, min(bleed, room))


def _edge_bleed(space: float, bleed: float, inner: float) -> float:
    """Bleed towards the paper edge beside a grid whose cards have ``inner`` bleed between them:
    first as much as ``inner`` (a gap's bleed, 0 for butted cards) while a crop mark of MARK_MIN
    still fits, then as much as asked once a crop mark of MARK_PREF fits."""
    return max(_outer_bleed(space, bleed), min(inner, space - MARK_GAP - MARK_MIN))


def _fit_count(length: float, card: float, margin: float, gap: float, bleed: float) -> tuple[int, int]:
    """(most, kept) cards of ``card`` (pt) across ``length`` (pt) of paper: the most that fit
    inside the margins, and the most of those that leave room beside them for the inner bleed
    the gap gives, ``min(bleed, gap / 2)``, and a crop mark of MARK_MIN. ``kept`` is ``most``
    when no count leaves it (a card about as large as the paper)."""
    most = int((length - 2 * margin + gap + 1e-6) // (card + gap))
    inner = min(bleed, gap / 2)
    for n in range(most, 0, -1):
        space = (length - n * card - (n - 1) * gap) / 2 - margin
        if space - MARK_GAP - MARK_MIN + 1e-6 >= inner:
            return most, n
    return most, most


def largest_gap(length: float, card: float, n: int, margin: float, bleed: float) -> float:
    """The largest gap (pt) with which ``n`` cards of ``card`` across ``length`` of paper leave
    room beside them for the inner bleed, ``min(bleed, gap / 2)``, and a MARK_MIN crop mark.

    With R the room beside the grid of butted cards less the crop mark, a gap leaves ``R - (n -
    1) gap / 2``: up to a gap of ``2 bleed`` the inner bleed is half the gap, so ``gap <= 2 R /
    n``; past it the inner bleed is the whole bleed, so ``gap <= 2 (R - bleed) / (n - 1)`` once R
    leaves ``n`` bleeds. 0 when only butted cards leave it."""
    room = (length - n * card) / 2 - margin - MARK_GAP - MARK_MIN
    if room <= 0:
        return 0.0
    if n > 1 and room >= n * bleed:
        return 2 * (room - bleed) / (n - 1)
    return 2 * room / n


def fit_grid(paper: Size, card: Size, *, margin: float = DEFAULT_MARGIN, gap: float = 0.0,
             bleed: float = DEFAULT_BLEED) -> Grid:
    """Place as many cards of size ``card`` as fit inside the margins of ``paper``, centred,
    ``gap`` apart; lengths in pt.

    With a gap, every card gets ``min(bleed, gap / 2)`` of bleed between cards, and as much on
    the outer edges (before the crop marks grow past MARK_MIN; :func:`_edge_bleed`). Where the
    room the gaps leave beside the grid is too little for that, the grid has fewer columns or
    rows, and ``most`` records what the paper would hold (:meth:`Grid.gap_note`). Raises BuildError when not even one card fits,
    naming both sizes.
    """
    most_cols, cols = _fit_count(paper.width, card.width, margin, gap, bleed)
    most_rows, rows = _fit_count(paper.height, card.height, margin, gap, bleed)
    if cols < 1 or rows < 1:
        raise BuildError(f"a {card} card does not fit on {paper} paper inside {to_mm(margin):g} mm margins",
                         hint="use larger paper, or a smaller --margin",
                         rule="sheet.fit")
    grid_w = cols * card.width + (cols - 1) * gap
    grid_h = rows * card.height + (rows - 1) * gap
    origin_x = (paper.width - grid_w) / 2
    origin_y = (paper.height - grid_h) / 2
    inner = min(bleed, gap / 2)
    return Grid(paper, card, cols, rows, gap, origin_x, origin_y, margin,
                (_edge_bleed(origin_x - margin, bleed, inner), _edge_bleed(origin_y - margin, bleed, inner)),
                (inner, inner), (most_cols, most_rows), bleed)


@dataclass(frozen=True)
class FoldGrid:
    """Gutter-fold imposition: fronts above a horizontal fold at the sheet's centre, backs below
    it, each back directly under its front's mirror position and turned 180°, so a sheet folded
    on the line and glued puts every back behind its face (docs/print-specs.md §8 check 18).

    ``fold_bleed`` is the bleed towards the fold, ``edge_bleed`` towards the paper edge; every
    bleed edge stays ``fold_clearance`` from the fold.
    """

    grid: Grid
    fold_y: float
    fold_clearance: float
    fold_bleed: float
    edge_bleed: float

    @property
    def per_sheet(self) -> int:
        return self.grid.cols

    def front_trim(self, col: int) -> tuple[float, float, float, float]:
        """Trim of the face at column ``col`` (above the fold)."""
        g = self.grid
        x = g.origin_x + col * (g.card.width + g.gap)
        return x, self.fold_y + self.fold_clearance + self.fold_bleed, g.card.width, g.card.height

    def back_trim(self, col: int, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float, float, float]:
        """Trim of the back of the face at column ``col`` (below the fold, mirrored about it)."""
        x, y, w, h = self.front_trim(col)
        return x + offset[0], 2 * self.fold_y - y - h + offset[1], w, h

    def front_bleed(self, col: int, filled: int | None = None) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) bleed of the face at ``col``, in page directions, on a sheet
        of ``filled`` faces (None: a full one; see :meth:`Grid.bleed`)."""
        left, _, right, _ = self.grid.bleed(0, col, None if filled is None else self.grid.filled_slots(filled))
        return left, self.fold_bleed, right, self.edge_bleed

    def back_bleed(self, col: int, filled: int | None = None) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) bleed of the back at ``col``, in page directions, on a sheet
        of ``filled`` faces (None: a full one)."""
        left, _, right, _ = self.grid.bleed(0, col, None if filled is None else self.grid.filled_slots(filled))
        return left, self.edge_bleed, right, self.fold_bleed

    def back_room(self, filled: int) -> tuple[float, float, float, float]:
        """How far (left, bottom, right, top), in pt, the backs of the first ``filled`` faces may
        move before their art (trim and bleed) reaches the ink-free margin, or, upwards, the fold
        (art past the fold would print on the face's side of the sheet)."""
        boxes = []
        for col in range(min(filled, self.per_sheet)):
            x, y, w, h = self.back_trim(col)
            bl, bb, br, bt = self.back_bleed(col, filled)
            boxes.append((x - bl, y - bb, x + w + br, y + h + bt))
        return _room(boxes, self.grid.paper, self.grid.margin, top=self.fold_y)

    def crop_marks(self, filled: int | None = None) -> list[tuple[float, float, float, float]]:
        """Crop marks outside both rows of cards: the vertical cut lines at the top and bottom
        margins, the horizontal ones (each trim's top and bottom) at the side margins."""
        g = self.grid
        xs, _ = g.cut_positions(filled)
        paper = g.paper
        top = self.front_trim(0)[1] + g.card.height
        bottom = self.back_trim(0)[1]
        gap = self.edge_bleed + (MARK_GAP if self.edge_bleed else 0.0)
        marks = []
        if paper.height - g.margin - (top + gap) >= MARK_MIN:
            marks += [(x, top + gap, x, paper.height - g.margin) for x in xs]
        if bottom - gap - g.margin >= MARK_MIN:
            marks += [(x, g.margin, x, bottom - gap) for x in xs]
        ox = g.bleed_outer[0]
        gx = ox + (MARK_GAP if ox else 0.0)
        left, right = g.origin_x - gx, g.origin_x + g.width + gx
        for y in (self.front_trim(0)[1], top, bottom, bottom + g.card.height):
            if left - g.margin >= MARK_MIN:
                marks.append((g.margin, y, left, y))
            if paper.width - g.margin - right >= MARK_MIN:
                marks.append((right, y, paper.width - g.margin, y))
        return marks


def fit_fold(paper: Size, card: Size, *, margin: float = DEFAULT_MARGIN, gap: float = 0.0,
             bleed: float = DEFAULT_BLEED, fold_clearance: float = DEFAULT_MARGIN) -> FoldGrid:
    """One row of faces above the fold and their backs below, on ``paper`` as given.

    The room left in each half after the card and the fold clearance is shared between the
    bleed towards the fold, the bleed towards the paper edge and a crop mark. Columns are given
    up to keep the bleed a gap gives as on a duplex grid (:func:`fit_grid`). Raises BuildError
    when one row does not fit in half the sheet.
    """
    half = paper.height / 2
    most_cols, cols = _fit_count(paper.width, card.width, margin, gap, bleed)
    room = half - margin - fold_clearance - card.height
    if cols < 1 or room < 0:
        raise BuildError(f"a {card} card does not fit half of {paper} paper for gutter fold",
                         hint="use larger paper, or turn it to landscape",
                         rule="sheet.fit")
    fold_bleed = min(bleed, max(0.0, (room - MARK_PREF - MARK_GAP) / 2))
    edge_bleed = _outer_bleed(room - fold_bleed, bleed)
    grid_w = cols * card.width + (cols - 1) * gap
    origin_x = (paper.width - grid_w) / 2
    inner = min(bleed, gap / 2)
    grid = Grid(paper, card, cols, 1, gap, origin_x, half + fold_clearance + fold_bleed, margin,
                (_edge_bleed(origin_x - margin, bleed, inner), edge_bleed), (inner, inner), (most_cols, 1), bleed)
    return FoldGrid(grid, half, fold_clearance, fold_bleed, edge_bleed)
