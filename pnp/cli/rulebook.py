"""``pnp rulebook``: each game's rulebook from its template, as single pages and, with
``--booklet``, a saddle-stitch booklet (:mod:`pnp.outputs.rulebook`). Like ``pnp build``, it
checks each game first and writes nothing when an error is found, unless ``--force``."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..render.art import DEFAULT_MAX_PIXELS
from .app import app
from .options import (DelimiterOpt, EncodingOpt, ImageDpiOpt, MaxImagePixelsOpt, OutputOpt, Paper, LangOpt, QuietOpt,
                      load_options)
from .output import out, print_build, resolve_games, run_games, output_root

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
    output: OutputOpt = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Write even when errors are found.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too: exit 1, nothing written.")] = False,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
    image_dpi: ImageDpiOpt = None,
    lang: LangOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Build each game's rulebook from rulebook.md.j2 in its templates folder into OUTPUT/<game>/.
    Each game is checked first, as pnp build checks it; nothing is written when an error is found."""
    from ..geometry.booklet import BOOKLET_PAGES
    from ..outputs.base import BuildSettings

    if booklet and paper.value not in BOOKLET_PAGES:
        raise typer.BadParameter(f"a booklet cannot be folded from {paper.value!r} sheets; booklet sheets: "
                                 + ", ".join(f"{k} (pages {v})" for k, v in BOOKLET_PAGES.items()),
                                 param_hint="'--paper'")
    settings = BuildSettings(max_image_pixels=max_image_pixels, force=force, strict=strict, outputs=("rulebook",),
                             rulebook_paper=paper.value, booklet=booklet, image_dpi=image_dpi)
    failed = False
    for report in run_games(resolve_games(games), output_root(output, games), settings, load_options(encoding, delimiter),
                            write=True, reuse=False, quiet=quiet, lang=lang):
        result = next(iter(report.ran.values()), None)
        if result is not None and any(f.rule == "rulebook.none" for f in result.findings):
            out.print(f"[bold]{escape(report.title)}[/bold]: [yellow]no rulebook template[/yellow] "
                      f"({escape(report.display)}); see docs/rulebooks.md")
            failed = failed or bool(games)
            continue
        failed = print_build(report, strict, describe, quiet) or failed
    if failed:
        raise typer.Exit(1)


def describe(name: str, result) -> str:
    """The rulebook's line of the report."""
    return f"rulebook of {result.sheets} page(s)" if result.sheets else ""
