"""``image`` boxes, and icons that are pictures: raster art (PNG, JPEG, ...) and SVG, read
through :mod:`pnp.render.art`, fitted to the box (``cover`` fills it and crops, ``contain``
shows all of it) and clipped to it."""

from __future__ import annotations

from ...core.errors import BuildError
from ...design.elements import ELEMENT_SPECS
from ..art import load_raster, load_svg
from ..preflight import low_resolution, svg_unsupported


def draw_image(renderer, c, rel: str, rect, fit: str, piece, box) -> None:
    """Draw the art at ``rel`` (relative to the game folder) into ``rect``. Raises BuildError
    naming the piece for art outside the game folder, missing or unreadable; adds findings for
    SVG features the converter skips and for raster art placed below the renderer's
    ``min_dpi``. ``box`` is None for an icon."""
    path = (renderer.game_dir / rel).resolve()
    try:
        path.relative_to(renderer.game_dir.resolve())
    except ValueError:
        raise BuildError(f"{piece.label}: the image {rel!r} is outside the game folder",
                         hint="keep art inside the game folder and give its path relative to it") from None
    if not path.is_file():
        raise BuildError(f"{piece.label}: image {rel!r} not found",
                         hint="paths are relative to the game folder")
    where = f"{piece.card_key} ({box.name if box else 'icon'})"
    bx, by, bw, bh = rect
    c.saveState()
    clip = c.beginPath()
    clip.rect(bx, by, bw, bh)
    c.clipPath(clip, stroke=0, fill=0)
    if path.suffix.lower() == ".svg":
        art = renderer.images.get(path)
        if art is None:
            art = load_svg(path, piece.label, rel, renderer.game_dir)
            renderer.images[path] = art
            for problem in art.problems:
                renderer.findings.append(svg_unsupported(where, rel, problem))
        drawing = art.drawing
        iw, ih = drawing.width or 1, drawing.height or 1
        scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
        from reportlab.graphics import renderPDF

        c.translate(bx + (bw - iw * scale) / 2, by + (bh - ih * scale) / 2)
        c.scale(scale, scale)
        renderPDF.draw(drawing, c, 0, 0)
    else:
        reader = renderer.images.get(path)
        if reader is None:
            from reportlab.lib.utils import ImageReader

            reader = ImageReader(load_raster(path, piece.label, rel, renderer.max_image_pixels))
            renderer.images[path] = reader
        iw, ih = reader.getSize()
        scale = (max if fit == "cover" else min)(bw / iw, bh / ih)
        dw, dh = iw * scale, ih * scale
        dpi = iw / (dw / 72)
        if dpi < renderer.min_dpi - 0.5:
            renderer.note((piece.card_key, rel, "dpi"), low_resolution(
                where, rel, dpi, renderer.min_dpi,
                hint=f"supply at least {int(dw / 72 * renderer.min_dpi + 0.999)} x "
                f"{int(dh / 72 * renderer.min_dpi + 0.999)} px"))
        c.drawImage(reader, bx + (bw - dw) / 2, by + (bh - dh) / 2, dw, dh, mask="auto")
    c.restoreState()


class Image:
    """A picture from the game folder; ``image`` may be a template (a path column)."""

    spec = ELEMENT_SPECS["image"]

    def draw(self, renderer, c, box, piece, rect, trim, where) -> None:
        p = box.props
        rel = str(renderer.value(p.get("image", ""), piece.context, where("image"))).strip()
        if rel:
            draw_image(renderer, c, rel, rect, str(p.get("fit", "cover")), piece, box)
