"""``pnp build``: check each game, render every output, then write them when nothing is wrong:
card sheets, boards, tokens, rulebook and the export targets the manifest lists."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..render.art import DEFAULT_MAX_PIXELS
from . import settings as defaults
from .app import app
from .options import (BackOffsetOpt, BleedOpt, BoxesOpt, BoxToleranceOpt, CardThicknessOpt, CornerRadiusOpt, CutLinesOpt,
                      CutOpt, SleeveSizeOpt, SleeveThicknessOpt, ContactSheetsOpt, DelimiterOpt, EncodingOpt, Flip, FlipOpt, GameArg,
                      GapOpt, GutterFoldOpt, ImageDpiOpt, JobsOpt, LangOpt, MarginOpt, MaxImagePixelsOpt, OutputOpt, Paper,
                      PaperOpt, QuietOpt, StampOpt, load_options, sheet_options)
from .options import InkEdition, Simulation
from .output import out, output_root, print_build, resolve_games, run_games


def describe(name: str, result) -> str:
    """What one part of a build made, for its line of the report."""
    if name in ("cards", "cards-only", "cards-changed"):
        return f"{result.cards} card{'s' if result.cards != 1 else ''} on {result.sheets} sheet(s)" \
            if result.sheets else ""
    if name in ("boards", "boards-changed"):
        return f"{result.sheets} sheet(s) of boards, tokens and dice" if result.sheets else ""
    if name.startswith("cut-"):
        return f"{result.cards} pieces on {result.sheets} print-and-cut sheet(s), a cut file each" \
            if result.sheets else ""
    if name == "boxes":
        return f"{result.cards} tuck box(es) on {result.sheets} sheet(s)" if result.sheets else ""
    if name == "dividers":
        return f"{result.cards} card dividers on {result.sheets} sheet(s)" if result.sheets else ""
    if name == "accessibility":
        return ""
    if name.startswith("ink-"):
        return f"{result.sheets} file(s), the {name[4:]} edition" + "".join(f"\n    {n}" for n in result.notes)
    if name.startswith("simulated-"):
        return f"{result.sheets} page(s) as seen with {name.split('-', 1)[1]} (a preview, not for print)"
    if name.startswith("rulebook"):
        return f"{result.sheets} page(s)" if result.sheets else ""
    return f"{result.cards} cards"


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
    contact_sheets: ContactSheetsOpt = True,
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
    opts = sheet_options(paper.value, flip.value, gutter_fold, back_offset, margin, gap, bleed, contact_sheets)
    settings = defaults.build_settings(opts, max_image_pixels, force, strict, jobs, image_dpi, only,
                                       changed_since, stamp, simulate=simulate.value if simulate else None,
                                       ink=ink.value if ink else None,
                                       **defaults.physical(cut_lines, cut, corner_radius, boxes, card_thickness, sleeve_thickness,
                                                          sleeve_size, box_tolerance))
    sources = resolve_games(games)
    root = output_root(output, games)
    load = load_options(encoding, delimiter)

    def once(settings) -> bool:
        failed = False
        for report in run_games(sources, root, settings, load, write=True, quiet=quiet, lang=lang):
            failed = print_build(report, strict, describe, quiet) or failed
        return failed

    failed = once(settings)
    if watch:
        from ..preview.watch import changes, watched_folders

        folders = watched_folders(sources)
        out.print(f"watching {len(folders)} folder(s) for changes; Ctrl-C stops", style="dim")
        out.file.flush()
        for _ in changes(folders, ignore=[root]):  # parts whose inputs did not change are kept
            out.print()
            once(settings)
            out.print("watching for changes; Ctrl-C stops", style="dim")
            out.file.flush()
        return
    if failed:
        raise typer.Exit(1)
