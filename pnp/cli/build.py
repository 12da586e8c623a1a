"""``pnp build``: check each game, then write its card sheets, boards, tokens, rulebook and the
export targets its manifest lists."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..core.errors import PnpError
from ..render.art import DEFAULT_MAX_PIXELS
from .app import app
from .options import (DelimiterOpt, EncodingOpt, Flip, GameArg, MaxImagePixelsOpt, Paper, PaperOpt,
                      length, load_options, offset)
from .output import out, print_findings, resolve_games


@app.command()
def build(
    games: GameArg = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder to write into; each game gets a subfolder.")] = Path("output"),
    paper: PaperOpt = Paper("letter"),
    flip: Annotated[Flip, typer.Option(case_sensitive=False, help="Duplex flip: long (backs mirror the columns) or short (backs mirror the rows, turned).")] = Flip.LONG,
    gutter_fold: Annotated[bool, typer.Option("--gutter-fold", help="Faces and backs on one sheet, to fold and glue; no duplex printing.")] = False,
    back_offset: Annotated[Any, typer.Option(parser=offset, metavar="X,Y", help="Move every back by X,Y mm to correct a printer's misregistration (measure it with the calibration page).")] = "0,0",
    margin: Annotated[float, typer.Option(parser=length, metavar="LENGTH", help="Ink-free margin at the paper edge.")] = "5mm",
    gap: Annotated[float, typer.Option(parser=length, metavar="LENGTH", help="Space between cards; bleed fills up to half of it.")] = "0mm",
    bleed: Annotated[float, typer.Option(parser=length, metavar="LENGTH", help="Largest bleed past each trim, where the space allows.")] = "0.125in",
    contact_sheets: Annotated[bool, typer.Option("--contact-sheets/--no-contact-sheets", help="Write a contact sheet PNG per deck.")] = True,
    force: Annotated[bool, typer.Option("--force", help="Rebuild everything, even parts whose inputs are unchanged and data that pnp check finds errors in.")] = False,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when the build reports warnings (text that does not fit, missing glyphs, low-resolution art).")] = False,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
) -> None:
    """Check each game, then render every card into print-and-play PDFs under OUTPUT/<game>/."""
    from ..model.games import game_id
    from ..outputs.base import BuildSettings, SheetOptions
    from ..pipeline.build import BuildJob, run_jobs

    opts = SheetOptions(paper=paper.value, flip=flip.value, gutter_fold=gutter_fold, back_offset=back_offset,
                        margin=margin, gap=gap, bleed=bleed, contact_sheets=contact_sheets)
    settings = BuildSettings(opts, max_image_pixels, force)
    load = load_options(encoding, delimiter)
    jobs = [BuildJob(source, output, settings, load) for source in resolve_games(games)]
    ids = [game_id(job.source.path) for job in jobs]
    for gid in ids:
        if gid is not None and ids.count(gid) > 1:
            raise PnpError(f"two of the games given have the id {gid!r}; their files would overwrite each other",
                           hint="build them one at a time with different --output folders, or change one id")
    failed = False
    failing = {"error", "warning"} if strict else {"error"}
    for job, outcome in zip(jobs, run_jobs(jobs)):
        if outcome.error is not None:
            raise outcome.error
        if outcome.refused is not None:
            errors = outcome.refused
            out.print(f"[bold]{escape(outcome.title)}[/bold]: [red]not built[/red], pnp check found {len(errors)} error(s)")
            print_findings(errors)
            if outcome.loaded:
                out.print("  hint: fix the data, or build anyway with --force")
            failed = True
            continue
        out.print(f"[bold]{escape(outcome.title)}[/bold]")
        for name, result in outcome.ran.items():
            if not result.files:
                continue
            count = {"cards": f"{result.cards} cards on {result.sheets} sheet(s)",
                     "boards": f"{result.sheets} sheet(s) of boards, tokens and dice",
                     "rulebook": f"{result.sheets} page(s)"}.get(name, f"{result.cards} cards in {len(result.files)} file(s)")
            out.print(f"  {name}: {count}")
            for f in result.files:
                out.print(f"    wrote {escape(str(f))}")
            print_findings(result.findings)
            failed = failed or any(f.severity in failing for f in result.findings)
        for name, files in outcome.skipped.items():
            out.print(f"  {name}: inputs unchanged, kept {len(files)} file(s) (--force rebuilds)")
    if failed:
        raise typer.Exit(1)
