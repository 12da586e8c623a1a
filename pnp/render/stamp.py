"""Drawing the version stamp on a piece (docs/versions.md): ``v1.2 · 3f9a1c`` in small grey
type in a bottom corner of the safe zone, or centred in the slug below the trim.

The stamp is set in DejaVu Sans at :data:`STAMP_SIZE` pt; in the safe zone its glyphs' box
(descent to ascent) sits :data:`STAMP_INSET` inside the safe zone's bottom corner, and as far
again inside a frame the layout draws on the safe zone (a stroked ``rect`` box with ``area =
"safe"``: clear of its stroke and of its rounded corner, :func:`frame_inset`). On a round or
hexagonal piece it is centred, and its whole glyph box sits inside the safe zone's circle
(radius: half the smaller side less the safe zone), as low as it fits. A stamp wider than that
room is set smaller, down to :data:`STAMP_MIN_SIZE`; :func:`fit_stamp` works it out and
:func:`fit_finding` reports it (``stamp.fit``). One that does not fit even so is clipped at the
safe zone, never printed past it. In the slug its top is :data:`SLUG_GAP` below the trim, so it
is cut off with the slug; a slot with less room below the trim than :func:`slug_room` clips it,
which :func:`slug_finding` reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.findings import Finding
from ..core.units import MM, Size, to_mm
from ..design.stamp import face_hash, stamp_text
from .fonts import register

STAMP_SIZE = 5.0
"""pt: readable with a loupe or a close look, and smaller than any text of the design (the
6 pt floor of preflight.small-text is for the game's own text, which players must read)."""
STAMP_MIN_SIZE = 3.0
"""pt: the smallest the stamp is set to fit a small piece (a 15 mm token). Its capitals are then
0.77 mm tall (DejaVu Sans: cap height 0.73 em), about 18 dots of a 600 dpi printer, still read
with a loupe; smaller, the hash's digits run together."""
STAMP_FONT = "sans"
STAMP_GREY = 0.5
"""Grey level of the stamp: legible on light and dark art alike."""
STAMP_INSET = 0.2 * MM
"""How far the stamp's glyph box sits inside the safe zone's corner."""
SLUG_GAP = 0.5 * MM
"""Space between the trim and the top of a slug stamp."""


def _metrics(size: float = STAMP_SIZE) -> tuple[float, float]:
    """(ascent, descent) of the stamp font at ``size`` pt, pt (descent negative)."""
    from reportlab.pdfbase.pdfmetrics import getFont

    face = getFont(register(STAMP_FONT)).face
    return face.ascent * size / 1000, face.descent * size / 1000


def slug_room() -> float:
    """The room (pt) a slug stamp needs below the trim: the gap and the glyphs' height."""
    ascent, descent = _metrics()
    return SLUG_GAP + ascent - descent


def frame_inset(boxes) -> float:
    """How far (pt) inside the safe zone's bottom corner the stamp's glyph box sits: STAMP_INSET,
    or, for a layout that draws a frame on the safe zone (``boxes`` holds a ``rect`` with ``area
    = "safe"`` and a ``stroke``, of ``stroke_width`` s and ``radius`` r, pt), far enough that the
    corner of the glyph box is STAMP_INSET inside the frame's inner edge: past half the stroke on
    a square frame, and inside the inner arc (radius r - s/2) of a rounded one."""
    inset = STAMP_INSET
    for box in boxes:
        if box.type != "rect" or box.area != "safe" or not box.props.get("stroke"):
            continue
        half = float(box.props.get("stroke_width", 0.5)) / 2
        inner = max(float(box.props.get("radius", 0.0)) - half, 0.0)
        # the arc's centre is half + inner from both edges; a point (d, d) lies STAMP_INSET inside it
        # when sqrt(2) * (half + inner - d) <= inner - STAMP_INSET
        corner = half + inner - max(inner - STAMP_INSET, 0.0) / math.sqrt(2)
        inset = max(inset, half + STAMP_INSET, corner)
    return inset


@dataclass(frozen=True)
class StampFit:
    """Where and how large a safe-zone stamp prints: ``size`` pt, its ``baseline`` and ``x`` (pt,
    bottom-left origin; the left end, the centre or the right end as ``align`` says: ``left``,
    ``centre``, ``right``), ``width`` at STAMP_SIZE and the ``room`` (pt) it has; ``fits``
    False when it is wider than the room even at STAMP_MIN_SIZE (it is then clipped, ``clip``:
    x, y, w, h of the safe zone, or its circle's bounding square on a round piece)."""

    size: float
    x: float
    baseline: float
    align: str
    width: float
    room: float
    fits: bool
    clip: tuple[float, float, float, float]
    round: bool = False


def fit_stamp(text: str, position: str, trim: tuple[float, float, float, float], safe: float,
              inset: float = STAMP_INSET, round_piece: bool = False) -> StampFit:
    """The stamp ``text`` at ``position`` (a ``safe-*`` one) on a trim (x, y, w, h) pt with a
    safe zone ``safe`` pt inside it, its glyph box ``inset`` pt (:func:`frame_inset`) inside
    the safe zone's corner; on a ``round_piece`` centred inside the safe zone's circle (see the
    module docstring). Set at STAMP_SIZE, or smaller to fit, not below STAMP_MIN_SIZE."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    x, y, w, h = trim
    width = stringWidth(text, register(STAMP_FONT), STAMP_SIZE)
    ascent, descent = _metrics()
    height = ascent - descent
    if round_piece:
        cx, cy = x + w / 2, y + h / 2
        radius = max(min(w, h) / 2 - safe - inset, 0.0)
        # the glyph box (W x H at size S, both in proportion to S) lies in the circle's lower half
        # when (W/2)^2 + H^2 <= radius^2
        size = min(STAMP_SIZE, STAMP_SIZE * radius / math.hypot(width / 2, height))
        fits = size >= STAMP_MIN_SIZE - 1e-9
        size = max(size, STAMP_MIN_SIZE)
        k = size / STAMP_SIZE
        below = math.sqrt(max(radius ** 2 - (width * k / 2) ** 2, (height * k) ** 2))
        r = min(w, h) / 2 - safe
        return StampFit(size, cx, cy - below - descent * k, "centre", width, 2 * radius, fits,
                        (cx - r, cy - r, 2 * r, 2 * r), True)
    room = max(w - 2 * safe - 2 * inset, 0.0)
    size = min(STAMP_SIZE, STAMP_SIZE * room / width) if width else STAMP_SIZE
    fits = size >= STAMP_MIN_SIZE - 1e-9
    size = max(size, STAMP_MIN_SIZE)
    baseline = y + safe + inset - descent * size / STAMP_SIZE
    clip = (x + safe, y + safe, w - 2 * safe, h - 2 * safe)
    if position == "safe-bottom-left":
        return StampFit(size, x + safe + inset, baseline, "left", width, room, fits, clip)
    if position == "safe-bottom-center":
        return StampFit(size, x + w / 2, baseline, "centre", width, room, fits, clip)
    return StampFit(size, x + w - safe - inset, baseline, "right", width, room, fits, clip)


def draw_stamp(c, text: str, position: str, trim: tuple[float, float, float, float], safe: float,
               fit: StampFit | None = None) -> None:
    """Draw ``text`` on a piece whose trim is (x, y, w, h) pt, bottom-left origin, at
    ``position`` (``safe-bottom-right``, ``safe-bottom-left``, ``safe-bottom-center`` or
    ``slug``; ``off`` draws nothing); ``safe`` is the layouts' safe zone inset, pt. A safe-zone
    stamp prints as ``fit`` says (:func:`fit_stamp`; by default at STAMP_SIZE, STAMP_INSET
    inside the corner, shrunk to fit), clipped at the safe zone when it does not fit."""
    if position == "off":
        return
    x, y, w, h = trim
    c.saveState()
    c.setFillGray(STAMP_GREY)
    if position == "slug":
        ascent, _ = _metrics()
        c.setFont(register(STAMP_FONT), STAMP_SIZE)
        c.drawCentredString(x + w / 2, y - SLUG_GAP - ascent, text)
        c.restoreState()
        return
    fit = fit or fit_stamp(text, position, trim, safe)
    if not fit.fits:
        path = c.beginPath()
        if fit.round:
            cx, cy, r = fit.clip[0] + fit.clip[2] / 2, fit.clip[1] + fit.clip[3] / 2, fit.clip[2] / 2
            path.circle(cx, cy, r)
        else:
            path.rect(*fit.clip)
        c.clipPath(path, stroke=0, fill=0)
    c.setFont(register(STAMP_FONT), fit.size)
    draw = {"left": c.drawString, "centre": c.drawCentredString, "right": c.drawRightString}[fit.align]
    draw(fit.x, fit.baseline, text)
    c.restoreState()


def stamp_piece(renderer, c, piece, layout, trim, below: float) -> None:
    """The version stamp of ``piece`` (its ``layout``'s ``stamp`` position) on a trim (x, y, w,
    h) pt with ``below`` pt of room under it, drawn by ``renderer``
    (:class:`pnp.render.renderer.Renderer`): a slug with too little room is a
    ``stamp.slug-room`` warning at the layout's stamp setting (once per piece), a safe-zone
    stamp too wide for its room a ``stamp.fit`` finding
    (:func:`fit_finding`, at the layout, once per layout and trim size, naming its first
    piece)."""
    x, y, w, h = trim
    text = stamp_text(renderer.version, face_hash(renderer.layouts, piece, Size(w, h), renderer.game_dir))
    check_slug(renderer, piece, below)
    position = "safe-bottom-center" if renderer.round_piece and layout.stamp.startswith("safe") else layout.stamp
    fit = None
    if position.startswith("safe"):
        fit = fit_stamp(text, position, trim, renderer.layouts.safe_zone, frame_inset(layout.boxes),
                        renderer.round_piece)
        if fit.size < STAMP_SIZE or not fit.fits:
            renderer.note(("", "stamp.fit", layout.name, f"{w:.2f}x{h:.2f} {fit.fits}"),
                          fit_finding(renderer.layouts.location(f"layouts.{layout.name}"), piece.card_key,
                                      layout.name, text, fit))
    draw_stamp(c, text, position, trim, renderer.layouts.safe_zone, fit)


def check_slug(renderer, piece, below: float) -> None:
    """A ``stamp.slug-room`` warning (once per piece) when ``piece`` prints a slug stamp
    and its slot leaves ``below`` pt under the trim, less than the stamp needs."""
    if not renderer.stamp or piece.side == "back" or renderer.repeat_depth:
        return
    layout = renderer.layouts.layouts.get(piece.layout)
    if layout is not None and layout.stamp == "slug" and below + 1e-6 < slug_room():
        renderer.note((piece.card_key, "stamp.slug-room", "", ""),
                      slug_finding(renderer.layouts.location(f"layouts.{layout.name}.stamp"), piece.card_key, below))


def fit_finding(where, piece: str, layout: str, text: str, fit: StampFit) -> Finding:
    """The ``stamp.fit`` finding of a safe-zone stamp wider than its room at STAMP_SIZE: an
    info when it is set smaller to fit (at ``fit.size``), a warning when it does not fit even
    at STAMP_MIN_SIZE and is clipped at the safe zone."""
    zone = "the safe zone's circle" if fit.round else "the safe zone"
    said = (f"the version stamp {text!r} is {to_mm(fit.width):.1f} mm wide at {STAMP_SIZE:g} pt, and {zone} of "
            f"layout {layout!r} leaves {to_mm(fit.room):.1f} mm")
    if fit.fits:
        return Finding.at("info", "stamp.fit", where, f"{said}: it prints at {fit.size:.1f} pt to fit",
                          hint=f'a shorter [game] version, or stamp = "slug" in layout {layout!r}, prints it at '
                          f"{STAMP_SIZE:g} pt", piece=piece)
    return Finding.at("warning", "stamp.fit", where,
                      f"{said}: even at {STAMP_MIN_SIZE:g} pt it does not fit, and is cut off at the safe zone",
                      hint=f'use a shorter [game] version, a smaller safe_zone, or stamp = "slug" in layout {layout!r}',
                      piece=piece)


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
