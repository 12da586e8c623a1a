"""The Typer application every command registers on, and ``--version``."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__
from .optionerrors import PnpGroup
from .output import out

app = typer.Typer(
    cls=PnpGroup,
    help="Print-and-play sheets, print-shop files and checks for tabletop games kept as CSV.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


i18n_app = typer.Typer(cls=PnpGroup, help="Translation catalogues of a game: extract the strings, show the coverage.",
                       no_args_is_help=True, rich_markup_mode=None)
"""``pnp i18n``: its commands are in :mod:`pnp.cli.i18n`."""
app.add_typer(i18n_app, name="i18n")


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
