"""Composition analysis: what a designer counts before a print run.

:func:`analyze` works on a loaded game and its rule book (:mod:`pnp.validate.rulesfile`) and returns an
:class:`Analysis`:

- **tallies**: pieces of each component counted by the values of a column (colour, family,
  type, rank ...), copies included; a list column counts each item;
- **cross tables**: pieces counted by two columns at once (orders by rank and type);
- **curves**: how many pieces have each cost size (places in the cost), with the value column
  (points) beside it, and histograms of number columns such as a hero's power;
- **needs**: for every ``cost-payable`` rule, what the costs ask for each name (how many costs
  use it, the most one cost needs, the sum over all costs) against what the game supplies.

``rules.toml``'s ``[analysis]`` table chooses the columns (docs/validation.md); without it,
every deck's enum, ref and yes/no columns with 2 to 15 different values are tallied (a
``layout_column`` too). :func:`analysis_renderables`
gives Rich tables; :func:`write_plots` writes PNG charts with matplotlib's Agg renderer, the same
bytes for the same data. Neither Rich nor matplotlib is imported until they are needed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from ..model.cost import parse_cost
from ..model.game import Component, Game
from .payment import Unit
from .runner import Runner

FALLBACK_COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3",
                    "#8C8C8C", "#CCB974", "#64B5CD")
"""Bar colours when the game's [colors] palette has none for a value (seaborn 'deep')."""

PLOT_DPI = 100
"""Pixels per inch of the PNG charts (a 8 x 4.5 in chart is 800 x 450 px)."""


@dataclass
class Tally:
    """Pieces of ``component`` by the values of ``column``: ``counts`` in display order."""

    component: str
    name: str
    column: str
    counts: list[tuple[str, int]]
    total: int
    unit: str = "pieces"


@dataclass
class CrossTab:
    """Pieces of ``component`` by two columns: ``cells[(row value, column value)]``."""

    component: str
    name: str
    rows: str
    columns: str
    row_values: list[str]
    column_values: list[str]
    cells: dict[tuple[str, str], int]

    def as_dict(self) -> dict:
        """JSON-ready: cells as a nested dict row value -> column value -> pieces."""
        return {"component": self.component, "name": self.name, "rows": self.rows, "columns": self.columns,
                "cells": {r: {c: self.cells.get((r, c), 0) for c in self.column_values} for r in self.row_values}}


@dataclass
class Curve:
    """Pieces of ``component`` by a whole number: the places of a cost, or a number column.

    ``points`` are (size, pieces); ``values`` maps a size to the values of ``value_column`` of
    the pieces of that size (for example the points of every blueprint that costs 3 cards).
    """

    component: str
    name: str
    column: str
    kind: str
    points: list[tuple[int, int]]
    value_column: str | None = None
    values: dict[int, list[float]] = field(default_factory=dict)


@dataclass
class NeedRow:
    """One name a cost uses: costs that use it, the most one cost needs, the sum of needs, the
    supply the rule counts, and what other columns yield of it (``yields``)."""

    name: str
    costs: int
    most: int
    total: int
    supply: int
    yields: dict[str, int] = field(default_factory=dict)


@dataclass
class Needs:
    """What the costs of ``component.column`` ask for against the supply of rule ``rule``."""

    component: str
    name: str
    column: str
    rule: str
    units: str
    rows: list[NeedRow]
    yield_labels: list[str] = field(default_factory=list)


@dataclass
class Analysis:
    """A game's composition; see the module docstring."""

    game: str
    title: str
    palette: dict[str, str]
    tallies: list[Tally] = field(default_factory=list)
    crosstabs: list[CrossTab] = field(default_factory=list)
    curves: list[Curve] = field(default_factory=list)
    needs: list[Needs] = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready, without the palette."""
        return {
            "tallies": [asdict(t) for t in self.tallies],
            "crosstabs": [c.as_dict() for c in self.crosstabs],
            "curves": [{**asdict(c), "values": {str(k): v for k, v in c.values.items()}} for c in self.curves],
            "needs": [asdict(n) for n in self.needs],
        }


def _show(value: Any) -> str:
    if value is None:
        return "(blank)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _pieces(comp: Component, row) -> int:
    return row.copies if comp.copies_column else 1


def _value_order(game: Game, comp: Component, column: str, seen: list[str]) -> list[str]:
    spec = comp.columns[column]
    order: list[str] = []
    if spec.values:
        order = [v for v in spec.values]
    elif spec.ref and spec.ref in game.components:
        order = [r.id for r in game.components[spec.ref].rows if r.id]
    elif spec.type == "bool":
        order = ["yes", "no"]
    rest = [v for v in seen if v not in order]
    if all(v.lstrip("-").isdigit() for v in rest):
        rest.sort(key=int)
    return [v for v in order if v in seen] + rest


def tally(game: Game, comp: Component, column: str) -> Tally:
    """Pieces of ``comp`` per value of ``column`` (each item of a list column counts)."""
    counts: Counter = Counter()
    seen: list[str] = []
    for row in comp.rows:
        value = row.get(column)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            key = _show(item)
            if key not in counts:
                seen.append(key)
            counts[key] += _pieces(comp, row)
    order = _value_order(game, comp, column, seen)
    return Tally(comp.id, comp.name, column, [(v, counts[v]) for v in order],
                 sum(_pieces(comp, r) for r in comp.rows), "pieces" if comp.copies_column else "rows")


def crosstab(game: Game, comp: Component, rows: str, columns: str) -> CrossTab:
    """Pieces of ``comp`` counted by the values of two columns."""
    cells: Counter = Counter()
    rv: list[str] = []
    cv: list[str] = []
    for row in comp.rows:
        r, c = _show(row.get(rows)), _show(row.get(columns))
        rv += [r] if r not in rv else []
        cv += [c] if c not in cv else []
        cells[(r, c)] += _pieces(comp, row)
    return CrossTab(comp.id, comp.name, rows, columns, _value_order(game, comp, rows, rv),
                    _value_order(game, comp, columns, cv), dict(cells))


def _auto_tally_columns(comp: Component) -> list[str]:
    """The columns of ``comp`` tallied without ``[analysis]``: every enum, ref and bool column
    with 2 to 15 different values in the table, the column that names each card's layout
    (``layout_column``, a card type) included; not the id and copies columns."""
    skip = {comp.id_column, comp.copies_column}
    out = []
    for name, spec in comp.columns.items():
        if name in skip or spec.type not in ("enum", "ref", "bool"):
            continue
        distinct = {row.get(name) for row in comp.rows}
        if 2 <= len(distinct) <= 15:
            out.append(name)
    return out


def _cost_units(text: Any) -> int | None:
    if text is None:
        return None
    try:
        return sum(t.count for t in parse_cost(text))
    except ValueError:
        return None


def analyze(game: Game, book=None) -> Analysis:
    """The composition of ``game``, as chosen by the rule book's ``[analysis]`` (see module)."""
    settings: dict = dict(getattr(book, "analysis", {}) or {})
    palette = {k: v for k, v in game.manifest.get("colors", {}).items() if isinstance(v, str)}
    result = Analysis(game.id, game.title, palette)
    chosen = settings.get("tally")
    if not isinstance(chosen, dict):
        chosen = {c.id: _auto_tally_columns(c) for c in game if c.kind == "deck"}
    for cid, columns in chosen.items():
        comp = game.components.get(cid)
        if comp is None:
            continue
        for column in (columns if isinstance(columns, list) else [columns]):
            if column in comp.columns:
                result.tallies.append(tally(game, comp, column))
    for cid, pair in (settings.get("crosstab") or {}).items():
        comp = game.components.get(cid)
        if comp is not None and isinstance(pair, list) and len(pair) == 2 and all(p in comp.columns for p in pair):
            result.crosstabs.append(crosstab(game, comp, pair[0], pair[1]))
    values = settings.get("cost_value") or {}
    for spec in getattr(book, "costs", []) or []:
        comp = game.components[spec.component]
        value_col = values.get(comp.id) if values.get(comp.id) in comp.columns else None
        sizes: Counter = Counter()
        by_size: dict[int, list[float]] = {}
        for row in comp.rows:
            n = _cost_units(row.get(spec.column))
            if n is None:
                continue
            sizes[n] += _pieces(comp, row)
            if value_col and row.get(value_col) is not None:
                by_size.setdefault(n, []).append(row.get(value_col))
        if len(sizes) < 2 and not value_col:
            continue  # every cost the same size: nothing to plot
        result.curves.append(Curve(comp.id, comp.name, spec.column, "cost", sorted(sizes.items()),
                                   value_col, {k: sorted(v) for k, v in sorted(by_size.items())}))
    for cid, columns in (settings.get("curves") or {}).items():
        comp = game.components.get(cid)
        if comp is None:
            continue
        for column in (columns if isinstance(columns, list) else [columns]):
            if column not in comp.columns:
                continue
            hist: Counter = Counter()
            for row in comp.rows:
                v = row.get(column)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    hist[int(v)] += _pieces(comp, row)
            result.curves.append(Curve(comp.id, comp.name, column, "number", sorted(hist.items())))
    if book is not None:
        result.needs = _needs(game, book, settings)
    return result


def _needs(game: Game, book, settings: dict) -> list[Needs]:

    runner = Runner(game, book)
    yields_spec = [y for y in (settings.get("yields") or []) if isinstance(y, str) and "." in y]
    out = []
    for rule in book.rules:
        if rule.kind != "cost-payable":
            continue
        comp = game.components[rule.params["component"]]
        column = rule.params["column"]
        try:
            units: list[Unit] = runner.units(rule, "supply", None)
            rows = runner.selected(rule, comp)
        except Exception:  # a broken rule is reported by pnp check itself
            continue
        terms_by_label: dict[str, list] = {}
        uses: Counter = Counter()
        most: Counter = Counter()
        total: Counter = Counter()
        for row in rows:
            try:
                terms = parse_cost(row.get(column)) if row.get(column) is not None else []
            except ValueError:
                continue
            per_row: Counter = Counter()
            for t in terms:
                label = " | ".join(t.options)
                terms_by_label.setdefault(label, [t])
                per_row[label] += t.count
            for label, n in per_row.items():
                uses[label] += 1
                most[label] = max(most[label], n)
                total[label] += n * _pieces(comp, row)
        yields: dict[str, Counter] = {}
        for y in yields_spec:
            ycid, ycol = y.split(".", 1)
            ycomp = game.components.get(ycid)
            if ycomp is None or ycol not in ycomp.columns:
                continue
            got: Counter = Counter()
            for row in ycomp.rows:
                try:
                    for t in parse_cost(row.get(ycol)) if row.get(ycol) is not None else []:
                        for o in t.options:
                            got[o] += t.count * _pieces(ycomp, row)
                except ValueError:
                    continue
            yields[y] = got
        need_rows = []
        for label, (term,) in terms_by_label.items():
            supply = sum(u.count for u in units if u.fits(term))
            need_rows.append(NeedRow(label, uses[label], most[label], total[label], supply,
                                     {y: sum(g[o] for o in term.options) for y, g in yields.items()}))
        out.append(Needs(comp.id, comp.name, column, rule.id, str(rule.params.get("units", "pieces")),
                         need_rows, list(yields)))
    return out
