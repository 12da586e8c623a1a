"""Board tiling geometry: pure functions, no drawing.

A board (a game board, a player board, a reference sheet) is printed on one sheet when its trim
fits inside the printable area (the paper less its ink-free margin); otherwise it is **tiled**:
printed in pieces on several sheets that overlap by a configurable amount (default 10 mm,
docs/print-specs.md §3 "Tiling a board": 0.5 in "or more"), glued together along the overlaps.

Coordinates:

- **Board coordinates** are points from the top-left corner of the board's trim, x to the
  right and y **downwards**, as a designer measures a board.
- **Sheet coordinates** are PDF points from the sheet's bottom-left corner, y upwards.

Every position is computed from absolute coordinates (origin + index x pitch), never by adding
increments. Tiles are named like map squares: a letter for the row (A is the top row) and a
number for the column (1 is the left column): A1, A2, ..., B1, ...

Each overlap between two neighbouring tiles (a **band**) carries alignment marks at identical
board coordinates on both tiles (docs/print-specs.md §8 check 19): on the band's centre line, where
the right or lower tile is trimmed, but outside the printed windows, in the guide strips at
both ends of the band. Every point of a band inside the board is printed on the finished board
by one of its two tiles (the upper tile up to the centre line, the trimmed lower one after it),
so a mark drawn over the art would stay in sight; in the guide strips the marks are cut away
with the strips, or end up under the neighbouring tile, once the board is put together. Every
tile's printed window stays inside the printable area, with a guide strip of ``guide`` between
the window and the margin for the tile label, the cut ticks and the alignment marks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import BuildError
from .impose import MARK_GAP, MARK_MIN
from ..core.units import MM, Size, to_mm

DEFAULT_OVERLAP = 10 * MM
"""Overlap between neighbouring tiles (docs/print-specs.md §3: 0.5 in "or more"; §8 check 19)."""
TILE_GUIDE = 5 * MM
"""Strip between a tile's printed window and the ink-free margin: the tile label and cut ticks."""
MIN_OVERLAP = 2 * MM
"""The smallest overlap accepted: a tile is trimmed on the overlap's centre line and glued on the
half left of its neighbour's."""
MARK_RADIUS = 2 * MM
"""Half the size of an alignment mark (an X in a circle): it sits at the centre of a guide strip
(TILE_GUIDE, 5 mm), keeping MARK_GAP from the window and from the margin; reduced to fit a
narrower strip."""

_EPS = 1e-6


def tile_label(row: int, col: int) -> str:
    """The label of the tile at ``row``, ``col`` (0-based): A1 is the top-left tile, A2 is to
    its right, B1 below it. Rows past Z continue AA, AB, ... like spreadsheet columns."""
    letters = ""
    n = row + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return f"{letters}{col + 1}"


@dataclass(frozen=True)
class Tile:
    """One sheet of a tiled board.

    ``x``, ``y``, ``width``, ``height``: the board region printed on this sheet (its **window**)
    in board coordinates (pt, y down from the trim's top-left). ``sheet_left``, ``sheet_top``:
    where the window's top-left corner lands on the sheet (PDF pt, y up).
    """

    row: int
    col: int
    label: str
    x: float
    y: float
    width: float
    height: float
    sheet_left: float
    sheet_top: float

    def to_sheet(self, bx: float, by: float) -> tuple[float, float]:
        """Sheet position (PDF pt) of board point (``bx``, ``by``) on this tile."""
        return self.sheet_left + (bx - self.x), self.sheet_top - (by - self.y)

    def sheet_rect(self) -> tuple[float, float, float, float]:
        """The window on the sheet as (x, y, width, height), PDF pt, bottom-left origin."""
        return self.sheet_left, self.sheet_top - self.height, self.width, self.height

    def contains(self, bx: float, by: float) -> bool:
        """Whether board point (``bx``, ``by``) is printed on this tile."""
        return (self.x - _EPS <= bx <= self.x + self.width + _EPS
                and self.y - _EPS <= by <= self.y + self.height + _EPS)


@dataclass(frozen=True)
class Band:
    """The overlap of two neighbouring tiles, in board coordinates.

    ``axis`` is ``vertical`` for a band between a tile and the one to its right (the band runs
    up and down the board) and ``horizontal`` for a tile and the one below it. ``first`` is the
    left or upper tile, ``second`` the right or lower one (the one trimmed on the centre line and
    laid on top when assembling). ``centre`` is the band's centre line (an x for a vertical band,
    a y for a horizontal one).
    """

    axis: str
    first: str
    second: str
    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> float:
        """The x (vertical band) or y (horizontal band) of the band's centre line."""
        return self.x + self.width / 2 if self.axis == "vertical" else self.y + self.height / 2


@dataclass(frozen=True)
class AlignmentMark:
    """An alignment mark: its centre in board coordinates (outside the tile windows), and the
    band it belongs to."""

    x: float
    y: float
    band: Band
    radius: float


@dataclass(frozen=True)
class BoardPlan:
    """How one board is laid out on sheets: one sheet, or ``rows`` x ``cols`` tiles.

    All tiles share one window size (``window_w`` x ``window_h``) and one position on the sheet;
    tile (r, c)'s window starts at board (origin_x + c * pitch_x, origin_y + r * pitch_y), so
    neighbouring windows overlap by exactly ``overlap``. ``bleed`` is the art printed past the
    trim on every side (reduced when the sheet leaves less room). ``paper`` is the sheet as used
    (portrait or turned to landscape).
    """

    board: Size
    paper: Size
    margin: float
    bleed: float
    overlap: float
    guide: float
    cols: int
    rows: int
    window_w: float
    window_h: float
    pitch_x: float
    pitch_y: float
    origin_x: float
    origin_y: float
    sheet_left: float
    sheet_top: float

    @property
    def tiled(self) -> bool:
        """True when the board needs more than one sheet."""
        return self.cols * self.rows > 1

    @property
    def count(self) -> int:
        """Sheets (tiles) the board takes."""
        return self.cols * self.rows

    def tile(self, row: int, col: int) -> Tile:
        """The tile at ``row``, ``col`` (0-based, row 0 at the top)."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError((row, col))
        return Tile(row, col, tile_label(row, col),
                    self.origin_x + col * self.pitch_x, self.origin_y + row * self.pitch_y,
                    self.window_w, self.window_h, self.sheet_left, self.sheet_top)

    def tiles(self) -> list[Tile]:
        """Every tile in reading order: A1, A2, ..., B1, ..."""
        return [self.tile(r, c) for r in range(self.rows) for c in range(self.cols)]

    def bands(self) -> list[Band]:
        """Every overlap between neighbouring tiles: vertical bands first, then horizontal."""
        out = []
        o = self.overlap
        for r in range(self.rows):
            for c in range(self.cols - 1):
                out.append(Band("vertical", tile_label(r, c), tile_label(r, c + 1),
                                self.origin_x + (c + 1) * self.pitch_x, self.origin_y + r * self.pitch_y,
                                o, self.window_h))
        for r in range(self.rows - 1):
            for c in range(self.cols):
                out.append(Band("horizontal", tile_label(r, c), tile_label(r + 1, c),
                                self.origin_x + c * self.pitch_x, self.origin_y + (r + 1) * self.pitch_y,
                                self.window_w, o))
        return out

    def marks(self) -> list[AlignmentMark]:
        """Alignment marks: two per band, on its centre line, just beyond both ends of the band
        in the middle of the guide strips (``guide / 2`` outside the tile windows): above and
        below a vertical band, left and right of a horizontal one.

        A mark belongs to both tiles of its band and is printed on both at the same board
        coordinates (docs/print-specs.md §8 check 19): the two tiles of a band share its ends' guide
        strips, since all windows sit at one place on the sheet. Trimming the right (lower)
        tile on the centre line cuts its marks in half; laid on its neighbour, the halves meet.
        No mark is printed inside a window, so none is left on the finished board.
        """
        radius = min(MARK_RADIUS, self.guide / 2 - MARK_GAP)
        out = []
        for band in self.bands():
            half = self.guide / 2
            if band.axis == "vertical":
                ends = [(band.centre, band.y - half), (band.centre, band.y + band.height + half)]
            else:
                ends = [(band.x - half, band.centre), (band.x + band.width + half, band.centre)]
            out += [AlignmentMark(x, y, band, radius) for x, y in ends]
        return out

    def marks_on(self, tile: Tile) -> list[AlignmentMark]:
        """The alignment marks printed on ``tile``."""
        return [m for m in self.marks() if tile.label in (m.band.first, m.band.second)]

    def bands_of(self, tile: Tile) -> list[Band]:
        """The bands ``tile`` takes part in."""
        return [b for b in self.bands() if tile.label in (b.first, b.second)]


MAX_TILES = 64
"""Most sheets one board may be tiled over (a 1 m square board on Letter needs 25)."""


def _count(length: float, window: float, overlap: float) -> int:
    if length <= window + _EPS:
        return 1
    return max(2, math.ceil((length - overlap) / (window - overlap) - 1e-9))


def plan_board(board: Size, paper: Size, *, margin: float, bleed: float,
               overlap: float = DEFAULT_OVERLAP, guide: float = TILE_GUIDE) -> BoardPlan:
    """Lay out a board of trim size ``board`` on sheets of ``paper`` (portrait; landscape is
    tried too). All lengths in pt.

    A board whose trim fits the printable area (``paper`` less ``margin`` on every side) of
    either orientation is placed on one sheet, centred, with as much of ``bleed`` as leaves room
    for crop marks. Otherwise it is tiled: the board plus ``bleed`` on every side is cut into the
    fewest equal windows (choosing portrait or landscape sheets, portrait on a tie) that fit the
    printable area less ``guide`` on every side, neighbours overlapping by exactly ``overlap``.

    Raises BuildError when the overlap is below MIN_OVERLAP or leaves no room for a window.
    """
    if board.width <= 0 or board.height <= 0:
        raise BuildError(f"a board of {board} has no area", hint='give a size such as size = "500mm x 500mm"',
                         rule="sheet.fit")
    sheets = [paper] if abs(paper.width - paper.height) < _EPS else [paper, Size(paper.height, paper.width)]
    for sheet in sheets:
        pw, ph = sheet.width - 2 * margin, sheet.height - 2 * margin
        if board.width <= pw + _EPS and board.height <= ph + _EPS:
            room = min(sheet.width - board.width, sheet.height - board.height) / 2 - margin
            b = max(0.0, min(bleed, room - MARK_GAP - MARK_MIN))
            w, h = board.width + 2 * b, board.height + 2 * b
            return BoardPlan(board, sheet, margin, b, overlap, guide, 1, 1, w, h, 0.0, 0.0, -b, -b,
                             (sheet.width - w) / 2, (sheet.height + h) / 2)
    if overlap < MIN_OVERLAP - _EPS:
        raise BuildError(f"a tile overlap of {to_mm(overlap):g} mm is too small to trim on its centre and glue",
                         hint=f"use an overlap of at least {to_mm(MIN_OVERLAP):g} mm (10 mm is the default)",
                         rule="sheet.fit")
    best = None
    for sheet in sheets:
        wmax = sheet.width - 2 * margin - 2 * guide
        hmax = sheet.height - 2 * margin - 2 * guide
        if wmax <= overlap + _EPS or hmax <= overlap + _EPS:
            continue
        lx, ly = board.width + 2 * bleed, board.height + 2 * bleed
        cols, rows = _count(lx, wmax, overlap), _count(ly, hmax, overlap)
        if best is None or cols * rows < best[1] * best[2]:
            best = (sheet, cols, rows, lx, ly)
    if best is None:
        raise BuildError(f"an overlap of {to_mm(overlap):g} mm leaves no room on {paper} paper",
                         hint="use a smaller overlap or larger paper",
                         rule="sheet.fit")
    sheet, cols, rows, lx, ly = best
    if cols * rows > MAX_TILES:
        raise BuildError(f"a board of {board} needs {cols * rows} sheets ({cols} x {rows}) on {paper} paper",
                         hint=f"boards over {MAX_TILES} sheets are refused as a likely typo in the size; "
                         "check the board's size in game.toml",
                         rule="sheet.fit")
    w = (lx + (cols - 1) * overlap) / cols
    h = (ly + (rows - 1) * overlap) / rows
    return BoardPlan(board, sheet, margin, bleed, overlap, guide, cols, rows, w, h,
                     w - overlap if cols > 1 else 0.0, h - overlap if rows > 1 else 0.0,
                     -bleed, -bleed, (sheet.width - w) / 2, (sheet.height + h) / 2)
