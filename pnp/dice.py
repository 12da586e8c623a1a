"""Printable six-sided dice: a cube net with glue tabs, drawn from a ``die`` component.

The net is the usual cross: a column of four faces with one face on each side of the second.
Faces are given by the component's ``faces`` setting (default 1 to 6); ``faces[i]`` lies
opposite ``faces[5 - i]``, so the default puts 1 opposite 6, 2 opposite 5 and 3 opposite 4, as on
a standard die. Whole numbers 1-6 are drawn as pips (unless ``pips = false``), anything else as
text. ``size`` is the edge of the cube (default 20 mm); ``layout`` (optional) is drawn under each
face, seeing ``face`` (the face's value) besides the usual names.

Seven glue tabs close the cube, one on one edge of each pair of edges that meet when folded.
Cut along the solid grey outline, fold every dashed line away from the printed side, and glue
each tab under the face edge it meets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .build import SheetOptions, piece_context
from .errors import BuildError, Location
from .findings import Finding
from .layout import Piece, Renderer
from .model import Game
from .units import MM, Size, parse_length, to_mm

DEFAULT_FACE = 20 * MM
"""Default edge length of a printed die."""
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


@dataclass
class DieNet:
    """One die component to print: ``copies`` nets of ``size`` (pt) faces."""

    component: str
    title: str
    faces: list[Any]
    size: float
    layout: str | None
    copies: int
    pips: bool
    context: dict[str, Any]

    @property
    def tab(self) -> float:
        """Depth of a glue tab."""
        return min(6 * MM, self.size * 0.3)

    @property
    def width(self) -> float:
        """Width of the net with its tabs."""
        return 3 * self.size + 2 * self.tab

    @property
    def height(self) -> float:
        """Height of the net with its tabs."""
        return 4 * self.size + self.tab


def die_nets(game: Game) -> tuple[list[DieNet], list[Finding]]:
    """The die components of ``game``. Raises BuildError naming the game.toml key for faces
    that are not six, or a bad size."""
    out = []
    for comp in game:
        if comp.kind != "die" or comp.copies == 0:
            continue
        where = f"components.{comp.id}"
        loc = Location(f"{game.display_root}/game.toml", column_name=f"{where}.faces")
        faces = comp.options.get("faces", [1, 2, 3, 4, 5, 6])
        if not isinstance(faces, list) or len(faces) != 6:
            raise BuildError(f"a printable die needs 6 faces, not {faces!r}", location=loc,
                             hint="faces = [1, 2, 3, 4, 5, 6]; only six-sided nets are printed")
        size = DEFAULT_FACE
        if "size" in comp.options:
            try:
                size = parse_length(str(comp.options["size"]))
            except ValueError as exc:
                raise BuildError(str(exc), location=Location(f"{game.display_root}/game.toml",
                                                            column_name=f"{where}.size"),
                                 hint='give the edge of the cube, e.g. size = "20mm"') from None
            if size <= 0:
                raise BuildError("a die's size must be greater than zero",
                                 location=Location(f"{game.display_root}/game.toml", column_name=f"{where}.size"))
        pips = comp.options.get("pips", True) is not False
        out.append(DieNet(comp.id, comp.name, faces, size, comp.layout, comp.copies, pips,
                          piece_context(game, comp, None)))
    return out, []


def face_rect(net: DieNet, index: int, left: float, top: float) -> tuple[float, float, float, float]:
    """The square of faces[index] (x, y, w, h PDF pt) for a net whose tab-inclusive box has its
    top-left at (left, top)."""
    col, row = NET_CELLS[index]
    s = net.size
    x = left + net.tab + col * s
    y = top - (row + 1) * s
    return x, y, s, s


def _edge(rect, side: str) -> tuple[float, float, float, float]:
    x, y, w, h = rect
    return {"top": (x, y + h, x + w, y + h), "bottom": (x, y, x + w, y),
            "left": (x, y, x, y + h), "right": (x + w, y, x + w, y + h)}[side]


def _cell_rect(net: DieNet, cell, left: float, top: float):
    return face_rect(net, NET_CELLS.index(cell), left, top)


def _outer(cell, side: str) -> bool:
    col, row = cell
    step = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}[side]
    return (col + step[0], row + step[1]) not in NET_CELLS


def tab_polygon(net: DieNet, cell, side: str, left: float, top: float) -> list[tuple[float, float]]:
    """The four corners of the glue tab on ``side`` of ``cell``: a trapezoid ``tab`` deep with
    45° ends."""
    x1, y1, x2, y2 = _edge(_cell_rect(net, cell, left, top), side)
    t = net.tab
    nx, ny = {"top": (0, 1), "bottom": (0, -1), "left": (-1, 0), "right": (1, 0)}[side]
    dx, dy = (x2 - x1, y2 - y1)
    length = abs(dx) + abs(dy)
    ux, uy = dx / length, dy / length
    return [(x1, y1), (x1 + nx * t + ux * t, y1 + ny * t + uy * t),
            (x2 + nx * t - ux * t, y2 + ny * t - uy * t), (x2, y2)]


def draw_net(c, renderer: Renderer, net: DieNet, left: float, top: float, bleed: float) -> None:
    """Draw one net with its tab-inclusive box's top-left at (left, top), PDF pt."""
    from .tokens import CUT_GRAY, CUT_WIDTH, FOLD_GRAY

    s = net.size
    tabs = {(cell, side) for cell, side in TABS}
    for i, value in enumerate(net.faces):
        cell = NET_CELLS[i]
        rect = face_rect(net, i, left, top)
        bl, bb, br, bt = (bleed if _outer(cell, side) else 0.0 for side in ("left", "bottom", "right", "top"))
        ctx = dict(net.context, face=value)
        c.saveState()
        if net.layout:
            renderer.draw(c, Piece(f"{net.component} face {value}", net.layout, ctx), rect, (bl, bb, br, bt))
        else:
            c.setFillColorRGB(1, 1, 1)
            c.rect(rect[0] - bl, rect[1] - bb, s + bl + br, s + bb + bt, stroke=0, fill=1)
        c.restoreState()
        _face_value(c, value, rect, net.pips)
    c.saveState()
    for cell, side in TABS:
        pts = tab_polygon(net, cell, side, left, top)
        path = c.beginPath()
        path.moveTo(*pts[0])
        for p in pts[1:]:
            path.lineTo(*p)
        path.close()
        c.setFillColorRGB(0.9, 0.9, 0.9)
        c.drawPath(path, stroke=0, fill=1)
        c.setFillColorRGB(0.45, 0.45, 0.45)
        mx = sum(p[0] for p in pts) / 4
        my = sum(p[1] for p in pts) / 4
        from .boards import text

        text(c, "sans", min(6.0, net.tab / MM * 1.1), mx, my - 1.0, "glue", align="centre",
             angle={"top": 0, "bottom": 0, "left": 90, "right": -90}[side])
    c.restoreState()
    cut, fold = [], []
    for i in range(6):
        cell = NET_CELLS[i]
        rect = face_rect(net, i, left, top)
        for side in ("top", "bottom", "left", "right"):
            edge = _edge(rect, side)
            if not _outer(cell, side):
                if side in ("bottom", "right"):  # each inner edge once
                    fold.append(edge)
            elif (cell, side) in tabs:
                fold.append(edge)
                pts = tab_polygon(net, cell, side, left, top)
                cut += [(*pts[0], *pts[1]), (*pts[1], *pts[2]), (*pts[2], *pts[3])]
            else:
                cut.append(edge)
    c.saveState()
    c.setStrokeColorRGB(FOLD_GRAY, FOLD_GRAY, FOLD_GRAY)
    c.setLineWidth(0.5)
    c.setDash(2, 2)
    for seg in fold:
        c.line(*seg)
    c.restoreState()
    c.saveState()
    c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
    c.setLineWidth(CUT_WIDTH)
    for seg in cut:
        c.line(*seg)
    c.restoreState()


def _face_value(c, value: Any, rect, pips: bool) -> None:
    x, y, s, _ = rect
    c.saveState()
    c.setFillColorRGB(0.1, 0.1, 0.1)
    if pips and isinstance(value, int) and not isinstance(value, bool) and value in PIPS:
        r = s * 0.09
        for fx, fy in PIPS[value]:
            c.circle(x + fx * s, y + s - fy * s, r, stroke=0, fill=1)
    else:
        from .boards import text

        text(c, "sans-bold", s / MM * 1.6, x + s / 2, y + s * 0.32, str(value), align="centre")
    c.restoreState()


def _per_sheet(net: DieNet, paper: Size, opts: SheetOptions) -> int:
    pitch_w = net.width + 2 * opts.bleed + 4 * MM
    pitch_h = net.height + 2 * opts.bleed + 4 * MM
    cols = int((paper.width - 2 * opts.margin + 4 * MM) // pitch_w)
    rows = int((paper.height - 2 * opts.margin - 12 * MM + 4 * MM) // pitch_h)
    if cols < 1 or rows < 1:
        raise BuildError(f"a die net of {to_mm(net.size):g} mm faces does not fit on {paper} paper",
                         hint="give the die a smaller size, or use larger paper")
    return cols * rows


def draw_die_sheets(c, renderer: Renderer, nets: list[DieNet], paper: Size, opts: SheetOptions,
                    duplex: bool) -> int:
    """Draw every die net, in a grid per die component, each sheet headed by a caption. In a
    duplex file each sheet is followed by a blank back. Returns the sheets drawn."""
    from .boards import text

    sheets = 0
    for net in nets:
        per = _per_sheet(net, paper, opts)
        pitch_w = net.width + 2 * opts.bleed + 4 * MM
        pitch_h = net.height + 2 * opts.bleed + 4 * MM
        cols = int((paper.width - 2 * opts.margin + 4 * MM) // pitch_w)
        for start in range(0, net.copies, per):
            n = min(per, net.copies - start)
            c.setFillColorRGB(0, 0, 0)
            text(c, "sans-bold", 10, opts.margin + 2 * MM, paper.height - opts.margin - 6 * MM,
                 f"{net.title}: cut on the grey outline, fold the dashed lines, glue the tabs inside")
            top0 = paper.height - opts.margin - 12 * MM - opts.bleed
            used = min(n, cols)
            left0 = (paper.width - (used * pitch_w - 4 * MM)) / 2 + opts.bleed
            for i in range(n):
                row, col = divmod(i, cols)
                draw_net(c, renderer, net, left0 + col * pitch_w, top0 - row * pitch_h, opts.bleed)
            c.showPage()
            sheets += 1
            if duplex:
                text(c, "sans", 8, paper.width / 2, paper.height / 2, "(back of the die sheet, left blank)",
                     align="centre")
                c.showPage()
    return sheets
