"""``pnp rulebook``: each game's rulebook from its template, as single pages and, with
``--booklet``, a saddle-stitch booklet (:mod:`pnp.outputs.rulebook`). Like ``pnp build``, it
checks each game first and refuses data with errors unless ``--force``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..render.art import DEFAULT_MAX_PIXELS
from .app import app
from .options import DelimiterOpt, EncodingOpt, MaxImagePixelsOpt, Paper, load_options
from .output import checked_game, out, print_findings, resolve_games

@app.command("rulebook")
def rulebook(
    games: Annotated[Optional[list[str]], typer.Argument(
        help="Bundled game id or path to a game folder; none means every bundled game.",
        show_default=False)] = None,
    paper: Annotated[Paper, typer.Option(
        case_sensitive=False, help="Paper: single pages are this size; booklet sheets too, folded to half of it "
                                   "(A4 to A5, letter to half-letter, A3 to A4, tabloid to letter).")] = Paper("letter"),
    booklet: Annotated[bool, typer.Option(
        "--booklet", help="Also write a saddle-stitch booklet: 2-up landscape sheets to print "
                          "double-sided (flip on the short edge), fold and staple.")] = False,
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="Folder to write into; each game gets a subfolder.")] = Path("output"),
    force: Annotated[bool, typer.Option(
        "--force", help="Build even when pnp check finds errors in the data.")] = False,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
) -> None:
    """Build each game's rulebook from templates/<game>/rulebook.md.j2 into OUTPUT/<game>/."""
    from ..outputs.rulebook import TEMPLATE_NAME, build_rulebook

    key = paper.value
    failed = False
    load = load_options(encoding, delimiter)
    for source in resolve_games(games):
        game = checked_game(source, force, "built", load, max_image_pixels)
        if game is None:
            failed = True
            continue
        if not (source.templates_dir / TEMPLATE_NAME).is_file():
            out.print(f"[bold]{escape(game.title)}[/bold]: [yellow]no rulebook template[/yellow] "
                      f"({escape(source.templates_display)}/{TEMPLATE_NAME}); see docs/rulebooks.md")
            if games:
                failed = True
            continue
        result = build_rulebook(game, source, output / game.id, key, booklet, max_image_pixels)
        out.print(f"[bold]{escape(game.title)}[/bold]: rulebook of {result.sheets} page(s)")
        for f in result.files:
            out.print(f"  wrote {escape(str(f))}")
        print_findings(result.findings)
        failed = failed or any(f.severity == "error" for f in result.findings)
    if failed:
        raise typer.Exit(1)
