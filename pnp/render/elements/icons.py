"""Icons: ``icons`` boxes (a row of icons from a list) and the icons drawn inline in text as
``:name:``. An icon is a shape with an optional label, or an image (the layouts file's
``[icons]``); a name the file does not define draws as a pip labelled with the name."""

from __future__ import annotations

from ...design.elements import ELEMENT_SPECS
from ...design.layouts import Icon
from ..preflight import icon_pip, missing_glyph, small_text
from .image import draw_image
from .shapes import draw_shape

MAX_ICONS = 200
"""Most icons one row may hold."""


def draw_icon(renderer, c, name: str, x: float, y: float, size: float, piece) -> None:
    """Draw icon ``name`` in the square (x, y, size); an unknown name draws a labelled pip."""
    icon = renderer.layouts.icons.get(name)
    if icon is None:
        icon = Icon(name=name, shape="rounded" if len(name) > 2 else "circle", fill="white",
                    stroke="black", label=name)
    where = f"icons.{name}"
    ctx = piece.context
    if icon.image:
        draw_image(renderer, c, icon.image, (x, y, size, size), "contain", piece,
                   renderer.layouts.location(f"{where}.image"))
        return
    fill = renderer.color(icon.fill, ctx, f"{where}.fill")
    stroke = renderer.color(icon.stroke, ctx, f"{where}.stroke", role="stroke") if icon.stroke else None
    width = size
    if icon.label and len(icon.label) > 2:
        width = max(size, renderer.text_width(icon.font, icon.label) * size * 0.5 + size * 0.5)
    draw_shape(c, icon.shape if width == size else "rounded", x, y, width, size, fill, stroke,
               max(0.4, size * 0.04), size / 2 if width != size else size * 0.2)
    if icon.label:
        chain = renderer.fonts.chain(icon.font)
        lacking = renderer.fonts.missing(chain, icon.label)
        if lacking:
            renderer.note((piece.card_key, where, "glyph"),
                          missing_glyph(renderer.layouts.location(f"{where}.label"), renderer.fonts.describe(icon.font),
                                        lacking, piece=piece.card_key))
        label_color = renderer.color(icon.label_color, ctx, f"{where}.label_color", role="label")
        fs = size * icon.label_scale
        lw = renderer.text_width(icon.font, icon.label) * fs
        if lw > width * 0.86:
            fs *= width * 0.86 / lw
            lw = width * 0.86
        if fs < renderer.min_text_size - 1e-6 and name in renderer.layouts.icons:
            renderer.note((piece.card_key, where, "small"), small_text(
                renderer.layouts.location(f"{where}.label"), f"the label {icon.label!r} of icon {name!r}", fs,
                renderer.min_text_size, "draw the icon larger where it is used (the icons box's icon_size or "
                "height, or the size of the text it sits in), or give it a shorter label or a larger label_scale",
                piece.card_key))
        if label_color is None:
            return  # label_color = "none": the label paints nothing
        c.saveState()
        c.setFillColor(label_color)
        lx, ly = x + (width - lw) / 2, y + size / 2 - fs * 0.36
        for face, part in renderer.fonts.runs(chain, icon.label):  # one run unless a fallback face is needed
            c.setFont(face, fs)
            c.drawString(lx, ly, part)
            lx += renderer.fonts.width(face, part) * fs
        c.restoreState()


def icon_width(renderer, name: str, size: float) -> float:
    """How wide icon ``name`` draws at ``size`` (labels longer than 2 characters widen it)."""
    icon = renderer.layouts.icons.get(name)
    label = icon.label if icon else name
    font = icon.font if icon else "sans-bold"
    if icon and icon.image:
        return size
    if label and len(label) > 2:
        return max(size, renderer.text_width(font, label) * size * 0.5 + size * 0.5)
    return size


def draw_icon_row(renderer, c, items: list[str], rect, size: float, spacing: float, align: str, piece) -> None:
    """Icons ``items`` side by side in ``rect``, ``size`` high and ``spacing`` apart, aligned
    left, center or right, vertically centred; the row shrinks as a whole to fit the width.
    Returns where the row put ink, (x0, y0, x1, y1, "fill") pt, or None for no items."""
    bx, by, bw, bh = rect
    if not items:
        return None
    widths = [icon_width(renderer, i, size) for i in items]
    total = sum(widths) + spacing * (len(items) - 1)
    scale = 1.0
    if total > bw:
        scale = bw / total
    size_s, spacing_s = size * scale, spacing * scale
    total *= scale
    x = bx + (bw - total) / 2 if align == "center" else (bx + bw - total if align == "right" else bx)
    y = by + (bh - size_s) / 2
    left = x
    for item, w in zip(items, widths):
        draw_icon(renderer, c, item, x, y, size_s, piece)
        x += w * scale + spacing_s
    return left, y, left + total, y + size_s, "fill"


class Icons:
    """A row of icons: ``items`` is an expression giving a list of icon names (a name alone is
    a list of one)."""

    spec = ELEMENT_SPECS["icons"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        p = box.props
        items = renderer.expression(str(p.get("items", "[]")), piece.context, where("items"))
        if isinstance(items, str):
            items = [items] if items else []
        if items is not None and not isinstance(items, (list, tuple)):
            raise renderer.layouts.error(
                where("items"), f"items gives {type(items).__name__} {str(items)[:40]!r}, not a list of icon names",
                hint="for 3 copies of an icon write  ['fire'] * cost ; for a cost use  cost | pips")
        items = [str(i) for i in (items or [])]
        for name in dict.fromkeys(i for i in items if i not in renderer.layouts.icons):
            renderer.note((piece.card_key, box.name, f"pip {name}"), icon_pip(
                renderer.source(p.get("items", ""), piece, where("items")), name, renderer.layouts.icons,
                piece.card_key))
        if len(items) > MAX_ICONS:
            raise renderer.layouts.error(where("items"),
                                         f"items gives {len(items)} icons; a row holds at most {MAX_ICONS}")
        bx, by, bw, bh = rect
        size = p.get("icon_size", min(bw, bh))
        spacing = p.get("spacing", size * 0.15)
        return draw_icon_row(renderer, c, items, rect, size, spacing, str(p.get("align", "center")), piece)
