"""``line``: a straight line from the box's (x, y) to (x2, y2), both from the trim's top-left."""

from __future__ import annotations

from ...design.elements import ELEMENT_SPECS


class Line:
    """A stroked segment; ``stroke`` defaults to black, ``stroke_width`` to 0.5 pt."""

    spec = ELEMENT_SPECS["line"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        p = box.props
        stroke = renderer.color(p.get("stroke", "black"), piece.context, where("stroke"), role="stroke")
        if stroke is None:
            return  # stroke = "none": a line of no colour paints nothing
        x, y, w, h = trim
        c.saveState()
        c.setStrokeColor(stroke)
        c.setLineWidth(p.get("stroke_width", 0.5))
        c.line(x + box.x, y + h - box.y, x + p.get("x2", box.x), y + h - p.get("y2", box.y))
        c.restoreState()
