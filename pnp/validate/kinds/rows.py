"""Rule kinds checked row by row: ``assert`` (an expression over every row, or over the whole
game), ``unique`` (no two rows share values) and ``pattern`` (values follow a notation)."""

from __future__ import annotations

import re

from ...core.findings import Finding
from ...model.game import Row
from ...core.suggest import did_you_mean
from ..expressions import row_label, show
from .base import RuleKind


def check_assert(run, rule) -> list[Finding]:
    """``assert`` over every row of ``for_each`` (``where``), or once over the whole game."""
    cond = run.param_expr(rule, "assert")
    if "for_each" not in rule.params:
        if run.ev.evaluate(cond):
            return []
        return [run.finding(rule, run.at_location(rule),
                             run.message(rule, f"this does not hold: {cond.text}", {}))]
    comp = run.game.components[rule.params["for_each"]]
    out = []
    for row in run.selected(rule, comp):
        names = run.ev.row_names(row)
        if run.ev.evaluate(cond, names):
            continue
        out.append(run.finding(rule, row.location(rule.params.get("column")),
                                run.message(rule, f"{row_label(row)}: this does not hold: {cond.text}", names),
                                component=comp.id, piece=row.id or row_label(row)))
    return out


def check_unique(run, rule) -> list[Finding]:
    """No two rows (``where``) share the values of ``columns``."""
    comp = run.game.components[rule.params["component"]]
    cols = rule.params["columns"] if isinstance(rule.params["columns"], list) else [rule.params["columns"]]
    seen: dict[tuple, Row] = {}
    out = []
    for row in run.selected(rule, comp):
        value = tuple(row.get(c) for c in cols)
        if all(v is None for v in value):
            continue
        if value in seen:
            first = seen[value]
            names = run.ev.row_names(row) | {"value": list(value) if len(value) > 1 else value[0],
                                              "first_line": first.line}
            out.append(run.finding(rule, row.location(cols[0]), run.message(
                rule, f"{' + '.join(cols)} {show(value)!r} is used twice (first on {first.place})", names),
                component=comp.id, piece=row.id or row_label(row)))
        else:
            seen[value] = row
    return out


def check_pattern(run, rule) -> list[Finding]:
    """Every value of ``column`` matches ``pattern``; named groups listed in ``names`` hold
    names from those vocabularies. With ``each``, a second expression, its named groups are
    checked at every place it occurs in the value (a group repeated in ``pattern`` keeps only
    its last match, so ``H2SO4`` would check ``O`` alone)."""
    comp = run.game.components[rule.params["component"]]
    col = rule.params["column"]
    regex: re.Pattern = rule.params["_pattern_re"]
    each: re.Pattern | None = rule.params.get("_each_re")
    groups: dict[str, str] = rule.params.get("names", {})
    notation = rule.params.get("notation", "")
    out = []
    for row in run.selected(rule, comp):
        value = row.get(col)
        if value is None:
            continue
        for item in (value if isinstance(value, tuple) else (value,)):
            m = regex.fullmatch(str(item))
            names = run.ev.row_names(row) | {"value": item}
            if not m:
                out.append(run.finding(rule, row.location(col), run.message(
                    rule, f"{row_label(row)}: {item!r} does not follow the notation", names),
                    component=comp.id, piece=row.id or row_label(row),
                    hint=rule.hint or (f"the notation: {notation}" if notation else f"it must match {regex.pattern}")))
                continue
            matches = [m] + (list(each.finditer(str(item))) if each is not None else [])
            found = [(group, ns, got) for match in matches for group, ns in groups.items()
                     if (got := match.groupdict().get(group)) is not None]
            for group, ns, got in dict.fromkeys(found):
                vocab = run.book.names.get(ns, [])
                if got not in vocab:
                    close = did_you_mean(got, vocab)
                    out.append(run.finding(rule, row.location(col), run.message(
                        rule, f"{row_label(row)}: {item!r} names the {ns} {got!r}, which the game does not have",
                        names | {"name": got}), component=comp.id, piece=row.id or row_label(row),
                        hint=(close + " " if close else "") + f"{ns}: {', '.join(vocab)}"))
    return out


ASSERT = RuleKind("assert", {"assert"}, {"for_each", "where", "column", "at"}, check_assert,
                  "an expression that holds for every row of for_each, or once for the game")
UNIQUE = RuleKind("unique", {"component", "columns"}, {"where"}, check_unique,
                  "no two rows share the values of columns")
PATTERN = RuleKind("pattern", {"component", "column", "pattern"}, {"where", "names", "notation", "each"}, check_pattern,
                   "every value matches a regular expression whose named groups name known things",
                   name_maps=("names",), regex_keys=("pattern", "each"))
