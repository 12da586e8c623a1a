"""``pnp check``: a dry run of ``pnp build``. Every table against the manifest, the totals the
rulebook states and the game's own rules, then every output drawn without writing a file, so
whatever a build would find is found here first, with the same rule id and location; the
composition with ``--analysis``. The command's options and help; what it does is
:func:`pnp.cli.runs.run_check`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..render.art import DEFAULT_MAX_PIXELS
from . import settings as defaults
from .app import app
from .options import (BackOffsetOpt, BleedOpt, BoxesOpt, BoxToleranceOpt, CardThicknessOpt, CornerRadiusOpt, CutLinesOpt,
                      CutOpt, SleeveSizeOpt, SleeveThicknessOpt, DelimiterOpt, EncodingOpt, Flip, FlipOpt, Format,
                      GameArg, GapOpt, GutterFoldOpt, ImageDpiOpt, JobsOpt, LangOpt, MarginOpt, MaxImagePixelsOpt, Paper,
                      PaperOpt, QuietOpt, StampOpt, TargetOpt)
from .runs import run_check


@app.command()
def check(
    games: GameArg = None,
    format: Annotated[Format, typer.Option("--format", case_sensitive=False, help="How to report: text for people, json for scripts and CI.")] = Format.TEXT,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
    accessibility: Annotated[bool, typer.Option("--accessibility", help="Colour-blind, greyscale and contrast findings not accepted in game.toml become warnings (without it they are infos); see docs/accessibility.md.")] = False,
    analysis: Annotated[bool, typer.Option("--analysis", help="Also show the composition: pieces per deck by colour, family, type or rank; cost curves; what each cost needs against what the game supplies.")] = False,
    plots: Annotated[Optional[Path], typer.Option("--plots", help="Write the composition charts as PNG files into DIR/<game>/ (implies --analysis).", metavar="DIR", show_default=False)] = None,
    target: TargetOpt = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", show_default=False, help="Where pnp build writes (default: output/, or the game folder's own output/ when run inside one): parts a build there made from the same inputs are not drawn again. Nothing is written.")] = None,
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
    jobs: JobsOpt = None,
    encoding: EncodingOpt = defaults.ENCODING,
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
    image_dpi: ImageDpiOpt = None,
    changed_since: Annotated[Optional[str], typer.Option("--changed-since", metavar="REF", show_default=False, help="Check the reprint pnp build --changed-since REF would make: REF must name an earlier version (last, a release, a git revision).")] = None,
    stamp: StampOpt = None,
    lang: LangOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Check games as pnp build would build them, without writing anything: the data against the
    manifest, the rulebook's totals and each game's rules, and every card, board, token and
    rulebook page drawn. The sheet options and --target say which build to check.

    Exits 1 when a game has errors (or warnings, with --strict), 0 otherwise.
    """
    code = run_check(games, format=format.value, strict=strict, accessibility=accessibility, analysis=analysis,
                     plots=plots, target=target, output=output, paper=paper.value, flip=flip.value,
                     gutter_fold=gutter_fold, back_offset=back_offset, margin=margin, gap=gap, bleed=bleed,
                     cut_lines=cut_lines, cut=cut, corner_radius=corner_radius, boxes=boxes,
                     card_thickness=card_thickness, sleeve_thickness=sleeve_thickness, sleeve_size=sleeve_size,
                     box_tolerance=box_tolerance, jobs=jobs, encoding=encoding, delimiter=delimiter,
                     max_image_pixels=max_image_pixels, image_dpi=image_dpi, changed_since=changed_since,
                     stamp=stamp, lang=lang, quiet=quiet)
    if code:
        raise typer.Exit(code)
