"""The names a rulebook template sees: read-only views of the game model (``game``,
``components``, ``tables``, ``totals``, ``rules``, ``colors``, ``manifest``, ``page``).

Every view answers attribute and item access and knows what it is called, so a misspelt name
is reported with the closest name it has (:mod:`pnp.outputs.rulebook.template`).
"""

from __future__ import annotations

from typing import Any

from ...model.context import resolved_values
from ...model.game import Component, Game, Row
from .markup import finalize


class _View:
    """Base of the read-only objects a template sees. ``_what`` describes the object in error
    messages; ``_names()`` lists the names it answers (for suggestions)."""

    _what = "this value"
    _kind = "attribute"
    _data: dict = {}

    def _names(self) -> list[str]:
        return list(self._data)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key) -> bool:
        return key in self._data


class TomlTable(_View):
    """A table of game.toml ([rules], [colors], the whole manifest) as seen by a template:
    ``rules.hand_limit`` or ``rules["hand_limit"]``; iterating gives the keys in file order."""

    _kind = "key"

    def __init__(self, data: dict, what: str):
        self._data = {k: _wrap_toml(v, f"{what[:-1]}.{k}]" if what.endswith("]") else f"{what} [{k}]")
                      for k, v in data.items()}
        self._what = what

    def __str__(self) -> str:
        return ", ".join(f"{k}: {finalize(v)}" for k, v in self._data.items())


def _wrap_toml(value: Any, what: str) -> Any:
    if isinstance(value, dict):
        return TomlTable(value, what)
    if isinstance(value, list):
        return tuple(_wrap_toml(v, what) for v in value)
    return value


class RowView(_View):
    """One typed row of a table: ``row.cost`` or ``row["cost"]`` for each declared column.

    Values are typed as the manifest declares them (int, float, bool, str, a tuple for a list
    column, None for a blank cell); a ``ref`` cell is its id and also gives the referenced
    row's columns (``row.proof_token.label``). Iterating gives the column names.
    """

    _kind = "column"

    def __init__(self, game: Game, comp: Component, row: Row):
        self._data = resolved_values(game, comp, row)
        self._what = f"a row of {comp.table_name or comp.id}"
        self._id = row.id

    def __str__(self) -> str:
        return str(self._id)


class ComponentView(_View):
    """One component: ``id``, ``kind``, ``name``, ``pieces`` (physical pieces in the box),
    ``copies`` (the manifest's copies, for a component without a copies column), ``rows``
    (RowView list in file order), ``columns`` (column names), ``table`` (the CSV file name or
    None), ``copies_column``, ``id_column``, ``card_size`` ("63.5 x 88.9 mm" or None),
    ``card_size_name``, ``back``, ``layout``; and every other manifest setting of the
    component by its key (``components.track.direction``)."""

    def __init__(self, game: Game, comp: Component):
        self.id = comp.id
        self.kind = comp.kind
        self.name = comp.name
        self.pieces = comp.pieces
        self.copies = comp.copies
        self.rows = [RowView(game, comp, r) for r in comp.rows]
        self.columns = list(comp.columns)
        self.table = comp.table.name if comp.table else None
        self.copies_column = comp.copies_column
        self.id_column = comp.id_column
        self.card_size = str(comp.card_size) if comp.card_size else None
        self.card_size_name = comp.card_size_name
        self.back = comp.back
        self.layout = comp.layout
        self._options = {k: _wrap_toml(v, f"[components.{comp.id}]") for k, v in comp.options.items()
                         if k != "ignore_columns"}
        self._what = f"component {comp.id!r}"

    _FIELDS = ("id", "kind", "name", "pieces", "copies", "rows", "columns", "table", "copies_column",
               "id_column", "card_size", "card_size_name", "back", "layout")

    def _names(self) -> list[str]:
        return list(self._FIELDS) + list(self._options)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._options[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        if key in self._FIELDS:
            return getattr(self, key)
        return self._options[key]

    def __str__(self) -> str:
        return self.name


class ComponentSet(_View):
    """Every component in manifest order: iterate it, or pick one by id
    (``components.blueprints`` or ``components["blueprints"]``)."""

    _what = "components"
    _kind = "component"

    def __init__(self, views: list[ComponentView]):
        self._data = {v.id: v for v in views}

    def __getitem__(self, key):
        if isinstance(key, int):
            return list(self._data.values())[key]
        return self._data[key]

    def __iter__(self):
        return iter(self._data.values())

    def __str__(self) -> str:
        return ", ".join(v.name for v in self._data.values())


class TableSet(_View):
    """The rows of every component that has a table, by component id (``tables.blueprints``);
    iterating gives the ids."""

    _what = "tables"
    _kind = "table"

    def __init__(self, views: list[ComponentView]):
        self._data = {v.id: v.rows for v in views if v.table}


class _Record(_View):
    """A fixed set of named values (``game``, ``page``, one of ``totals``)."""

    _fields: tuple[str, ...] = ()

    def __init__(self, **values: Any):
        for key in self._fields:
            object.__setattr__(self, key, values.pop(key))
        if values:
            raise TypeError(f"unexpected fields {sorted(values)}")

    def _names(self) -> list[str]:
        return list(self._fields)

    def __getitem__(self, key: str) -> Any:
        if key not in self._fields:
            raise KeyError(key)
        return getattr(self, key)

    def __setattr__(self, key, value):
        raise AttributeError(f"{self._what} is read-only")


class GameView(_Record):
    """``game`` in a template: ``id``, ``title``, ``players_min``, ``players_max``, ``players``
    (text: "2-4", or "2" when min = max) and ``pieces`` (every physical piece in the box)."""

    _what = "game"
    _fields = ("id", "title", "players_min", "players_max", "players", "pieces")

    def __str__(self) -> str:
        return self.title


class TotalView(_Record):
    """One stated total: ``component``, ``count`` (as the rulebook states it), ``label``,
    ``source`` (rulebook section), ``where`` (column -> value) and ``in_data`` (what the data
    holds)."""

    _what = "a stated total"
    _fields = ("component", "count", "label", "source", "where", "in_data")

    def __str__(self) -> str:
        return f"{self.count} {self.label}"


class PageView(_Record):
    """``page`` in a template: ``paper`` (the page size name: "a4", "letter", "a5",
    "half-letter"), ``booklet`` (true while the booklet pages are laid out), ``width_mm``,
    ``height_mm`` and ``frame_width_mm`` (the text column's width)."""

    _what = "page"
    _fields = ("paper", "booklet", "width_mm", "height_mm", "frame_width_mm")

    def __str__(self) -> str:
        return self.paper


DEFAULT_PAGE = dict(paper="letter", booklet=False, width_mm=215.9, height_mm=279.4, frame_width_mm=179.9)


def template_context(game: Game, page: PageView | None = None) -> dict[str, Any]:
    """The data names a rulebook template sees (functions and filters are added by
    :func:`render_template`): ``game``, ``components``, ``tables``, ``totals``, ``rules``
    (game.toml [rules]), ``colors`` (game.toml [colors]), ``manifest`` (all of game.toml) and
    ``page``. See docs/rulebooks.md."""
    views = [ComponentView(game, c) for c in game]
    players = str(game.players_min) if game.players_min == game.players_max else \
        f"{game.players_min}-{game.players_max}"
    totals = [TotalView(component=t.component, count=t.count, label=t.label, source=t.source,
                        where=TomlTable(dict(t.where), f"the where of total {t.label!r}"),
                        in_data=game.count(t)) for t in game.totals]
    return {
        "game": GameView(id=game.id, title=game.title, players_min=game.players_min,
                         players_max=game.players_max, players=players, pieces=game.pieces),
        "components": ComponentSet(views),
        "tables": TableSet(views),
        "totals": totals,
        "rules": TomlTable(game.manifest.get("rules", {}), "game.toml [rules]"),
        "colors": TomlTable(game.manifest.get("colors", {}), "game.toml [colors]"),
        "manifest": TomlTable(game.manifest, "game.toml"),
        "page": page if page is not None else PageView(**DEFAULT_PAGE),  # a view of no keys is falsy
    }
