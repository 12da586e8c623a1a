"""Filled and stroked shapes: ``rect`` (rounded with ``radius``), ``ellipse`` and ``shape`` (a
named shape), and :func:`draw_shape`, which icons use too."""

from __future__ import annotations

import math

from ...core.errors import LayoutError
from ...design.elements import ELEMENT_SPECS
from ...design.layouts import SHAPES


def _paint(renderer, box, piece, where):
    """The fill and stroke colours of a box (None for ``none``)."""
    p, ctx = box.props, piece.context
    fill = renderer.color(p.get("fill", "none"), ctx, where("fill"))
    stroke = renderer.color(p.get("stroke", "none"), ctx, where("stroke"), role="stroke")
    return fill, stroke


def footprint(rect, fill, stroke, stroke_width: float, ellipse: bool = False):
    """Where a shape filling ``rect`` puts ink, as :meth:`pnp.render.renderer.Renderer.draw_box`
    reads it: (x0, y0, x1, y1, kind, ellipse), grown by half the stroke; None for no paint."""
    if fill is None and stroke is None:
        return None
    x, y, w, h = rect
    grow = stroke_width / 2 if stroke is not None else 0.0
    return (x - grow, y - grow, x + w + grow, y + h + grow, "fill" if fill is not None else "outline", ellipse)


class Rect:
    """A rectangle filling the box; rounded when it has a ``radius``."""

    spec = ELEMENT_SPECS["rect"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        fill, stroke = _paint(renderer, box, piece, where)
        p = box.props
        draw_shape(c, "rounded" if p.get("radius") else "square", *rect, fill, stroke,
                   p.get("stroke_width", 0.5), p.get("radius", 0.0))
        return footprint(rect, fill, stroke, p.get("stroke_width", 0.5))


class Ellipse:
    """An ellipse filling the box."""

    spec = ELEMENT_SPECS["ellipse"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        fill, stroke = _paint(renderer, box, piece, where)
        bx, by, bw, bh = rect
        c.saveState()
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(box.props.get("stroke_width", 0.5))
        c.ellipse(bx, by, bx + bw, by + bh, stroke=1 if stroke else 0, fill=1 if fill else 0)
        c.restoreState()
        return footprint(rect, fill, stroke, box.props.get("stroke_width", 0.5), ellipse=True)


class Shape:
    """One of :data:`pnp.design.layouts.SHAPES` inscribed in the box (``shape`` may be a
    template)."""

    spec = ELEMENT_SPECS["shape"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        fill, stroke = _paint(renderer, box, piece, where)
        p = box.props
        shape = str(renderer.value(p.get("shape", "circle"), piece.context, where("shape"))).strip()
        if shape not in SHAPES:
            raise renderer.layouts.error(where("shape"), f"shape {shape!r} is not one of {', '.join(SHAPES)}")
        draw_shape(c, shape, *rect, fill, stroke, p.get("stroke_width", 0.5), p.get("radius", 0.0))
        return footprint(rect, fill, stroke, p.get("stroke_width", 0.5), ellipse=shape == "circle")


def draw_shape(c, shape: str, x: float, y: float, w: float, h: float, fill, stroke,
               stroke_width: float = 0.5, radius: float = 0.0) -> None:
    """Draw ``shape`` inscribed in the rectangle (x, y, w, h) pt with the given paint."""
    c.saveState()
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(stroke_width)
    f, s = (1 if fill is not None else 0), (1 if stroke is not None else 0)
    cx, cy = x + w / 2, y + h / 2
    if shape == "circle":
        c.ellipse(x, y, x + w, y + h, stroke=s, fill=f)
    elif shape == "square":
        c.rect(x, y, w, h, stroke=s, fill=f)
    elif shape == "rounded":
        c.roundRect(x, y, w, h, radius or min(w, h) * 0.2, stroke=s, fill=f)
    else:
        points = _polygon(shape, cx, cy, w, h)
        path = c.beginPath()
        path.moveTo(*points[0])
        for px, py in points[1:]:
            path.lineTo(px, py)
        path.close()
        c.drawPath(path, stroke=s, fill=f)
    c.restoreState()


def _polygon(shape: str, cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    rx, ry = w / 2, h / 2
    if shape == "diamond":
        return [(cx, cy + ry), (cx + rx, cy), (cx, cy - ry), (cx - rx, cy)]
    if shape == "triangle":
        return [(cx, cy + ry), (cx + rx, cy - ry), (cx - rx, cy - ry)]
    if shape == "hexagon":
        return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
                for a in range(0, 360, 60)]
    if shape == "octagon":
        return [(cx + rx * math.cos(math.radians(a + 22.5)), cy + ry * math.sin(math.radians(a + 22.5)))
                for a in range(0, 360, 45)]
    if shape == "star":
        pts = []
        for i in range(10):
            r = 1.0 if i % 2 == 0 else 0.45
            a = math.radians(90 + i * 36)
            pts.append((cx + rx * r * math.cos(a), cy + ry * r * math.sin(a)))
        return pts
    raise LayoutError(f"shape {shape!r} is not one of {', '.join(SHAPES)}")
