"""``pnp release``: save the last build of a game as a named version (``releases/<v>.json``,
and the files it read, ``releases/<v>.zip``), a reference for ``pnp diff --since <v>`` and
``pnp build --changed-since <v>`` without git."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.markup import escape

from .app import app
from .options import DelimiterOpt, EncodingOpt, GameArg, OutputOpt, load_options
from .output import out, output_root, resolve_games


@app.command()
def release(
    games: GameArg = None,
    version: Annotated[Optional[str], typer.Option("--version", metavar="VERSION", show_default=False, help="The version to release (default: [game] version of game.toml, which it must match).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a release of that version.")] = False,
    output: OutputOpt = None,
    encoding: EncodingOpt = "utf-8",
    delimiter: DelimiterOpt = None,
) -> None:
    """Save the last build of each game as a release, releases/VERSION.json in the game folder:
    the data hash, every card, board, token and die with its cells, copies and face hash, and
    the hash of every file the build wrote; and releases/VERSION.zip, the files the build read,
    that pnp diff --visual draws the old cards from. The build must be of the data as it is now."""
    from ..pipeline.release import make_release, pieces_count

    load = load_options(encoding, delimiter)
    root = output_root(output, games)
    for source in resolve_games(games):
        from ..model.games import game_id

        path, body = make_release(source, root / (game_id(source.path) or source.path.name), version, load, force)
        out.print(f"released {escape(body['game'])} {escape(body['version'])}: {escape(str(path))} "
                  f"({pieces_count(body)}, {len(body['outputs'])} files; "
                  f"{body['archive']['files']} inputs in {escape(body['archive']['file'])})", highlight=False)
