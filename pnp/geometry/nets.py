"""Die-net geometry: the cross-shaped net of a six-sided die, its faces and glue tabs.

The net is the usual cross: a column of four faces with one face on each side of the second.
``faces[i]`` lies opposite ``faces[5 - i]`` once folded. Seven glue tabs close the cube, one on
one edge of each pair of edges that meet when folded. A net here is anything with ``size`` (the
cube's edge) and ``tab`` (the tab depth) in pt (:class:`pnp.model.pieces.DieNet`); positions
are PDF pt from the net's tab-inclusive top-left corner.
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
