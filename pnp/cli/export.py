"""``pnp export``: print-shop files and Tabletop Simulator decks for each game and target
(:mod:`pnp.outputs.export`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..core.errors import PnpError
from ..render.art import DEFAULT_MAX_PIXELS
from .app import app
from .options import DelimiterOpt, EncodingOpt, GameArg, MaxImagePixelsOpt, load_options
from .output import checked_game, out, print_findings, resolve_games

SHOWN = 20
"""Findings printed per game and target; manifest.json lists them all."""


@app.command()
def export(
    games: GameArg = None,
    target: Annotated[Optional[list[str]], typer.Option(
        "--target", "-t",
        help="Target: tgc, mpc, dtc, eu, tts, a [targets.NAME] of the game's manifest, or a path to "
             "a profile .toml. Repeat for several. Default: the targets the manifest lists.",
        show_default=False)] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder to write into; files go to "
                                         "OUTPUT/<game>/export/<target>/.")] = Path("output"),
    url_prefix: Annotated[Optional[str], typer.Option(
        help="Tabletop Simulator: the web folder the sheets will be uploaded to (image URLs become "
             "URL_PREFIX + file name). Default: file:/// paths of the written sheets.",
        show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(min=1, help="Processes that render PNGs (default: up to 2).",
                                                show_default=False)] = None,
    list_targets: Annotated[bool, typer.Option("--list-targets", help="List the bundled targets and exit.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Export even when pnp check finds errors in the data.")] = False,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
) -> None:
    """Write print-shop files or Tabletop Simulator decks for each game and target."""
    from ..design.layouts import game_layouts
    from ..outputs.export import bundled_profiles, export_game, load_profile, manifest_targets

    if list_targets:
        for name in bundled_profiles():
            prof = load_profile(name)
            out.print(f"[bold]{name}[/bold]  {escape(prof.title)}")
            out.print(f"  {escape(prof.description)}", markup=False)
        return
    failed = False
    load = load_options(encoding, delimiter)
    for source in resolve_games(games):
        game = checked_game(source, force, "exported", load, max_image_pixels)
        if game is None:
            failed = True
            continue
        targets = list(target or []) or manifest_targets(game)
        if not targets:
            raise PnpError(f"{source.display}: no --target given and game.toml lists no [targets]",
                           hint="give --target (" + ", ".join(bundled_profiles()) + ") or add "
                           "[targets.NAME] tables to game.toml")
        layouts = game_layouts(game, source)
        for name in targets:
            result = export_game(game, layouts, name, output / game.id, jobs=jobs, url_prefix=url_prefix,
                                 max_image_pixels=max_image_pixels)
            manifest = next(f for f in result.files if f.name == "manifest.json")
            written = len(result.files) - 2
            out.print(f"[bold]{escape(game.title)}[/bold] -> {escape(name)}: {result.cards} cards in "
                      f"{written} file(s) under {escape(str(manifest.parent))}")
            print_findings(result.findings[:SHOWN])
            if len(result.findings) > SHOWN:
                out.print(f"  ... and {len(result.findings) - SHOWN} more finding(s), listed in "
                          f"{escape(str(manifest))}")
            failed = failed or any(f.severity == "error" for f in result.findings)
    if failed:
        raise typer.Exit(1)
