"""The names a layout template sees for one piece, built from the game model.

Card, board, token and die layouts, and the rulebook's card pictures, all see a piece through
:func:`piece_context`: its row's columns (references resolved to the referenced rows),
``piece``, ``game`` and ``colors``. Boards and reference sheets see more
(:func:`board_context`): their table's rows, every table, ``rules``, ``options`` and ``board``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..core.units import Size, to_mm
from .game import Component, Game, Row


REF_DEPTH = 3
"""How many references deep a template may follow (a reference card's molecule, its element
cards, their family): each level's references resolve in turn, and a cycle of tables ends here."""


class Ref(str):
    """A reference cell's id that also gives the referenced row's columns as attributes, their
    references resolved in turn (``molecule.elements[0].family.glyph``), up to REF_DEPTH deep.
    A column named like a method of str (``title``, ``count``, ``index``) gives the column."""

    def __new__(cls, value: str, row: Row | None, game: Game | None = None, comp: Component | None = None,
                depth: int = 0):
        obj = super().__new__(cls, value)
        obj._row = row
        obj._game = game
        obj._comp = comp
        obj._depth = depth
        obj._values = None
        return obj

    def __getattribute__(self, name: str) -> Any:
        # a column of the referenced row comes before a method of str of the same name
        # (``family.title``, ``molecule.count``), which would otherwise print as a method
        if name[:1] != "_":
            row = object.__getattribute__(self, "__dict__").get("_row")
            if row is not None and name in row.values:
                return Ref.__getattr__(self, name)
        return super().__getattribute__(name)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        row = d.get("_row")
        if row is None or name not in row.values:
            raise AttributeError(name)
        if d["_values"] is None:
            game, comp, depth = d["_game"], d["_comp"], d["_depth"]
            d["_values"] = (resolved_values(game, comp, row, depth) if game is not None and comp is not None
                            and depth > 0 else row.values)
        return d["_values"][name]


def piece_context(game: Game, comp: Component, row: Row | None, copy: int = 1) -> dict[str, Any]:
    """The names a layout template sees for one piece: its row's columns (references resolve to
    the referenced row), ``piece`` (id, copy, copies, deck (the component id), deck_name),
    ``game`` (id, title) and ``colors`` (the game's palette); in a translated game also ``_``,
    ``gettext`` and ``ngettext`` (its catalogue, :mod:`pnp.model.catalogue`)."""
    ctx: dict[str, Any] = {
        "game": SimpleNamespace(id=game.id, title=game.title),
        "colors": game.manifest.get("colors", {}),
        "piece": SimpleNamespace(component=comp.id, deck=comp.id, deck_name=comp.name, name=comp.name,
                                 copy=copy, copies=row.copies if row else comp.copies,
                                 id=row.id if row else None),
    }
    if game.translations is not None:  # a layout's literal labels, _("Cost"), in the game's language
        ctx.update({"_": game.translations.gettext, "gettext": game.translations.gettext,
                    "ngettext": game.translations.ngettext})
    if row is not None:
        ctx.update(resolved_values(game, comp, row))
    return ctx


def resolved_values(game: Game, comp: Component, row: Row, depth: int = REF_DEPTH) -> dict[str, Any]:
    """A row's typed values with every reference resolved: a ``ref`` cell becomes a
    :class:`Ref` (its id, giving the referenced row's columns as attributes), a list of ids a
    tuple of them. The referenced rows' own references resolve too, ``depth`` levels in all.
    Card layouts and rulebook templates both see rows this way."""
    values: dict[str, Any] = {}
    for name, value in row.values.items():
        spec = comp.columns.get(name)
        if depth > 0 and spec is not None and spec.ref and value is not None:
            target = game.components[spec.ref]
            rows = target.by_id()
            if spec.type == "ref":
                value = Ref(value, rows.get(value), game, target, depth - 1)
            elif isinstance(value, tuple):  # a list of ids
                value = tuple(Ref(item, rows.get(item), game, target, depth - 1) for item in value)
        values[name] = value
    return values


def rows_as_dicts(comp: Component) -> list[dict[str, Any]]:
    """A component's rows as plain mappings of column name to typed value (file order)."""
    return [dict(row.values) for row in comp.rows]


def board_context(game: Game, comp: Component, copy: int, rows_from: Component | None = None,
                  size: Size | None = None) -> dict[str, Any]:
    """The names a board or sheet layout sees: piece_context's names plus ``rows`` (the rows of
    ``rows_from``, default the component itself), ``tables``, ``rules``, ``options`` and
    ``board`` (``width``/``height`` in mm)."""
    ctx = piece_context(game, comp, None, copy)
    ctx["rows"] = rows_as_dicts(rows_from or comp)
    ctx["tables"] = {c.id: rows_as_dicts(c) for c in game if c.rows}
    ctx["rules"] = game.manifest.get("rules", {})
    ctx["options"] = dict(comp.options)
    if size is not None:
        ctx["board"] = {"width": round(to_mm(size.width), 6), "height": round(to_mm(size.height), 6)}
    return ctx
