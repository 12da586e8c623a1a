"""The canvas a dry run (``pnp check``) draws a piece on: everything the drawing works out and
finds is as in a build, but nothing is painted.

A dry run throws its file away, yet drawing a piece is what finds text that does not fit,
characters a font lacks, boxes that overlap and art below 300 dpi; those are the renderer's
own reckoning, made before it calls the canvas. What the canvas then does with the calls
(formatting every number and string of the page's content, numbering font-subset glyphs) finds
nothing, and was about a quarter of a dry run's drawing time. :class:`DryCanvas` drops those
calls and hands every other one (art, which the canvas embeds and checks; forms) to the real
canvas.

A canvas that converts colours as it paints (a print profile's CMYK canvas, an ink edition's)
finds things in those calls, so a renderer keeps drawing on it in full
(:meth:`pnp.render.renderer.Renderer.draw`).
"""

from __future__ import annotations

PAINTS = frozenset({
    "setFillColor", "setStrokeColor", "setFillColorRGB", "setStrokeColorRGB", "setFillColorCMYK",
    "setStrokeColorCMYK", "setFillGray", "setStrokeGray", "setFillAlpha", "setStrokeAlpha", "setLineWidth",
    "setLineCap", "setLineJoin", "setDash", "setFont", "drawString", "drawCentredString", "drawRightString",
    "rect", "roundRect", "ellipse", "circle", "line", "lines", "drawPath", "clipPath", "translate", "rotate",
    "scale",
})
"""Canvas calls that only paint (or set how to paint) and return nothing: a dry canvas drops them."""


def _dropped(*args, **kwargs) -> None:
    """What a dry canvas does with a :data:`PAINTS` call."""


class DryCanvas:
    """Stands in for ``canvas`` while a dry run draws a piece: :data:`PAINTS` calls do nothing,
    saved graphics states are counted rather than kept (``state_stack`` has one entry per
    state saved and not yet restored, as the renderer's error recovery reads it), ``beginPath``
    gives a fresh path as reportlab's does, and any other attribute is ``canvas``'s own."""

    def __init__(self, canvas):
        self._canvas = canvas
        self._depth = 0

    def __getattr__(self, name: str):
        if name in PAINTS:
            return _dropped
        return getattr(self._canvas, name)

    def saveState(self) -> None:
        self._depth += 1

    def restoreState(self) -> None:
        self._depth -= 1

    def beginPath(self):
        from reportlab.pdfgen.pathobject import PDFPathObject

        return PDFPathObject()

    @property
    def state_stack(self) -> list:
        return [None] * self._depth


def dry_canvas(canvas) -> DryCanvas:
    """``canvas`` as a dry run draws a piece on it (itself, when it is a DryCanvas already)."""
    return canvas if isinstance(canvas, DryCanvas) else DryCanvas(canvas)
