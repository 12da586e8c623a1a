"""``pnp preview``: the game as it will print, in a local web page that refreshes itself when a
file of the game is saved (:mod:`pnp.preview`; docs/preview.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..core.errors import PnpError
from ..render.art import DEFAULT_MAX_PIXELS
from . import settings as defaults
from .app import app
from .options import (BackOffsetOpt, BleedOpt, DelimiterOpt, EncodingOpt, Flip, FlipOpt, GapOpt, GutterFoldOpt,
                      MarginOpt, MaxImagePixelsOpt, Paper, PaperOpt, load_options, sheet_options)
from .output import out, resolve_games


@app.command()
def preview(
    game: Annotated[Optional[str], typer.Argument(
        help="Bundled game id or path to a game folder.", show_default=False)] = None,
    host: Annotated[str, typer.Option(
        help="Address to serve on. The default serves this computer only; another address lets other computers "
             "on the network see the game.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to serve on (0: a free port, printed on start).")] = 0,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the web browser.")] = False,
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="Where pnp build writes (default: output): the findings are those pnp check reports "
                               "for a build there. Nothing is written.")] = Path("output"),
    paper: PaperOpt = Paper(defaults.PAPER),
    flip: FlipOpt = Flip(defaults.FLIP),
    gutter_fold: GutterFoldOpt = False,
    back_offset: BackOffsetOpt = defaults.BACK_OFFSET,
    margin: MarginOpt = defaults.MARGIN,
    gap: GapOpt = defaults.GAP,
    bleed: BleedOpt = defaults.BLEED,
    encoding: EncodingOpt = defaults.ENCODING,
    delimiter: DelimiterOpt = None,
    max_image_pixels: MaxImagePixelsOpt = DEFAULT_MAX_PIXELS,
    lang: Annotated[Optional[str], typer.Option(
        "--lang", metavar="LANG", show_default=False,
        help="Show the game in one of the languages its game.toml lists, its texts from i18n/<lang>.po "
             "(docs/translating.md); a saved catalogue refreshes the page like any other file.")] = None,
) -> None:
    """Show a game as it will print in a local web page: every card of every deck (face and back),
    the boards, tokens and rulebook pages, and the findings of pnp check beside the pieces they
    name. The page follows the game folder: a saved change is shown within a second, without
    reloading. The sheet options say which build's findings to show. Ctrl-C stops."""
    from ..outputs.base import BuildSettings
    from ..preview.server import bind, serve, url_of
    from ..preview.session import PreviewSession

    sources = resolve_games([game] if game else None)
    if len(sources) != 1:
        raise PnpError("pnp preview shows one game at a time", hint="give its id ("
                       + ", ".join(s.display.rsplit("/", 1)[-1] for s in sources) + ") or its folder",
                       rule="cli.option")
    source = sources[0]
    opts = sheet_options(paper.value, flip.value, gutter_fold, back_offset, margin, gap, bleed, contact_sheets=False)
    session = PreviewSession(source, load_options(encoding, delimiter), output,
                             BuildSettings(opts, max_image_pixels, language=lang))
    session.refresh()
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise typer.BadParameter(f"cannot serve on {host}:{port}: {exc.strerror or exc}",
                                 param_hint="'--port'") from None
    out.print(f"Previewing {escape(session.title)} ({escape(source.display)}) at {url_of(sock)}")
    out.print("Watching its files for changes; Ctrl-C stops.")
    out.file.flush()
    serve(session, sock, open_browser=open_browser, output=output)
