"""Lengths, named card sizes and named paper sizes.

Inside `pnp` every length is in PostScript points (pt, 1/72 in). Users write lengths with a unit
(``63.5mm``, ``2.5in``, ``9pt``, ``0.3cm``); this module is the one place that converts.
Figures for card and paper sizes come from docs/print-specs.md §0 and §1 (sources named there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import BuildError

MM = 72.0 / 25.4
"""Points in one millimetre (1 in = 25.4 mm = 72 pt)."""
CM = 10 * MM
INCH = 72.0
PT = 1.0

_UNITS = {"mm": MM, "cm": CM, "in": INCH, "pt": PT}
_LENGTH_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)\s*$")


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM


def parse_length(text: str) -> float:
    """Parse a length with its unit (``"63.5mm"``, ``"2.5in"``, ``"9pt"``, ``"1cm"``) to points.

    Raises ``ValueError`` naming the accepted units when the text has no unit or an unknown one;
    callers turn it into a located :class:`pnp.core.errors.DataError`.
    """
    match = _LENGTH_RE.match(str(text))
    if not match:
        raise ValueError(
            f"{text!r} is not a length with a unit; write for example 63.5mm, 2.5in, 9pt or 1cm"
        )
    return float(match.group(1)) * _UNITS[match.group(2)]


@dataclass(frozen=True)
class Size:
    """A width and height in points (portrait when width <= height)."""

    width: float
    height: float

    @property
    def landscape(self) -> "Size":
        """The same size with the long side horizontal."""
        return Size(max(self.width, self.height), min(self.width, self.height))

    def __str__(self) -> str:
        return f"{to_mm(self.width):g} x {to_mm(self.height):g} mm"


def _mm_size(w: float, h: float) -> Size:
    return Size(mm(w), mm(h))


def _in_size(w: float, h: float) -> Size:
    return Size(w * INCH, h * INCH)


CARD_SIZES: dict[str, Size] = {
    # docs/print-specs.md §1. "poker" is the US size; "eu-poker" the 63 x 88 mm TCG size. Never one
    # rounded to the other.
    "poker": _in_size(2.5, 3.5),  # 63.5 x 88.9 mm (Squib, protograf, TGC)
    "eu-poker": _mm_size(63, 88),  # MPC, Squib A4 sprues, MB Print
    "bridge": _in_size(2.25, 3.5),  # 57.15 x 88.9 mm
    "usa-game": _mm_size(56, 87),
    "euro": _mm_size(59, 92),
    "skat": _mm_size(59, 91),  # MeinSpiel
    "japanese": _mm_size(59, 86),
    "tarot": _in_size(2.75, 4.75),  # 69.85 x 120.65 mm
    "mini": _in_size(1.75, 2.5),  # 44.45 x 63.5 mm
    "mini-american": _mm_size(41, 63),
    "mini-euro": _mm_size(44, 68),  # sources disagree (44 x 67); configurable by an explicit size
    "square-small": _mm_size(70, 70),
    "square": _in_size(3.5, 3.5),  # 88.9 x 88.9 mm (TGC square deck)
    "domino": _in_size(1.75, 3.5),
    "business": _in_size(2, 3.5),  # portrait form of 3.5 x 2 in
}

PAPER_SIZES: dict[str, Size] = {
    # docs/print-specs.md §0
    "letter": _in_size(8.5, 11),  # 612 x 792 pt
    "a4": _mm_size(210, 297),  # 595.276 x 841.890 pt
    "a5": _mm_size(148, 210),
    "half-letter": _in_size(5.5, 8.5),
    "a3": _mm_size(297, 420),
    "tabloid": _in_size(11, 17),
    "legal": _in_size(8.5, 14),
}


def paper(name: str) -> Size:
    """The portrait size of the paper called ``name`` (any case; a key of PAPER_SIZES).

    Raises BuildError listing the papers for an unknown name.
    """
    key = str(name).lower()
    if key not in PAPER_SIZES:
        raise BuildError(f"unknown paper {name!r}", hint="papers: " + ", ".join(PAPER_SIZES), rule="sheet.paper")
    return PAPER_SIZES[key]


def parse_size(text: str, named: dict[str, Size] | None = None) -> Size:
    """Parse a size: a name from ``named`` or ``"W x H"`` with units (``"63.5mm x 88.9mm"``).

    Raises ``ValueError`` listing the known names when the text is neither.
    """
    key = str(text).strip().lower()
    if named and key in named:
        return named[key]
    parts = re.split(r"\s*[x×]\s*", key)
    if len(parts) == 2:
        try:
            size = Size(parse_length(parts[0]), parse_length(parts[1]))
        except ValueError:
            pass
        else:
            if size.width <= 0 or size.height <= 0:
                raise ValueError(f"{text!r}: both sides of a size must be greater than zero")
            return size
    names = ", ".join(sorted(named)) if named else ""
    known = f" or one of: {names}" if names else ""
    raise ValueError(f"{text!r} is not a size; write it as W x H with units (63.5mm x 88.9mm){known}")
