"""Reading a game's manifest, ``game.toml``: the game, its components and their columns, the
totals the rulebook states and the colour palette (docs/game-format.md).

Every problem raises :class:`pnp.core.errors.ManifestError` naming ``game.toml`` and the dotted
key, with a hint; nothing is guessed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..core import units
from ..core.errors import Location, ManifestError
from ..core.suggest import close_match, did_you_mean
from .cells import COLOR_RE, ID_RE
from .game import COLUMN_TYPES, COMPONENT_KINDS, ColumnSpec, Component, Game, StatedTotal


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
                      hint=did_you_mean(ctype, COLUMN_TYPES, "types: " + ", ".join(COLUMN_TYPES)))
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
    if not ID_RE.match(cid):
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
                          hint=did_you_mean(col, columns) or "declare it under columns")
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
            close = close_match(key, sorted(_COMPONENT_KEYS), cutoff=0.8)
            if close:  # a misspelt setting would otherwise be kept as an option nobody reads
                raise m.error(f"{where}.{key}", f"unknown setting {key!r}", hint=f"did you mean {close!r}?")
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


def read_manifest(game_dir: Path, display_root: str) -> Game:
    """Read ``game_dir/game.toml`` into a :class:`Game` whose components have no rows yet.

    ``display_root`` is how the folder is named in messages. Raises ManifestError naming the
    key for anything missing, mistyped, unknown or inconsistent.
    """
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
    if not ID_RE.match(gid):
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
                          hint=did_you_mean(comp_id, components) or None)
        filt = m.get(t, "where", where, dict, False, {})
        for col, want in filt.items():
            if col not in components[comp_id].columns:
                raise m.error(f"{where}.where.{col}", f"{col!r} is not a column of {comp_id!r}",
                              hint=did_you_mean(col, components[comp_id].columns) or None)
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
        if not isinstance(value, str) or not COLOR_RE.match(value):
            raise m.error(f"colors.{name}", f"colour {name!r} must be \"#RRGGBB\", not {value!r}",
                          hint='for example red = "#C0392B"')
    return Game(gid, m.get(game_table, "title", "game", str), game_dir, players[0], players[1],
                components, totals, data, display_root)
