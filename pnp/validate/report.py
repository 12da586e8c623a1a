"""The report of ``pnp check``: one line per game, findings grouped by file for people (Rich),
and a JSON-ready dict for ``--format json``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.findings import Finding, counts

if TYPE_CHECKING:
    from .analysis import Analysis, Tally


MAX_PIECES = 8
"""How many pieces a finding's line names before it says how many more (the text report is
for reading; ``--format json`` lists every piece, docs/validation.md)."""


def summary(result) -> str:
    """One line for a game's result: ``ok`` or ``1 error, 2 warnings`` (infos are not counted).
    ``result`` is a :class:`CheckResult` or a pipeline GameReport (anything with ``findings``)."""

    c = counts(result.findings)
    parts = [f"{c[s]} {s}{'s' if c[s] != 1 else ''}" for s in ("error", "warning") if c[s]]
    return ", ".join(parts) if parts else "ok"


def pieces_text(f: Finding) -> str:
    """``pieces (36): a, b, ... h and 28 more (--format json lists all)`` for a finding made
    for several pieces (the first :data:`MAX_PIECES` named), else the one piece
    (``piece: a``), else empty."""
    if len(f.pieces) > 1:
        shown = ", ".join(f.pieces[:MAX_PIECES])
        more = len(f.pieces) - MAX_PIECES
        return f"pieces ({len(f.pieces)}): {shown}" + (f" and {more} more (--format json lists all)" if more > 0 else "")
    if f.piece and f.piece != f.position and not (f.file.endswith(".csv") or f.sheet):
        return f"piece: {f.piece}"  # a cell's finding is about its row already
    if f.count > 1:
        return f"{f.count} times"
    return ""


def report_spans(result, strict: bool = False, infos: bool = True) -> list[tuple[int, str, object]]:
    """The human report of one game as lines of styled text, without Rich: a title line with
    the outcome, then the findings grouped by file (position, severity, rule; message; pieces;
    rulebook section; hint). With ``infos`` False the info findings are one closing line that
    counts them. ``result`` has ``display``, ``title``, ``findings`` and ``rules_checked``
    (:class:`CheckResult`, or the pipeline's GameReport). Each line is ``(indent, style,
    text)``: ``text`` a string in ``style``, or a list of ``(string, style)`` parts (``style``
    then empty). :func:`report_lines` makes Rich Text of them; without styles a line is its
    indent in spaces and its strings."""
    colours = {"error": "bold red", "warning": "yellow", "info": "cyan"}
    outcome = summary(result)
    head = [(result.title, "bold"), (f"  {result.display}  ", "dim")]
    style = "green" if outcome == "ok" else ("red" if "error" in outcome or strict else "yellow")
    head.append((outcome, style))
    if result.rules_checked:
        head.append((f"  ({result.rules_checked} rules)", "dim"))
    out: list[tuple[int, str, object]] = [(0, "", head)]
    shown = [f for f in result.findings if infos or f.severity != "info"]
    group = None
    for f in shown:
        if f.group != group:
            group = f.group
            out.append((2, "bold", group))
        line = []
        if f.position and f.position != group:
            line.append((f.position + "  ", "dim" if f.severity == "info" else ""))
        line.append((f.severity, colours.get(f.severity, "")))
        line.append((f"  {f.rule}", "dim"))
        out.append((4, "", line))
        dim = "dim" if f.severity == "info" else ""
        for text_line in f.message.splitlines() or [""]:
            out.append((6, dim, text_line))
        where = pieces_text(f)
        if where:
            out.append((6, "dim", where))
        if f.source:
            out.append((6, "dim", f"rulebook: {f.source}"))
        if f.hint and f.severity != "info":
            out.append((6, "dim", f"hint: {f.hint}"))
    hidden = len(result.findings) - len(shown)
    if hidden:
        out.append((2, "dim", f"{hidden} info finding{'s' if hidden != 1 else ''} (pnp check lists them)"))
    return out


def report_lines(result, strict: bool = False, infos: bool = True) -> list[tuple[int, object]]:
    """:func:`report_spans` as (indent, Rich Text) lines. Lines are never cut: print them with
    :func:`pnp.cli.output.print_lines`, which wraps on a terminal and keeps them whole in a pipe."""
    from rich.text import Text

    lines: list[tuple[int, Text]] = []
    for indent, style, text in report_spans(result, strict, infos):
        if isinstance(text, str):
            lines.append((indent, Text(text, style=style)))
            continue
        line = Text()
        for part, part_style in text:
            line.append(part, style=part_style)
        lines.append((indent, line))
    return lines


def report_dict(result) -> dict:
    """One game's result for ``--format json``: game, title (for a game that did not load,
    game.toml's title, or else the folder's name), outcome counts, findings (each with
    ``pieces`` and ``count`` when it stands for several)."""

    return {"game": result.display, "title": result.title,
            "loaded": result.loaded, "rules_checked": result.rules_checked,
            "counts": counts(result.findings), "findings": [f.as_dict() for f in result.findings]}


def analysis_renderables(a: Analysis) -> list:
    """The analysis as Rich tables, one per component tally, cross table, curve and needs."""
    from rich.padding import Padding
    from rich.table import Table

    out: list = []
    if not (a.tallies or a.crosstabs or a.curves or a.needs):
        from rich.text import Text

        out.append(Padding(Text("nothing to tally: no deck has an enum, ref or yes/no column with 2 to 15 "
                                "different values; choose columns with [analysis] tally in rules.toml "
                                "(docs/validation.md)"), (1, 0, 0, 2), expand=False))
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
