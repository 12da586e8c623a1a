"""``run``: one pnp command in process, through the Typer app, for tests that read what it
wrote and printed."""

from __future__ import annotations

from typer.testing import CliRunner

from pnp.cli import typer_app

app = typer_app()


def run(*args: str, ok: bool = True):
    """The result of ``pnp ARGS`` (its ``exit_code`` and ``output``); with ``ok``, asserts that
    it exited 0 and shows the output when it did not."""
    done = CliRunner().invoke(app, list(args))
    if ok:
        assert done.exit_code == 0, done.output
    return done
