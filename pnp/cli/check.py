"""``pnp check``: a dry run of ``pnp build``. Every table against the manifest, the totals the
rulebook states and the game's own rules, then every output drawn without writing a file, so
whatever a build would find is found here first, with the same rule id and location; the
composition with ``--analysis``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..render.art import DEFAULT_MAX_PIXELS
from . import settings as defaults
from .app import app
from .options import (BackOffsetOpt, BleedOpt, BoxesOpt, BoxToleranceOpt, CardThicknessOpt, CornerRadiusOpt, CutLinesOpt,
                      CutOpt, SleeveSizeOpt, SleeveThicknessOpt, DelimiterOpt, EncodingOpt, Flip, FlipOpt, Format,
                      GameArg, GapOpt, GutterFoldOpt, ImageDpiOpt, JobsOpt, LangOpt, MarginOpt, MaxImagePixelsOpt, Paper,
                      PaperOpt, QuietOpt, StampOpt, TargetOpt, load_options, sheet_options)
from .output import language_runs, out, print_report, resolve_games, run_games, output_root


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
    from ..core.findings import failing
    opts = sheet_options(paper.value, flip.value, gutter_fold, back_offset, margin, gap, bleed, contact_sheets=False)
    settings = defaults.check_settings(opts, max_image_pixels, jobs, target, image_dpi, stamp, changed_since,
                                       strict=strict, accessibility=accessibility,
                                       **defaults.physical(cut_lines, cut, corner_radius, boxes, card_thickness, sleeve_thickness,
                                                          sleeve_size, box_tolerance))
    load = load_options(encoding, delimiter)
    sources = resolve_games(games)
    reports = run_games(sources, output_root(output, games), settings, load, write=False,
                        quiet=quiet or format is Format.JSON, lang=lang)
    bad = any(failing(r.findings, strict) for r in reports)
    analyses: dict = {}
    written: dict = {}
    if analysis or plots is not None:
        from ..validate.analysis import analyze
        from ..validate.check import check_game_full
        from ..validate.plots import write_plots

        for (source, _lang), r in zip(language_runs(sources, lang), reports):
            data = check_game_full(source, load) if r.loaded else None
            if data is not None and data.game is not None:
                analyses[r.display] = analyze(data.game, data.book)
                if plots is not None:
                    written[r.display] = write_plots(analyses[r.display], plots / data.game.id)
    if format is Format.JSON:
        from ..validate.report import report_dict

        payload = []
        for r in reports:
            item = report_dict(r)
            if r.display in analyses:
                item["analysis"] = analyses[r.display].as_dict()
            if r.display in written:
                item["plots"] = [str(p) for p in written[r.display]]
            payload.append(item)
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for r in reports:
            print_report(r, strict)
            if r.display in analyses:
                from ..validate.report import analysis_renderables

                for part in analysis_renderables(analyses[r.display]):
                    out.print(part)
            for path in written.get(r.display, []):
                out.print(f"  wrote {escape(str(path))}")
            if len(reports) > 1:
                out.print()
        if strict and bad:
            out.print("--strict: warnings count as errors", style="yellow", highlight=False)
    if bad:
        raise typer.Exit(1)
