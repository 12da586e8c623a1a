"""The `pnp` command line: a thin Typer shell over the layers below (one module per command).

Errors a user causes are shown as their message (file, line, column, hint) with exit status 2;
``pnp check`` exits 1 when it finds errors. Command modules import the layers they drive inside
the command, so that ``pnp --help`` starts fast.
"""

from __future__ import annotations

import sys

from rich.markup import escape

from ..core.errors import PnpError
from .app import app
from .output import err

# each module adds its command to app; --help lists them in this order
from . import new  # noqa: E402,F401  isort: skip
from . import listing  # noqa: E402,F401  isort: skip
from . import check  # noqa: E402,F401  isort: skip
from . import build  # noqa: E402,F401  isort: skip
from . import rulebook  # noqa: E402,F401  isort: skip
from . import export  # noqa: E402,F401  isort: skip
from . import preview  # noqa: E402,F401  isort: skip
from . import i18n  # noqa: E402,F401  isort: skip


def main() -> None:
    """Entry point of the `pnp` console script."""
    try:
        app()
    except PnpError as exc:
        err.print(f"[red]error:[/red] {escape(exc.render())}")
        sys.exit(2)


__all__ = ["app", "main"]
