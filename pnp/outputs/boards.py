"""Boards, player boards and reference sheets, drawn from data and tiled when they are large;
and the token sheets, standees and dice drawn beside them (:mod:`pnp.outputs.tokens`).

:func:`build_boards` writes two PDFs for a game:

- ``<game>-boards.pdf``: every ``board`` component (each copy), and every reference sheet a
  component asks for with its ``sheet`` setting, drawn from the layouts in
  ``templates/<game>/boards.toml`` (same format as ``layouts.toml``; docs/layouts.md). A board
  that fits the printable area stays on one sheet with crop marks; a larger one is tiled
  (:mod:`pnp.geometry.tiling`) over several sheets with overlaps, alignment marks, tile labels
  and an assembly map page (docs/boards.md).
- ``<game>-tokens.pdf``: token sheets, standees and die nets.

Both start with a cover page carrying the scale check (docs/print-specs.md §8 check 17). Every mark,
label and piece stays inside the ink-free margin (§8 checks 11 and 19). What a board's layout
sees is described in :func:`pnp.model.context.board_context`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core.errors import LayoutError, Location
from ..core.findings import Finding, merge
from ..core.progress import step
from ..core.suggest import did_you_mean
from ..core.units import MM, Size, to_mm
from ..design.layouts import BOARDS_FILE, LayoutSet, board_layouts
from ..geometry.impose import MARK_GAP
from ..geometry.tiling import DEFAULT_OVERLAP, MARK_RADIUS, BoardPlan, Tile, plan_board, tile_label
from ..model.facts import game_facts
from ..model.game import Game
from ..model.games import GameSource
from ..model.pieces import BoardPiece, Piece, board_pieces, die_nets, token_pieces
from ..render.art import DEFAULT_MAX_PIXELS, PRINT_DPI
from ..render.canvas import PdfBytes, draw_cover, new_canvas, stroke_segments, text
from ..render.renderer import Renderer
from .base import (BuildResult, OutputJob, SheetOptions, Stage, dpi_option, draft_option, stamp_option,
                   write_result)
from .reprint import ReprintPlan, reprint_boards, reprint_dice, reprint_tokens
from .tokens import render_tokens_pdf

MARK_LINE = 0.4
"""Alignment mark stroke width in pt (over a white halo so it shows on dark art)."""


HALO_LINE = 1.6
"""Width in pt of the white halo under each alignment mark."""


def _form(c, name: str, renderer: Renderer, bp: BoardPiece, bleed: float) -> None:
    """Draw ``bp`` once into the PDF form ``name``: its trim at (bleed, bleed), clipped to the
    bleed; the form's box is the trim plus ``bleed`` on every side."""
    w, h = bp.size.width, bp.size.height
    c.beginForm(name, 0, 0, w + 2 * bleed, h + 2 * bleed)
    renderer.draw(c, bp.piece, (bleed, bleed, w, h), (bleed, bleed, bleed, bleed))
    c.endForm()


def _place_form(c, name: str, plan: BoardPlan, tile: Tile, size: Size) -> None:
    """Draw form ``name`` so that its board lands where ``tile`` puts it, clipped to the window."""
    x, y, w, h = tile.sheet_rect()
    sx, sy = tile.to_sheet(0.0, 0.0)  # the trim's top-left corner on the sheet
    c.saveState()
    path = c.beginPath()
    path.rect(x, y, w, h)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(sx - plan.bleed, sy - size.height - plan.bleed)
    c.doForm(name)
    c.restoreState()


def alignment_mark(c, x: float, y: float, radius: float) -> None:
    """An alignment mark centred at (x, y) sheet pt: an X and a circle, black on a white halo.
    ``radius`` (pt) is half the mark's size; the X's arms reach 0.8 of it, the circle 0.55.

    Marks sit in the guide strips outside a tile's window (:meth:`BoardPlan.marks`), never on
    the art. The X's arms run diagonally so that cutting through the mark's centre along either
    axis leaves half of every line on each side (docs/boards.md, "Assembling a tiled board")."""
    arm = radius * 0.8
    segs = [(x - arm, y - arm, x + arm, y + arm), (x - arm, y + arm, x + arm, y - arm)]
    c.saveState()
    for width, gray in ((HALO_LINE, 1.0), (MARK_LINE, 0.0)):
        c.setStrokeColorRGB(gray, gray, gray)
        c.setLineWidth(width)
        for x1, y1, x2, y2 in segs:
            c.line(x1, y1, x2, y2)
        c.circle(x, y, radius * 0.55, stroke=1, fill=0)
    c.restoreState()


def _tile_ticks(plan: BoardPlan, tile: Tile) -> list[tuple[float, float, float, float]]:
    """Cut ticks for ``tile`` in its guide strips, from just outside the window to the margin:
    at the board's trim edges that cross this tile, and at the centre line of each overlap this
    tile is trimmed on (its left and top bands)."""
    paper, m = plan.paper, plan.margin
    x0, y0, w, h = tile.sheet_rect()
    left, right, bottom, top = x0, x0 + w, y0, y0 + h
    xs: list[float] = []
    ys: list[float] = []
    if tile.col == 0:
        xs.append(tile.to_sheet(0.0, 0.0)[0])
    if tile.col == plan.cols - 1:
        xs.append(tile.to_sheet(plan.board.width, 0.0)[0])
    if tile.row == 0:
        ys.append(tile.to_sheet(0.0, 0.0)[1])
    if tile.row == plan.rows - 1:
        ys.append(tile.to_sheet(0.0, plan.board.height)[1])
    for band in plan.bands_of(tile):
        if band.second != tile.label:
            continue
        if band.axis == "vertical":
            xs.append(tile.to_sheet(band.centre, 0.0)[0])
        else:
            ys.append(tile.to_sheet(0.0, band.centre)[1])
    segs = []
    for x in xs:
        segs += [(x, m, x, bottom - MARK_GAP), (x, top + MARK_GAP, x, paper.height - m)]
    for y in ys:
        segs += [(m, y, left - MARK_GAP, y), (right + MARK_GAP, y, paper.width - m, y)]
    return segs


def _tile_page(c, name: str, plan: BoardPlan, tile: Tile, bp: BoardPiece) -> None:
    _place_form(c, name, plan, tile, bp.size)
    for mark in plan.marks_on(tile):
        alignment_mark(c, *tile.to_sheet(mark.x, mark.y), mark.radius)
    stroke_segments(c, _tile_ticks(plan, tile))
    paper, m = plan.paper, plan.margin
    x0, y0, w, h = tile.sheet_rect()
    c.setFillColorRGB(0, 0, 0)
    size = 6.5
    below = f"  ·  {tile_label(tile.row + 1, tile.col)} is below" if tile.row + 1 < plan.rows else ""
    text(c, "sans", size, paper.width / 2, m + 1.4 * MM,
         f"{bp.title}  ·  tile {tile.label} of {plan.count} ({plan.rows} x {plan.cols})  ·  "
         f"{to_mm(plan.board.width):g} x {to_mm(plan.board.height):g} mm{below}", align="centre")
    inset = max(12 * MM, plan.overlap / 2 + MARK_RADIUS + 5 * MM)  # the labels keep clear of the marks
    text(c, "sans-bold", 9, x0 + inset, m + 1.2 * MM, tile.label, align="centre")
    text(c, "sans-bold", 9, x0 + w - inset, m + 1.2 * MM, tile.label, align="centre")
    if tile.row > 0:
        above = tile_label(tile.row - 1, tile.col)
        text(c, "sans", size, paper.width / 2, y0 + h + 2.2 * MM,
             f"{above} is above: once this row is joined, trim it on the ticks at the centre of the overlap "
             f"and lay it on row {above.rstrip('0123456789')}, matching the marks", align="centre")
    if tile.col > 0:
        text(c, "sans", size, x0 - 2.2 * MM, y0 + h / 2,
             f"{tile_label(tile.row, tile.col - 1)} is to the left: trim this tile on the ticks at the centre "
             f"of the overlap and lay it on {tile_label(tile.row, tile.col - 1)}, matching the marks",
             align="centre", angle=90)
    if tile.col + 1 < plan.cols:
        text(c, "sans", size, x0 + w + 2.2 * MM, y0 + h / 2,
             f"{tile_label(tile.row, tile.col + 1)} is to the right: it is laid on this tile's right overlap",
             align="centre", angle=-90)


def _single_page(c, name: str, plan: BoardPlan, bp: BoardPiece) -> None:
    tile = plan.tile(0, 0)
    _place_form(c, name, plan, tile, bp.size)
    paper, m = plan.paper, plan.margin
    left, top = tile.to_sheet(0.0, 0.0)
    right, bottom = tile.to_sheet(bp.size.width, bp.size.height)
    b = plan.bleed
    segs = []
    if bottom - b - MARK_GAP - m > 1.5:
        segs += [(x, m, x, bottom - b - MARK_GAP) for x in (left, right)]
    if paper.height - m - (top + b + MARK_GAP) > 1.5:
        segs += [(x, top + b + MARK_GAP, x, paper.height - m) for x in (left, right)]
    if left - b - MARK_GAP - m > 1.5:
        segs += [(m, y, left - b - MARK_GAP, y) for y in (bottom, top)]
    if paper.width - m - (right + b + MARK_GAP) > 1.5:
        segs += [(right + b + MARK_GAP, y, paper.width - m, y) for y in (bottom, top)]
    stroke_segments(c, segs)
    if bottom - b - m > 4 * MM:
        c.setFillColorRGB(0, 0, 0)
        text(c, "sans", 6.5, paper.width / 2, m + 1.4 * MM,
             f"{bp.title}  ·  {to_mm(bp.size.width):g} x {to_mm(bp.size.height):g} mm  ·  cut on the crop marks",
             align="centre")


def _assembly_page(c, name: str, plan: BoardPlan, bp: BoardPiece) -> None:
    """The assembly map: the whole board small, the tiles over it with their labels and
    overlaps, and the steps to put it together."""
    paper, m = plan.paper, plan.margin
    inner = m + 5 * MM
    c.setFillColorRGB(0, 0, 0)
    text(c, "sans-bold", 16, inner, paper.height - inner - 12, f"{bp.title}: assembly map")
    steps = [
        f"{to_mm(bp.size.width):g} x {to_mm(bp.size.height):g} mm on {plan.count} sheets "
        f"({plan.rows} rows x {plan.cols} columns), overlapping by {to_mm(plan.overlap):g} mm.",
        "1. Print every tile at 100 % (check the scale on page 1).",
        "2. Join each row from left to right: trim each tile but the first on the line joining the ticks at the",
        "   centre of its left overlap, which cuts the marks at both ends in half; lay it on its left neighbour",
        "   so the halves meet again, and glue.",
        "3. Join the rows: trim each row but row A on the ticks at the centre of its top overlap, lay it on the",
        "   row above so the halves of the marks at its two ends meet, and glue.",
        "4. Cut the board's outer edges on the crop ticks: the marks go with the strips around the board.",
    ]
    for i, line in enumerate(steps):
        text(c, "sans", 9, inner, paper.height - inner - 34 - i * 12, line)
    top_space = 34 + len(steps) * 12 + 8 * MM
    avail_w = paper.width - 2 * inner
    avail_h = paper.height - 2 * inner - top_space
    full_w = plan.board.width + 2 * plan.bleed
    full_h = plan.board.height + 2 * plan.bleed
    scale = min(avail_w / full_w, avail_h / full_h)
    ox = (paper.width - full_w * scale) / 2
    oy_top = paper.height - inner - top_space

    def at(bx: float, by: float) -> tuple[float, float]:
        return ox + (bx + plan.bleed) * scale, oy_top - (by + plan.bleed) * scale

    c.saveState()
    c.translate(ox, oy_top - full_h * scale)
    c.scale(scale, scale)
    c.doForm(name)
    c.restoreState()
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.setFillAlpha(0.45)
    for band in plan.bands():
        x, y = at(band.x, band.y + band.height)
        c.rect(x, y, band.width * scale, band.height * scale, stroke=0, fill=1)
    c.restoreState()
    c.saveState()
    c.setLineWidth(0.8)
    c.setStrokeColorRGB(0, 0, 0)
    for tile in plan.tiles():
        x, y = at(tile.x, tile.y + tile.height)
        c.rect(x, y, tile.width * scale, tile.height * scale, stroke=1, fill=0)
    c.restoreState()
    for tile in plan.tiles():
        cx, cy = at(tile.x + tile.width / 2, tile.y + tile.height / 2)
        c.saveState()
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(cx - 9 * MM, cy - 5 * MM, 18 * MM, 10 * MM, 2 * MM, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        text(c, "sans-bold", 16, cx, cy - 2.2 * MM, tile.label, align="centre")
        c.restoreState()


def render_boards_pdf(target, game: Game, renderer: Renderer, pieces: list[BoardPiece], opts: SheetOptions,
                      overlap: float = DEFAULT_OVERLAP, image_dpi: int | None = PRINT_DPI) -> int:
    """Write the boards PDF to ``target``: a cover page, then each board (an assembly map and
    its tiles when tiled). Returns the number of sheets written, cover included. Raster art is
    embedded at ``image_dpi`` px/in at its placed size (print: 300)."""
    paper = opts.paper_size()
    plans = [plan_board(bp.size, paper, margin=opts.margin, bleed=opts.bleed, overlap=overlap) for bp in pieces]
    c = new_canvas(target, paper, f"{game.title} - boards", f"Print-and-play boards for {game.title}",
                   image_dpi=image_dpi, converter=renderer.converter)
    contents = []
    page = 2
    for bp, plan in zip(pieces, plans):
        orient = "landscape" if plan.paper.width > plan.paper.height else "portrait"
        size = f"{to_mm(bp.size.width):g} x {to_mm(bp.size.height):g} mm"
        if plan.tiled:
            contents.append(f"p. {page}-{page + plan.count}: {bp.title}, {size}: assembly map and "
                            f"{plan.count} tiles ({orient})")
            page += plan.count + 1
        else:
            contents.append(f"p. {page}: {bp.title}, {size} ({orient})")
            page += 1
    draw_cover(c, paper, opts.margin, f"{game.title}: boards", [
        "Print at 100 % / Actual size. Turn off 'fit to page' and 'scale'. Print one side only.",
        "Check the scale: the bar below must measure 50 mm and the square 1 in (25.4 mm).",
        "Boards larger than a sheet are printed in tiles; each starts with an assembly map.",
    ], contents)
    c.showPage()
    sheets = 1
    for i, (bp, plan) in enumerate(step("boards", len(pieces)).each(zip(pieces, plans))):
        name = f"board{i}"
        c.setPageSize((plan.paper.width, plan.paper.height))
        _form(c, name, renderer, bp, plan.bleed)
        if plan.tiled:
            _assembly_page(c, name, plan, bp)
            c.showPage()
            sheets += 1
            for tile in plan.tiles():
                c.setPageSize((plan.paper.width, plan.paper.height))
                _tile_page(c, name, plan, tile, bp)
                c.showPage()
                sheets += 1
        else:
            _single_page(c, name, plan, bp)
            c.showPage()
            sheets += 1
    c.save()
    return sheets


def render_boards(game: Game, source: GameSource, out_dir: Path, opts: SheetOptions,
                  overlap: float = DEFAULT_OVERLAP, max_image_pixels: int | None = DEFAULT_MAX_PIXELS,
                  image_dpi: int | None = PRINT_DPI, draft: bool = False, stamp: bool = False,
                  color_convert=None, converter=None, reprint: ReprintPlan | None = None,
                  dry: bool = False) -> BuildResult:
    """Render ``game``'s boards (``out_dir/<game>-boards.pdf``) and its tokens, standees and
    dice (``out_dir/<game>-tokens.pdf``) in memory (``result.outputs``; nothing is written).

    The game's templates folder (``source``) holds ``boards.toml`` (and ``layouts.toml``, whose
    icons and layouts boards may use). ``overlap`` (pt) is the overlap of board tiles. Art over
    ``max_image_pixels`` pixels is refused (None lifts the limit); art is embedded at
    ``image_dpi`` px/in at its placed size; ``stamp`` prints the version stamp on every piece
    but backs (docs/versions.md); a ``draft`` prints missing art as a placeholder, a
    warning (else an error). With ``reprint`` (:mod:`pnp.outputs.reprint`), just the boards,
    tokens and dice it prints go on ``<game>-boards-changed.pdf`` and
    ``<game>-tokens-changed.pdf``, laid out as the full files lay them out (every piece is
    still checked for an undefined layout, as the full build checks it). A file is made only
    when the game has something to put in it. ``result.sheets`` counts sheets of both files (a duplex
    front and back count once) and ``result.cards`` the token pieces. Problems drawing a piece
    are findings naming it; raises BuildError or LayoutError (rule ``layout.file``: a missing
    or malformed boards.toml) naming the file and key. A ``dry`` render (a dry run's stage)
    draws everything, for what drawing finds, and makes no file
    (:class:`~pnp.render.canvas.PdfBytes`).
    """
    display_dir = source.templates_display
    result = BuildResult()
    pieces, findings = board_pieces(game)
    tokens, token_findings = token_pieces(game)
    nets, die_findings = die_nets(game)
    findings += token_findings + die_findings
    needs_layouts = bool(pieces or tokens or any(n.layout for n in nets))
    layouts = board_layouts(game, source)
    if layouts is None:
        if needs_layouts:
            raise LayoutError(f"no {BOARDS_FILE}", location=Location(display_dir), rule="layout.file",
                              hint=f"board, token and die designs live in {display_dir}/{BOARDS_FILE} "
                              "(same format as layouts.toml; see docs/boards.md)")
        layouts = LayoutSet(source.templates_dir / BOARDS_FILE, f"{display_dir}/{BOARDS_FILE}", {}, {},
                            dict(game.manifest.get("colors", {})))
    findings += _undefined_layouts(game, layouts, pieces, tokens, nets)
    part = ""
    if reprint is not None:
        pieces, tokens, nets = reprint_boards(pieces, reprint), reprint_tokens(tokens, reprint), \
            reprint_dice(nets, reprint)
        part = "-changed"
    renderer = Renderer(layouts, game.path, max_image_pixels=max_image_pixels, game_display=game.display_root,
                        facts=game_facts(game), draft=draft, stamp=stamp, version=game.version,
                        color_convert=color_convert)
    renderer.converter = converter  # an edition's (pnp.render.ink), as for render_cards
    renderer.dry = dry
    if pieces:
        buf = PdfBytes(discard=dry)
        result.sheets += render_boards_pdf(buf, game, renderer, pieces, opts, overlap, image_dpi)
        if not dry:
            result.outputs.append((out_dir / f"{game.file_stem}-boards{part}.pdf", buf.value()))
    if tokens or nets:
        buf = PdfBytes(discard=dry)
        sheets, count = render_tokens_pdf(buf, game, renderer, tokens, nets, opts, image_dpi)
        result.sheets += sheets
        result.cards += count
        if not dry:
            result.outputs.append((out_dir / f"{game.file_stem}-tokens{part}.pdf", buf.value()))
    result.findings = merge(findings + renderer.findings)
    return result


def _undefined_layouts(game: Game, layouts: LayoutSet, pieces: list[BoardPiece], tokens: list, nets: list) -> list:
    """A ``layout.undefined`` error for each layout a board, sheet, token or die names that
    ``layouts`` does not define, at the game.toml key (or cell) that names it, once per
    component and side; those pieces are drawn blank (their layout becomes ``""``)."""
    findings: dict[tuple[str, str], Finding] = {}

    def check(piece, key: str, column: str | None):
        if not piece.layout or piece.layout in layouts.layouts:
            return piece
        comp = game.components[piece.component]
        where = piece.row.location(column) if column and piece.row is not None else game.key_location(
            f"components.{comp.id}.{key}")
        findings.setdefault((str(where), piece.layout), Finding.at(
            "error", "layout.undefined", where, f"the layout {piece.layout!r} is not defined in {layouts.display}",
            hint=did_you_mean(piece.layout, layouts.layouts, "layouts: " + ", ".join(sorted(layouts.layouts))),
            component=comp.id, piece=piece.card_key))
        return replace(piece, layout="")

    for board in pieces:
        board.piece = check(board.piece, "sheet.layout" if board.piece.side == "sheet" else "layout", None)
    for tp in tokens:
        comp = game.components[tp.component]
        tp.face = check(tp.face, "layout", comp.layout_column)
        if tp.back is not None:
            tp.back = check(tp.back, "back", comp.back_column)
    for net in nets:
        if net.layout and net.layout not in layouts.layouts:
            check(Piece(net.layout, {}, net.component), "layout", None)
            net.layout = None
    return list(findings.values())


def build_boards(game: Game, source: GameSource, out_dir: Path, opts: SheetOptions,
                 overlap: float = DEFAULT_OVERLAP, max_image_pixels: int | None = DEFAULT_MAX_PIXELS,
                 image_dpi: int | None = PRINT_DPI) -> BuildResult:
    """Render the boards and tokens (:func:`render_boards`) and write them, whatever was found."""
    return write_result(render_boards(game, source, out_dir, opts, overlap, max_image_pixels, image_dpi))


class BoardsOutput:
    """``boards``: the boards PDF (boards, player boards, reference sheets) and the tokens PDF
    (token sheets, standees, dice)."""

    name = "boards"

    def stages(self, job: OutputJob) -> list[Stage]:
        templates = [p for p in job.template_files() if not p.name.endswith(".j2")]

        settings = job.settings
        dpi = settings.print_dpi()

        def render(dry: bool) -> BuildResult:
            return render_boards(job.game, job.source, job.out_dir, settings.sheet,
                                 max_image_pixels=settings.max_image_pixels, image_dpi=dpi, draft=settings.draft,
                                 stamp=stamp, reprint=settings.reprint, dry=dry)

        stamp = settings.stamps(job.game)
        if settings.changed_since is not None and settings.reprint is None:
            return []  # the earlier version could not be read: its error is the run's finding
        # a reprint has a record of its own, so the full build's files and record stay valid
        reprint = (settings.reprint,) if settings.reprint is not None else ()
        return [Stage("boards-changed" if reprint else "boards", job.data_files() + templates + job.font_files(),
                      render, (settings.sheet_key(), settings.max_image_pixels) + dpi_option(dpi, PRINT_DPI)
                      + draft_option(settings.draft) + stamp_option(stamp) + reprint)]
