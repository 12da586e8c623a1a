"""The composition analysis as PNG charts (matplotlib's Agg renderer, imported only when
charts are asked for): the same bytes for the same data."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from ..core.files import write_atomic
from .analysis import FALLBACK_COLOURS, PLOT_DPI, Analysis, Tally


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
            written.append(_write(out_dir / f"{cid}-counts.png", _png(fig)))
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
            written.append(_write(out_dir / f"{c.component}-{c.rows}-by-{c.columns}.png", _png(fig)))
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
            written.append(_write(out_dir / f"{curve.component}-{curve.column}-curve.png", _png(fig)))
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
            written.append(_write(out_dir / f"{needs.rule}-needs.png", _png(fig)))
    return written


def _write(path: Path, data: bytes) -> Path:
    write_atomic(path, data)
    return path
