"""Loading a game folder: its manifest, then every table, typed and cross-checked.

:func:`load_game` reads a folder into a :class:`pnp.model.game.Game`; it raises
:class:`GameDataErrors` listing every bad cell it found (each one a
:class:`pnp.core.errors.DataError` with file, line, column, value and hint), never a traceback
and never a guessed value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import DataError, Location, PnpError, Problem, cell_name
from ..core.findings import Finding
from ..core.suggest import did_you_mean
from .cells import parse_value
from .game import CellPlaces, Component, Game, Row
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
    first = raw.first_column
    for name in declared:
        if name not in positions:
            errors.append(DataError(
                f"column {name!r} is declared in game.toml but missing from the file", rule="schema.columns",
                location=Location(raw.display, raw.header_line, column_name=name, sheet=raw.sheet),
                hint=did_you_mean(name, [h for h in raw.header if h not in declared],
                                  "the header has: " + ", ".join(raw.header), cutoff=0.75)))
    for name, index in positions.items():
        if name not in declared and name not in ignored:
            errors.append(DataError(
                f"column {name!r} is not declared in game.toml", rule="schema.columns",
                location=Location(raw.display, raw.header_line, first + index, name, raw.sheet),
                hint=f"declare it under [components.{comp.id}.columns] (for example {name} = \"str\"), "
                f"or list it in ignore_columns"))
    if any(name not in positions for name in declared):
        return
    if raw.sheet is not None:
        _sheet_marks(comp, raw, positions, errors)
    # per column, the value of each text already read: a cell's value depends on its column and
    # text alone and is never mutable; a text that was refused is read, and refused, again
    seen: dict[str, dict[str, Any]] = {name: {} for name in declared}
    numbers = {name: (k, first + positions[name]) for k, name in enumerate(declared)}
    for record in raw.records:
        values: dict[str, Any] = {}
        bad: set[str] = set()
        lines: list[int] = []
        for name, spec in declared.items():
            index = positions[name]
            cell = record.cells[index]
            lines.append(record.cell_lines[index])
            known = seen[name]
            try:
                if type(cell) is str:
                    value = known[cell] if cell in known else known.setdefault(cell, parse_value(spec, cell))
                else:
                    value = parse_value(spec, cell)
            except Problem as exc:
                loc = Location(raw.display, record.cell_lines[index], first + index, name, raw.sheet)
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
                loc = Location(raw.display, record.cell_lines[index], first + index, name, raw.sheet)
                errors.append(DataError(
                    f"this cell is blank but the column needs {what}", location=loc, rule="schema.required",
                    hint=f"fill it in, or declare {name} with required = false in game.toml"))
            values[name] = value
        places = CellPlaces(numbers, lines[0] if lines and lines.count(lines[0]) == len(lines) else tuple(lines))
        row = Row(comp.id, values.get(comp.id_column) if comp.id_column else None, values,
                  raw.display, record.line, places, sheet=raw.sheet)
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


def _sheet_marks(comp: Component, raw: RawTable, positions: dict[str, int], errors: list[DataError]) -> None:
    """Merged cells of the table's declared columns are errors (a merged region keeps its value
    in its first cell only); hidden rows, and hidden declared columns, are warnings (they are
    read, though the spreadsheet does not show them)."""
    declared = {raw.first_column + positions[name] for name in comp.columns}
    last = raw.records[-1].line if raw.records else raw.header_line
    for r0, c0, r1, c1 in raw.merged:
        if r1 < raw.header_line or r0 > last or not any(c0 <= col <= c1 for col in declared):
            continue
        errors.append(DataError(
            f"cells {cell_name(r0, c0)}:{cell_name(r1, c1)} are merged", rule="schema.merged",
            location=Location(raw.display, r0, c0, raw.header[c0 - raw.first_column]
                              if 0 <= c0 - raw.first_column < len(raw.header) else None, raw.sheet),
            hint="unmerge them and fill in every cell: a merged region keeps its value in its first cell only"))
    if raw.hidden_rows:
        n = len(raw.hidden_rows)
        shown = ", ".join(str(r) for r in raw.hidden_rows[:10]) + (" ..." if n > 10 else "")
        comp.table_findings.append(Finding.at(
            "warning", "schema.hidden", Location(raw.display, raw.hidden_rows[0], sheet=raw.sheet),
            f"{n} hidden row{'s are' if n > 1 else ' is'} read like the others (row{'s' if n > 1 else ''} {shown})",
            hint="show them (select the rows around them, then Unhide) to see what will print, or delete "
            "the rows that should not", component=comp.id))
    hidden = [col for col in raw.hidden_columns if col in declared]
    if hidden:
        names = ", ".join(f"{raw.header[col - raw.first_column]!r} ({cell_name(None, col)})" for col in hidden)
        comp.table_findings.append(Finding.at(
            "warning", "schema.hidden", Location(raw.display, raw.header_line, hidden[0],
                                                 raw.header[hidden[0] - raw.first_column], raw.sheet),
            f"hidden column(s) {names} are read like the others", component=comp.id,
            hint="show them to see what will print, or list a column in ignore_columns if pnp should not "
            "read it"))


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
                    f"id {row.id!r} is used twice (first on {first.place})", rule="schema.unique-id",
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
                            f"{item!r} is not an id in {target.name} ({target.table_name})", rule="schema.ref",
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
            raw = read_table(comp.table, comp.table_display, encoding=comp.encoding or options.encoding,
                             delimiter=comp.delimiter if comp.delimiter is not None else options.delimiter,
                             sheet=comp.sheet)
        except DataError as exc:
            if exc.rule == "schema.sheet":  # at the sheet game.toml names, or the table naming none
                key = f"components.{comp.id}.table" + (".sheet" if comp.sheet is not None else "")
                exc = DataError(exc.message, location=game.key_location(key), hint=exc.hint, rule=exc.rule)
            errors.append(exc)
            continue
        comp.sheet = raw.sheet
        _load_rows(comp, raw, errors, options.copies_cap)
    if not errors:
        _check_ids_and_refs(game, errors)
    if errors:
        raise GameDataErrors(errors)
    return game
