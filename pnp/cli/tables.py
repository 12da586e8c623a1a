"""What ``pnp list`` prints (Rich tables; no Typer, so that :mod:`pnp.cli.startup` can answer
``pnp list GAME...`` without it)."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from ..model.load import load_game
from .output import out
from .settings import load_options, resolve_games


def show_games(games: list[str] | None, encoding: str, delimiter: str | None, shown: list | None = None) -> None:
    """Print each game's components and piece counts, and the totals its rulebook states;
    each game loaded is appended to ``shown`` (a list) when one is given. Raises PnpError for
    a game that cannot be found or loaded."""
    options = load_options(encoding, delimiter)
    for source in resolve_games(games):
        game = load_game(source.path, source.display, options)
        if shown is not None:
            shown.append(game)
        table = Table(title=escape(f"{game.title}  ({game.id}, {game.players_min}-{game.players_max} players)"),
                      title_justify="left")
        table.add_column("component")
        table.add_column("kind")
        table.add_column("name")
        table.add_column("rows", justify="right")
        table.add_column("pieces", justify="right")
        table.add_column("size / table")
        for comp in game:
            size = ""
            if comp.card_size is not None:
                size = f"{comp.card_size_name} ({comp.card_size})"
            elif comp.table_name:
                size = comp.table_name.split("/")[-1]
            table.add_row(escape(comp.id), comp.kind, escape(comp.name), str(len(comp.rows)) if comp.table else "",
                          str(comp.pieces) if comp.kind != "table" else "", escape(size))
        table.add_section()
        table.add_row("total", "", "", "", str(game.pieces), "")
        out.print(table)
        if game.totals:
            stated = Table(title="Totals the rulebook states", title_justify="left")
            for col in ("what", "stated", "in data", "source"):
                stated.add_column(col)
            for t in game.totals:
                have = game.count(t)
                mark = "" if have == t.count else "  [red]differs[/red]"
                stated.add_row(escape(t.label), str(t.count), f"{have}{mark}", escape(t.source))
            out.print(stated)
        out.print()
