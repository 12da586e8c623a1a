"""Rule kinds about how much the box holds: ``count-range`` (how many pieces), ``sum-equals``
(a column's total) and ``players-supported`` (enough pieces for every player count)."""

from __future__ import annotations

from typing import Any

from ...core.findings import Finding
from ..expressions import show
from .base import RuleKind


def check_count_range(run, rule) -> list[Finding]:
    """The pieces of ``component`` (rows ``where`` keeps) number from ``min`` to ``max``."""
    comp = run.game.components[rule.params["component"]]
    rows = run.selected(rule, comp)
    n = (sum(r.copies if comp.copies_column else 1 for r in rows) if comp.table else comp.copies)
    lo, hi = run.value_of(rule, "min"), run.value_of(rule, "max")
    label = rule.params.get("label", comp.name)
    names = {"n": n, "min": lo, "max": hi}
    if lo is not None and n < lo:
        default = f"{n} {label}; the rulebook needs at least {show(lo)}"
    elif hi is not None and n > hi:
        default = f"{n} {label}; the rulebook allows at most {show(hi)}"
    else:
        return []
    return [run.finding(rule, run.table_location(comp), run.message(rule, default, names), component=comp.id)]


def check_sum_equals(run, rule) -> list[Finding]:
    """``sum`` over the rows ``where`` keeps equals ``equals``."""
    comp = run.game.components[rule.params["component"]]
    term = run.param_expr(rule, "sum")
    total = 0
    for row in run.selected(rule, comp):
        value = run.ev.evaluate(term, run.ev.row_names(row))
        total += value or 0
    want = run.value_of(rule, "equals")
    if total == want:
        return []
    label = rule.params.get("label", f"{comp.name}: {term.text}")
    return [run.finding(rule, run.table_location(comp), run.message(
        rule, f"the {label} add up to {show(total)}, the rulebook says {show(want)}",
        {"total": total, "expected": want}), component=comp.id)]


def check_players_supported(run, rule) -> list[Finding]:
    """For every player count the manifest allows, ``needs`` is at most ``has`` (both may
    use ``p``, the number of players)."""
    needs = run.param_expr(rule, "needs")
    label = rule.params.get("label", "pieces")

    def fits(p: int) -> tuple[bool, Any, Any]:
        need = run.ev.evaluate(needs, {"p": p})
        has = run.value_of(rule, "has", {"p": p})
        return need <= has, need, has

    failing = []
    for p in range(run.game.players_min, run.game.players_max + 1):
        ok, need, has = fits(p)
        if not ok:
            failing.append((p, need, has))
    if not failing:
        return []
    best = 0
    for p in range(1, 100):
        if fits(p)[0]:
            best = p
        else:
            break
    p, need, has = failing[0]
    names = {"p": p, "need": need, "has": has, "supported": best}
    default = f"with {p} players a whole game needs {show(need)} {label}, the box holds {show(has)}"
    hint = (f"the game supports up to {best} players this way; lower players in game.toml to "
            f"[{run.game.players_min}, {best}], or add more" if best else "add more")
    return [run.finding(rule, run.manifest_location("game.players"), run.message(rule, default, names),
                         hint=rule.hint or hint)]


COUNT_RANGE = RuleKind("count-range", {"component"}, {"where", "min", "max", "label"}, check_count_range,
                       "the pieces of a component number from min to max")
SUM_EQUALS = RuleKind("sum-equals", {"component", "sum", "equals"}, {"where", "label"}, check_sum_equals,
                      "an expression summed over the rows equals a number")
PLAYERS_SUPPORTED = RuleKind("players-supported", {"needs", "has"}, {"label"}, check_players_supported,
                             "for every player count the manifest allows, what a game needs is in the box")
