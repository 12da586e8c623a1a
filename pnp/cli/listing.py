"""``pnp list``: games, their components and piece counts, and the totals the rulebook states."""

from __future__ import annotations

from . import settings as defaults
from .app import app
from .options import DelimiterOpt, EncodingOpt, GameArg


@app.command("list")
def list_games(games: GameArg = None, encoding: EncodingOpt = defaults.ENCODING, delimiter: DelimiterOpt = None) -> None:
    """Show games, their components and piece counts."""
    from .tables import show_games

    show_games(games, encoding, delimiter)
