"""The `pnp` command line: a thin Typer shell over the layers below (one module per command).

Errors a user causes are shown as their message (file, line, column, hint) with exit status 2;
``pnp check`` exits 1 when it finds errors. Command modules import the layers they drive inside
the command, and nothing here imports Typer or Rich until a command needs them: ``pnp --help``,
``pnp --version`` and a build or check with nothing to do are answered first by
:mod:`pnp.cli.startup`, exactly as Typer would answer them.
"""

from __future__ import annotations

import gc
import os
import sys


def typer_app():
    """The Typer application with every command registered (in the order --help lists them).
    (``pnp.cli.app`` is the module that defines it, before the commands are added.)"""
    from .app import app
    from . import new, listing, check, build, rulebook, export, diff, release, preview, i18n  # noqa: F401  each adds its command

    return app


GC_THRESHOLD = (50_000, 20, 100)
"""The collector's thresholds for a run of `pnp` (CPython's are 700, 10, 10). A build allocates
millions of short-lived objects (drawing state, text runs, findings) beside a large model that
lives to the end: at the default thresholds, collecting took 7 % of a 1,280-card build (618
collections, 4 of them full); at these, under 4 % (6 collections, none full), with the same
peak memory."""


def main() -> None:
    """Entry point of the `pnp` console script."""
    gc.set_threshold(*GC_THRESHOLD)
    from .startup import answer

    try:
        code = answer(sys.argv[1:])
    except BrokenPipeError:  # the reader went away: silent, status 1, as click ends
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    if code is not None:
        if code:
            sys.exit(code)
        return
    app = typer_app()
    from ..core.errors import PnpError
    from .output import print_error

    try:
        app()
    except PnpError as exc:
        print_error(exc)
        sys.exit(2)


__all__ = ["app", "main"]
