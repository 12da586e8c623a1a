"""What the commands share: the consoles, resolving GAME arguments, printing findings, and the
check a command makes before it writes files."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console
from rich.markup import escape

from ..core.errors import PnpError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def resolve_games(games: list[str] | None):
    """The :class:`~pnp.model.games.GameSource` of each GAME argument; every bundled game when
    there are none."""
    from ..model.games import bundled_ids, find_game

    names = games or bundled_ids()
    if not names:
        raise PnpError("no bundled games found", hint="give a path to a game folder")
    return [find_game(g) for g in names]


def print_findings(findings) -> None:
    """One line per finding (severity, rule, location, message) and its hint."""
    for f in findings:
        colour = {"error": "red", "warning": "yellow"}.get(f.severity, "cyan")
        out.print(f"  [{colour}]{f.severity}[/{colour}] {escape(f.rule)}  {escape(f.location)}: {escape(f.message)}")
        if f.hint:
            out.print(f"    hint: {escape(f.hint)}")


def checked_game(source, force: bool, verb: str, load, max_image_pixels: int | None):
    """Check a game before a command makes files from it (``load``: how its tables are read;
    art over ``max_image_pixels`` is refused). Returns the game, or None after printing why
    nothing was made ("not built", "not exported", ...) when the check found errors (and
    ``force`` is off) or the game did not load. ``force`` also lifts the copies cap."""
    from ..validate.check import check_game

    game, findings = check_game(source, replace(load, copies_cap=None) if force else load, max_image_pixels)
    errors = [f for f in findings if f.severity == "error"]
    if game is not None and (not errors or force):
        return game
    out.print(f"[bold]{escape(game.title if game else source.display)}[/bold]: [red]not {verb}[/red], "
              f"pnp check found {len(errors)} error(s)")
    print_findings(errors)
    if game is not None:
        out.print("  hint: fix the data, or use --force to go ahead anyway")
    return None
