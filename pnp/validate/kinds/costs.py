"""Rule kinds about paying costs: ``cost-payable`` (every cost can be paid from what the game
contains) and ``opening-hand`` (no cost is paid by a starting hand)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

from ...core.findings import Finding
from ...core.errors import Problem
from ..expressions import row_label
from ..payment import Unit, pay, term_text, units_text
from .base import RuleKind

MAX_HANDS = 200_000
"""Most starting hands an opening-hand rule may try."""


def check_cost_payable(run, rule) -> list[Finding]:
    """Every cost in ``column`` can be paid from the ``supply`` the game contains."""
    comp = run.game.components[rule.params["component"]]
    col = rule.params["column"]
    unit_word = rule.params.get("units", "pieces")
    out = []
    static = None if any("when" in e for e in rule.params["supply"]) else run.units(rule, "supply", None)
    for row in run.selected(rule, comp):
        terms = run.terms_of(row, col)
        if not terms:
            continue
        units = static if static is not None else run.units(rule, "supply", row)
        result = pay(terms, units)
        if result.ok:
            continue
        names = run.ev.row_names(row) | {"need": result.need, "have": result.have,
                                          "short": term_text(result.short_terms)}
        default = (f"{row_label(row)} cannot be paid from what the game contains: "
                   f"{term_text(result.short_terms)} takes {result.need} {unit_word}, "
                   f"and only {result.have} can fill those places ({units_text(result.short_units)})")
        out.append(run.finding(rule, row.location(col), run.message(rule, default, names),
                               component=comp.id, piece=row.id or row_label(row)))
    return out


def check_opening_hand(run, rule) -> list[Finding]:
    """No cost in ``column`` can be paid by a starting hand: one piece from each of ``draws``."""
    comp = run.game.components[rule.params["component"]]
    col = rule.params["column"]
    out = []
    for row in run.selected(rule, comp):
        terms = run.terms_of(row, col)
        if not terms:
            continue
        groups: dict[Any, list[dict]] = {}
        for n, entry in enumerate(rule.params["draws"]):
            groups.setdefault(entry.get("draw", f"#{n}"), []).append(entry)
        pools = [run.units_of(entries, f"{rule.key}.draws", row) for entries in groups.values()]
        if math.prod(len(p) for p in pools) > MAX_HANDS:
            raise Problem(f"more than {MAX_HANDS} starting hands to try", key=f"{rule.key}.draws")
        for hand in itertools.product(*pools):
            need = Counter(u.key for u in hand)
            if any(need[u.key] > u.count for u in hand):
                continue  # one card drawn twice, but the box has only one copy
            if pay(terms, [Unit(u.label, 1, u.names, u.any_name) for u in hand]).ok:
                labels = " + ".join(u.label for u in hand)
                names = run.ev.row_names(row) | {"hand": labels}
                out.append(run.finding(rule, row.location(col), run.message(
                    rule, f"a starting hand of {labels} can already pay for {row_label(row)}", names),
                    component=comp.id, piece=row.id or row_label(row)))
                break
    return out


COST_PAYABLE = RuleKind("cost-payable", {"component", "column", "supply"}, {"where", "label", "units"},
                        check_cost_payable, "every cost can be paid from the supply the game contains",
                        entry_lists=("supply",))
OPENING_HAND = RuleKind("opening-hand", {"component", "column", "draws"}, {"where", "label"}, check_opening_hand,
                        "no cost can be paid by a starting hand of one piece from each draw",
                        entry_lists=("draws",))
