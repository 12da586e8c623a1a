"""Tuck box geometry: the inner size of a box for a deck, and its printable net. Pure functions,
no drawing.

The inner size of a deck's box is the cards' trim (sleeved: the sleeve's size) plus a tolerance
on width and height, and the stack's thickness (cards x card thickness, plus each sleeve's
thickness) plus the tolerance in depth (:func:`inner_size`).

The net is the usual tuck box, in columns from the left: a glue tab, the back (with the lid and
the tuck tongue above it), a side, the front (a thumb notch in its top edge, the bottom flap
below it) and the other side (each side with a dust flap above and below). Folded on its fold
lines, the glue tab goes under the far side's free edge, the bottom flap is glued over the
bottom dust flaps, and the lid closes with the tongue tucked in. Panels are exactly the inner
size: the body is ``width`` x ``height``, the sides ``depth`` wide, the lid and the bottom flap
``depth`` deep. When a net does not fit a sheet it is split in two (:func:`tuck_nets`): the back
with both glue tabs, and the sides with the front; the right-hand tab of the first part is
glued under the free edge of the first side.

Coordinates are pt with the net's bounding box at (0, 0) bottom-left, y up; a net is moved onto
a sheet by adding an offset to every point (:meth:`Net.moved`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.units import MM

Point = tuple[float, float]
Segment = tuple[float, float, float, float]

NOTCH_STEPS = 24
"""Straight segments of the thumb notch's half circle in the outline (its arc is also given
exactly, :attr:`Net.notch`)."""


def inner_size(card_w: float, card_h: float, count: int, thickness: float, *, sleeve_thickness: float = 0.0,
               sleeve_w: float = 0.0, sleeve_h: float = 0.0, tolerance: float = 1 * MM) -> tuple[float, float, float]:
    """(width, height, depth) in pt inside a box for ``count`` cards of ``card_w`` x ``card_h``,
    each ``thickness`` thick, sleeved (``sleeve_w`` x ``sleeve_h`` replace the card size when
    given, ``sleeve_thickness`` adds to each card), plus ``tolerance`` on each."""
    w = (sleeve_w or card_w) + tolerance
    h = (sleeve_h or card_h) + tolerance
    return w, h, count * (thickness + sleeve_thickness) + tolerance


@dataclass(frozen=True)
class Net:
    """One printable part of a box: the closed cut ``outline`` (points, the last joined to the
    first), the ``folds`` (segments), the named ``panels`` (x, y, w, h: ``front``, ``back``,
    ``side``, ``side-2``, ``lid``), the thumb ``notch`` (centre x, y and radius, or None) and the
    bounding ``size`` (w, h)."""

    outline: tuple[Point, ...]
    folds: tuple[Segment, ...]
    panels: dict
    notch: tuple[float, float, float] | None
    size: tuple[float, float]

    def moved(self, dx: float, dy: float) -> "Net":
        """The same net with every point moved by (dx, dy)."""
        return Net(tuple((x + dx, y + dy) for x, y in self.outline),
                   tuple((a + dx, b + dy, c + dx, d + dy) for a, b, c, d in self.folds),
                   {k: (x + dx, y + dy, w, h) for k, (x, y, w, h) in self.panels.items()},
                   None if self.notch is None else (self.notch[0] + dx, self.notch[1] + dy, self.notch[2]),
                   self.size)


@dataclass(frozen=True)
class _Dims:
    w: float
    h: float
    d: float
    glue: float
    taper: float
    flap: float
    flap_taper: float
    tongue: float
    tongue_taper: float
    notch: float
    base: float  # y of the body's bottom edge


def _dims(w: float, h: float, d: float) -> _Dims:
    glue = min(12 * MM, w / 3)
    flap = min(max(d, 10 * MM), w / 2)  # dust flaps: at least 10 mm to hold, at most half the width
    tongue = min(15 * MM, h / 3)
    return _Dims(w, h, d, glue, min(glue, h / 4), flap, min(flap / 3, d / 3), tongue, min(tongue / 2, w / 6),
                 min(10 * MM, w / 4, h / 4), max(d, flap))


def _glue(x: float, k: _Dims, right: bool):
    b, t, a = k.base, k.base + k.h, k.taper
    if right:
        return [(x, b), (x + k.glue, b + a)], [(x, t), (x + k.glue, t - a)], k.glue, []
    return [(x, b + a), (x + k.glue, b)], [(x, t - a), (x + k.glue, t)], k.glue, []


def _back(x: float, k: _Dims):
    b, t, w = k.base, k.base + k.h, k.w
    top = [(x, t), (x, t + k.d), (x + k.tongue_taper, t + k.d + k.tongue),
           (x + w - k.tongue_taper, t + k.d + k.tongue), (x + w, t + k.d), (x + w, t)]
    return [(x, b), (x + w, b)], top, w, [(x, t, x + w, t), (x, t + k.d, x + w, t + k.d)]


def _side(x: float, k: _Dims):
    b, t, d, f, a = k.base, k.base + k.h, k.d, k.flap, k.flap_taper
    return ([(x, b), (x + a, b - f), (x + d - a, b - f), (x + d, b)],
            [(x, t), (x + a, t + f), (x + d - a, t + f), (x + d, t)], d, [(x, b, x + d, b), (x, t, x + d, t)])


def _front(x: float, k: _Dims):
    b, t, w, r = k.base, k.base + k.h, k.w, k.notch
    cx = x + w / 2
    notch = [(cx + r * math.cos(math.pi + math.pi * i / NOTCH_STEPS), t + r * math.sin(math.pi + math.pi * i / NOTCH_STEPS))
             for i in range(NOTCH_STEPS + 1)]
    return [(x, b), (x, b - k.d), (x + w, b - k.d), (x + w, b)], [(x, t)] + notch + [(x + w, t)], w, [(x, b, x + w, b)]


def _net(parts: list[str], k: _Dims) -> Net:
    bottoms: list[Point] = []
    tops: list[Point] = []
    folds: list[Segment] = []
    panels: dict = {}
    notch = None
    x = 0.0
    sides = 0
    for i, part in enumerate(parts):
        if part.startswith("glue"):
            bottom, top, width, own = _glue(x, k, right=part == "glue-right")
        else:
            bottom, top, width, own = {"back": _back, "side": _side, "front": _front}[part](x, k)
            name = part if part != "side" else ("side" if not sides else "side-2")
            sides += part == "side"
            panels[name] = (x, k.base, width, k.h)
            if part == "back":
                panels["lid"] = (x, k.base + k.h, width, k.d)
            if part == "front":
                notch = (x + width / 2, k.base + k.h, k.notch)
        if i:  # the fold where this column meets the one before it
            folds.append((x, k.base, x, k.base + k.h))
        bottoms += bottom
        tops += top
        folds += own
        x += width
    low = min(y for _, y in bottoms)
    high = max(y for _, y in tops)
    net = Net(tuple(bottoms + tops[::-1]), tuple(folds), panels, notch, (x, high - low))
    return net.moved(0.0, -low)


def tuck_nets(width: float, height: float, depth: float, sheet_w: float, sheet_h: float) -> list[Net]:
    """The net of a tuck box of inner ``width`` x ``height`` x ``depth`` (pt): one net when its
    bounding box fits ``sheet_w`` x ``sheet_h`` (the printable area, either way round: the
    caller turns the sheet), else two (the back with its glue tabs; the sides and the front).
    Raises ValueError when even the larger of the two parts does not fit."""
    k = _dims(width, height, depth)
    whole = _net(["glue", "back", "side", "front", "side"], k)

    def fits(net: Net) -> bool:
        w, h = net.size
        return (w <= sheet_w + 1e-6 and h <= sheet_h + 1e-6) or (h <= sheet_w + 1e-6 and w <= sheet_h + 1e-6)

    if fits(whole):
        return [whole]
    split = [_net(["glue", "back", "glue-right"], k), _net(["side", "front", "side"], k)]
    if not all(fits(net) for net in split):
        big = max(split, key=lambda n: n.size[0] * n.size[1])
        raise ValueError(f"{big.size[0] / MM:.1f} x {big.size[1] / MM:.1f} mm")
    return split
