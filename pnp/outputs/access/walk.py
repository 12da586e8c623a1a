"""What one piece's layout shows, without drawing it: the colour of every painted setting, the
value of every other cue (text, icons, shape, picture) and every text with the colour under it.

:func:`walk` evaluates a piece's boxes as :class:`pnp.render.renderer.Renderer` draws them
(``when``, templates, the palette), so the accessibility checks see the colours and words the
sheets print. A box whose values cannot be evaluated is left out here: drawing reports it.
Repeat boxes (a board's track) are not looked into.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.errors import PnpError
from ...design.layouts import BoxKey, LayoutSet
from ...model.pieces import Piece
from ...render.renderer import BASIC_COLORS, Renderer

COLOR_SETTINGS = ("fill", "stroke", "color")
"""Box settings that paint a colour."""
CUE_SETTINGS = {"text": "text", "icons": "items", "shape": "shape", "image": "image"}
"""Element kind -> the setting that tells pieces apart by something other than colour."""
FILLED = ("rect", "ellipse", "shape")


@dataclass(frozen=True, slots=True)
class Paint:
    """A colour a piece shows: ``hex`` (``#RRGGBB``), the setting's text as written (``raw``),
    the key where it is written (``key``: ``layouts.card.background`` or
    ``layouts.card.boxes.frame.fill``) and the layout drawing it."""

    hex: str
    raw: Any
    key: str
    layout: str
    box: str


@dataclass(frozen=True, slots=True)
class Text:
    """A text a piece shows: its box, colour, the colour under the centre of its box (``under``,
    with ``under_what`` naming it) and size in pt."""

    layout: str
    box: str
    key: str
    color: str
    under: str
    under_what: str
    size: float
    bold: bool


@dataclass
class Shown:
    """Everything :func:`walk` found for one piece. ``paints`` and ``cues`` are keyed by role:
    ``background`` or ``BOX.SETTING`` (a box of the same name in two layouts is one role)."""

    piece: Piece
    layout: str
    paints: dict[str, Paint] = field(default_factory=dict)
    cues: dict[str, Any] = field(default_factory=dict)
    texts: list[Text] = field(default_factory=list)


_SHARED: dict = {}
"""Every distinct :class:`Paint`, :class:`Text` and role name walked in this process, each
held once: a deck's faces paint from a few colours with a few settings, so 12,800 faces walked
held over 100 MB of equal copies of them."""
_SHARED_MAX = 100_000
"""Distinct values :data:`_SHARED` holds at most (past it, new ones are not shared)."""


def shared(value):
    """``value``, or the equal one walked before (:data:`_SHARED`); a value that cannot be
    hashed (a setting written as a table) is returned as it is."""
    try:
        found = _SHARED.get(value)
    except TypeError:
        return value
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            return value
        _SHARED[value] = found = value
    return found


def resolve(layouts: LayoutSet, value: Any) -> str | None:
    """A colour value (a palette name, ``#RRGGBB``, ``white``/``black``) as upper-case
    ``#RRGGBB``; None for ``none``, blank or anything that is not a colour."""
    text = "" if value is None else str(value).strip()
    if text in ("", "none"):
        return None
    if text.startswith("#") and len(text) == 7:
        return text.upper()
    if text in layouts.colors and isinstance(layouts.colors[text], str):
        return layouts.colors[text].upper()
    return BASIC_COLORS.get(text)


def _inside(rect, x: float, y: float) -> bool:
    rx, ry, rw, rh = rect
    return rx <= x <= rx + rw and ry <= y <= ry + rh


def walk(renderer: Renderer, piece: Piece, width: float, height: float) -> Shown | None:
    """What ``piece`` (``width`` x ``height`` pt at its trim) shows; None when its layout is
    not defined (reported where it is named)."""
    layouts = renderer.layouts
    layout = layouts.layouts.get(piece.layout)
    if layout is None:
        return None
    ctx = piece.context
    shown = Shown(piece, layout.name)
    trim = (0.0, 0.0, width, height)
    bleed = (layouts.bleed,) * 4
    under = [((-layouts.bleed, -layouts.bleed, width + 2 * layouts.bleed, height + 2 * layouts.bleed),
              "#FFFFFF", "the paper")]
    if layout.background is not None:
        home = layout.background_origin or layout.name
        try:
            hexcolor = resolve(layouts, renderer.value(layout.background, ctx, f"layouts.{home}.background"))
        except PnpError:
            hexcolor = None
        if hexcolor:
            key = f"layouts.{home}.background"
            shown.paints["background"] = shared(Paint(hexcolor, layout.background, key, layout.name, "background"))
            under.append((under[0][0], hexcolor, "the background"))
    for box in layout.boxes:
        key = BoxKey(layout.name, box)
        p = box.props
        try:
            if "when" in p and not renderer.expression(str(p["when"]), ctx, key("when")):
                continue
            if box.type == "repeat":
                continue
            rect = renderer.rect_of(box, trim, bleed)
            for setting in COLOR_SETTINGS:
                if setting in p:
                    hexcolor = resolve(layouts, renderer.value(p[setting], ctx, key(setting)))
                    if hexcolor:
                        shown.paints[shared(f"{box.name}.{setting}")] = shared(
                            Paint(hexcolor, p[setting], key(setting), layout.name, box.name))
            cue = CUE_SETTINGS.get(box.type)
            if cue and cue in p:
                if cue == "items":
                    value = renderer.expression(str(p[cue]), ctx, key(cue))
                    value = tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
                else:
                    value = str(renderer.value(p[cue], ctx, key(cue)))
                if value not in ("", ()):
                    shown.cues[shared(f"{box.name}.{cue}")] = value
            cx, cy = rect[0] + rect[2] / 2, rect[1] + rect[3] / 2
            if box.type == "text" and shown.cues.get(f"{box.name}.text"):
                color = resolve(layouts, renderer.value(p.get("color", "black"), ctx, key("color")))
                behind = next(((c, what) for r, c, what in reversed(under) if _inside(r, cx, cy)), None)
                if color and behind and behind[0]:
                    setting = "color" if "color" in p else "text"
                    shown.texts.append(shared(Text(layout.name, box.name, key(setting), color, behind[0], behind[1],
                                                   float(p.get("size", 9)), "bold" in str(p.get("font", "sans")))))
            elif box.type in FILLED:
                fill = shown.paints.get(f"{box.name}.fill")
                if fill is not None:
                    under.append((rect, fill.hex, f"box {box.name}"))
            elif box.type == "image":
                under.append((rect, None, f"the picture of box {box.name}"))  # colours unknown: not judged
        except PnpError:
            continue
    return shown
