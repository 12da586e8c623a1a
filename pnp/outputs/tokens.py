"""Token sheets: round, square and hexagonal tokens and fold-over standees, packed densely
(:mod:`pnp.geometry.packing`), each drawn from its layout inside its shape with bleed around
the shape and a thin cut guide on the trim outline; die nets follow (:mod:`pnp.outputs.dice`).

The pieces and their shapes and sizes come from :func:`pnp.model.pieces.token_pieces`. A
component with ``back`` or ``back_column`` prints double-sided: its sheet is followed by a back
sheet placed by the same duplex rules as cards (docs/print-specs.md §8 checks 13-15): long-edge flip
mirrors each position about the sheet's vertical centre line, short-edge flip about the
horizontal one with the back turned 180°, and ``back_offset`` moves every back. With
``gutter_fold`` the fronts fill the upper half and their backs the lower half, mirrored about the
fold and turned 180° (§8 check 18). A standee is a fold-over strip: base | front | back (turned
180°) | base.
"""

from __future__ import annotations

from ..core.errors import BuildError
from ..core.progress import step
from ..core.units import to_mm
from ..geometry.packing import SQRT3, back_position, hexagon_points, pack
from ..model.game import Game
from ..model.pieces import Piece, TokenPiece
from ..render.art import PRINT_DPI
from ..render.canvas import CUT_GRAY, CUT_WIDTH, FOLD_GRAY, draw_cover, new_canvas, text
from ..render.renderer import Renderer
from .base import DUPLEX_NAMES, SheetOptions
from .dice import draw_die_sheets


def outline_path(c, shape: str, cx: float, cy: float, w: float, h: float):
    """A closed path of ``shape`` with its trim box w x h centred at (cx, cy)."""
    path = c.beginPath()
    if shape == "circle":
        path.circle(cx, cy, w / 2)
    elif shape == "hexagon":
        pts = hexagon_points(cx, cy, w)
        path.moveTo(*pts[0])
        for p in pts[1:]:
            path.lineTo(*p)
        path.close()
    else:
        path.rect(cx - w / 2, cy - h / 2, w, h)
    return path


def draw_token(c, renderer: Renderer, tp: TokenPiece, piece: Piece, cx: float, cy: float, bleed: float,
               rotate: bool = False, guide: bool = True) -> None:
    """Draw ``piece`` (a face or back of ``tp``) centred at (cx, cy): art clipped to the shape
    grown by ``bleed``, then the cut guide on the trim outline."""
    if tp.shape == "standee":
        draw_standee(c, renderer, tp, cx, cy, bleed, rotate)
        return
    w, h = tp.width, tp.height
    grow_h = h + (2 * bleed * 2 / SQRT3 if tp.shape == "hexagon" else 2 * bleed)
    c.saveState()
    c.clipPath(outline_path(c, tp.shape, cx, cy, w + 2 * bleed, grow_h), stroke=0, fill=0)
    renderer.round_piece = tp.shape in ("circle", "hexagon")  # a stamp in a corner would be cut off
    renderer.draw(c, piece, (cx - w / 2, cy - h / 2, w, h), (bleed, bleed, bleed, bleed), rotate=rotate)
    renderer.round_piece = False
    c.restoreState()
    if guide:
        c.saveState()
        c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
        c.setLineWidth(CUT_WIDTH)
        c.drawPath(outline_path(c, tp.shape, cx, cy, w, h), stroke=1, fill=0)
        c.restoreState()


def draw_standee(c, renderer: Renderer, tp: TokenPiece, cx: float, cy: float, bleed: float,
                 rotate: bool = False) -> None:
    """A fold-over standee centred at (cx, cy): from the bottom, a base flap, the front, the
    back (its art turned 180° so it stands upright once folded), and a second base flap."""
    w, h, base = tp.width, tp.height, tp.base
    total = 2 * h + 2 * base
    left, bottom = cx - w / 2, cy - total / 2
    c.saveState()
    if rotate:
        c.translate(cx, cy)
        c.rotate(180)
        c.translate(-cx, -cy)
    path = c.beginPath()
    path.rect(left - bleed, bottom - bleed, w + 2 * bleed, total + 2 * bleed)
    c.clipPath(path, stroke=0, fill=0)
    c.setFillColorRGB(0.92, 0.92, 0.92)
    c.rect(left - bleed, bottom - bleed, w + 2 * bleed, base + bleed, stroke=0, fill=1)
    c.rect(left - bleed, bottom + base + 2 * h, w + 2 * bleed, base + bleed, stroke=0, fill=1)
    renderer.draw(c, tp.face, (left, bottom + base, w, h), (bleed, 0.0, bleed, 0.0))
    renderer.draw(c, tp.back or tp.face, (left, bottom + base + h, w, h), (bleed, 0.0, bleed, 0.0), rotate=True)
    c.restoreState()
    c.saveState()
    if rotate:
        c.translate(cx, cy)
        c.rotate(180)
        c.translate(-cx, -cy)
    c.setStrokeColorRGB(FOLD_GRAY, FOLD_GRAY, FOLD_GRAY)
    c.setLineWidth(0.5)
    c.setDash(2, 2)
    for y in (bottom + base, bottom + base + h, bottom + base + 2 * h):
        c.line(left, y, left + w, y)
    c.restoreState()
    c.saveState()
    c.setStrokeColorRGB(CUT_GRAY, CUT_GRAY, CUT_GRAY)
    c.setLineWidth(CUT_WIDTH)
    c.rect(left, bottom, w, total, stroke=1, fill=0)
    c.restoreState()


def render_tokens_pdf(target, game: Game, renderer: Renderer, pieces: list[TokenPiece], nets: list,
                      opts: SheetOptions, image_dpi: int | None = PRINT_DPI) -> tuple[int, int]:
    """Write the tokens PDF: a cover page, token sheets (each double-sided sheet followed by its
    back sheet, or folded with gutter fold), then die nets. Returns (sheets, pieces drawn).
    Raster art is embedded at ``image_dpi`` px/in at its placed size (print: 300)."""
    paper = opts.paper_size()
    names = {comp.id: comp.name for comp in game}
    try:
        sheets = pack(pieces, paper, opts, names)
    except BuildError as exc:  # the piece that does not fit: point at its component's size
        named = next((tp for tp in pieces if tp.face.label in exc.message), pieces[0] if pieces else None)
        where = game.key_location(f"components.{named.component}.size") if named else None
        raise BuildError(exc.message, location=exc.location or where, hint=exc.hint, rule=exc.rule) from None
    duplex = any(s.double for s in sheets) and not opts.gutter_fold
    c = new_canvas(target, paper, f"{game.title} - tokens", f"Print-and-play tokens for {game.title}",
                   DUPLEX_NAMES[opts.flip] if duplex else "Simplex", image_dpi=image_dpi,
                   converter=renderer.converter)
    contents = []
    by_comp: dict[str, list[TokenPiece]] = {}
    for tp in pieces:
        by_comp.setdefault(tp.component, []).append(tp)
    for cid, tps in by_comp.items():
        kinds = sorted({(tp.shape, round(to_mm(tp.width), 2)) for tp in tps})
        desc = ", ".join(f"{s} {w:g} mm" for s, w in kinds)
        sided = "double-sided" if tps[0].back is not None else "one side"
        contents.append(f"{names.get(cid, cid)}: {len(tps)} ({desc}; {sided})")
    for net in nets:
        contents.append(f"{net.title}: {net.copies} printable d6 net(s) with glue tabs, {to_mm(net.size):g} mm faces")
    lines = [
        "Print at 100 % / Actual size. Turn off 'fit to page' and 'scale'.",
        "Check the scale: the bar below must measure 50 mm and the square 1 in (25.4 mm).",
        "Cut each piece on its thin grey outline; the colour runs past it so a slightly wide cut shows no white.",
    ]
    if duplex:
        flip = "long edge" if opts.flip == "long" else "short edge"
        lines.append(f"Double-sided sheets: print both sides, flipping on the {flip}; each back sheet follows its front.")
    if opts.gutter_fold and any(s.double for s in sheets):
        lines.append("Double-sided sheets: fold on the centre line, faces out, glue, then cut.")
    draw_cover(c, paper, opts.margin, f"{game.title}: tokens", lines, contents)
    c.showPage()
    count = 1
    if duplex:  # keep every front sheet on an odd page so its back sheet is on the other side
        text(c, "sans", 8, paper.width / 2, paper.height / 2, "(back of the cover page, left blank)", align="centre")
        c.showPage()
    drawn = 0
    for sheet in step("token sheets", len(sheets)).each(sheets):
        for x, y, caption in sheet.captions:
            c.setFillColorRGB(0, 0, 0)
            text(c, "sans", 7, x, y, caption)
        for p in sheet.placements:
            draw_token(c, renderer, p.piece, p.piece.face, p.x, p.y, opts.bleed)
            drawn += 1
        if sheet.double and opts.gutter_fold:
            for p in sheet.placements:
                bx, by, turn = back_position(paper, p.x, p.y, opts)
                draw_token(c, renderer, p.piece, p.piece.back, bx, by, opts.bleed, rotate=turn)
            c.saveState()
            c.setStrokeColorRGB(FOLD_GRAY, FOLD_GRAY, FOLD_GRAY)
            c.setLineWidth(0.4)
            c.setDash(3, 3)
            c.line(opts.margin, paper.height / 2, paper.width - opts.margin, paper.height / 2)
            c.restoreState()
        c.showPage()
        count += 1
        if sheet.double and not opts.gutter_fold:
            for p in sheet.placements:
                bx, by, turn = back_position(paper, p.x, p.y, opts)
                draw_token(c, renderer, p.piece, p.piece.back, bx, by, opts.bleed, rotate=turn, guide=False)
            c.showPage()
        elif duplex:
            text(c, "sans", 8, paper.width / 2, paper.height / 2, "(back of a one-sided sheet, left blank)",
                 align="centre")
            c.showPage()
    if nets:
        count += draw_die_sheets(c, renderer, nets, paper, opts, duplex)
    c.save()
    return count, drawn
