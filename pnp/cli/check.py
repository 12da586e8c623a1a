"""``pnp check``: every table against the manifest, the totals the rulebook states, the game's
own rules and its layouts; the composition with ``--analysis``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..render.art import DEFAULT_MAX_PIXELS
from .app import app
from .options import DelimiterOpt, EncodingOpt, Format, GameArg, MaxImagePixelsOpt, load_options
from .output import out, resolve_games


@app.command()
def check(
    games: GameArg = None,
    format: Annotated[Format, typer.Option("--format", case_sensitive=False, help="How to report: text for people, json for scripts and CI.")] = Format.TEXT,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
    analysis: Annotated[bool, typer.Option("--analysis", help="Also show the composition: pieces per deck by colour, family, type or rank; cost curves; what each cost needs against what the game supplies.")] = False,
    plots: Annotated[Optional[Path], typer.Option("--plots", help="Write the composition charts as PNG files into DIR/<game>/ (implies --analysis).", metavar="DIR", show_default=False)] = None,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
) -> None:
    """Check games' data against their manifests, the rulebook's totals and each game's rules.

    Exits 1 when a game has errors (or warnings, with --strict), 0 otherwise.
    """
    from ..core.findings import failing
    from ..validate.check import check_game_full
    from ..validate.report import report_dict, report_renderables

    options = load_options(encoding, delimiter)
    results = [check_game_full(source, options, max_image_pixels) for source in resolve_games(games)]
    bad = any(failing(r.findings, strict) for r in results)
    analyses: dict = {}
    written: dict = {}
    if analysis or plots is not None:
        from ..validate.analysis import analyze
        from ..validate.plots import write_plots

        for r in results:
            if r.game is not None:
                analyses[r.display] = analyze(r.game, r.book)
                if plots is not None:
                    written[r.display] = write_plots(analyses[r.display], plots / r.game.id)
    if format is Format.JSON:
        payload = []
        for r in results:
            item = report_dict(r)
            if r.display in analyses:
                item["analysis"] = analyses[r.display].as_dict()
            if r.display in written:
                item["plots"] = [str(p) for p in written[r.display]]
            payload.append(item)
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for r in results:
            for part in report_renderables(r, strict):
                out.print(part)
            if r.display in analyses:
                from ..validate.report import analysis_renderables

                for part in analysis_renderables(analyses[r.display]):
                    out.print(part)
            for path in written.get(r.display, []):
                out.print(f"  wrote {escape(str(path))}")
            if len(results) > 1:
                out.print()
        if strict and bad:
            out.print("--strict: warnings count as errors", style="yellow", highlight=False)
    if bad:
        raise typer.Exit(1)
