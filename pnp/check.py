"""Checks of a game's data against its manifest and the rulebook's stated totals.

:func:`check_game` loads a game folder and returns findings; loading errors (bad cells, missing
columns, duplicate ids, broken references) become findings with rule ids ``schema.*`` so one
report shows everything.
"""

from __future__ import annotations

from pathlib import Path

from .errors import DataError, ManifestError
from .findings import Finding
from .model import Game, GameDataErrors, load_game


def _from_error(err: DataError, rule: str) -> Finding:
    return Finding("error", rule, str(err.location) if err.location else "", err.message,
                   hint=err.hint or "")


def check_totals(game: Game) -> list[Finding]:
    """One finding per stated total that the data does not reach exactly (rule ``totals.stated``)."""
    findings = []
    for total in game.totals:
        have = game.count(total)
        if have != total.count:
            where = "".join(f" where {k} = {v!r}" for k, v in total.where)
            findings.append(Finding(
                "error", "totals.stated", f"{game.display_root}/game.toml (component {total.component})",
                f"the rulebook states {total.count} {total.label}, the data holds {have}",
                source=total.source,
                hint=f"count the copies in {game.components[total.component].table_display or total.component}{where}"))
    return findings


def check_blank_rows(game: Game) -> list[Finding]:
    """Info findings for rows skipped because every cell was blank (nothing is dropped silently)."""
    out = []
    for comp in game:
        if comp.blank_rows:
            lines = ", ".join(str(n) for n in comp.blank_rows[:10])
            out.append(Finding("info", "schema.blank-rows", f"{comp.table_display}:{comp.blank_rows[0]}",
                               f"{len(comp.blank_rows)} blank row(s) skipped (lines {lines})"))
    return out


def check_game(path: Path, display: str) -> tuple[Game | None, list[Finding]]:
    """Load and check one game folder. Returns the game (None if it did not load) and findings."""
    try:
        game = load_game(path, display)
    except ManifestError as exc:
        return None, [_from_error(exc, "schema.manifest")]
    except GameDataErrors as exc:
        return None, [_from_error(e, "schema.cell") for e in exc.errors]
    except DataError as exc:
        return None, [_from_error(exc, "schema.file")]
    return game, check_totals(game) + check_blank_rows(game)
