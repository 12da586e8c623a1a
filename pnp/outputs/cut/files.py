"""Cut files of print-and-cut sheets: one SVG and one DXF per sheet, whose paths are the printed
pieces' trims.

A :class:`Outline` is one piece's cut in PDF pt (bottom-left origin, y up), as the sheet was
drawn: a rounded rectangle (quarter-circle corners), a circle, or a polygon, with the piece's
fold lines (standees) kept apart. Both files are in millimetres on the whole sheet:

- SVG: ``width``/``height`` in mm and a viewBox in mm (1 user unit = 1 mm, y down from the top
  edge, as Inkscape and cutter software read it), one ``<path>`` per piece on an Inkscape layer
  ``cut``, rounded corners and circles as true elliptical arcs (``A``), fold lines on a layer
  ``fold`` (dashed).
- DXF (ezdxf, R2010, ``$INSUNITS`` 4 = mm, y up from the bottom edge): one closed LWPOLYLINE per
  piece on layer ``CUT`` (corners as bulges, exact arcs), a CIRCLE for a round piece, fold lines
  as LINEs on layer ``FOLD``. ezdxf's fixed metadata mode keeps the bytes the same for the same
  sheet (no creation time or random GUIDs).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from ...core.units import MM, Size
from ...geometry.registration import rounded_rect_path

BULGE_QUARTER = math.tan(math.pi / 8)
"""DXF bulge of a 90° arc turning counter-clockwise (tan of a quarter of the angle)."""


@dataclass(frozen=True)
class Outline:
    """One piece's cut line, in pt with the sheet's bottom-left origin: ``shape`` ``rect`` (the
    trim (x, y, w, h) with corners of ``radius``), ``circle`` (centre and radius in ``x``, ``y``,
    ``radius``) or ``polygon`` (``points``); ``folds`` are fold segments (x1, y1, x2, y2); ``name``
    says which piece it is."""

    name: str
    shape: str
    x: float
    y: float
    w: float = 0.0
    h: float = 0.0
    radius: float = 0.0
    points: tuple[tuple[float, float], ...] = ()
    folds: tuple[tuple[float, float, float, float], ...] = field(default=())


def _mm(v: float) -> str:
    """A length in pt as millimetres, to 0.0001 mm, without trailing zeros."""
    text = f"{v / MM:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_path(outline: Outline, paper: Size) -> str:
    """The SVG path data of ``outline`` in mm, y down from the top edge of ``paper``."""

    def pt(x: float, y: float) -> str:
        return f"{_mm(x)},{_mm(paper.height - y)}"

    if outline.shape == "circle":
        r = _mm(outline.radius)
        cx, cy = outline.x, outline.y
        return (f"M {pt(cx - outline.radius, cy)} A {r},{r} 0 1 0 {pt(cx + outline.radius, cy)} "
                f"A {r},{r} 0 1 0 {pt(cx - outline.radius, cy)} Z")
    if outline.shape == "polygon":
        first, *rest = outline.points
        return f"M {pt(*first)} " + " ".join(f"L {pt(*p)}" for p in rest) + " Z"
    parts = []
    for cmd in rounded_rect_path(outline.x, outline.y, outline.w, outline.h, outline.radius):
        if cmd[0] == "A":  # counter-clockwise with y up is clockwise with y down: sweep flag 0
            r = _mm(cmd[1])
            parts.append(f"A {r},{r} 0 0 0 {pt(cmd[2], cmd[3])}")
        else:
            parts.append(f"{cmd[0]} {pt(cmd[1], cmd[2])}")
    return " ".join(parts) + " Z"


def write_svg(outlines: list[Outline], paper: Size, title: str) -> bytes:
    """The SVG cut file of one sheet (see the module docstring)."""
    w, h = _mm(paper.width), _mm(paper.height)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
           f'width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
           f"  <title>{_escape(title)}</title>",
           '  <g inkscape:groupmode="layer" inkscape:label="cut" id="cut" '
           'style="fill:none;stroke:#ff0000;stroke-width:0.1">']
    for i, outline in enumerate(outlines, start=1):
        out.append(f'    <path id="cut-{i}" d="{svg_path(outline, paper)}"><title>{_escape(outline.name)}</title></path>')
    out.append("  </g>")
    folds = [(outline, seg) for outline in outlines for seg in outline.folds]
    if folds:
        out.append('  <g inkscape:groupmode="layer" inkscape:label="fold" id="fold" '
                   'style="fill:none;stroke:#0000ff;stroke-width:0.1;stroke-dasharray:1,1">')
        for i, (outline, (x1, y1, x2, y2)) in enumerate(folds, start=1):
            out.append(f'    <path id="fold-{i}" d="M {_mm(x1)},{_mm(paper.height - y1)} '
                       f'L {_mm(x2)},{_mm(paper.height - y2)}"/>')
        out.append("  </g>")
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _mmf(v: float) -> float:
    return round(v / MM, 6)


def write_dxf(outlines: list[Outline]) -> bytes:
    """The DXF cut file of one sheet (see the module docstring)."""
    import ezdxf  # half a second to import (numpy with it): only a build with --cut pays it

    ezdxf.options.write_fixed_meta_data_for_testing = True
    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.header["$MEASUREMENT"] = 1
    doc.layers.add("CUT", color=1)
    doc.layers.add("FOLD", color=5, linetype="CONTINUOUS")
    msp = doc.modelspace()
    for outline in outlines:
        attribs = {"layer": "CUT"}
        if outline.shape == "circle":
            msp.add_circle((_mmf(outline.x), _mmf(outline.y)), _mmf(outline.radius), dxfattribs=attribs)
        elif outline.shape == "polygon":
            msp.add_lwpolyline([(_mmf(x), _mmf(y)) for x, y in outline.points], close=True, dxfattribs=attribs)
        else:
            cmds = rounded_rect_path(outline.x, outline.y, outline.w, outline.h, outline.radius)
            points = []  # (x, y, start width, end width, bulge of the segment starting here)
            for i, cmd in enumerate(cmds[:-1]):
                nxt = cmds[i + 1]
                x, y = (cmd[1], cmd[2]) if cmd[0] != "A" else (cmd[2], cmd[3])
                points.append((_mmf(x), _mmf(y), 0, 0, BULGE_QUARTER if nxt[0] == "A" else 0.0))
            msp.add_lwpolyline(points, format="xyseb", close=True, dxfattribs=attribs)
        for x1, y1, x2, y2 in outline.folds:
            msp.add_line((_mmf(x1), _mmf(y1)), (_mmf(x2), _mmf(y2)), dxfattribs={"layer": "FOLD"})
    # ezdxf lists the CLASSES of the entity types in use in the order of a set, which changes
    # with Python's string hashing from run to run; listed sorted, the file is the same bytes
    in_use = doc.entitydb.dxf_types_in_use
    doc.entitydb.dxf_types_in_use = lambda: sorted(in_use())
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode("utf-8")
