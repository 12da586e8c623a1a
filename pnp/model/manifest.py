"""Reading a game's manifest, ``game.toml``: the game, its components and their columns, the
totals the rulebook states and the colour palette (docs/game-format.md).

The shape of each table is a declarative schema (:mod:`pnp.core.schema`): the settings it may
have, their types and defaults. What one setting means for another (a copies column must be a
declared int column, a deck needs a back) is checked after. Every problem raises
:class:`pnp.core.errors.ManifestError` naming ``game.toml``, the line and the dotted key, with a
hint; nothing is guessed.
"""

from __future__ import annotations

import codecs
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from msgspec import Meta, Struct

from ..core import tomlcache, units
from ..core.errors import Location, ManifestError, Problem
from ..core.schema import TomlFile, check
from ..core.suggest import close_match, did_you_mean
from ..core.tomlpos import toml_error, toml_hint
from .cells import COLOR_RE, ID_RE, parse_cell
from .game import TRANSLATABLE_TYPES, COLUMN_TYPES, COMPONENT_KINDS, ColumnSpec, Component, Game, StatedTotal
from .readers import reader_for

DELIMITER_NAMES = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";"}
"""Delimiters a table of game.toml may name in words, as ``--delimiter`` may."""

Scalar = Union[str, int, float, bool]


class GameTable(Struct, forbid_unknown_fields=True):
    """``[game]``: the game's id, its title, ``players = [min, max]``, the ``version`` its
    pieces are stamped with and releases are named by (docs/versions.md) and the
    ``languages`` it is published in (docs/translating.md). Any other setting is refused."""

    id: str
    title: str
    players: list[int]
    version: Union[str, None] = None
    languages: list[str] = []


class BuildTable(Struct, forbid_unknown_fields=True):
    """``[build]``: how ``pnp build`` makes this game's home sheets by default; ``stamp``
    prints the version stamp on every piece (docs/versions.md); ``contact_sheets`` writes a
    contact sheet PNG per deck (docs/game-format.md)."""

    stamp: bool = False
    contact_sheets: bool = False


class ColumnTable(Struct, forbid_unknown_fields=True):
    """One column of a component's table, written as a table (``{ type = "int", min = 0 }``);
    a column written as a type name alone (``"str"``) takes every default."""

    type: str
    required: bool = True
    values: list[Scalar] = []
    min: Union[int, float, None] = None
    max: Union[int, float, None] = None
    ref: Union[str, None] = None
    separator: str = ";"
    description: str = ""
    default: Union[Scalar, None] = None
    translatable: bool = False


class TableSource(Struct, forbid_unknown_fields=True):
    """A component's ``table`` written as a table: the ``file`` and how it is read, the
    ``sheet`` of a workbook, or the ``encoding`` and ``delimiter`` of a CSV file
    (``table = { file = "cards.xlsx", sheet = "Creatures" }``)."""

    file: str
    sheet: Union[str, None] = None
    encoding: Union[str, None] = None
    delimiter: Union[str, None] = None


class ComponentTable(Struct):
    """``[components.ID]``. Settings this schema does not name are the component's options
    (a board's ``size``, a token's ``shape``, a die's ``faces`` ...), read by the stage that
    uses them; a name within a typo of one of these is refused."""

    kind: Literal[COMPONENT_KINDS]  # type: ignore[valid-type]
    name: str
    table: Union[str, TableSource, None] = None
    columns: dict[str, Any] = {}
    id_column: Union[str, None] = None
    copies_column: Union[str, None] = None
    copies: Annotated[int, Meta(ge=0)] = 1
    card_size: Union[str, None] = None
    back: Union[str, None] = None
    back_column: Union[str, None] = None
    layout: Union[str, None] = None
    layout_column: Union[str, None] = None
    ignore_columns: list[str] = []
    description: str = ""
    max_copies: Union[Annotated[int, Meta(ge=1)], None] = None


class TotalTable(Struct, forbid_unknown_fields=True):
    """One ``[[totals]]`` entry: a count the rulebook states, optionally of the rows ``where``
    some columns have given values."""

    component: str
    count: int
    label: str
    source: str
    where: dict[str, Scalar] = {}


class ManifestFile(Struct, forbid_unknown_fields=True):
    """The whole of game.toml: every top-level table it may have (docs/game-format.md, "Other
    tables of game.toml"). The tables read here are checked here; ``[rules]`` (templates and
    rules.toml), ``[fonts]`` (pnp.design.fonts), ``[boxes]`` (pnp.outputs.boxspec),
    ``[targets]`` (pnp.outputs.export.profiles) and ``[accessibility]`` (pnp.outputs.access)
    are kept for the stages that read them. A table of any other name is refused."""

    game: dict[str, Any]
    components: dict[str, Any]
    totals: list[Any] = []
    colors: dict[str, Any] = {}
    build: dict[str, Any] = {}
    rules: dict[str, Any] = {}
    fonts: dict[str, Any] = {}
    boxes: dict[str, Any] = {}
    targets: dict[str, Any] = {}
    accessibility: dict[str, Any] = {}


TOP_TABLES = tuple(ManifestFile.__struct_fields__)
"""The top-level tables game.toml may have, in the order the docs list them."""


VERSION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
"""A game version: a file name of its own (``releases/<version>.json``)."""
COMPONENT_KEYS = frozenset(ComponentTable.__struct_fields__) - {"max_copies"}
"""The settings of a component that are not options."""
_KINDS = ", ".join(COMPONENT_KINDS)


def _column(file: TomlFile, where: str, name: str, raw: Any) -> ColumnSpec:
    key = f"{where}.{name}"
    if isinstance(raw, str):
        raw = {"type": raw}
    if not isinstance(raw, dict):
        raise file.error(key, f"column {name!r} must be a type name or a table",
                         'write  name = "str"  or  name = { type = "int", min = 0 }', ManifestError)
    spec = check(raw, ColumnTable, file, key, ManifestError, what="column setting")
    if spec.type not in COLUMN_TYPES:
        raise file.error(f"{key}.type", f"unknown column type {spec.type!r}",
                         did_you_mean(spec.type, COLUMN_TYPES, "types: " + ", ".join(COLUMN_TYPES)), ManifestError)
    values = tuple(str(v) for v in spec.values)
    if spec.type == "enum" and not values:
        raise file.error(f"{key}.values", f"enum column {name!r} needs its allowed values",
                         'add values = ["red", "green"]', ManifestError)
    if spec.min is not None and spec.max is not None and spec.min > spec.max:
        raise file.error(f"{key}.min", f"min {spec.min} is larger than max {spec.max}", None, ManifestError)
    if spec.separator == "":
        raise file.error(f"{key}.separator", "the separator is empty", 'use separator = ";"', ManifestError)
    if spec.type == "ref" and not spec.ref:
        raise file.error(f"{key}.ref", f"ref column {name!r} must name the component it refers to",
                         'add ref = "component-id"', ManifestError)
    column = ColumnSpec(name=name, type=spec.type, required=spec.required, values=values, min=spec.min,
                        max=spec.max, ref=spec.ref, separator=spec.separator, description=spec.description,
                        translatable=spec.translatable)
    if spec.translatable and spec.type not in TRANSLATABLE_TYPES:
        raise file.error(f"{key}.translatable", f"a {spec.type} column cannot be translatable",
                         "only str and text columns hold words for players; numbers, counts, ids and "
                         "symbols are the same in every language", ManifestError)
    if spec.default is None:
        return column
    written = ("yes" if spec.default else "no") if isinstance(spec.default, bool) else str(spec.default)
    try:
        default = parse_cell(column, written)
    except Problem as exc:
        raise file.error(f"{key}.default", f"the default {spec.default!r} is not a value of this column: "
                         f"{exc.message}", exc.hint or None, ManifestError) from None
    if default is None:
        raise file.error(f"{key}.default", "the default is blank", "leave default out for blank cells", ManifestError)
    return replace(column, default=default)


def _component(file: TomlFile, game_dir: Path, display_root: str, cid: str, data: Any) -> Component:
    where = f"components.{cid}"

    def error(key: str, message: str, hint: str | None = None) -> ManifestError:
        return file.error(key, message, hint, ManifestError)

    if not isinstance(data, dict):
        raise error(where, f"component {cid!r} must be a table", f"write [components.{cid}]")
    if not ID_RE.match(cid):
        raise error(where, f"component id {cid!r} may hold only letters, digits, '-', '_' and '.'")
    spec = check(data, ComponentTable, file, where, ManifestError,
                 hints={"kind": "kinds: " + _KINDS, "name": f"add name = ... under [{where}]"},
                 choices={"kind": lambda value: (f"unknown component kind {value!r}", did_you_mean(
                     value, COMPONENT_KINDS, "kinds: " + _KINDS))})
    for key in data:
        if key not in COMPONENT_KEYS:
            close = close_match(key, sorted(COMPONENT_KEYS), cutoff=0.8)
            if close:  # a misspelt setting would otherwise be kept as an option nobody reads
                raise error(f"{where}.{key}", f"unknown setting {key!r}", f"did you mean {close!r}?")
    source = spec.table if isinstance(spec.table, TableSource) else TableSource(spec.table or "")
    kind, table = spec.kind, source.file or None
    if table and not spec.columns:
        raise error(f"{where}.columns", f"component {cid!r} has a table but declares no columns",
                    f"add [{where}.columns] with one line per CSV column")
    if spec.columns and not table:
        raise error(f"{where}.table", f"component {cid!r} declares columns but names no table")
    columns = {n: _column(file, f"{where}.columns", n, s) for n, s in spec.columns.items()}
    for key in ("id_column", "copies_column", "back_column", "layout_column"):
        col = getattr(spec, key)
        if col is not None and col not in columns:
            raise error(f"{where}.{key}", f"{key} {col!r} is not a declared column",
                        did_you_mean(col, columns) or "declare it under columns")
    if spec.id_column and columns[spec.id_column].type != "id":
        raise error(f"{where}.columns.{spec.id_column}", f"the id column {spec.id_column!r} must have type \"id\"")
    if spec.copies_column and columns[spec.copies_column].type != "int":
        raise error(f"{where}.columns.{spec.copies_column}",
                    f"the copies column {spec.copies_column!r} must have type \"int\"")
    if kind == "deck" and table and not spec.id_column:
        raise error(f"{where}.id_column", f"deck {cid!r} needs an id column",
                    "ids keep a card's identity when rows move; add an id column")
    if spec.copies_column and "copies" in data:
        raise error(f"{where}.copies", "give either copies or copies_column, not both")
    card_size = None
    if spec.card_size is not None:
        try:
            card_size = units.parse_size(spec.card_size, units.CARD_SIZES)
        except ValueError as exc:
            raise error(f"{where}.card_size", str(exc),
                        did_you_mean(spec.card_size.strip().lower(), units.CARD_SIZES) or None) from None
    elif kind == "deck":
        raise error(f"{where}.card_size", f"deck {cid!r} needs a card_size",
                    'for example card_size = "poker" (63.5 x 88.9 mm) or "63mm x 88mm"')
    if kind == "deck" and not (spec.back or spec.back_column):
        raise error(f"{where}.back", f"deck {cid!r} needs a back or a back_column",
                    'name the deck back layout, for example back = "red-back"')
    if spec.copies_column is None and "copies" in columns and "copies" not in data:
        raise error(f"{where}.copies_column",
                    f"{cid!r} declares a column 'copies' but no copies_column, so every row would count once",
                    'add copies_column = "copies", or rename the column if it means something else')
    for name, column in columns.items():
        if not column.translatable:
            continue
        if not spec.id_column:
            raise error(f"{where}.columns.{name}.translatable",
                        f"column {name!r} is translatable but {cid!r} has no id_column",
                        "a translation is kept by table, row id and column, so it stays with its row "
                        "when rows move: add id_column")
        if name in (spec.id_column, spec.copies_column, spec.back_column, spec.layout_column):
            raise error(f"{where}.columns.{name}.translatable",
                        f"column {name!r} names rows, copies, backs or layouts and cannot be translatable",
                        "declare a separate column for the words players read")
    delimiter = _table_format(file, f"{where}.table", source)
    options = {k: v for k, v in data.items() if k not in COMPONENT_KEYS}
    options["ignore_columns"] = list(spec.ignore_columns)
    table_path = (game_dir / table) if table else None
    if table_path is not None and not table_path.resolve().is_relative_to(game_dir.resolve()):
        raise error(f"{where}.table", f"table {table!r} is outside the game folder",
                    "keep every table inside the game folder")
    return Component(
        id=cid, kind=kind, name=spec.name, table=table_path,
        table_display=f"{display_root}/{table}" if table else None,
        columns=columns, id_column=spec.id_column, copies_column=spec.copies_column, copies=spec.copies,
        card_size=card_size, card_size_name=spec.card_size, back=spec.back, back_column=spec.back_column,
        layout=spec.layout, layout_column=spec.layout_column, options=options,
        sheet=source.sheet, encoding=source.encoding, delimiter=delimiter,
    )


def _table_format(file: TomlFile, where: str, spec: TableSource) -> str | None:
    """Check how a table is read (``sheet``, ``encoding``, ``delimiter`` of the component's
    ``table``, key ``where``) against the format its file has; returns the delimiter as one
    character (None: detected)."""
    if not spec.file:
        if spec.sheet is not None or spec.encoding is not None or spec.delimiter is not None:
            raise file.error(f"{where}.file", "the table's file is empty", None, ManifestError)
        return None
    reader = reader_for(Path(spec.file))
    if spec.sheet is not None and not reader.sheets:
        raise file.error(f"{where}.sheet", f"{spec.file!r} is not a workbook, so it has no sheets",
                         "sheet names the sheet of an .xlsx, .xlsm or .ods table", ManifestError)
    if spec.sheet is not None and not spec.sheet.strip():
        raise file.error(f"{where}.sheet", "the sheet name is empty", "write the name on the sheet's tab",
                         ManifestError)
    for key in ("encoding", "delimiter"):
        if getattr(spec, key) is not None and not reader.text:
            raise file.error(f"{where}.{key}", f"{spec.file!r} is a workbook, which has no {key}",
                             f"{key} is for CSV tables; a workbook's cells are read as the spreadsheet saved them",
                             ManifestError)
    if spec.encoding is not None:
        try:
            codecs.lookup(spec.encoding)
        except LookupError:
            raise file.error(f"{where}.encoding", f"unknown text encoding {spec.encoding!r}",
                             "for example utf-8, cp1252, latin-1, utf-16", ManifestError) from None
    if spec.delimiter is None:
        return None
    delimiter = DELIMITER_NAMES.get(spec.delimiter.lower(), spec.delimiter)
    if len(delimiter) != 1:
        raise file.error(f"{where}.delimiter", f"the delimiter {spec.delimiter!r} is not one character",
                         'write delimiter = ";", delimiter = "," or delimiter = "tab"', ManifestError)
    return delimiter


def _total(file: TomlFile, i: int, raw: Any, components: dict[str, Component]) -> StatedTotal:
    where = f"totals[{i}]"
    if not isinstance(raw, dict):
        raise file.error(where, "each [[totals]] entry must be a table", None, ManifestError)
    spec = check(raw, TotalTable, file, where, ManifestError, what="total setting")
    if spec.component not in components:
        raise file.error(f"{where}.component", f"no component {spec.component!r}",
                         did_you_mean(spec.component, components) or None, ManifestError)
    comp = components[spec.component]
    for col, want in spec.where.items():
        if col not in comp.columns:
            raise file.error(f"{where}.where.{col}", f"{col!r} is not a column of {spec.component!r}",
                             did_you_mean(col, comp.columns) or None, ManifestError)
        column = comp.columns[col]
        kinds = {"int": (int,), "float": (int, float), "bool": (bool,)}.get(column.type, (str,))
        if isinstance(want, bool) != (bool in kinds) or not isinstance(want, kinds):
            example = {"int": "3", "float": "2.5", "bool": "true"}.get(column.type, '"red"')
            article = "an" if column.type[0] in "aeiou" else "a"
            raise file.error(f"{where}.where.{col}",
                             f"{col!r} is {article} {column.type} column, so {want!r} would never match",
                             f"write the value as {article} {column.type}, e.g. {col} = {example}", ManifestError)
    return StatedTotal(spec.component, spec.count, spec.label, spec.source, tuple(spec.where.items()))


def read_manifest(game_dir: Path, display_root: str) -> Game:
    """Read ``game_dir/game.toml`` into a :class:`Game` whose components have no rows yet.

    ``display_root`` is how the folder is named in messages. Raises ManifestError naming the
    line and key for anything missing, mistyped, unknown or inconsistent.
    """
    manifest_path = game_dir / "game.toml"
    display = f"{display_root}/game.toml"
    if not manifest_path.is_file():
        raise ManifestError("no game.toml here", location=Location(display_root),
                            hint="a game folder holds game.toml and its CSV tables; see docs/game-format.md",
                            rule="schema.manifest")
    try:
        text = manifest_path.read_text(encoding="utf-8-sig")
        data = tomlcache.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where, message = toml_error(display, exc, text)
        raise ManifestError(message, location=where, rule="schema.manifest",
                            hint=toml_hint(message)) from None
    except UnicodeDecodeError:
        raise ManifestError("not UTF-8 text", location=Location(display), hint="save game.toml as UTF-8",
                            rule="schema.manifest") from None
    file = TomlFile.of_text(display, text)
    _known_tables(file, data)
    top = check(data, ManifestFile, file, "", ManifestError)
    game = check(top.game, GameTable, file, "game", ManifestError, what="game setting")
    if not ID_RE.match(game.id):
        raise file.error("game.id", f"game id {game.id!r} may hold only letters, digits, '-', '_' and '.'", None,
                         ManifestError)
    if len(game.players) != 2 or not 1 <= game.players[0] <= game.players[1]:
        raise file.error("game.players", f"players must be [min, max] with 1 <= min <= max, not {game.players!r}",
                         "for example players = [2, 4]", ManifestError)
    if game.version is not None and not VERSION_RE.match(game.version):
        raise file.error("game.version", f"version {game.version!r} may hold only letters, digits, '.', '-' and '_'",
                         'for example version = "1.2" (it names the release file releases/1.2.json)', ManifestError)
    build = check(top.build, BuildTable, file, "build", ManifestError, what="build setting")
    languages = _languages(file, game.languages)
    components = {cid: _component(file, game_dir, display_root, cid, c) for cid, c in top.components.items()}
    totals = [_total(file, i, t, components) for i, t in enumerate(top.totals)]
    for name, value in top.colors.items():
        if not isinstance(value, str) or not COLOR_RE.match(value):
            raise file.error(f"colors.{name}", f"colour {name!r} must be \"#RRGGBB\", not {value!r}",
                             'for example red = "#C0392B"', ManifestError)
    return Game(game.id, game.title, game_dir, game.players[0], game.players[1], components, totals, data,
                display_root, version=game.version, stamp=build.stamp,
                contact_sheets=build.contact_sheets, languages=languages)


def _known_tables(file: TomlFile, data: dict[str, Any]) -> None:
    """Refuse a top-level table or setting of game.toml that is not one of :data:`TOP_TABLES`
    (a misspelt ``[colours]`` or ``[[total]]`` would otherwise be read as nothing), at its line
    with the closest name. Raises ManifestError."""
    for key, value in data.items():
        if key in TOP_TABLES:
            continue
        where = file.location(key)
        array = isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
        if array or isinstance(value, dict):
            message = f"unknown table [[{key}]]" if array else f"unknown table [{key}]"
        else:
            message = f"unknown setting {key!r} outside every table"
        tables = "game.toml's tables: " + ", ".join(TOP_TABLES)
        if key in GameTable.__struct_fields__ and not isinstance(value, dict):
            hint = f"{key} is a setting of the game: write it under [game]"
        else:
            hint = did_you_mean(key, TOP_TABLES, tables)
        raise ManifestError(message, location=where, hint=hint, rule="schema.manifest")


def _languages(file: TomlFile, codes: list[str]) -> tuple[str, ...]:
    """``[game] languages``: language codes Babel knows (``en``, ``de``, ``pt_BR``), each once,
    the source first. Raises ManifestError naming the code."""
    from babel.core import Locale, UnknownLocaleError

    seen: list[str] = []
    for code in codes:
        try:
            Locale.parse(code.replace("-", "_"))
        except (UnknownLocaleError, ValueError, TypeError):
            raise file.error("game.languages", f"unknown language code {code!r}",
                             'use codes such as "en", "de", "fr" or "pt_BR"', ManifestError) from None
        if code in seen:
            raise file.error("game.languages", f"language {code!r} is listed twice", None, ManifestError)
        seen.append(code)
    if len(seen) == 1:
        raise file.error("game.languages", "languages lists only the source language",
                         'list the source first and then each translation, e.g. languages = ["en", "de"]',
                         ManifestError)
    return tuple(seen)
