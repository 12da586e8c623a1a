"""``pnp export``: print-shop files and Tabletop Simulator tables for each game and target
(:mod:`pnp.outputs.export`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..render.art import DEFAULT_MAX_PIXELS
from .app import app
from .options import (DelimiterOpt, EncodingOpt, GameArg, ImageDpiOpt, MaxImagePixelsOpt, LangOpt, QuietOpt, TargetOpt,
                      load_options)
from .output import out, print_build, resolve_games, run_games, output_root


def _url_prefix(value: Optional[str]) -> Optional[str]:
    """--url-prefix as a folder URL ending in one ``/`` (:func:`pnp.outputs.export.profiles.url_prefix_value`);
    anything but an http(s) or file URL is an option error."""
    if value is None:
        return None
    from ..outputs.export.profiles import URL_PREFIX_HINT, url_prefix_value

    try:
        return url_prefix_value(value)
    except ValueError as exc:
        raise typer.BadParameter(f"{exc}; {URL_PREFIX_HINT}") from None


@app.command()
def export(
    games: GameArg = None,
    target: TargetOpt = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", show_default=False, help="Folder to write into; files go to "
                                         "OUTPUT/<game>/export/<target>/ (default: output/, or the game folder's own output/ when run inside one).")] = None,
    url_prefix: Annotated[Optional[str], typer.Option(
        help="Tabletop Simulator: the web folder the images (deck sheets, boards, tokens, dice) will be "
             "uploaded to, an http(s) or file URL (image URLs become URL_PREFIX/file name, with one /). "
             "Default: file:/// paths of the written images.",
        show_default=False, callback=_url_prefix)] = None,
    jobs: Annotated[Optional[int], typer.Option(min=1, help="Processes that render PNGs (default: up to 2).",
                                                show_default=False)] = None,
    list_targets: Annotated[bool, typer.Option("--list-targets", help="List the bundled targets and exit.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Export even when errors are found.")] = False,
    boxes: Annotated[bool, typer.Option("--boxes", help="Ask for the tuck boxes pnp build --boxes makes too: no "
                                        "target exports boxes (The Game Crafter's tuck box panel layout is not "
                                        "sourced), so each box is an export.no-box warning (docs/export.md).")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the export too: exit 1, nothing written.")] = False,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
    image_dpi: ImageDpiOpt = None,
    lang: LangOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Write print-shop files or Tabletop Simulator tables for each game and target (the targets
    the manifest lists when none is given). Whatever it finds, pnp check -t TARGET finds first
    (with the targets the manifest lists, which pnp build makes too); nothing is written when an
    error is found."""
    from ..outputs.base import BuildSettings
    from ..outputs.export import bundled_profiles, load_profile

    if list_targets:
        for name in bundled_profiles():
            prof = load_profile(name)
            out.print(f"[bold]{name}[/bold]  {escape(prof.title)}")
            out.print(f"  {escape(prof.description)}", markup=False)
        return
    settings = BuildSettings(max_image_pixels=max_image_pixels, force=force, strict=strict, jobs=jobs,
                             outputs=("export",), targets=tuple(target or ()), manifest_targets=not target,
                             url_prefix=url_prefix, image_dpi=image_dpi, draft=False, boxes=boxes)
    failed = False
    for report in run_games(resolve_games(games), output_root(output, games), settings, load_options(encoding, delimiter),
                            write=True, reuse=False, quiet=quiet, lang=lang):
        if report.loaded and not report.ran:
            out.print(f"[bold]{escape(report.title)}[/bold]: [red]no --target given and game.toml lists no "
                      f"{escape('[targets]')}[/red]")
            out.print("  hint: give --target (" + ", ".join(bundled_profiles()) + ") or add "
                      + escape("[targets.NAME]") + " tables to game.toml")
            failed = True
            continue
        failed = print_build(report, strict, describe, quiet) or failed
    if failed:
        raise typer.Exit(1)


def describe(name: str, result) -> str:
    """What one export made: its cards (the files written are listed after it)."""
    return f"{result.cards} cards"
