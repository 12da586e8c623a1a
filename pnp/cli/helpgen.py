"""Render the help of ``pnp`` and of each command with Typer, as the quick answers of
:mod:`pnp.cli.startup` show it, into :mod:`pnp.cli.helptext`.

Run ``python -m pnp.cli.helpgen`` after changing a command, an option or its help (the test of
the quick answers fails until then, and until then ``--help`` is rendered by Typer, slowly).
``python -m pnp.cli.helpgen --check`` exits 1 when the written help is not what Typer renders.
"""

from __future__ import annotations

import os
import sys

from .startup import HELP_COLUMNS, sources_digest

HELPTEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "helptext.py")


def render(prog: str = "pnp") -> dict[str, str]:
    """What Typer prints for ``pnp --help`` (key ``""``) and ``pnp COMMAND --help`` (key the
    command) when ``COLUMNS`` is :data:`~pnp.cli.startup.HELP_COLUMNS`, named ``prog``: the
    application itself, run as :func:`pnp.cli.main` runs it, its standard output caught."""
    import contextlib
    import io

    from typer.main import get_command

    from . import typer_app

    app = typer_app()
    texts = {}
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    try:
        for command in ["", *get_command(app).commands]:
            args = [command, "--help"] if command else ["--help"]
            caught = io.StringIO()
            with contextlib.redirect_stdout(caught):
                code = app(args, prog_name=prog, standalone_mode=False)
            if code not in (None, 0):
                raise RuntimeError(f"pnp {' '.join(args)} exited {code}: {caught.getvalue()}")
            texts[command] = caught.getvalue()
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return texts


def module_text() -> str:
    """The text of :mod:`pnp.cli.helptext`."""
    import typer

    lines = ['"""The help of pnp and of each command as Typer renders it, shown by pnp.cli.startup.',
             "", "Written by ``python -m pnp.cli.helpgen``; do not edit.", '"""', "",
             f"SOURCES = {sources_digest()!r}", '"""SHA-256 of the sources it was rendered from."""',
             f"TYPER = {typer.__version__!r}", '"""The Typer that rendered it."""', "", "HELP = {"]
    lines += [f"    {command!r}: {text!r}," for command, text in render().items()]
    lines += ["}", '"""Help by command (``""``: pnp itself)."""', ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = module_text()
    try:
        with open(HELPTEXT, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if "--check" in argv:
        if current != text:
            print(f"{HELPTEXT} is out of date: run python -m pnp.cli.helpgen", file=sys.stderr)
            return 1
        return 0
    if current != text:
        with open(HELPTEXT, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"wrote {HELPTEXT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
