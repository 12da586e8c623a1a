"""Home print-and-play card sheets: every card of every deck imposed on sheets (each front
sheet followed by its back sheet, or faces and backs folded on one sheet), a calibration page
pair first (the contact sheets of the decks are :mod:`.contact`'s).

:func:`build_cards` renders the game's cards (pieces from :mod:`pnp.model.pieces`, geometry
from :mod:`pnp.geometry.impose`, drawing by :class:`pnp.render.renderer.Renderer`) and writes
``<game>-cards.pdf`` (or ``<game>-cards-gutter-fold.pdf``) atomically: everything is rendered in
memory first, so a failed build leaves the previous files as they were.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..core.errors import BuildError
from ..core.findings import Finding, merge
from ..core.progress import step
from ..core.suggest import did_you_mean
from ..core.units import MM, Size, to_mm
from ..design.layouts import LayoutSet, game_layouts
from ..design.drawable import drawable_cards
from ..geometry.impose import FoldGrid, Grid, fit_fold, fit_grid, mirror
from ..model.facts import game_facts
from ..model.game import Game
from ..model.pieces import CardInstance
from ..render.art import DEFAULT_MAX_PIXELS, PRINT_DPI
from ..render.canvas import PdfBytes, draw_cut_lines, draw_scale_check, new_canvas, stroke_segments, text
from ..render.renderer import Renderer
from .base import (DUPLEX_NAMES, BuildResult, OutputJob, SheetOptions, Stage, cut_lines_option, dpi_option,
                   draft_option, stamp_option, write_result)
from .reprint import ReprintPlan, changes_page_pdf, reprint_cards

CAL_TARGETS = ((0.25, 0.3), (0.75, 0.3), (0.5, 0.55))
"""Where the registration crosses sit on the calibration pages, as fractions of the sheet."""


def _cross(c, cx: float, cy: float, scale: bool) -> None:
    c.saveState()
    c.setLineWidth(0.4)
    c.line(cx - 8 * MM, cy, cx + 8 * MM, cy)
    c.line(cx, cy - 8 * MM, cx, cy + 8 * MM)
    if not scale:
        c.circle(cx, cy, 3 * MM, stroke=1, fill=0)
    if scale:  # millimetre ticks along both arms, so a front cross seen through reads off directly
        c.setLineWidth(0.25)
        for k in range(-7, 8):
            if k == 0:
                continue
            tick = (1.6 if k % 5 == 0 else 0.8) * MM
            c.line(cx + k * MM, cy - tick, cx + k * MM, cy + tick)
            c.line(cx - tick, cy + k * MM, cx + tick, cy + k * MM)
        text(c, "sans", 5, cx + 5 * MM, cy - 3.6 * MM, "+5", align="centre")
        text(c, "sans", 5, cx - 5 * MM, cy - 3.6 * MM, "-5", align="centre")
        text(c, "sans", 5, cx + 2.8 * MM, cy + 4.4 * MM, "+5", align="centre")
        text(c, "sans", 5, cx + 2.8 * MM, cy - 5.6 * MM, "-5", align="centre")
    c.restoreState()


def draw_calibration(c, paper: Size, game: Game, opts: SheetOptions, duplex: bool) -> None:
    """Page 1 (and, when duplex, page 2) of every card PDF: the game's title, how to print, the
    scale check, and registration crosses to measure a printer's back offset."""
    w, h = paper.width, paper.height
    m = opts.margin + 5 * MM
    text(c, "sans-bold", 18, m, h - m - 14, f"{game.title}: cards")
    lines = [
        "Print at 100 % / Actual size. Turn off 'fit to page' and 'scale'.",
        "Check the scale: the bar below must measure 50 mm and the square 1 in (25.4 mm).",
    ]
    if duplex:
        flip = "long edge" if opts.flip == "long" else "short edge"
        lines += [
            f"Print both sides, flipping on the {flip}. Each back sheet follows its front sheet.",
            "Hold this sheet up to a light and look at its back: find where each front cross",
            "falls on the scale around the back cross (mm, right and up are +). If it is not at",
            "0, 0, build again with --back-offset X,Y using those readings.",
        ]
    else:
        lines += ["Fold each sheet on its centre line, faces out, glue, and cut on the crop marks."]
    if any(opts.back_offset):
        lines.append(f"This file moves every back by {opts.back_offset[0] / MM:+.2f} mm, "
                     f"{opts.back_offset[1] / MM:+.2f} mm.")
    for i, line in enumerate(lines):
        text(c, "sans", 9.5, m, h - m - 40 - i * 13, line)
    draw_scale_check(c, m, h - m - 40 - len(lines) * 13 - 40 * MM)
    if duplex:
        for fx, fy in CAL_TARGETS:
            _cross(c, fx * w, fy * h, scale=False)
        c.showPage()
        text(c, "sans", 9, m, h - m - 10, "Back of the calibration sheet: read each front cross on the scale.")
        ox, oy = opts.back_offset
        for fx, fy in CAL_TARGETS:
            bx, by = mirror(paper, fx * w, fy * h, opts.flip)
            _cross(c, bx + ox, by + oy, scale=True)
    c.showPage()


def _size_groups(cards: list[CardInstance]) -> list[list[CardInstance]]:
    groups: list[list[CardInstance]] = []
    for card in cards:
        if groups and groups[-1][-1].size == card.size:
            groups[-1].append(card)
        else:
            groups.append([card])
    return groups


def _best_fold(paper: Size, card: Size, opts: SheetOptions) -> tuple[FoldGrid, Size]:
    tries = []
    for sheet in (paper, paper.landscape):
        try:
            tries.append((fit_fold(sheet, card, margin=opts.margin, gap=opts.gap, bleed=opts.bleed), sheet))
        except BuildError as exc:
            last = exc
    if not tries:
        raise last
    return max(tries, key=lambda t: t[0].per_sheet)


def render_cards_pdf(target, game: Game, renderer: Renderer, cards: list[CardInstance],
                     opts: SheetOptions, notes: list[Finding] | None = None, image_dpi: int | None = PRINT_DPI,
                     cut_lines: bool = False) -> int:
    """Write the card sheets PDF to ``target`` (a path or binary file). Returns the number of
    sheets of cards (a duplex front and back count as one sheet). Where the paper leaves less
    room than asked for bleed or crop marks, an info finding is added to ``notes``. Raster art
    is embedded at ``image_dpi`` px/in at its placed size (print: 300). With ``cut_lines``,
    every face's trim outline is drawn as a cut line (:func:`~pnp.render.canvas.draw_cut_lines`)."""
    paper = opts.paper_size()
    duplex = not opts.gutter_fold
    c = new_canvas(target, paper, f"{game.title} - cards", f"Print-and-play card sheets for {game.title}",
                   DUPLEX_NAMES[opts.flip] if duplex else "Simplex", image_dpi=image_dpi,
                   converter=renderer.converter)
    draw_calibration(c, paper, game, opts, duplex)
    turn_backs = opts.gutter_fold or opts.flip == "short"
    renderer.plan_shares([(card.face, card.size.width, card.size.height, False) for card in cards] +
                         [(card.back, card.size.width, card.size.height, turn_backs) for card in cards])
    sheets = 0
    drawn = step("cards", len(cards))
    for group in _size_groups(cards):
        try:
            sheets += _size_group(c, game, renderer, group, paper, opts, notes, drawn.advance, cut_lines)
        except BuildError as exc:  # cards that fit no sheet: point at the deck's card size
            raise BuildError(exc.message, location=exc.location or game.key_location(
                f"components.{group[0].deck}.card_size"), hint=exc.hint, rule=exc.rule) from None
    c.save()
    renderer.plan_shares(None)
    return sheets


def _sheet_place(game: Game, card: Size, paper_name: str) -> str:
    """Where a finding about the sheets of one card size points: the file and the sheets."""
    return f"{game.file_stem}-cards.pdf ({card} cards on {paper_name})"


def _mm(length: float) -> str:
    """A length in pt as millimetres to 0.01 mm, halves rounded up alike on every side."""
    return f"{to_mm(length) + 1e-9:.2f}"


def _note(notes: list[Finding] | None, finding: Finding) -> None:
    if notes is not None and finding not in notes:
        notes.append(finding)


def _gap_finding(notes: list[Finding] | None, game: Game, card: Size, opts: SheetOptions,
                 note: tuple[str, str] | None) -> None:
    """A ``sheet.gap-bleed`` warning for a :meth:`Grid.gap_note`: the gap took the room the
    outer edges' bleed needed, so the sheets hold fewer cards (or, where none keeps it, less
    bleed at the edges)."""
    if note is not None:
        _note(notes, Finding("warning", "sheet.gap-bleed", _sheet_place(game, card, opts.paper), note[0],
                             hint=note[1], field="--gap"))


def back_offset_finding(game: Game, card: Size, opts: SheetOptions,
                        room: tuple[float, float, float, float]) -> Finding | None:
    """A ``sheet.back-offset`` error when ``opts.back_offset`` moves the backs' art past the
    ink-free margin (or, with gutter fold, past the fold); ``room`` is the (left, bottom, right,
    top) room in pt from :meth:`Grid.back_room` or :meth:`FoldGrid.back_room`. None when the
    offset fits.

    The offset is never reduced to fit: it is what the designer measured on the calibration
    sheet, and a smaller one would print every back off its face by the difference."""
    ox, oy = opts.back_offset
    left, bottom, right, top = room
    over = [(ox - right, "right"), (-ox - left, "left"), (oy - top, "top"), (-oy - bottom, "bottom")]
    past = [(amount, side) for amount, side in over if amount > 1e-6]
    if not past:
        return None
    fold = opts.gutter_fold

    def where(side: str) -> str:
        if side == "top" and fold:
            return "past the fold"
        return f"into the {to_mm(opts.margin):g} mm margin at the {side}"

    said = " and ".join(f"{_mm(amount)} mm {where(side)}" for amount, side in past)
    return Finding("error", "sheet.back-offset", _sheet_place(game, card, opts.paper),
                   f"--back-offset {to_mm(ox):g},{to_mm(oy):g} moves the backs {said}; they have "
                   f"{_mm(left)} mm of room on the left, {_mm(right)} mm on the right, "
                   f"{_mm(top)} mm {'up to the fold' if fold else 'at the top'} and {_mm(bottom)} mm at the bottom",
                   hint="the offset is used as measured, never reduced, or every back would print off its face; "
                   "a smaller --margin gives the backs that much more room (if the printer prints so close to the "
                   "edge), a smaller --bleed gives them more on the sides with bleed, and other paper may too",
                   field="--back-offset")


def _size_group(c, game: Game, renderer: Renderer, group: list[CardInstance], paper: Size, opts: SheetOptions,
                notes: list[Finding] | None, drawn: Callable[[int], None] = lambda n: None,
                cut_lines: bool = False) -> int:
    """Draw the sheets of one card size on ``c``; returns how many (a duplex front and back
    count as one), telling ``drawn(n)`` the cards of each sheet. Raises BuildError when the
    cards fit no sheet. A back offset that moves the backs into the margin is an error finding
    in ``notes`` (the sheets are drawn as asked)."""
    sheets = 0
    size = group[0].size
    if opts.gutter_fold:
        fold, sheet = _best_fold(paper, size, opts)
        _gap_finding(notes, game, size, opts, fold.grid.gap_note(opts.bleed, rows=False))
        finding = back_offset_finding(game, size, opts, fold.back_room(len(group)))
        if finding is not None:
            _note(notes, finding)
        for start in range(0, len(group), fold.per_sheet):
            c.setPageSize((sheet.width, sheet.height))
            _fold_sheet(c, renderer, fold, group[start:start + fold.per_sheet], opts, cut_lines)
            c.showPage()
            sheets += 1
            drawn(len(group[start:start + fold.per_sheet]))
        c.setPageSize((paper.width, paper.height))
        return sheets
    grid = fit_grid(paper, size, margin=opts.margin, gap=opts.gap, bleed=opts.bleed)
    for note in grid.notes(opts.bleed):
        _note(notes, Finding("info", "sheet.tight-margin", _sheet_place(game, size, opts.paper),
                             note, hint="cut on the crop marks; " + ("A4 paper has room for bleed at the top and bottom; "
                             if opts.paper == "letter" else "") + "pnp export makes print-shop files with full bleed"))
    _gap_finding(notes, game, size, opts, grid.gap_note(opts.bleed))
    finding = back_offset_finding(game, size, opts, grid.back_room(len(group), opts.flip))
    if finding is not None:
        _note(notes, finding)
    for start in range(0, len(group), grid.per_sheet):
        chunk = group[start:start + grid.per_sheet]
        _front_sheet(c, renderer, grid, chunk, cut_lines)
        c.showPage()
        _back_sheet(c, renderer, grid, chunk, opts)
        c.showPage()
        sheets += 1
        drawn(len(chunk))
    return sheets


def face_positions(cards: list[CardInstance], opts: SheetOptions) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Where the face of each of ``cards`` (in order) lands in the card sheets PDF
    :func:`render_cards_pdf` writes with ``opts``, placed as :func:`_size_group` places it:
    (page index from 0, trim box (x0, y0, x1, y1) pt from the page's bottom-left). Nothing is
    drawn. Raises BuildError as the sheets do when the cards fit no sheet."""
    paper, page, out = opts.paper_size(), 1 if opts.gutter_fold else 2, []  # after the calibration page(s)
    for group in _size_groups(cards):
        if opts.gutter_fold:
            fold = _best_fold(paper, group[0].size, opts)[0]
            per_sheet, trim = fold.per_sheet, lambda i: fold.front_trim(i)
        else:
            grid = fit_grid(paper, group[0].size, margin=opts.margin, gap=opts.gap, bleed=opts.bleed)
            per_sheet, trim = grid.per_sheet, lambda i: grid.trim(*divmod(i, grid.cols))
        for i in range(len(group)):
            x, y, w, h = trim(i % per_sheet)
            out.append((page + 2 * (i // per_sheet) if not opts.gutter_fold else page + i // per_sheet,
                        (x, y, x + w, y + h)))
        page += -(-len(group) // per_sheet) * (1 if opts.gutter_fold else 2)  # a duplex front, then its backs
    return out


def _slots(grid: Grid, n: int):
    for i in range(n):
        yield i, divmod(i, grid.cols)


def _front_sheet(c, renderer: Renderer, grid: Grid, chunk: list[CardInstance], cut_lines: bool = False) -> None:
    faces = grid.filled_slots(len(chunk))
    for i, (row, col) in _slots(grid, len(chunk)):
        renderer.place(c, chunk[i].face, grid.trim(row, col), grid.bleed(row, col, faces), form_bleed=grid.max_bleed)
    if cut_lines:
        draw_cut_lines(c, grid.trims(len(chunk)))
    stroke_segments(c, grid.crop_marks(len(chunk)))


def _back_sheet(c, renderer: Renderer, grid: Grid, chunk: list[CardInstance], opts: SheetOptions) -> None:
    backs = grid.back_slots(len(chunk), opts.flip)
    for i, (row, col) in _slots(grid, len(chunk)):
        brow, bcol = grid.back_slot(row, col, opts.flip)
        renderer.place(c, chunk[i].back, grid.trim(brow, bcol, opts.back_offset), grid.bleed(brow, bcol, backs),
                       rotate=opts.flip == "short", form_bleed=grid.max_bleed)


def _fold_sheet(c, renderer: Renderer, fold: FoldGrid, chunk: list[CardInstance], opts: SheetOptions,
                cut_lines: bool = False) -> None:
    for col, card in enumerate(chunk):
        fb = max(fold.grid.max_bleed, fold.fold_bleed)
        renderer.place(c, card.face, fold.front_trim(col), fold.front_bleed(col, len(chunk)), form_bleed=fb)
        renderer.place(c, card.back, fold.back_trim(col, opts.back_offset), fold.back_bleed(col, len(chunk)), rotate=True,
                       form_bleed=fb)
    g = fold.grid
    c.saveState()
    c.setLineWidth(0.4)
    c.setDash(3, 3)
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.line(g.margin, fold.fold_y, g.paper.width - g.margin, fold.fold_y)
    c.restoreState()
    if cut_lines:  # the faces' trims: the sheet is cut folded, through face and back at once
        draw_cut_lines(c, [fold.front_trim(col) for col in range(len(chunk))])
    stroke_segments(c, fold.crop_marks(len(chunk)))


def select_cards(game: Game, cards: list[CardInstance], only: tuple[str, ...]) -> list[CardInstance]:
    """The cards ``only`` names (``DECK`` for a whole deck, ``DECK/ROW_ID`` for one card with
    its copies), in the order of ``cards``. Raises BuildError naming a deck or card the game
    does not have, with the closest name (or, for a card's id given as a deck, its DECK/ID)."""
    decks = [comp.id for comp in game if comp.kind == "deck"]
    wanted: set[tuple[str, str | None]] = set()
    for spec in only:
        deck, _, row = spec.partition("/")
        if deck not in decks:
            holders = [d for d in decks if not row and any(str(r.id) == deck for r in game.components[d].rows)]
            hint = (f"{deck!r} is a card of {holders[0]!r}: give --only {holders[0]}/{deck}" if holders
                    else did_you_mean(deck, decks, "decks: " + ", ".join(decks)))
            raise BuildError(f"--only {spec}: the game has no deck {deck!r}", rule="build.only", hint=hint)
        if row:
            ids = [str(r.id) for r in game.components[deck].rows]
            if row not in ids:
                raise BuildError(f"--only {spec}: deck {deck!r} has no card {row!r}", rule="build.only",
                                 hint=did_you_mean(row, ids) or f"give DECK/ID with an id of {deck}'s table")
        wanted.add((deck, row or None))
    return [card for card in cards if (card.deck, None) in wanted
            or (card.deck, str(card.face.row_id)) in wanted]


def render_cards(game: Game, layouts: LayoutSet, out_dir: Path, opts: SheetOptions,
                 max_image_pixels: int | None = DEFAULT_MAX_PIXELS, dry: bool = False,
                 only: tuple[str, ...] = (), image_dpi: int | None = PRINT_DPI,
                 draft: bool = False, stamp: bool = False,
                 reprint: ReprintPlan | None = None, cut_lines: bool = False,
                 color_convert=None, converter=None) -> BuildResult:
    """Render every card of ``game``: ``out_dir/<game>-cards.pdf`` (``-cards-gutter-fold.pdf``),
    in memory (``result.outputs``; nothing is written). A ``dry`` render (a dry run's stage)
    draws the same, for what drawing finds, and makes no file
    (:class:`~pnp.render.canvas.PdfBytes`).

    Cards whose face or back layout the layouts file does not define are left out, each an
    error finding at its cell; problems drawing a card are findings naming it (the box is left
    out). Art over ``max_image_pixels`` pixels is refused (None lifts the limit); art is
    embedded at ``image_dpi`` (px/in at its placed size). With ``only`` (:func:`select_cards`),
    just those cards go on ``<game>-cards-only.pdf``. A ``draft`` prints missing art as a
    placeholder, a warning (else an error). ``stamp`` prints the version stamp on every face
    (docs/versions.md). With ``reprint``, just the cards it prints go on
    ``<game>-cards-changed.pdf``, beside ``<game>-changes.pdf``, the list of what to take out
    of the old print (:mod:`pnp.outputs.reprint`). ``cut_lines`` draws each face's trim
    outline. ``color_convert`` and ``converter`` make an edition (:mod:`pnp.render.ink`): the
    Renderer's colour hook, and the InkConverter the PDF's canvas converts every colour and
    picture with. Raises BuildError when the cards fit no sheet.
    """
    renderer = Renderer(layouts, game.path, max_image_pixels=max_image_pixels, game_display=game.display_root,
                        facts=game_facts(game), draft=draft, stamp=stamp, version=game.version,
                        color_convert=color_convert)
    renderer.converter = converter
    renderer.dry = dry
    cards, findings = drawable_cards(game, layouts)
    if only:
        cards = select_cards(game, cards, only)
    result = BuildResult(cards=len(cards))
    if reprint is not None:
        cards = reprint_cards(cards, reprint)
        result.cards = len(cards)
        page, _ = changes_page_pdf(game.title, reprint, opts.paper_size())
        result.outputs.append((out_dir / f"{game.file_stem}-changes.pdf", page))
    if not cards:
        result.findings = findings
        return result
    sink = PdfBytes(discard=dry)
    result.sheets = render_cards_pdf(sink, game, renderer, cards, opts, findings, image_dpi, cut_lines)
    part = "-only" if only else "-changed" if reprint is not None else ""
    name = f"{game.file_stem}-cards{part}{'-gutter-fold' if opts.gutter_fold else ''}.pdf"
    if not dry:
        result.outputs.append((out_dir / name, sink.value()))
    result.findings = merge(findings + renderer.findings)
    return result


def build_cards(game: Game, layouts: LayoutSet, out_dir: Path, opts: SheetOptions,
                max_image_pixels: int | None = DEFAULT_MAX_PIXELS, image_dpi: int | None = PRINT_DPI) -> BuildResult:
    """Render the cards (:func:`render_cards`) and write them, whatever was found: the result's
    findings say what is wrong. ``pnp build`` decides from the findings whether to write."""
    return write_result(render_cards(game, layouts, out_dir, opts, max_image_pixels, image_dpi=image_dpi))


class CardsOutput:
    """``cards``: the card sheets of every deck."""

    name = "cards"

    def stages(self, job: OutputJob) -> list[Stage]:
        settings = job.settings

        def render(dry: bool) -> BuildResult:
            return render_cards(job.game, game_layouts(job.game, job.source), job.out_dir, settings.sheet,
                                max_image_pixels=settings.max_image_pixels, dry=dry, only=settings.only,
                                image_dpi=settings.print_dpi(),
                                draft=settings.draft, stamp=stamp, reprint=settings.reprint,
                                cut_lines=settings.cut_lines)

        stamp = settings.stamps(job.game)
        sheet = settings.sheet_key()
        if settings.changed_since is not None and settings.reprint is None:
            return []  # the earlier version could not be read: its error is the run's finding
        if settings.reprint is not None:
            return [Stage("cards-changed", job.data_files() + job.card_template_files() + job.font_files(), render,
                          (sheet, settings.max_image_pixels, settings.reprint)
                          + dpi_option(settings.image_dpi, None) + draft_option(settings.draft) + stamp_option(stamp)
                          + cut_lines_option(settings.cut_lines))]
        # a quick sheet of some cards has a record of its own: the full build's stays valid
        return [Stage("cards-only" if settings.only else "cards",
                      job.data_files() + job.card_template_files() + job.font_files(), render,
                      (sheet, settings.max_image_pixels) + dpi_option(settings.image_dpi, None)
                      + ((settings.only,) if settings.only else ()) + draft_option(settings.draft)
                      + stamp_option(stamp) + cut_lines_option(settings.cut_lines))]
