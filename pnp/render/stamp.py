"""Drawing the version stamp on a piece (docs/versions.md): ``v1.2 · 3f9a1c`` in small grey
type in a bottom corner of the safe zone, or centred in the slug below the trim.

The stamp is set in DejaVu Sans at :data:`STAMP_SIZE` pt; in the safe zone its glyphs' box
(descent to ascent) sits :data:`STAMP_INSET` inside the safe zone's bottom corner. In the slug
its top is :data:`SLUG_GAP` below the trim, so it is cut off with the slug; a slot with less
room below the trim than :func:`slug_room` clips it, which :func:`slug_finding` reports.
"""

from __future__ import annotations

from ..core.findings import Finding
from ..core.units import MM, to_mm
from .fonts import register

STAMP_SIZE = 5.0
"""pt: readable with a loupe or a close look, and smaller than any text of the design (the
6 pt floor of preflight.small-text is for the game's own text, which players must read)."""
STAMP_FONT = "sans"
STAMP_GREY = 0.5
"""Grey level of the stamp: legible on light and dark art alike."""
STAMP_INSET = 0.2 * MM
"""How far the stamp's glyph box sits inside the safe zone's corner."""
SLUG_GAP = 0.5 * MM
"""Space between the trim and the top of a slug stamp."""


def _metrics() -> tuple[float, float]:
    """(ascent, descent) of the stamp font at STAMP_SIZE, pt (descent negative)."""
    from reportlab.pdfbase.pdfmetrics import getFont

    face = getFont(register(STAMP_FONT)).face
    return face.ascent * STAMP_SIZE / 1000, face.descent * STAMP_SIZE / 1000


def slug_room() -> float:
    """The room (pt) a slug stamp needs below the trim: the gap and the glyphs' height."""
    ascent, descent = _metrics()
    return SLUG_GAP + ascent - descent


def draw_stamp(c, text: str, position: str, trim: tuple[float, float, float, float], safe: float) -> None:
    """Draw ``text`` on a piece whose trim is (x, y, w, h) pt, bottom-left origin, at
    ``position`` (``safe-bottom-right``, ``safe-bottom-left``, ``safe-bottom-center`` or
    ``slug``; ``off`` draws nothing); ``safe`` is the layouts' safe zone inset, pt."""
    if position == "off":
        return
    x, y, w, h = trim
    ascent, descent = _metrics()
    c.saveState()
    c.setFillGray(STAMP_GREY)
    c.setFont(register(STAMP_FONT), STAMP_SIZE)
    if position == "slug":
        c.drawCentredString(x + w / 2, y - SLUG_GAP - ascent, text)
    else:
        baseline = y + safe + STAMP_INSET - descent
        if position == "safe-bottom-left":
            c.drawString(x + safe + STAMP_INSET, baseline, text)
        elif position == "safe-bottom-center":
            c.drawCentredString(x + w / 2, baseline, text)
        else:
            c.drawRightString(x + w - safe - STAMP_INSET, baseline, text)
    c.restoreState()


def slug_finding(where, piece: str, room: float) -> Finding:
    """The ``stamp.slug-room`` warning of a piece whose slot leaves ``room`` pt below its trim,
    less than a slug stamp needs: the stamp is cut off there."""
    need = slug_room()
    return Finding.at("warning", "stamp.slug-room", where,
                      f"the version stamp goes in the slug below the trim, but the sheet leaves {to_mm(room):.2f} mm "
                      f"there and it needs {to_mm(need):.2f} mm, so it is cut off",
                      hint=f"give the sheets a --gap of at least {to_mm(2 * need) + 0.005:.2f} mm (each card then "
                      'has half of it below), or put the stamp in the safe zone: stamp = "safe-bottom-right"',
                      piece=piece)
