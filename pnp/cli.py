"""The `pnp` command line: a thin Typer shell over the stages in this package.

Errors a user causes are shown as their message (file, line, column, hint) with exit status 2;
``pnp check`` exits 1 when it finds errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from .errors import PnpError

app = typer.Typer(
    help="Print-and-play sheets, print-shop files and checks for tabletop games kept as CSV.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

GameArg = Annotated[
    Optional[list[str]],
    typer.Argument(help="Bundled game id or path to a game folder; none means every bundled game.",
                   show_default=False),
]


def _version(value: bool) -> None:
    if value:
        out.print(f"pnp {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
) -> None:
    """Print-and-play sheets, print-shop files and checks for tabletop games kept as CSV."""


def _games(games: list[str] | None) -> list[tuple[Path, str]]:
    from .games import bundled_ids, resolve

    names = games or bundled_ids()
    if not names:
        raise PnpError("no bundled games found", hint="give a path to a game folder")
    return [resolve(g) for g in names]


@app.command("list")
def list_games(games: GameArg = None) -> None:
    """Show games, their components and piece counts."""
    from .model import load_game

    for path, display in _games(games):
        game = load_game(path, display)
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
            elif comp.table_display:
                size = comp.table_display.split("/")[-1]
            table.add_row(comp.id, comp.kind, comp.name, str(len(comp.rows)) if comp.table else "",
                          str(comp.pieces) if comp.kind != "table" else "", size)
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
                stated.add_row(t.label, str(t.count), f"{have}{mark}", t.source)
            out.print(stated)
        out.print()


@app.command()
def check(
    games: GameArg = None,
    format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
) -> None:
    """Check games' data against their manifests and the rulebook's totals."""
    from .check import check_game

    if format not in ("text", "json"):
        raise PnpError(f"unknown format {format!r}", hint="use --format text or --format json")
    results = []
    for path, display in _games(games):
        game, findings = check_game(path, display)
        results.append((display, game, findings))
    failing = {"error", "warning"} if strict else {"error"}
    bad = any(f.severity in failing for _, _, fs in results for f in fs)
    if format == "json":
        payload = [{"game": display, "findings": [f.as_dict() for f in fs]} for display, _, fs in results]
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for display, game, findings in results:
            title = game.title if game else display
            errors = sum(f.severity == "error" for f in findings)
            warnings = sum(f.severity == "warning" for f in findings)
            status = "[green]ok[/green]" if not errors and not warnings else \
                f"[red]{errors} error(s)[/red], [yellow]{warnings} warning(s)[/yellow]"
            out.print(f"[bold]{escape(title)}[/bold] ({escape(display)}): {status}")
            for f in findings:
                colour = {"error": "red", "warning": "yellow"}.get(f.severity, "cyan")
                out.print(f"  [{colour}]{f.severity}[/{colour}] {escape(f.rule)}  {escape(f.location)}")
                out.print(f"    {f.message}", markup=False)
                if f.source:
                    out.print(f"    rulebook: {f.source}", markup=False)
                if f.hint:
                    out.print(f"    hint: {f.hint}", markup=False)
    if bad:
        raise typer.Exit(1)


def main() -> None:
    """Entry point of the `pnp` console script."""
    try:
        app()
    except PnpError as exc:
        err.print(f"[red]error:[/red] {escape(exc.render())}")
        sys.exit(2)


if __name__ == "__main__":
    main()
