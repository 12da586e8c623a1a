"""``pnp new``: a new game folder that checks and builds at once."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from .app import app
from .output import out


@app.command()
def new(
    name: Annotated[Path, typer.Argument(help="The folder to create; its name becomes the game's id.", show_default=False)],
    starter: Annotated[str, typer.Option("--from", help="What the game starts with: minimal (one deck), deck (two decks), board-game (a deck, a board and tokens).")] = "minimal",
) -> None:
    """Create a new game folder: game.toml, CSV tables, layouts, one rule, a rulebook template
    and placeholder art, with comments that point at the docs. Never writes over a folder."""
    from ..model.scaffold import new_game

    files = new_game(name, starter)
    out.print(f"created {escape(str(name))}/ ({len(files)} files):")
    for rel in files:
        out.print(f"  {escape(rel.as_posix())}")
    out.print(f"next:  cd {escape(shlex.quote(str(name)))} && pnp check && pnp build")
