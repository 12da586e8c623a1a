"""Printable six-sided dice: cube nets with glue tabs (geometry in :mod:`pnp.geometry.nets`),
drawn on the die sheets at the end of the tokens PDF.

Faces are given by the component's ``faces`` setting (default 1 to 6); whole numbers 1-6 are
drawn as pips (unless ``pips = false``), anything else as text. ``layout`` (optional) is drawn
under each face, seeing ``face`` (the face's value) besides the usual names. Cut along the solid
grey outline, fold every dashed line away from the printed side, and glue each tab under the
face edge it meets.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import BuildError
from ..core.units import MM, Size, to_mm
from ..geometry.nets import NET_CELLS, PIPS, TABS, cut_segments, face_rect, fold_segments, is_outer, tab_polygon
from ..model.pieces import DieNet, Piece
from ..render.canvas import CUT_GRAY, CUT_WIDTH, FOLD_GRAY, text
from ..render.renderer import Renderer
from .base import SheetOptions


def draw_net(c, renderer: Renderer, net: DieNet, left: float, top: float, bleed: float) -> None:
    """Draw one net with its tab-inclusive box's top-left at (left, top), PDF pt."""
    s = net.size
    for i, value in enumerate(net.faces):
        cell = NET_CELLS[i]
        rect = face_rect(net, i, left, top)
        bl, bb, br, bt = (bleed if is_outer(cell, side) else 0.0 for side in ("left", "bottom", "right", "top"))
        ctx = dict(net.context, face=value)
        c.saveState()
        if net.layout:
            renderer.draw(c, Piece(net.layout, ctx, net.component, side=f"face {value}"), rect, (bl, bb, br, bt))
        else:
            c.setFillColorRGB(1, 1, 1)
            c.rect(rect[0] - bl, rect[1] - bb, s + bl + br, s + bb + bt, stroke=0, fill=1)
        c.restoreState()
        draw_face_value(c, value, rect, net.pips)
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
        text(c, "sans", min(6.0, net.tab / MM * 1.1), mx, my - 1.0, "glue", align="centre",
             angle={"top": 0, "bottom": 0, "left": 90, "right": -90}[side])
    c.restoreState()
    cut, fold = cut_segments(net, left, top), fold_segments(net, left, top)
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


def draw_face_value(c, value: Any, rect, pips: bool) -> None:
    """A die face's value inside ``rect`` (x, y, size, size; pt): pips for 1-6 (unless
    ``pips`` is off), else the value as text."""
    x, y, s, _ = rect
    c.saveState()
    c.setFillColorRGB(0.1, 0.1, 0.1)
    if pips and isinstance(value, int) and not isinstance(value, bool) and value in PIPS:
        r = s * 0.09
        for fx, fy in PIPS[value]:
            c.circle(x + fx * s, y + s - fy * s, r, stroke=0, fill=1)
    else:
        text(c, "sans-bold", s / MM * 1.6, x + s / 2, y + s * 0.32, str(value), align="centre")
    c.restoreState()


def _per_sheet(net: DieNet, paper: Size, opts: SheetOptions) -> int:
    pitch_w = net.width + 2 * opts.bleed + 4 * MM
    pitch_h = net.height + 2 * opts.bleed + 4 * MM
    cols = int((paper.width - 2 * opts.margin + 4 * MM) // pitch_w)
    rows = int((paper.height - 2 * opts.margin - 12 * MM + 4 * MM) // pitch_h)
    if cols < 1 or rows < 1:
        raise BuildError(f"a die net of {to_mm(net.size):g} mm faces does not fit on {paper} paper",
                         hint="give the die a smaller size, or use larger paper",
                         rule="pieces.definition")
    return cols * rows


def draw_die_sheets(c, renderer: Renderer, nets: list[DieNet], paper: Size, opts: SheetOptions,
                    duplex: bool) -> int:
    """Draw every die net, in a grid per die component, each sheet headed by a caption. In a
    duplex file each sheet is followed by a blank back. Returns the sheets drawn."""
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
