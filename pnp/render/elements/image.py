"""``image`` boxes, and icons that are pictures: raster art (PNG, JPEG, ...) and SVG, read
through :mod:`pnp.render.art`, fitted to the box (``cover`` fills it and crops, ``contain``
shows all of it) and clipped to it. Raster art is embedded through :mod:`pnp.render.embed`:
once per file, downsampled to the file's resolution."""

from __future__ import annotations

from pathlib import Path

from ...core.errors import BuildError, Location
from ...core.suggest import nearest_file
from ...design.elements import ELEMENT_SPECS
from ..art import RasterArt, load_svg
from ..embed import draw_art
from ..fonts import register
from ..preflight import art_missing, art_outside, low_resolution, svg_unsupported
from ..svg import draw_svg


def draw_image(renderer, c, rel: str, rect, fit: str, piece, where: Location) -> None:
    """Draw the art at ``rel`` (relative to the game folder) into ``rect``. Art outside the
    game folder or missing is an error finding at ``where`` (the cell or setting that names
    it) and is not drawn; art that cannot be read raises BuildError. SVG features the converter
    skips and raster art placed below the renderer's ``min_dpi`` are findings too."""
    path = (renderer.game_dir / rel).resolve()
    if not path.is_relative_to(renderer.game_dir.resolve()):
        renderer.note((piece.card_key, rel, "outside"), art_outside(where, rel, piece.card_key))
        return
    if not path.is_file():
        renderer.note((piece.card_key, rel, "missing"),
                      art_missing(where, rel, piece.card_key, draft=renderer.draft,
                                  close=nearest_file(renderer.game_dir, rel)))
        draw_placeholder(c, rect, rel, renderer.paint)
        return
    bx, by, bw, bh = rect
    if path.suffix.lower() == ".svg":
        art = renderer.images.get(path)
        if art is None:
            art = _read(load_svg, where, path, rel, renderer.game_dir)
            renderer.images[path] = art
        for problem in art.problems:
            renderer.note((piece.card_key, rel, problem),
                        svg_unsupported(path_location(renderer, path), rel, problem, piece.card_key))
        c.saveState()
        clip = c.beginPath()
        clip.rect(bx, by, bw, bh)
        c.clipPath(clip, stroke=0, fill=0)
        drawing = art.drawing
        iw, ih = drawing.width or 1, drawing.height or 1
        scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
        c.translate(bx + (bw - iw * scale) / 2, by + (bh - ih * scale) / 2)
        c.scale(scale, scale)
        scope = getattr(c, "art_scope", None)  # a CMYK canvas names the art its conversions come from
        if scope is None:
            draw_svg(c, drawing)
        else:
            with scope(rel, path_location(renderer, path)):
                draw_svg(c, drawing)
        c.restoreState()
        return
    art = renderer.images.get(path)
    if art is None:
        art = _read(RasterArt, where, path, rel, renderer.max_image_pixels)
        renderer.images[path] = art
    iw, ih = art.size
    scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
    dw, dh = iw * scale, ih * scale
    dpi = iw / (dw / 72)  # the picture's own pixels, whatever resolution the file embeds it at
    if dpi < renderer.min_dpi - 0.5:
        renderer.note((piece.card_key, rel, "dpi"), low_resolution(
            path_location(renderer, path), rel, dpi, renderer.min_dpi,
            hint=f"supply at least {int(dw / 72 * renderer.min_dpi + 0.999)} x "
            f"{int(dh / 72 * renderer.min_dpi + 0.999)} px", piece=piece.card_key))
    c.saveState()
    clip = c.beginPath()
    clip.rect(bx, by, bw, bh)
    c.clipPath(clip, stroke=0, fill=0)
    scope = getattr(c, "art_scope", None)  # a CMYK canvas reports its conversion at the art file
    if scope is None:
        draw_art(c, art, bx + (bw - dw) / 2, by + (bh - dh) / 2, dw, dh)
    else:
        with scope(rel, path_location(renderer, path)):
            draw_art(c, art, bx + (bw - dw) / 2, by + (bh - dh) / 2, dw, dh)
    c.restoreState()


PLACEHOLDER_INK = "#E4007C"
"""The colour of a missing picture's placeholder: process magenta, which no bundled design
uses, so a proof shows at a glance what is still to come."""


def draw_placeholder(c, rect, rel: str, paint) -> None:
    """Mark ``rect`` (x, y, w, h in pt) where the picture ``rel`` is missing: a white box with
    a 0.75 pt magenta outline, crossed corner to corner, and ``missing: <file name>`` across its
    middle (DejaVu Sans, 7 pt or smaller to fit the width, not below 3 pt; cut at the box's edges).
    ``paint(hex, role)`` gives the colours as the file paints (RGB, or a print profile's CMYK);
    where it gives None for the white (the low-ink edition outlines its large fills), the box
    is outlined and crossed on the paper as it is."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    x, y, w, h = rect
    if w <= 0 or h <= 0:
        return
    ink, paper = paint(PLACEHOLDER_INK, "stroke"), paint("#FFFFFF", "fill")
    c.saveState()
    clip = c.beginPath()
    clip.rect(x, y, w, h)
    c.clipPath(clip, stroke=0, fill=0)
    if paper is not None:
        c.setFillColor(paper)
    c.setStrokeColor(ink)
    c.setLineWidth(0.75)
    c.rect(x, y, w, h, stroke=1, fill=int(paper is not None))
    c.line(x, y, x + w, y + h)
    c.line(x, y + h, x + w, y)
    font = register("sans")
    name = "missing: " + (rel.replace("\\", "/").rsplit("/", 1)[-1] or rel)
    size = max(3.0, min(7.0, 7.0 * (w - 4) / max(stringWidth(name, font, 7.0), 1e-6)))
    width = stringWidth(name, font, size)
    if paper is not None:  # a white band under the name, where the crossing lines would run through it
        c.setFillColor(paper)
        c.rect(x + (w - width) / 2 - 1.5, y + h / 2 - size * 0.45, width + 3, size * 1.3, stroke=0, fill=1)
    c.setFillColor(paint(PLACEHOLDER_INK, "text"))
    c.setFont(font, size)
    c.drawCentredString(x + w / 2, y + h / 2 - size * 0.2, name)
    c.restoreState()


def _read(loader, where: Location, *args):
    """Art read by ``loader``; an error reading it points at ``where``, the cell or setting that
    names the file (as a missing file does)."""
    try:
        return loader(*args)
    except BuildError as exc:
        raise BuildError(exc.message, location=where, hint=exc.hint, rule=exc.rule) from None


def path_location(renderer, path: Path) -> Location:
    """The art file itself, as findings about it name it: its path as the game folder's
    display name shows it (``card_data/game/art/fire.png``)."""
    return Location(f"{renderer.game_display}/{path.relative_to(renderer.game_dir.resolve()).as_posix()}")


class Image:
    """A picture from the game folder; ``image`` may be a template (a path column)."""

    spec = ELEMENT_SPECS["image"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        p = box.props
        rel = str(renderer.value(p.get("image", ""), piece.context, where("image"))).strip()
        if rel:
            raw = p.get("image", "")
            draw_image(renderer, c, rel, rect, str(p.get("fit", "cover")), piece,
                       renderer.source(raw, piece, where("image")))
            # a picture may be transparent where it lies over text (a frame, an overlay): only
            # its edges count, as an outline's do
            x, y, w, h = rect
            return x, y, x + w, y + h, "outline"
