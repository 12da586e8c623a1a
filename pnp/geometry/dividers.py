"""Card divider geometry: card-sized dividers with a tab above, the tabs staggered across the
width, and their places on a sheet. Pure functions, no drawing.

A divider is the card's trim (sleeved: the sleeve's size), ``width`` x ``height``, with a tab
:data:`TAB_HEIGHT` tall standing above its top edge. The tabs of a set take turns across the
width in :func:`tab_positions` places (as many of at least :data:`MIN_TAB_WIDTH` as fit, never
more than there are dividers): the first divider's tab at the left edge, the next one place to
the right, back to the left after the last place, so that each tab shows beside its
neighbours' when the dividers stand in a box.

Coordinates are pt with a divider's bottom-left corner at (x, y), y up.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.units import MM

TAB_HEIGHT = 8 * MM
"""How far a tab stands above the cards: room for one line of 9 pt text and a finger."""
MIN_TAB_WIDTH = 20 * MM
"""The narrowest tab: a deck's name of about ten letters at 9 pt."""
GAP = 3 * MM
"""Space between dividers on a sheet, so that each has its own cut line."""

Point = tuple[float, float]


@dataclass(frozen=True)
class Divider:
    """One divider placed on a sheet: its ``body`` (x, y, w, h: the card's size), its ``tab``
    (x, y, w, h above the body), and the closed cut ``outline`` (points, the last joined to the
    first, corners only)."""

    body: tuple[float, float, float, float]
    tab: tuple[float, float, float, float]
    outline: tuple[Point, ...]


def tab_positions(count: int, width: float) -> int:
    """How many places the tabs of ``count`` dividers ``width`` pt wide take turns in: as many
    tabs of at least :data:`MIN_TAB_WIDTH` as fit across, at most ``count``, at least one."""
    return max(1, min(count, int(width // MIN_TAB_WIDTH)))


def divider(x: float, y: float, width: float, height: float, index: int, places: int) -> Divider:
    """Divider number ``index`` (from 0) of a set whose tabs take turns in ``places`` places,
    its body's bottom-left at (x, y): the tab is ``width / places`` wide at place
    ``index % places`` from the left."""
    tab_w = width / places
    tx = x + (index % places) * tab_w
    top = y + height
    points = [(x, y), (x + width, y), (x + width, top), (tx + tab_w, top), (tx + tab_w, top + TAB_HEIGHT),
              (tx, top + TAB_HEIGHT), (tx, top), (x, top)]
    corners = []  # a tab at either edge runs straight up from the body's side: no corner there
    for i, p in enumerate(points):
        a, b = points[i - 1], points[(i + 1) % len(points)]
        if abs((p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0])) > 1e-9:
            corners.append(p)
    return Divider((x, y, width, height), (tx, top, tab_w, TAB_HEIGHT), tuple(corners))


def sheet_places(width: float, height: float, area_w: float, area_h: float) -> list[Point]:
    """The bottom-left corners of the dividers' bodies that fit one sheet's printable area
    (``area_w`` x ``area_h`` pt, its bottom-left at (0, 0)), row by row from the top left, the
    grid centred, :data:`GAP` apart. Raises ValueError when not even one fits."""
    tall = height + TAB_HEIGHT
    cols = int((area_w + GAP) // (width + GAP))
    rows = int((area_h + GAP) // (tall + GAP))
    if cols < 1 or rows < 1:
        raise ValueError(f"{width / MM:.1f} x {tall / MM:.1f} mm")
    left = (area_w - (cols * (width + GAP) - GAP)) / 2
    top = area_h - (area_h - (rows * (tall + GAP) - GAP)) / 2
    return [(left + col * (width + GAP), top - row * (tall + GAP) - tall)
            for row in range(rows) for col in range(cols)]
