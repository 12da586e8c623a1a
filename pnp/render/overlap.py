"""Text covered or crossed by other boxes of the same piece (``preflight.text-overlap``).

While a piece is drawn, each box that puts ink on it leaves a :class:`Footprint`: for text the
rectangle its lines' glyphs occupy (cap height to descender, the widest line), for shapes,
images and icons the rectangle they fill (grown by half the stroke; ellipses and circles are
tested as ellipses). A text footprint is in trouble when a box drawn *after* it intersects it
(the box hides part of the text), or a box drawn *before* it intersects it without containing
it (the text straddles the box's edge, as a caption crossing a badge's ring) and no filled box
drawn between them holds the whole text (a panel hiding what lies under it). Boxes with
``overlap = true`` are meant to do this and are not reported. All lengths are pt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TOLERANCE = 0.1 * 72 / 25.4
"""Overlaps thinner than 0.1 mm either way are within the drawing's rounding and not reported."""


@dataclass(frozen=True)
class Footprint:
    """Where one box put ink: (x0, y0, x1, y1) pt, bottom-left origin; ``kind`` is ``text``,
    ``fill`` (a filled shape, image or icon row) or ``outline`` (a stroke only); ``ellipse`` when
    the shape is an ellipse inscribed in the rectangle; ``box`` the box's name and ``key`` its
    dotted key in the layouts file."""

    x0: float
    y0: float
    x1: float
    y1: float
    kind: str
    box: str
    key: str
    ellipse: bool = False
    allowed: bool = False

    def grown(self, by: float) -> "Footprint":
        return Footprint(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by, self.kind, self.box, self.key,
                         self.ellipse, self.allowed)


@dataclass(frozen=True)
class Overlap:
    """Text box ``text`` met by box ``other``; ``above`` when ``other`` is drawn after the text
    (it hides part of it). ``depth`` pt is how far they run into each other: the thinner side of
    the shared rectangle, or for text crossing the edge of a box under it, how far the text runs
    past that edge."""

    text: Footprint
    other: Footprint
    depth: float
    above: bool


def _inside_ellipse(f: Footprint, x: float, y: float) -> float:
    """The ellipse equation at (x, y): below 1 inside the ellipse inscribed in ``f``."""
    rx, ry = (f.x1 - f.x0) / 2, (f.y1 - f.y0) / 2
    if rx <= 0 or ry <= 0:
        return math.inf
    cx, cy = f.x0 + rx, f.y0 + ry
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2


def _meets(text: Footprint, other: Footprint) -> tuple[float, float] | None:
    """The size (w, h) of the part of ``text`` that ``other`` reaches, or None."""
    x0, y0 = max(text.x0, other.x0), max(text.y0, other.y0)
    x1, y1 = min(text.x1, other.x1), min(text.y1, other.y1)
    if x1 - x0 <= TOLERANCE or y1 - y0 <= TOLERANCE:
        return None
    if other.ellipse:
        # the point of the shared rectangle nearest the ellipse's centre decides
        cx, cy = (other.x0 + other.x1) / 2, (other.y0 + other.y1) / 2
        shrunk = Footprint(x0 + TOLERANCE, y0 + TOLERANCE, x1 - TOLERANCE, y1 - TOLERANCE, "", "", "")
        nx, ny = min(max(cx, shrunk.x0), shrunk.x1), min(max(cy, shrunk.y0), shrunk.y1)
        if _inside_ellipse(other, nx, ny) >= 1:
            return None
    return x1 - x0, y1 - y0


def _contains(outer: Footprint, inner: Footprint) -> bool:
    if outer.ellipse:
        return all(_inside_ellipse(outer, x, y) <= 1 for x in (inner.x0, inner.x1) for y in (inner.y0, inner.y1))
    return (outer.x0 - TOLERANCE <= inner.x0 and inner.x1 <= outer.x1 + TOLERANCE
            and outer.y0 - TOLERANCE <= inner.y0 and inner.y1 <= outer.y1 + TOLERANCE)


def overlaps(footprints: list[Footprint]) -> list[Overlap]:
    """Every text footprint of ``footprints`` (in drawing order) that a later box meets, or an
    earlier box meets without containing it; text meeting text is reported once."""
    found = []
    for i, text in enumerate(footprints):
        if text.kind != "text" or text.allowed:
            continue
        tx0, ty0, tx1, ty1 = text.x0, text.y0, text.x1, text.y1
        for j, other in enumerate(footprints):
            if i == j or other.allowed or (other.kind == "text" and j < i):
                continue
            if other.x1 <= tx0 or other.x0 >= tx1 or other.y1 <= ty0 or other.y0 >= ty1:
                continue  # apart or touching: _meets would find nothing shared
            size = _meets(text, other)
            if size is None:
                continue
            above = j > i
            if other.kind == "outline" and _contains(other, text):
                continue  # a frame around the text
            if not above and other.kind != "text" and _contains(other, text):
                continue  # a panel under the text
            if not above and any(k.kind == "fill" and _contains(k, text) for k in footprints[j + 1:i]):
                continue  # hidden under a panel drawn between it and the text
            depth = min(size)
            if not above and other.kind != "text":
                depth = max(other.x0 - text.x0, text.x1 - other.x1, other.y0 - text.y0, text.y1 - other.y1)
                depth = min(depth, min(size)) if depth > 0 else min(size)
                if depth <= TOLERANCE:
                    continue
            found.append(Overlap(text, other, depth, above))
    return found
