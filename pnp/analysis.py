"""Composition analysis: what a designer counts before a print run.

:func:`analyze` works on a loaded game and its rule book (:mod:`pnp.rules`) and returns an
:class:`Analysis`:

- **tallies**: pieces of each component counted by the values of a column (colour, family,
  type, rank ...), copies included; a list column counts each item;
- **cross tables**: pieces counted by two columns at once (orders by rank and type);
- **curves**: how many pieces have each cost size (places in the cost), with the value column
  (points) beside it, and histograms of number columns such as a hero's power;
- **needs**: for every ``cost-payable`` rule, what the costs ask for each name (how many costs
  use it, the most one cost needs, the sum over all costs) against what the game supplies.

``rules.toml``'s ``[analysis]`` table chooses the columns (docs/validation.md); without it,
every deck's enum and ref columns with 2 to 15 values are tallied. :func:`analysis_renderables`
gives Rich tables; :func:`write_plots` writes PNG charts with matplotlib's Agg renderer, the same
bytes for the same data. Neither Rich nor matplotlib is imported until they are needed.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .cost import parse_cost
from .model import Component, Game

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
    skip = {comp.id_column, comp.copies_column, comp.layout_column}
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
    from .rules import Runner, Unit

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


# --------------------------------------------------------------------------------------------
# Terminal tables


def analysis_renderables(a: Analysis) -> list:
    """The analysis as Rich tables, one per component tally, cross table, curve and needs."""
    from rich.padding import Padding
    from rich.table import Table

    out: list = []
    by_comp: dict[str, list[Tally]] = {}
    for t in a.tallies:
        by_comp.setdefault(t.component, []).append(t)
    for tallies in by_comp.values():
        table = Table(title=f"{tallies[0].name}: {tallies[0].total} {tallies[0].unit}", title_justify="left",
                      show_edge=False, pad_edge=False)
        table.add_column("by")
        table.add_column("value")
        table.add_column(tallies[0].unit, justify="right")
        table.add_column("share", justify="right")
        for i, t in enumerate(tallies):
            if i:
                table.add_section()
            for j, (value, n) in enumerate(t.counts):
                share = f"{100 * n / t.total:.0f}%" if t.total else ""
                table.add_row(t.column if j == 0 else "", value, str(n), share)
        out.append(Padding(table, (1, 0, 0, 2), expand=False))
    for c in a.crosstabs:
        table = Table(title=f"{c.name} by {c.rows} and {c.columns}", title_justify="left",
                      show_edge=False, pad_edge=False)
        table.add_column(f"{c.rows} \\ {c.columns}")
        for v in c.column_values:
            table.add_column(v, justify="right")
        table.add_column("total", justify="right")
        for r in c.row_values:
            cells = [c.cells.get((r, v), 0) for v in c.column_values]
            table.add_row(r, *[str(n) for n in cells], str(sum(cells)))
        table.add_section()
        totals = [sum(c.cells.get((r, v), 0) for r in c.row_values) for v in c.column_values]
        table.add_row("total", *[str(n) for n in totals], str(sum(totals)))
        out.append(Padding(table, (1, 0, 0, 2), expand=False))
    for curve in a.curves:
        what = f"places in {curve.column}" if curve.kind == "cost" else curve.column
        table = Table(title=f"{curve.name}: {'cost curve' if curve.kind == 'cost' else curve.column}",
                      title_justify="left", show_edge=False, pad_edge=False)
        table.add_column(what, justify="right")
        table.add_column("pieces", justify="right")
        table.add_column("", no_wrap=True)
        if curve.value_column:
            table.add_column(curve.value_column)
        most = max((n for _, n in curve.points), default=0)
        for size, n in curve.points:
            bar = "█" * max(1, round(20 * n / most)) if most else ""
            row = [str(size), str(n), bar]
            if curve.value_column:
                row.append(", ".join(f"{v:g}" for v in curve.values.get(size, [])))
            table.add_row(*row)
        out.append(Padding(table, (1, 0, 0, 2), expand=False))
    for needs in a.needs:
        table = Table(title=f"{needs.name} {needs.column}: needs against supply ({needs.units})",
                      title_justify="left", show_edge=False, pad_edge=False)
        for col, just in (("name", "left"), ("costs using it", "right"), ("most in one", "right"),
                          ("sum of all", "right"), ("supply", "right")):
            table.add_column(col, justify=just)
        for y in needs.yield_labels:
            table.add_column(y, justify="right")
        for r in needs.rows:
            supply = str(r.supply) if r.supply >= r.most else f"[red]{r.supply}[/red]"
            table.add_row(r.name, str(r.costs), str(r.most), str(r.total), supply,
                          *[str(r.yields.get(y, 0)) for y in needs.yield_labels])
        out.append(Padding(table, (1, 0, 0, 2), expand=False))
    return out


# --------------------------------------------------------------------------------------------
# PNG charts


def _colour(palette: dict[str, str], value: str, index: int) -> str:
    if value == "(blank)":
        return "#C8C8C8"
    keys = [value, value.replace("-", "_"), f"family_{value.replace('-', '_')}", f"player_{value}",
            f"player-{value}"]
    for k in keys:
        c = palette.get(k)
        if isinstance(c, str) and len(c) == 7 and c.startswith("#"):
            return c
    return FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)]


def _figure(width_in: float, height_in: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_in, height_in), dpi=PLOT_DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=PLOT_DPI, metadata={"Software": None})
    return buf.getvalue()


def write_plots(a: Analysis, out_dir: Path) -> list[Path]:
    """Write the analysis as PNG charts into ``out_dir`` (created if needed); returns the paths.

    One chart per component's tallies (``<component>-counts.png``), per cross table
    (``<component>-<rows>-by-<columns>.png``), per curve (``<component>-<column>-curve.png``)
    and per needs table (``<rule id>-needs.png``). Charts are 8 in wide at
    :data:`PLOT_DPI`; matplotlib's Agg renderer with a fixed hash salt and no software or date
    metadata gives the same bytes for the same data. Files are written atomically.
    """
    import matplotlib

    from .build import write_atomic

    style = {"svg.hashsalt": "pnp", "font.family": "DejaVu Sans", "font.size": 9, "axes.spines.top": False,
             "axes.spines.right": False, "path.simplify": False}
    written: list[Path] = []
    with matplotlib.rc_context(style):
        by_comp: dict[str, list[Tally]] = {}
        for t in a.tallies:
            by_comp.setdefault(t.component, []).append(t)
        for cid, tallies in by_comp.items():
            fig = _figure(max(4.0, 3.4 * len(tallies)), 3.8)
            axes = fig.subplots(1, len(tallies), squeeze=False)[0]
            for ax, t in zip(axes, tallies):
                labels = [v for v, _ in t.counts]
                values = [n for _, n in t.counts]
                colours = [_colour(a.palette, v, i) for i, v in enumerate(labels)]
                if len(labels) > 6:  # many values: horizontal bars keep the labels readable
                    ys = list(range(len(labels)))[::-1]
                    ax.barh(ys, values, color=colours, edgecolor="#333333", linewidth=0.5)
                    ax.set_yticks(ys, labels)
                    for y, n in zip(ys, values):
                        ax.annotate(f" {n}", (n, y), ha="left", va="center", fontsize=8)
                    ax.set_xlabel(t.unit)
                else:
                    ax.bar(range(len(labels)), values, color=colours, edgecolor="#333333", linewidth=0.5)
                    ax.set_xticks(range(len(labels)), labels, rotation=30 if len(labels) > 4 else 0,
                                  ha="right" if len(labels) > 4 else "center")
                    for x, n in enumerate(values):
                        ax.annotate(str(n), (x, n), ha="center", va="bottom", fontsize=8)
                    ax.set_ylabel(t.unit)
                ax.set_title(f"by {t.column}")
            fig.suptitle(f"{a.title}: {tallies[0].name} ({tallies[0].total} {tallies[0].unit})")
            written.append(_write(out_dir / f"{cid}-counts.png", _png(fig), write_atomic))
        for c in a.crosstabs:
            fig = _figure(8, 4.5)
            ax = fig.subplots()
            bottoms = [0] * len(c.row_values)
            for i, v in enumerate(c.column_values):
                heights = [c.cells.get((r, v), 0) for r in c.row_values]
                ax.bar(range(len(c.row_values)), heights, bottom=bottoms, label=v,
                       color=_colour(a.palette, v, i), edgecolor="#333333", linewidth=0.5)
                bottoms = [b + h for b, h in zip(bottoms, heights)]
            ax.set_xticks(range(len(c.row_values)), c.row_values)
            ax.set_xlabel(c.rows)
            ax.set_ylabel("pieces")
            ax.legend(title=c.columns, frameon=False)
            ax.set_title(f"{a.title}: {c.name} by {c.rows} and {c.columns}")
            written.append(_write(out_dir / f"{c.component}-{c.rows}-by-{c.columns}.png", _png(fig), write_atomic))
        for curve in a.curves:
            with_values = bool(curve.value_column and curve.values)
            fig = _figure(8, 4)
            axes = fig.subplots(1, 2 if with_values else 1, squeeze=False)[0]
            sizes = [s for s, _ in curve.points]
            ax = axes[0]
            ax.bar(sizes, [n for _, n in curve.points], color=FALLBACK_COLOURS[0], edgecolor="#333333", linewidth=0.5)
            ax.set_xticks(sizes)
            ax.set_xlabel(f"places in {curve.column}" if curve.kind == "cost" else curve.column)
            ax.set_ylabel("pieces")
            ax.set_title("cost curve" if curve.kind == "cost" else f"{curve.column}")
            if with_values:
                ax2 = axes[1]
                same = Counter((size, v) for size, vs in curve.values.items() for v in vs)
                points = sorted(same.items())
                ax2.scatter([p[0][0] for p in points], [p[0][1] for p in points],
                            s=[30 * n for _, n in points], color=FALLBACK_COLOURS[1], edgecolor="#333333",
                            linewidth=0.5, zorder=3)
                for (x, y), n in points:
                    if n > 1:
                        ax2.annotate(f"x{n}", (x, y), xytext=(3 + 3 * n ** 0.5, 0), textcoords="offset points",
                                     ha="left", va="center", fontsize=7)
                ax2.set_xticks(sizes)
                ax2.set_xlabel(f"places in {curve.column}")
                ax2.set_ylabel(curve.value_column)
                ax2.set_title(f"{curve.value_column} by cost size")
                ax2.grid(True, linewidth=0.3)
            fig.suptitle(f"{a.title}: {curve.name}")
            written.append(_write(out_dir / f"{curve.component}-{curve.column}-curve.png", _png(fig), write_atomic))
        for needs in a.needs:
            fig = _figure(max(7.0, 0.55 * len(needs.rows) + 4), 4.5)
            ax = fig.subplots()
            series = [("most in one cost", [r.most for r in needs.rows]),
                      ("sum over all costs", [r.total for r in needs.rows]),
                      (f"supply ({needs.units})", [r.supply for r in needs.rows])]
            series += [(y, [r.yields.get(y, 0) for r in needs.rows]) for y in needs.yield_labels]
            width = 0.8 / len(series)
            for i, (label, values) in enumerate(series):
                ax.bar([x + (i - (len(series) - 1) / 2) * width for x in range(len(needs.rows))], values,
                       width=width, label=label, color=FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)],
                       edgecolor="#333333", linewidth=0.4)
            ax.set_xticks(range(len(needs.rows)), [r.name for r in needs.rows],
                          rotation=30 if len(needs.rows) > 6 else 0, ha="right" if len(needs.rows) > 6 else "center")
            ax.set_ylabel("count")
            ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
            ax.set_title(f"{a.title}: {needs.name} {needs.column}, needs against supply")
            written.append(_write(out_dir / f"{needs.rule}-needs.png", _png(fig), write_atomic))
    return written


def _write(path: Path, data: bytes, write_atomic) -> Path:
    write_atomic(path, data)
    return path
