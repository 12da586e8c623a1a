"""The game model: a game folder's manifest and its CSV tables as typed rows.

A game folder holds ``game.toml`` (the manifest) and the CSV tables it names. The format is
described for designers in docs/game-format.md. :func:`load_game` reads a folder into a
:class:`Game`; it raises :class:`GameDataErrors` listing every bad cell it found (each one a
:class:`pnp.errors.DataError` with file, line, column, value and hint), never a traceback and never
a guessed value.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from . import units
from .csvload import RawTable, read_csv
from .errors import DataError, Location, ManifestError, PnpError

COMPONENT_KINDS = ("deck", "board", "tokens", "die", "table", "rulebook")
"""deck: cards; board: a board or player board; tokens: tokens, standees, cubes, workers;
die: a printable die; table: reference data with no physical piece; rulebook: the rulebook."""

COLUMN_TYPES = ("id", "str", "text", "int", "float", "bool", "enum", "list", "ref", "color",
                "length", "path")

TRUE_WORDS = {"yes", "y", "true", "1", "x"}
FALSE_WORDS = {"no", "n", "false", "0"}
_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*\Z")
_COLOR_RE = re.compile(r"#[0-9A-Fa-f]{6}\Z")
_INT_RE = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
MAX_ERRORS = 50
COPIES_CAP = 200
"""Default largest copy count of one row before it is treated as a typo (see load_game)."""


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


@dataclass(frozen=True)
class ColumnSpec:
    """How one CSV column is read: its type and the constraints on its values.

    ``ref`` names another component (its id column is the target) for type ``ref``, or for the
    items of a ``list`` whose items must be ids of that component.
    """

    name: str
    type: str
    required: bool = True
    values: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    ref: str | None = None
    separator: str = ";"
    description: str = ""


@dataclass
class Row:
    """One typed row of a table. ``values`` maps column name to a typed value (None when blank)."""

    component: str
    id: str | None
    values: dict[str, Any]
    file: str
    line: int
    columns: dict[str, tuple[int, int]]
    """column name -> (line, 1-based column number) of its cell."""
    copies: int = 1

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The typed value of a column, or ``default`` when it is blank or absent."""
        value = self.values.get(key)
        return default if value is None else value

    def location(self, column: str | None = None) -> Location:
        """The file, line and column of this row, or of one of its cells."""
        if column and column in self.columns:
            line, col = self.columns[column]
            return Location(self.file, line, col, column)
        return Location(self.file, self.line)


@dataclass
class Component:
    """One kind of thing in the box (a deck, a board, a token sheet, a reference table).

    ``rows`` are the table's typed rows (empty without a table). For a component with a
    ``copies_column`` each row is a piece with its copy count; otherwise ``copies`` identical
    pieces exist and the rows describe them (a board's spaces, a player board's tracks).
    """

    id: str
    kind: str
    name: str
    table: Path | None
    table_display: str | None
    columns: dict[str, ColumnSpec]
    id_column: str | None
    copies_column: str | None
    copies: int
    card_size: units.Size | None = None
    card_size_name: str | None = None
    back: str | None = None
    back_column: str | None = None
    layout: str | None = None
    layout_column: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    """Every other manifest key of the component, for the stages that use it (board size ...)."""
    rows: list[Row] = field(default_factory=list)
    blank_rows: list[int] = field(default_factory=list)
    """Lines of rows skipped because every cell was blank."""
    trimmed_headers: list[str] = field(default_factory=list)
    """Header names that had spaces around them in the file."""

    @property
    def pieces(self) -> int:
        """Physical pieces of this component: the sum of copies, or ``copies``; 0 for a table."""
        if self.kind in ("table",):
            return 0
        if self.copies_column:
            return sum(row.copies for row in self.rows)
        return self.copies

    def by_id(self) -> dict[str, Row]:
        """Rows keyed by id (only for a component with an id column)."""
        return {row.id: row for row in self.rows if row.id is not None}

    def back_of(self, row: Row) -> str | None:
        """The back name a row's card uses: its back column's value, or the deck's back."""
        if self.back_column:
            return row.get(self.back_column)
        return self.back

    def layout_of(self, row: Row) -> str | None:
        """The face layout name a row's card uses."""
        if self.layout_column:
            return row.get(self.layout_column)
        return self.layout


@dataclass(frozen=True)
class StatedTotal:
    """A count the rulebook states ("43 Hero cards"), with the rulebook section it comes from.

    ``where`` restricts the count to rows whose columns equal the given values.
    """

    component: str
    count: int
    label: str
    source: str
    where: tuple[tuple[str, Any], ...] = ()


@dataclass
class Game:
    """A whole game folder: manifest fields, components in manifest order, stated totals."""

    id: str
    title: str
    path: Path
    players_min: int
    players_max: int
    components: dict[str, Component]
    totals: list[StatedTotal]
    manifest: dict[str, Any]
    display_root: str

    def __iter__(self) -> Iterator[Component]:
        return iter(self.components.values())

    @property
    def pieces(self) -> int:
        """All physical pieces in the box."""
        return sum(c.pieces for c in self)

    def count(self, total: StatedTotal) -> int:
        """How many pieces the data holds for a stated total."""
        comp = self.components[total.component]
        if not total.where:
            return comp.pieces
        n = 0
        for row in comp.rows:
            if all(_same(row.get(col), want) for col, want in total.where):
                n += row.copies if comp.copies_column else 1
        return n


def _same(value: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(value, bool):
        return value is want or value == want
    return value == want


# --------------------------------------------------------------------------------------------
# Manifest


def _suggest(word: str, choices) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else ""


class _Manifest:
    """Typed access to the manifest dict that reports errors with the manifest path and key."""

    def __init__(self, path: Path, display: str):
        self.path = path
        self.display = display

    def error(self, key: str, message: str, hint: str | None = None) -> ManifestError:
        return ManifestError(message, location=Location(self.display, column_name=key), hint=hint)

    def get(self, table: dict, key: str, where: str, kind: type | tuple, required: bool = True,
            default: Any = None) -> Any:
        if key not in table:
            if required:
                raise self.error(f"{where}.{key}" if where else key, f"'{key}' is missing",
                                 hint=f"add {key} = ... under [{where}]" if where else None)
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            ok = False
        else:
            ok = isinstance(value, kinds)
        if not ok:
            names = " or ".join(k.__name__ for k in kinds)
            raise self.error(f"{where}.{key}" if where else key,
                             f"'{key}' must be a {names}, not {value!r}")
        return value


def _parse_column(m: _Manifest, where: str, name: str, spec: Any) -> ColumnSpec:
    if isinstance(spec, str):
        spec = {"type": spec}
    if not isinstance(spec, dict):
        raise m.error(f"{where}.{name}", f"column {name!r} must be a type name or a table",
                      hint='write  name = "str"  or  name = { type = "int", min = 0 }')
    ctype = m.get(spec, "type", f"{where}.{name}", str)
    if ctype not in COLUMN_TYPES:
        raise m.error(f"{where}.{name}.type", f"unknown column type {ctype!r}",
                      hint=(_suggest(ctype, COLUMN_TYPES) + " " if _suggest(ctype, COLUMN_TYPES) else "")
                      + "types: " + ", ".join(COLUMN_TYPES))
    known = {"type", "required", "values", "min", "max", "ref", "separator", "description", "item"}
    for key in spec:
        if key not in known:
            raise m.error(f"{where}.{name}.{key}", f"unknown column setting {key!r}",
                          hint="settings: " + ", ".join(sorted(known)))
    values = tuple(str(v) for v in m.get(spec, "values", f"{where}.{name}", list, False, []))
    if ctype == "enum" and not values:
        raise m.error(f"{where}.{name}.values", f"enum column {name!r} needs its allowed values",
                      hint='add values = ["red", "green"]')
    ref = m.get(spec, "ref", f"{where}.{name}", str, False)
    low = m.get(spec, "min", f"{where}.{name}", (int, float), False)
    high = m.get(spec, "max", f"{where}.{name}", (int, float), False)
    if low is not None and high is not None and low > high:
        raise m.error(f"{where}.{name}.min", f"min {low} is larger than max {high}")
    if m.get(spec, "separator", f"{where}.{name}", str, False, ";") == "":
        raise m.error(f"{where}.{name}.separator", "the separator is empty", hint='use separator = ";"')
    if ctype == "ref" and not ref:
        raise m.error(f"{where}.{name}.ref", f"ref column {name!r} must name the component it refers to",
                      hint='add ref = "component-id"')
    return ColumnSpec(
        name=name,
        type=ctype,
        required=m.get(spec, "required", f"{where}.{name}", bool, False, True),
        values=values,
        min=m.get(spec, "min", f"{where}.{name}", (int, float), False),
        max=m.get(spec, "max", f"{where}.{name}", (int, float), False),
        ref=ref,
        separator=m.get(spec, "separator", f"{where}.{name}", str, False, ";"),
        description=m.get(spec, "description", f"{where}.{name}", str, False, ""),
    )


_COMPONENT_KEYS = {
    "kind", "name", "table", "columns", "id_column", "copies_column", "copies", "card_size",
    "back", "back_column", "layout", "layout_column", "ignore_columns", "description",
}


def _parse_component(m: _Manifest, game_dir: Path, display_root: str, cid: str,
                     data: Any) -> Component:
    where = f"components.{cid}"
    if not isinstance(data, dict):
        raise m.error(where, f"component {cid!r} must be a table", hint=f"write [components.{cid}]")
    if not _ID_RE.match(cid):
        raise m.error(where, f"component id {cid!r} may hold only letters, digits, '-', '_' and '.'")
    kind = m.get(data, "kind", where, str)
    if kind not in COMPONENT_KINDS:
        raise m.error(f"{where}.kind", f"unknown component kind {kind!r}",
                      hint="kinds: " + ", ".join(COMPONENT_KINDS))
    name = m.get(data, "name", where, str)
    table = m.get(data, "table", where, str, False)
    columns_raw = m.get(data, "columns", where, dict, False, {})
    if table and not columns_raw:
        raise m.error(f"{where}.columns", f"component {cid!r} has a table but declares no columns",
                      hint=f"add [{where}.columns] with one line per CSV column")
    if columns_raw and not table:
        raise m.error(f"{where}.table", f"component {cid!r} declares columns but names no table")
    columns = {n: _parse_column(m, f"{where}.columns", n, s) for n, s in columns_raw.items()}
    id_column = m.get(data, "id_column", where, str, False)
    copies_column = m.get(data, "copies_column", where, str, False)
    for key, col in (("id_column", id_column), ("copies_column", copies_column),
                     ("back_column", data.get("back_column")),
                     ("layout_column", data.get("layout_column"))):
        if col is not None and col not in columns:
            raise m.error(f"{where}.{key}", f"{key} {col!r} is not a declared column",
                          hint=_suggest(col, columns) or "declare it under columns")
    if id_column and columns[id_column].type != "id":
        raise m.error(f"{where}.columns.{id_column}", f"the id column {id_column!r} must have type \"id\"")
    if copies_column and columns[copies_column].type != "int":
        raise m.error(f"{where}.columns.{copies_column}",
                      f"the copies column {copies_column!r} must have type \"int\"")
    if kind == "deck" and table and not id_column:
        raise m.error(f"{where}.id_column", f"deck {cid!r} needs an id column",
                      hint="ids keep a card's identity when rows move; add an id column")
    copies = m.get(data, "copies", where, int, False, 1)
    if copies < 0:
        raise m.error(f"{where}.copies", "copies cannot be negative")
    if copies_column and "copies" in data:
        raise m.error(f"{where}.copies", "give either copies or copies_column, not both")
    card_size = None
    size_name = m.get(data, "card_size", where, str, False)
    if size_name is not None:
        try:
            card_size = units.parse_size(size_name, units.CARD_SIZES)
        except ValueError as exc:
            raise m.error(f"{where}.card_size", str(exc)) from None
    elif kind == "deck":
        raise m.error(f"{where}.card_size", f"deck {cid!r} needs a card_size",
                      hint='for example card_size = "poker" (63.5 x 88.9 mm) or "63mm x 88mm"')
    if kind == "deck" and not (data.get("back") or data.get("back_column")):
        raise m.error(f"{where}.back", f"deck {cid!r} needs a back or a back_column",
                      hint='name the deck back layout, for example back = "red-back"')
    for key in data:
        if key not in _COMPONENT_KEYS:
            close = difflib.get_close_matches(key, sorted(_COMPONENT_KEYS), n=1, cutoff=0.8)
            if close:  # a misspelt setting would otherwise be kept as an option nobody reads
                raise m.error(f"{where}.{key}", f"unknown setting {key!r}", hint=f"did you mean {close[0]!r}?")
    if copies_column is None and "copies" in columns and "copies" not in data:
        raise m.error(f"{where}.copies_column",
                      f"{cid!r} declares a column 'copies' but no copies_column, so every row would count once",
                      hint='add copies_column = "copies", or rename the column if it means something else')
    for key in ("back_column", "layout_column", "back", "layout"):
        if key in data and not isinstance(data[key], str):
            raise m.error(f"{where}.{key}", f"{key} must be a name in quotes, not {data[key]!r}")
    if "max_copies" in data and (not isinstance(data["max_copies"], int) or isinstance(data["max_copies"], bool)
                                 or data["max_copies"] < 1):
        raise m.error(f"{where}.max_copies", f"max_copies must be a whole number of at least 1, not {data['max_copies']!r}")
    options = {k: v for k, v in data.items() if k not in _COMPONENT_KEYS}
    ignore = m.get(data, "ignore_columns", where, list, False, [])
    options["ignore_columns"] = [str(c) for c in ignore]
    table_path = (game_dir / table) if table else None
    if table_path is not None:
        try:
            table_path.resolve().relative_to(game_dir.resolve())
        except ValueError:
            raise m.error(f"{where}.table", f"table {table!r} is outside the game folder",
                          hint="keep every table inside the game folder") from None
    return Component(
        id=cid, kind=kind, name=name, table=table_path,
        table_display=f"{display_root}/{table}" if table else None,
        columns=columns, id_column=id_column, copies_column=copies_column, copies=copies,
        card_size=card_size, card_size_name=size_name,
        back=m.get(data, "back", where, str, False), back_column=data.get("back_column"),
        layout=m.get(data, "layout", where, str, False), layout_column=data.get("layout_column"),
        options=options,
    )


# --------------------------------------------------------------------------------------------
# Cells


def parse_cell(spec: ColumnSpec, raw: str) -> Any:
    """Turn one cell's text into its typed value, or raise ValueError(message, hint).

    Blank cells give None (the caller checks ``required``). Numbers, booleans, ids, colours and
    lengths are read with surrounding spaces trimmed; ``str`` and ``text`` keep inner text as
    typed, and only ``text`` may hold line breaks.
    """
    text = raw.strip()
    if text == "":
        return None
    t = spec.type
    if t == "id":
        if not _ID_RE.match(text):
            raise ValueError(f"{raw!r} is not a valid id",
                             "ids use letters, digits, '-', '_' and '.', and start with a letter or digit")
        return text
    if t in ("str", "path"):
        if "\n" in raw or "\r" in raw:
            raise ValueError(f"{raw!r} holds a line break, but this column is one line of text",
                             'remove the line break, or declare the column as type "text"')
        return raw.strip()
    if t == "text":
        return raw.strip().replace("\r\n", "\n").replace("\r", "\n")
    if t == "int":
        if not _INT_RE.match(text):
            hint = "write a whole number such as 3"
            if _FLOAT_RE.match(text):
                hint = "this column counts whole things; write a whole number such as 3"
            raise ValueError(f"{raw!r} is not a whole number", hint)
        value = int(text)
        _check_range(spec, value)
        return value
    if t == "float":
        if not _FLOAT_RE.match(text):
            raise ValueError(f"{raw!r} is not a number",
                             "use a dot for decimals and no units or thousands separators, e.g. 1811.15")
        value = float(text)
        _check_range(spec, value)
        return value
    if t == "bool":
        low = text.lower()
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        raise ValueError(f"{raw!r} is not yes or no", "write yes or no (true/false and 1/0 also work)")
    if t == "enum":
        if text not in spec.values:
            close = _suggest(text, spec.values)
            allowed = ", ".join(spec.values)
            raise ValueError(f"{raw!r} is not one of the allowed values",
                             (close + " " if close else "") + f"allowed: {allowed}")
        return text
    if t == "list":
        items = [item.strip() for item in text.split(spec.separator)]
        if any(item == "" for item in items):
            raise ValueError(f"{raw!r} has an empty item",
                             f"separate items with {spec.separator!r} and leave none empty")
        if spec.values:
            for item in items:
                if item not in spec.values:
                    close = _suggest(item, spec.values)
                    raise ValueError(f"item {item!r} is not one of the allowed values",
                                     (close + " " if close else "") + "allowed: " + ", ".join(spec.values))
        return tuple(items)
    if t == "ref":
        return text
    if t == "color":
        if not _COLOR_RE.match(text):
            raise ValueError(f"{raw!r} is not a colour", "write a colour as #RRGGBB, e.g. #C0392B")
        return text.upper()
    if t == "length":
        try:
            return units.parse_length(text)
        except ValueError as exc:
            raise ValueError(str(exc), "lengths need a unit: mm, cm, in or pt") from None
    raise AssertionError(f"unhandled column type {t}")  # guarded by COLUMN_TYPES


def _check_range(spec: ColumnSpec, value: float) -> None:
    if spec.min is not None and value < spec.min:
        raise ValueError(f"{value:g} is below the minimum {spec.min:g}",
                         f"this column takes values from {spec.min:g}"
                         + (f" to {spec.max:g}" if spec.max is not None else " up"))
    if spec.max is not None and value > spec.max:
        raise ValueError(f"{value:g} is above the maximum {spec.max:g}",
                         f"this column takes values up to {spec.max:g}")


def _load_rows(comp: Component, raw: RawTable, errors: list[DataError], copies_cap: int | None = None) -> None:
    declared = comp.columns
    ignored = set(comp.options.get("ignore_columns", []))
    positions = {name: i for i, name in enumerate(raw.header)}
    for name in declared:
        if name not in positions:
            errors.append(DataError(
                f"column {name!r} is declared in game.toml but missing from the file",
                location=Location(raw.display, 1, column_name=name),
                hint=(_suggest(name, raw.header) + " " if _suggest(name, raw.header) else "")
                + "the header has: " + ", ".join(raw.header)))
    for name, index in positions.items():
        if name not in declared and name not in ignored:
            errors.append(DataError(
                f"column {name!r} is not declared in game.toml",
                location=Location(raw.display, 1, index + 1, name),
                hint=f"declare it under [components.{comp.id}.columns] (for example {name} = \"str\"), "
                f"or list it in ignore_columns"))
    if any(name not in positions for name in declared):
        return
    for record in raw.records:
        values: dict[str, Any] = {}
        cells: dict[str, tuple[int, int]] = {}
        for name, spec in declared.items():
            index = positions[name]
            cell = record.cells[index]
            cells[name] = (record.cell_lines[index], index + 1)
            loc = Location(raw.display, record.cell_lines[index], index + 1, name)
            try:
                value = parse_cell(spec, cell)
            except ValueError as exc:
                message, hint = exc.args if len(exc.args) == 2 else (exc.args[0], None)
                errors.append(DataError(message, location=loc, hint=hint))
                values[name] = None
                continue
            if value is None and spec.required:
                what = {"int": "a whole number", "float": "a number", "bool": "yes or no"}.get(
                    spec.type, "a value")
                errors.append(DataError(
                    f"this cell is blank but the column needs {what}", location=loc,
                    hint=f"fill it in, or declare {name} with required = false in game.toml"))
            values[name] = value
        row = Row(comp.id, values.get(comp.id_column) if comp.id_column else None, values,
                  raw.display, record.line, cells)
        if comp.copies_column:
            copies = values.get(comp.copies_column)
            row.copies = copies if isinstance(copies, int) else 0
            if isinstance(copies, int) and copies < 0:
                errors.append(DataError(
                    f"copies cannot be negative ({copies})", location=row.location(comp.copies_column),
                    hint="write 0 to keep the card in the data without printing it"))
            cap = comp.options.get("max_copies", copies_cap) if copies_cap is not None else None
            if isinstance(copies, int) and cap is not None and copies > cap:
                errors.append(DataError(
                    f"{copies} copies is more than {cap}, which looks like a typo",
                    location=row.location(comp.copies_column),
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
                    f"id {row.id!r} is used twice (first on line {first.line})",
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
                    f"column {name!r} refers to {spec.ref!r}, which is not a component with ids",
                    location=Location(game.display_root + "/game.toml",
                                      column_name=f"components.{comp.id}.columns.{name}.ref"),
                    hint=_suggest(spec.ref, game.components) or None))
                continue
            ids = target.by_id()
            for row in comp.rows:
                value = row.get(name)
                if value is None:
                    continue
                for item in (value if isinstance(value, tuple) else (value,)):
                    if item not in ids:
                        close = _suggest(item, ids)
                        errors.append(DataError(
                            f"{item!r} is not an id in {target.name} ({target.table_display})",
                            location=row.location(name),
                            hint=close or f"use an id from the {spec.ref} table"))


def load_game(path: Path | str, display_root: str | None = None, *, encoding: str = "utf-8",
              delimiter: str | None = None, copies_cap: int | None = COPIES_CAP) -> Game:
    """Load the game folder at ``path`` (it holds ``game.toml``).

    ``display_root`` is how the folder is named in messages (default: the path as given).
    ``encoding`` and ``delimiter`` apply to every CSV table (the delimiter is detected when
    None). A row with more than ``copies_cap`` copies is an error (a typo such as 300 for 3 would
    otherwise print 33 sheets); a component's ``max_copies`` in game.toml raises its cap, and
    None lifts it. Raises ManifestError for a bad manifest and GameDataErrors listing every bad
    cell, unknown or missing column, duplicate id and broken reference.
    """
    game_dir = Path(path)
    display_root = display_root or str(path).rstrip("/")
    manifest_path = game_dir / "game.toml"
    m = _Manifest(manifest_path, f"{display_root}/game.toml")
    if not manifest_path.is_file():
        raise ManifestError("no game.toml here", location=Location(display_root),
                            hint="a game folder holds game.toml and its CSV tables; see docs/game-format.md")
    try:
        data = tomllib.loads(manifest_path.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"not valid TOML: {exc}", location=Location(m.display)) from None
    except UnicodeDecodeError:
        raise ManifestError("not UTF-8 text", location=Location(m.display),
                            hint="save game.toml as UTF-8") from None
    game_table = m.get(data, "game", "", dict)
    gid = m.get(game_table, "id", "game", str)
    if not _ID_RE.match(gid):
        raise m.error("game.id", f"game id {gid!r} may hold only letters, digits, '-', '_' and '.'")
    players = m.get(game_table, "players", "game", list)
    if len(players) != 2 or not all(isinstance(p, int) and not isinstance(p, bool) for p in players) \
            or not 1 <= players[0] <= players[1]:
        raise m.error("game.players", f"players must be [min, max] with 1 <= min <= max, not {players!r}",
                      hint="for example players = [2, 4]")
    comps_raw = m.get(data, "components", "", dict)
    components = {cid: _parse_component(m, game_dir, display_root, cid, c) for cid, c in comps_raw.items()}
    totals = []
    for i, t in enumerate(m.get(data, "totals", "", list, False, [])):
        where = f"totals[{i}]"
        if not isinstance(t, dict):
            raise m.error(where, "each [[totals]] entry must be a table")
        comp_id = m.get(t, "component", where, str)
        if comp_id not in components:
            raise m.error(f"{where}.component", f"no component {comp_id!r}",
                          hint=_suggest(comp_id, components) or None)
        filt = m.get(t, "where", where, dict, False, {})
        for col, want in filt.items():
            if col not in components[comp_id].columns:
                raise m.error(f"{where}.where.{col}", f"{col!r} is not a column of {comp_id!r}",
                              hint=_suggest(col, components[comp_id].columns) or None)
            spec = components[comp_id].columns[col]
            kinds = {"int": (int,), "float": (int, float), "bool": (bool,)}.get(spec.type, (str,))
            if isinstance(want, bool) != (bool in kinds) or not isinstance(want, kinds):
                example = {"int": "3", "float": "2.5", "bool": "true"}.get(spec.type, '"red"')
                raise m.error(f"{where}.where.{col}",
                              f"{col!r} is a {spec.type} column, so {want!r} would never match",
                              hint=f"write the value as a {spec.type}, e.g. {col} = {example}")
        count = m.get(t, "count", where, int)
        totals.append(StatedTotal(comp_id, count, m.get(t, "label", where, str),
                                  m.get(t, "source", where, str), tuple(filt.items())))
    colors = m.get(data, "colors", "", dict, False, {})
    for name, value in colors.items():
        if not isinstance(value, str) or not _COLOR_RE.match(value):
            raise m.error(f"colors.{name}", f"colour {name!r} must be \"#RRGGBB\", not {value!r}",
                          hint='for example red = "#C0392B"')
    game = Game(gid, m.get(game_table, "title", "game", str), game_dir, players[0], players[1],
                components, totals, data, display_root)
    errors: list[DataError] = []
    for comp in game:
        if comp.table is None:
            continue
        try:
            raw = read_csv(comp.table, comp.table_display, encoding=encoding, delimiter=delimiter)
        except DataError as exc:
            errors.append(exc)
            continue
        _load_rows(comp, raw, errors, copies_cap)
    if not errors:
        _check_ids_and_refs(game, errors)
    if errors:
        raise GameDataErrors(errors)
    return game
