"""The canvas a dry run (``pnp check``) draws a piece on: everything the drawing works out and
finds is as in a build, but nothing is painted.

A dry run throws its file away, yet drawing a piece is what finds text that does not fit,
characters a font lacks, boxes that overlap and art below 300 dpi; those are the renderer's
own reckoning, made before it calls the canvas. What the canvas then does with the calls
(formatting every number and string of the page's content, numbering font-subset glyphs) finds
nothing but values a PDF cannot hold, and was about a quarter of a dry run's drawing time.

:class:`DryCanvas` drops the frequent painting calls (:data:`PAINTS`) after checking their
values as reportlab would (a colour that is no colour, a number too large to write), so that
a check refuses what a build refuses, with the same message. Every other call (art, which the
canvas embeds; forms; transformations; dashes; an SVG, drawn by reportlab on the canvas
itself) goes to the real canvas.

A canvas that converts colours as it paints (a print profile's CMYK canvas, an ink edition's)
finds things in those calls, so a renderer keeps drawing on it in full
(:meth:`pnp.render.renderer.Renderer.draw`).
"""

from __future__ import annotations

from numbers import Real


def _numbers(args) -> list:
    return [a for a in args if isinstance(a, Real) and not isinstance(a, bool)]


def _written(*args) -> None:
    """Raise as reportlab does for numbers it cannot write in a PDF (too large, infinite)."""
    from reportlab.lib.rl_accel import fp_str

    numbers = _numbers(args)
    if numbers:
        fp_str(*numbers)


def _colour(colour) -> None:
    """Raise as reportlab's ``setFillColor`` and ``setStrokeColor`` do for ``colour``."""
    from reportlab.lib.colors import Color, toColor

    if isinstance(colour, Color):
        return
    if isinstance(colour, (tuple, list)):
        if len(colour) not in (3, 4):
            raise ValueError("Unknown color %r" % colour)  # reportlab's words (a TypeError for a tuple)
        _written(*colour)
    elif isinstance(colour, str):
        toColor(colour)
    else:
        raise ValueError("Unknown color %r" % colour)


def _set_colour(colour, alpha=None) -> None:
    _colour(colour)
    if alpha is not None:
        _written(alpha)


def _set_font(name, size, leading=None) -> None:
    from reportlab.pdfbase import pdfmetrics

    font = pdfmetrics.getFont(name)
    if not font._dynamicFont:  # a built-in font's size is written where it is set
        _written(size, size * 1.2 if leading is None else leading)


def _numbers_only(*args, **kwargs) -> None:
    _written(*args, *kwargs.values())


def _path():
    from reportlab.pdfgen.pathobject import PDFPathObject

    return PDFPathObject(code=[])


def _round_rect(x, y, width, height, radius, stroke=1, fill=0) -> None:
    _path().roundRect(x, y, width, height, radius)  # the numbers reportlab writes, from its own path


def _ellipse(x1, y1, x2, y2, stroke=1, fill=0) -> None:
    _path().ellipse(x1, y1, x2 - x1, y2 - y1)


def _circle(x_cen, y_cen, r, stroke=1, fill=0) -> None:
    _ellipse(x_cen - r, y_cen - r, x_cen + r, y_cen + r)


def _path_only(*args, **kwargs) -> None:
    """A path's numbers were written when it was made (reportlab's path object formats them)."""


PAINTS = {
    "setFillColor": _set_colour, "setStrokeColor": _set_colour, "setFont": _set_font,
    "drawPath": _path_only, "clipPath": _path_only, "roundRect": _round_rect, "ellipse": _ellipse,
    "circle": _circle,
    **{name: _numbers_only for name in (
        "setFillColorRGB", "setStrokeColorRGB", "setFillGray", "setStrokeGray", "setLineWidth", "drawString",
        "drawCentredString", "drawRightString", "rect", "line")},
}
"""The painting calls a dry canvas drops (they set how to paint, or paint, and return
nothing), each with the check of its values reportlab would make."""


class DryCanvas:
    """Stands in for ``canvas`` while a dry run draws a piece: :data:`PAINTS` calls are checked
    and dropped, saved graphics states are counted rather than kept (``state_stack`` has one
    entry per state saved and not yet restored, as the renderer's error recovery reads it),
    ``beginPath`` gives a fresh path as reportlab's does, and any other attribute is the real
    canvas's own (:attr:`canvas`)."""

    def __init__(self, canvas):
        self.canvas = canvas
        self._depth = 0

    def __getattr__(self, name: str):
        checked = PAINTS.get(name)
        if checked is not None:
            return checked
        return getattr(self.canvas, name)

    def saveState(self) -> None:
        self._depth += 1

    def restoreState(self) -> None:
        self._depth -= 1

    def beginPath(self):
        return _path()

    @property
    def state_stack(self) -> list:
        return [None] * self._depth


def dry_canvas(canvas) -> DryCanvas:
    """``canvas`` as a dry run draws a piece on it (itself, when it is a DryCanvas already)."""
    return canvas if isinstance(canvas, DryCanvas) else DryCanvas(canvas)


def painted(canvas):
    """The canvas that is painted on: ``canvas``, or the real one a DryCanvas stands in for."""
    return canvas.canvas if isinstance(canvas, DryCanvas) else canvas
