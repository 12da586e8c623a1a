"""``pnp diff``: what changed in a game's pieces (cards, boards, reference sheets, tokens, dice)
since an earlier version (the last build, a release, a git revision): pieces added, removed and
changed, each changed field old → new, and whether what the piece prints changed or only its
data."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from .app import app
from .options import DelimiterOpt, EncodingOpt, GameArg, OutputOpt, load_options
from .output import out, output_root, resolve_games

SinceOpt = Annotated[Optional[str], typer.Option(
    "--since", metavar="REF", show_default=False,
    help="The earlier version: last (the last build, the default), a release (1.2, written by pnp release) or a "
         "git revision of the game folder (HEAD~1, a tag).")]


class DiffFormat(str, Enum):
    """How ``pnp diff`` reports: text for people, json for scripts, md for a changelog."""

    TEXT = "text"
    JSON = "json"
    MD = "md"


@app.command()
def diff(
    games: GameArg = None,
    since: SinceOpt = None,
    format: Annotated[DiffFormat, typer.Option("--format", case_sensitive=False, help="text for people, json for scripts, md (Markdown) for a changelog or a note to playtesters.")] = DiffFormat.TEXT,
    visual: Annotated[Optional[Path], typer.Option("--visual", metavar="FILE.pdf", show_default=False, help="Also write a PDF of the changed cards, old beside new, the region that prints differently framed in red: the old cards cut out of the last build's sheets, drawn from a release's archive or from a git revision.")] = None,
    output: OutputOpt = None,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
) -> None:
    """List the cards, boards, tokens and dice added, removed and changed since an earlier
    version, with each changed field (old → new) and whether the printed face changed ("data
    only" when no side prints differently). Nothing is written."""
    from ..model.load import load_game
    from ..pipeline.changes import markdown, text_lines
    from ..pipeline.versions import current_snapshot, diff as compare, resolve_since

    load = load_options(encoding, delimiter)
    root = output_root(output, games)
    results = []
    sources = resolve_games(games)
    if visual is not None:  # first: it refuses a version that keeps nothing to draw the old cards from
        from ..model.games import game_id
        from ..pipeline.visual import write_visual

        if len(sources) != 1:
            raise typer.BadParameter("--visual draws one game: give one GAME", param_hint="--visual")
        source = sources[0]
        shown = write_visual(source, since or "last", visual, load,
                             out_dir=root / (game_id(source.path) or source.path.name))
        shown, others = shown
        left = (f"; {others} changed board(s), sheet(s), token(s) or dice are listed below, not drawn"
                if others else "")
        out.print(f"wrote {escape(str(visual))} ({shown} cards, old beside new{left})", highlight=False)
    for source in sources:
        game = load_game(source.path, source.display, load)
        label, old = resolve_since(source, root / game.id, since, load)
        results.append((game, compare(label, old, current_snapshot(game, source))))
    if format is DiffFormat.JSON:
        sys.stdout.write(json.dumps([d.as_dict() for _, d in results], indent=2, ensure_ascii=False) + "\n")
    elif format is DiffFormat.MD:
        sys.stdout.write("\n".join(markdown(d, game.title) for game, d in results))
    else:
        for game, d in results:
            for line in text_lines(d, game.title):
                out.print(escape(line), highlight=False, soft_wrap=True)
