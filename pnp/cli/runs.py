"""``pnp build`` and ``pnp check`` as plain functions of their option values: what the Typer
commands (:mod:`pnp.cli.build`, :mod:`pnp.cli.check`) call once Typer has read the command
line, and what :mod:`pnp.cli.startup` calls for a command line it reads itself (the games and
the few options it takes), so that a build of a small game does not spend a fifth of its time
in Typer and its pydantic layer. Neither imports Typer.

Every default here is the Typer command's default for the same option, as the option reads it
(tests/cli/test_runs.py compares the two): lengths (and the back offset) in pt, ``paper`` and
``flip`` by name, ``games`` the GAME arguments (None: none given). Each
returns the exit status: 0, or 1 when a game fails (has errors; with ``strict``, warnings);
a :class:`~pnp.core.errors.PnpError` of the command line (a game that is not found, an option
refused) is raised for the caller to report with status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..render.art import DEFAULT_MAX_PIXELS
from . import settings as defaults
from .output import language_runs, out, output_root, print_build, print_report, resolve_games, run_games
from .settings import load_options, sheet_options

BACK_OFFSET = defaults.offset(defaults.BACK_OFFSET)
"""The default ``--back-offset`` as the option reads it: (x, y) in pt."""
MARGIN, GAP, BLEED, CORNER_RADIUS, BOX_TOLERANCE = (defaults.length(value) for value in (
    defaults.MARGIN, defaults.GAP, defaults.BLEED, defaults.CORNER_RADIUS, defaults.BOX_TOLERANCE))
"""The default lengths as the options read them, in pt."""
CARD_THICKNESS = defaults.card_thickness(defaults.CARD_THICKNESS)
SLEEVE_THICKNESS = defaults.sleeve_thickness(defaults.SLEEVE_THICKNESS)
"""The default ``--card-thickness`` and ``--sleeve-thickness``, in pt (``--sleeve-size``'s
default, none, is None)."""
BUILD_STAGES = ("cards", "cards-only", "cards-changed")
"""The names of the card-sheet parts of a build (their report line counts cards and sheets)."""


def describe(name: str, result) -> str:
    """What one part of a build made, for its line of the report."""
    if name in BUILD_STAGES:
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
    if name == "contact":
        return f"{result.sheets} contact sheet(s) of {result.cards} faces and backs" + "".join(
            f", {n}" for n in result.notes) if result.sheets else ""
    if name.startswith("ink-"):
        return f"{result.sheets} file(s), the {name[4:]} edition" + "".join(f"\n    {n}" for n in result.notes)
    if name.startswith("simulated-"):
        return f"{result.sheets} page(s) as seen with {name.split('-', 1)[1]} (a preview, not for print)"
    if name.startswith("rulebook"):
        return f"{result.sheets} page(s)" if result.sheets else ""
    return f"{result.cards} cards"


def run_build(games: list[str] | None = None, output: Path | None = None, *, paper: str = defaults.PAPER,
              flip: str = defaults.FLIP, gutter_fold: bool = False, back_offset: tuple[float, float] = BACK_OFFSET,
              margin: float = MARGIN, gap: float = GAP, bleed: float = BLEED,
              cut_lines: bool = False, cut: str | None = None, corner_radius: float = CORNER_RADIUS,
              boxes: bool = False, card_thickness: float = CARD_THICKNESS,
              sleeve_thickness: float = SLEEVE_THICKNESS, sleeve_size: tuple[float, float] | None = None,
              box_tolerance: float = BOX_TOLERANCE, contact_sheets: bool | None = None, force: bool = False,
              max_image_pixels: int = DEFAULT_MAX_PIXELS, image_dpi: int | None = None, strict: bool = False,
              jobs: int | None = None, encoding: str = defaults.ENCODING, delimiter: str | None = None,
              changed_since: str | None = None, only: list[str] | None = None, watch: bool = False,
              stamp: bool | None = None, lang: str | None = None, simulate: str | None = None,
              ink: str | None = None, quiet: bool = False) -> int:
    """``pnp build``: check each game and write its outputs; with ``watch``, build again at
    each save until interrupted. Returns the exit status (1: a game failed)."""
    opts = sheet_options(paper, flip, gutter_fold, back_offset, margin, gap, bleed, contact_sheets)
    settings = defaults.build_settings(opts, max_image_pixels, force, strict, jobs, image_dpi, only,
                                       changed_since, stamp, simulate=simulate, ink=ink,
                                       **defaults.physical(cut_lines, cut, corner_radius, boxes, card_thickness,
                                                           sleeve_thickness, sleeve_size, box_tolerance))
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
        return 0
    return 1 if failed else 0


def run_check(games: list[str] | None = None, *, format: str = "text", strict: bool = False,
              accessibility: bool = False, analysis: bool = False, plots: Path | None = None,
              target: list[str] | None = None, output: Path | None = None, paper: str = defaults.PAPER,
              flip: str = defaults.FLIP, gutter_fold: bool = False, back_offset: tuple[float, float] = BACK_OFFSET,
              margin: float = MARGIN, gap: float = GAP, bleed: float = BLEED,
              cut_lines: bool = False, cut: str | None = None, corner_radius: float = CORNER_RADIUS,
              boxes: bool = False, card_thickness: float = CARD_THICKNESS,
              sleeve_thickness: float = SLEEVE_THICKNESS, sleeve_size: tuple[float, float] | None = None,
              box_tolerance: float = BOX_TOLERANCE, jobs: int | None = None,
              encoding: str = defaults.ENCODING, delimiter: str | None = None,
              max_image_pixels: int = DEFAULT_MAX_PIXELS, image_dpi: int | None = None,
              changed_since: str | None = None, stamp: bool | None = None, lang: str | None = None,
              quiet: bool = False) -> int:
    """``pnp check``: a dry run of the build each game would get, reported as text or
    (``format`` ``json``) JSON, with the composition when ``analysis`` or ``plots`` asks.
    Returns the exit status (1: a game has errors, or warnings with ``strict``)."""
    from ..core.findings import failing

    json_out = format == "json"
    opts = sheet_options(paper, flip, gutter_fold, back_offset, margin, gap, bleed, contact_sheets=False)
    settings = defaults.check_settings(opts, max_image_pixels, jobs, target, image_dpi, stamp, changed_since,
                                       strict=strict, accessibility=accessibility,
                                       **defaults.physical(cut_lines, cut, corner_radius, boxes, card_thickness,
                                                           sleeve_thickness, sleeve_size, box_tolerance))
    load = load_options(encoding, delimiter)
    sources = resolve_games(games)
    reports = run_games(sources, output_root(output, games), settings, load, write=False,
                        quiet=quiet or json_out, lang=lang)
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
    if json_out:
        import json

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
        from rich.markup import escape

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
    return 1 if bad else 0
