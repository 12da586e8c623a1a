"""Loading a game folder: its manifest, then every table, typed and cross-checked.

:func:`load_game` reads a folder into a :class:`pnp.model.game.Game`; it raises
:class:`GameDataErrors` listing every bad cell it found (each one a
:class:`pnp.core.errors.DataError` with file, line, column, value and hint), never a traceback
and never a guessed value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import DataError, Location, PnpError, Problem
from ..core.suggest import did_you_mean
from .cells import parse_cell
from .game import Component, Game, Row
from .manifest import read_manifest
from .options import COPIES_CAP, LoadOptions  # noqa: F401  (re-exported: the loader's options)
from .readers import RawTable, read_table

MAX_ERRORS = 50



class GameDataErrors(PnpError):
    """Every problem found while loading one game; ``errors`` holds the DataErrors in file order."""

    def __init__(self, errors: list[DataError]):
        self.errors = errors
        shown = [e.render() for e in errors[:MAX_ERRORS]]
        more = len(errors) - len(shown)
        text = "\n".join(shown) + (f"\n... and {more} more" if more > 0 else "")
        super().__init__(text)

    def render(self) -> str:  # the message already lists every error with its location
        return self.message


def _load_rows(comp: Component, raw: RawTable, errors: list[DataError], copies_cap: int | None = None) -> None:
    declared = comp.columns
    ignored = set(comp.options.get("ignore_columns", []))
    positions = {name: i for i, name in enumerate(raw.header)}
    for name in declared:
        if name not in positions:
            errors.append(DataError(
                f"column {name!r} is declared in game.toml but missing from the file", rule="schema.columns",
                location=Location(raw.display, 1, column_name=name),
                hint=did_you_mean(name, [h for h in raw.header if h not in declared],
                                  "the header has: " + ", ".join(raw.header), cutoff=0.75)))
    for name, index in positions.items():
        if name not in declared and name not in ignored:
            errors.append(DataError(
                f"column {name!r} is not declared in game.toml", rule="schema.columns",
                location=Location(raw.display, 1, index + 1, name),
                hint=f"declare it under [components.{comp.id}.columns] (for example {name} = \"str\"), "
                f"or list it in ignore_columns"))
    if any(name not in positions for name in declared):
        return
    for record in raw.records:
        values: dict[str, Any] = {}
        bad: set[str] = set()
        cells: dict[str, tuple[int, int]] = {}
        for name, spec in declared.items():
            index = positions[name]
            cell = record.cells[index]
            cells[name] = (record.cell_lines[index], index + 1)
            loc = Location(raw.display, record.cell_lines[index], index + 1, name)
            try:
                value = parse_cell(spec, cell)
            except Problem as exc:
                errors.append(DataError(exc.message, location=loc, hint=exc.hint or None,
                                        rule=exc.rule or "schema.type"))
                values[name] = None
                bad.add(name)
                continue
            if value is None and spec.default is not None:
                value = spec.default
            if value is None and spec.required:
                what = {"int": "a whole number", "float": "a number", "bool": "yes or no"}.get(
                    spec.type, "a value")
                errors.append(DataError(
                    f"this cell is blank but the column needs {what}", location=loc, rule="schema.required",
                    hint=f"fill it in, or declare {name} with required = false in game.toml"))
            values[name] = value
        row = Row(comp.id, values.get(comp.id_column) if comp.id_column else None, values,
                  raw.display, record.line, cells)
        if comp.copies_column:
            copies = values.get(comp.copies_column)
            if copies is None and comp.copies_column not in bad and not declared[comp.copies_column].required:
                copies = row.values[comp.copies_column] = 1  # blank, optional, no default: one copy
            row.copies = copies if isinstance(copies, int) else 0
            if isinstance(copies, int) and copies < 0:
                errors.append(DataError(
                    f"copies cannot be negative ({copies})", location=row.location(comp.copies_column),
                    rule="schema.copies",
                    hint="write 0 to keep the card in the data without printing it"))
            cap = comp.options.get("max_copies", copies_cap) if copies_cap is not None else None
            if isinstance(copies, int) and cap is not None and copies > cap:
                errors.append(DataError(
                    f"{copies} copies is more than {cap}, which looks like a typo",
                    location=row.location(comp.copies_column), rule="schema.copies",
                    hint=f"if the box really holds {copies}, set max_copies = {copies} under "
                    f"[components.{comp.id}] in game.toml, or pass --force"))
        comp.rows.append(row)
    comp.blank_rows = raw.blank_rows
    comp.trimmed_headers = raw.trimmed_headers


def _check_ids_and_refs(game: Game, errors: list[DataError]) -> None:
    for comp in game:
        if not comp.id_column:
            continue
        seen: dict[str, Row] = {}
        for row in comp.rows:
            if row.id is None:
                continue
            if row.id in seen:
                first = seen[row.id]
                errors.append(DataError(
                    f"id {row.id!r} is used twice (first on line {first.line})", rule="schema.unique-id",
                    location=row.location(comp.id_column),
                    hint="every row needs its own id; ids stay with a card when rows move"))
            else:
                seen[row.id] = row
    for comp in game:
        for name, spec in comp.columns.items():
            if not spec.ref:
                continue
            target = game.components.get(spec.ref)
            if target is None or not target.id_column:
                errors.append(DataError(
                    f"column {name!r} refers to {spec.ref!r}, which is not a component with ids", rule="schema.ref",
                    location=Location(game.display_root + "/game.toml",
                                      column_name=f"components.{comp.id}.columns.{name}.ref"),
                    hint=did_you_mean(spec.ref, game.components) or None))
                continue
            ids = target.by_id()
            for row in comp.rows:
                value = row.get(name)
                if value is None:
                    continue
                for item in (value if isinstance(value, tuple) else (value,)):
                    if item not in ids:
                        close = did_you_mean(item, ids)
                        errors.append(DataError(
                            f"{item!r} is not an id in {target.name} ({target.table_display})", rule="schema.ref",
                            location=row.location(name),
                            hint=close or f"use an id from the {spec.ref} table"))


def load_game(path: Path | str, display_root: str | None = None,
              options: LoadOptions = LoadOptions()) -> Game:
    """Load the game folder at ``path`` (it holds ``game.toml``).

    ``display_root`` is how the folder is named in messages (default: the path as given).
    ``options`` say how the tables are read (:class:`LoadOptions`). A row with more copies
    than the cap is an error (a typo such as 300 for 3 would otherwise print 33 sheets).
    Raises ManifestError for a bad manifest and GameDataErrors listing every bad cell, unknown
    or missing column, duplicate id and broken reference.
    """
    game_dir = Path(path)
    display_root = display_root or str(path).rstrip("/")
    game = read_manifest(game_dir, display_root)
    errors: list[DataError] = []
    for comp in game:
        if comp.table is None:
            continue
        try:
            raw = read_table(comp.table, comp.table_display, encoding=options.encoding,
                             delimiter=options.delimiter)
        except DataError as exc:
            errors.append(exc)
            continue
        _load_rows(comp, raw, errors, options.copies_cap)
    if not errors:
        _check_ids_and_refs(game, errors)
    if errors:
        raise GameDataErrors(errors)
    return game
