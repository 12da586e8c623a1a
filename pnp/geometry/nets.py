"""Die-net geometry: the cross-shaped net of a six-sided die, its faces and glue tabs.

The net is the usual cross: a column of four faces with one face on each side of the second.
``faces[i]`` lies opposite ``faces[5 - i]`` once folded. Seven glue tabs close the cube, one on
one edge of each pair of edges that meet when folded. A net here is anything with ``size`` (the
cube's edge) and ``tab`` (the tab depth) in pt (:class:`pnp.model.pieces.DieNet`); positions
are PDF pt from the net's tab-inclusive top-left corner.

The cut of a net (:func:`cut_segments`, chained into one closed outline by :func:`outline`) is
every outer face edge without a tab, and the three slanted and outer sides of each tab; its
folds (:func:`fold_segments`) are the edges between faces and the edges tabs fold on. The die
sheets print these lines and the print-and-cut files cut and score on the same ones.
"""

from __future__ import annotations

from typing import Any

NET_CELLS = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2), (1, 3))
"""(column, row) of faces[0..5] in the net, row 0 at the top: faces[i] and faces[5 - i] are
opposite once folded (the column's 1st and 3rd, 2nd and 4th; the two side faces)."""


TABS = (((0, 1), "top"), ((0, 1), "bottom"), ((0, 1), "left"),
        ((2, 1), "top"), ((2, 1), "bottom"), ((2, 1), "right"), ((1, 3), "bottom"))
"""The seven glue tabs: (cell, edge). Each joins a pair of edges that meet when folded."""


PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}
"""Pip centres as fractions of the face (x right, y down) for the values 1-6."""


def face_rect(net: Any, index: int, left: float, top: float) -> tuple[float, float, float, float]:
    """The square of faces[index] (x, y, w, h PDF pt) for a net whose tab-inclusive box has its
    top-left at (left, top)."""
    col, row = NET_CELLS[index]
    s = net.size
    x = left + net.tab + col * s
    y = top - (row + 1) * s
    return x, y, s, s


def edge(rect, side: str) -> tuple[float, float, float, float]:
    """The segment (x1, y1, x2, y2) of ``side`` (top, bottom, left, right) of ``rect``."""
    x, y, w, h = rect
    return {"top": (x, y + h, x + w, y + h), "bottom": (x, y, x + w, y),
            "left": (x, y, x, y + h), "right": (x + w, y, x + w, y + h)}[side]


def cell_rect(net: Any, cell, left: float, top: float):
    """The square of the face at net ``cell`` (column, row)."""
    return face_rect(net, NET_CELLS.index(cell), left, top)


def is_outer(cell, side: str) -> bool:
    """Whether ``side`` of the face at ``cell`` is on the net's outline (no face beyond it)."""
    col, row = cell
    step = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}[side]
    return (col + step[0], row + step[1]) not in NET_CELLS


def tab_polygon(net: Any, cell, side: str, left: float, top: float) -> list[tuple[float, float]]:
    """The four corners of the glue tab on ``side`` of ``cell``: a trapezoid ``tab`` deep with
    45° ends."""
    x1, y1, x2, y2 = edge(cell_rect(net, cell, left, top), side)
    t = net.tab
    nx, ny = {"top": (0, 1), "bottom": (0, -1), "left": (-1, 0), "right": (1, 0)}[side]
    dx, dy = (x2 - x1, y2 - y1)
    length = abs(dx) + abs(dy)
    ux, uy = dx / length, dy / length
    return [(x1, y1), (x1 + nx * t + ux * t, y1 + ny * t + uy * t),
            (x2 + nx * t - ux * t, y2 + ny * t - uy * t), (x2, y2)]


Segment = tuple[float, float, float, float]


def cut_segments(net: Any, left: float, top: float) -> list[Segment]:
    """The cut lines (x1, y1, x2, y2 PDF pt) of a net whose tab-inclusive box has its top-left
    at (left, top): each outer face edge without a tab, and each tab's three free sides."""
    tabs = set(TABS)
    cut: list[Segment] = []
    for i, cell in enumerate(NET_CELLS):
        rect = face_rect(net, i, left, top)
        for side in ("top", "bottom", "left", "right"):
            if not is_outer(cell, side):
                continue
            if (cell, side) in tabs:
                pts = tab_polygon(net, cell, side, left, top)
                cut += [(*pts[0], *pts[1]), (*pts[1], *pts[2]), (*pts[2], *pts[3])]
            else:
                cut.append(edge(rect, side))
    return cut


def fold_segments(net: Any, left: float, top: float) -> list[Segment]:
    """The fold lines of the same net: each edge between two faces once, and each tab's edge."""
    tabs = set(TABS)
    fold: list[Segment] = []
    for i, cell in enumerate(NET_CELLS):
        rect = face_rect(net, i, left, top)
        for side in ("top", "bottom", "left", "right"):
            if not is_outer(cell, side):
                if side in ("bottom", "right"):  # each inner edge once
                    fold.append(edge(rect, side))
            elif (cell, side) in tabs:
                fold.append(edge(rect, side))
    return fold


def outline(net: Any, left: float, top: float) -> list[tuple[float, float]]:
    """The net's cut as one closed polygon (its points in order, the last joined to the
    first): :func:`cut_segments` chained end to end. Raises ValueError when the segments do not
    close into one loop (a geometry fault, never an input's)."""
    def key(x: float, y: float) -> tuple[float, float]:
        return round(x, 6), round(y, 6)

    ends: dict[tuple[float, float], list[int]] = {}
    segments = cut_segments(net, left, top)
    for i, (x1, y1, x2, y2) in enumerate(segments):
        ends.setdefault(key(x1, y1), []).append(i)
        ends.setdefault(key(x2, y2), []).append(i)
    if any(len(v) != 2 for v in ends.values()):
        raise ValueError("the net's cut lines do not form one closed outline")
    x1, y1, x2, y2 = segments[0]
    points = [(x1, y1)]
    used = {0}
    at = (x2, y2)
    while key(*at) != key(*points[0]):
        points.append(at)
        nxt = next(i for i in ends[key(*at)] if i not in used)
        used.add(nxt)
        a, b, c, d = segments[nxt]
        at = (c, d) if key(a, b) == key(*at) else (a, b)
    if len(used) != len(segments):
        raise ValueError("the net's cut lines form more than one outline")
    merged = []  # drop points where the outline runs straight on (a tab's end meeting a face edge)
    for i, p in enumerate(points):
        a, b = points[i - 1], points[(i + 1) % len(points)]
        if abs((p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0])) > 1e-6:
            merged.append(p)
    return merged
