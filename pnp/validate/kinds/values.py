"""Rule kinds comparing a column with what the rulebook states: ``exact-set`` (the column's
values are exactly a list) and ``stated-values`` (named rows hold stated values)."""

from __future__ import annotations

import math

from ...core.findings import Finding
from ...core.errors import Problem
from ..expressions import row_label, show
from .base import RuleKind


def check_exact_set(run, rule) -> list[Finding]:
    """The values of ``column`` over the rows ``where`` keeps are exactly ``values``."""
    comp = run.game.components[rule.params["component"]]
    col = rule.params["column"]
    expected = run.value_of(rule, "values")
    if not isinstance(expected, (list, tuple, set)):
        raise Problem(f"values must be a list, not {expected!r}", key=f"{rule.key}.values")
    expected = list(expected)
    label = rule.params.get("label", f"{comp.name} {col}")
    out = []
    have = set()
    for row in run.selected(rule, comp):
        value = row.get(col)
        if value is None:
            continue
        have.add(value)
        if value not in expected:
            names = run.ev.row_names(row) | {"value": value, "expected": expected}
            out.append(run.finding(rule, row.location(col), run.message(
                rule, f"{row_label(row)}: {show(value)} is not one of the rulebook's {label} "
                      f"({show(expected)})", names), component=comp.id, piece=row.id or row_label(row)))
    point = rule.params.get("point_at", col)
    for value in expected:
        if value in have:
            continue
        names = {"value": value, "expected": expected}
        row = next((r for r in comp.rows if r.get(col) == value), None)
        where = row.location(point) if row is not None else run.table_location(comp)
        default = f"the rulebook's {label} include {show(value)}, the data has none"
        if row is not None:
            names |= run.ev.row_names(row)
            default = f"{row_label(row)}: the rulebook's {label} include {show(value)}, but this row is not one of them"
        out.append(run.finding(rule, where, run.message(rule, default, names), component=comp.id,
                               piece=(row.id or "") if row is not None else ""))
    return out


def check_stated_values(run, rule) -> list[Finding]:
    """Each row named in ``values`` (by id) has the stated value in ``column``."""
    comp = run.game.components[rule.params["component"]]
    col = rule.params["column"]
    values = rule.params["values"]
    if not isinstance(values, dict):
        raise Problem("values must map row ids to the values the rulebook states", key=f"{rule.key}.values")
    is_cost = (comp.id, col) in run.book.cost_columns()
    by_id = comp.by_id()
    out = []
    for rid, want in values.items():
        row = by_id.get(rid)
        if row is None:
            out.append(run.finding(rule, run.table_location(comp), run.message(
                rule, f"the rulebook states {col} {show(want)} for {rid!r}, but there is no row with that id",
                {"value": None, "expected": want}), component=comp.id, piece=rid))
            continue
        have = row.get(col)
        if isinstance(have, tuple) and isinstance(want, list):
            have = list(have)
        same = run.same_cost(have, want) if is_cost and have is not None else (
            math.isclose(have, want) if isinstance(have, float) and isinstance(want, (int, float))
            else have == want)
        if not same:
            names = run.ev.row_names(row) | {"value": have, "expected": want}
            out.append(run.finding(rule, row.location(col), run.message(
                rule, f"{row_label(row)}: the rulebook states {col} {show(want)}, the data has {show(have)}",
                names), component=comp.id, piece=rid))
    return out


EXACT_SET = RuleKind("exact-set", {"component", "column", "values"}, {"where", "point_at", "label"}, check_exact_set,
                     "the values of a column are exactly the values the rulebook lists")
STATED_VALUES = RuleKind("stated-values", {"component", "column", "values"}, {"label"}, check_stated_values,
                         "the rows named by id hold the values the rulebook states")
