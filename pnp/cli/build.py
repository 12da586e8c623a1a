"""``pnp build``: check each game, render every output, then write them when nothing is wrong:
card sheets, boards, tokens, rulebook and the export targets the manifest lists. The command's
options and help; what it does is :func:`pnp.cli.runs.run_build`."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..render.art import DEFAULT_MAX_PIXELS
from . import settings as defaults
from .app import app
from .options import (BackOffsetOpt, BleedOpt, BoxesOpt, BoxToleranceOpt, CardThicknessOpt, CornerRadiusOpt, CutLinesOpt,
                      CutOpt, SleeveSizeOpt, SleeveThicknessOpt, ContactSheetsOpt, DelimiterOpt, EncodingOpt, Flip, FlipOpt, GameArg,
                      GapOpt, GutterFoldOpt, ImageDpiOpt, JobsOpt, LangOpt, MarginOpt, MaxImagePixelsOpt, OutputOpt, Paper,
                      PaperOpt, QuietOpt, StampOpt)
from .options import InkEdition, Simulation
from .runs import run_build


@app.command()
def build(
    games: GameArg = None,
    output: OutputOpt = None,
    paper: PaperOpt = Paper(defaults.PAPER),
    flip: FlipOpt = Flip(defaults.FLIP),
    gutter_fold: GutterFoldOpt = False,
    back_offset: BackOffsetOpt = defaults.BACK_OFFSET,
    margin: MarginOpt = defaults.MARGIN,
    gap: GapOpt = defaults.GAP,
    bleed: BleedOpt = defaults.BLEED,
    cut_lines: CutLinesOpt = False,
    cut: CutOpt = None,
    corner_radius: CornerRadiusOpt = defaults.CORNER_RADIUS,
    boxes: BoxesOpt = False,
    card_thickness: CardThicknessOpt = defaults.CARD_THICKNESS,
    sleeve_thickness: SleeveThicknessOpt = defaults.SLEEVE_THICKNESS,
    sleeve_size: SleeveSizeOpt = defaults.SLEEVE_SIZE,
    box_tolerance: BoxToleranceOpt = defaults.BOX_TOLERANCE,
    contact_sheets: ContactSheetsOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild everything, even parts whose inputs are unchanged, and write even when errors are found.")] = False,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
    image_dpi: ImageDpiOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the build too (text that does not fit, missing glyphs, low-resolution art): exit 1, nothing written.")] = False,
    jobs: JobsOpt = None,
    encoding: EncodingOpt = defaults.ENCODING,
    delimiter: DelimiterOpt = None,
    changed_since: Annotated[Optional[str], typer.Option("--changed-since", metavar="REF", show_default=False, help="Make sheets of only the pieces changed or added since REF (last: the last build; a release such as 1.2; a git revision): <game>-cards-changed.pdf, -boards-changed.pdf and -tokens-changed.pdf (for the kinds with a change), and <game>-changes.pdf, the list of pieces to take out of the old print.")] = None,
    only: Annotated[Optional[list[str]], typer.Option("--only", metavar="DECK[/ID]", help="Make a quick card sheet of just this deck or card (repeatable), <game>-cards-only.pdf; the full build's files are left as they are.", show_default=False)] = None,
    watch: Annotated[bool, typer.Option("--watch", help="After building, build again each time a file of the games is saved, for a PDF viewer kept open on the output; Ctrl-C stops.")] = False,
    stamp: StampOpt = None,
    lang: LangOpt = None,
    simulate: Annotated[Optional[Simulation], typer.Option("--simulate", case_sensitive=False, help="Write only a preview of the sheets as a player with this colour-vision deficiency (or a greyscale print) sees them, <game>-simulated-<vision>.pdf: for the screen, not for print.", show_default=False)] = None,
    ink: Annotated[Optional[InkEdition], typer.Option("--ink", case_sensitive=False, help="Write only the low-ink edition (large fills lightened or outlined, art kept) or the greyscale edition (black ink only) of the card sheets, boards and tokens, <file>-low-ink.pdf or <file>-greyscale.pdf, and report the ink of each page beside the default edition's.", show_default=False)] = None,
    quiet: QuietOpt = False,
) -> None:
    """Check each game and render every card, board, token and rulebook page into print-and-play
    PDFs under OUTPUT/<game>/; nothing is written when pnp check would find an error."""
    code = run_build(games, output, paper=paper.value, flip=flip.value, gutter_fold=gutter_fold,
                     back_offset=back_offset, margin=margin, gap=gap, bleed=bleed, cut_lines=cut_lines, cut=cut,
                     corner_radius=corner_radius, boxes=boxes, card_thickness=card_thickness,
                     sleeve_thickness=sleeve_thickness, sleeve_size=sleeve_size, box_tolerance=box_tolerance,
                     contact_sheets=contact_sheets, force=force, max_image_pixels=max_image_pixels,
                     image_dpi=image_dpi, strict=strict, jobs=jobs, encoding=encoding, delimiter=delimiter,
                     changed_since=changed_since, only=only, watch=watch, stamp=stamp, lang=lang,
                     simulate=simulate.value if simulate else None, ink=ink.value if ink else None, quiet=quiet)
    if code:
        raise typer.Exit(code)
