"""Paying a cost: whether the pieces a game contains can fill every place of a cost.

It is a transport problem between the places of a cost (terms, each needing ``count`` pieces
that answer to one of its names) and the units that fill them (pieces, each answering to some
names); :func:`pay` solves it as a maximum flow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..model.cost import Term


@dataclass(frozen=True)
class Unit:
    """Pieces that can fill a place of a cost: ``count`` of them, answering to ``names``
    (or to any name at all when ``any_name``). ``label`` is how a message names them."""

    label: str
    count: int
    names: frozenset
    any_name: bool = False
    key: Any = None

    def fits(self, term: Term) -> bool:
        """Whether one of these units can fill a place of ``term``."""
        return self.any_name or any(o in self.names for o in term.options)


@dataclass
class Payment:
    """The outcome of :func:`pay`: whether the cost is covered, and if not a set of terms whose
    places outnumber every unit that fits any of them (``short_terms``/``short_units``)."""

    ok: bool
    need: int = 0
    have: int = 0
    short_terms: list[Term] = field(default_factory=list)
    short_units: list[Unit] = field(default_factory=list)


def pay(terms: list[Term], units: list[Unit]) -> Payment:
    """Whether the units can fill every place of the cost, each unit filling one place.

    A maximum-flow assignment (augmenting paths) between terms (demand = count) and units
    (supply = count). When it falls short, the terms still reachable from the source form a set
    whose demand exceeds every unit that fits them (Hall's condition), reported as the reason.
    """
    demand = [t.count for t in terms]
    cap = [u.count for u in units]
    fits = [[u.fits(t) for u in units] for t in terms]
    flow = [[0] * len(units) for _ in terms]
    used_t = [0] * len(terms)
    used_u = [0] * len(units)
    total = sum(demand)
    while True:
        # breadth-first search: nodes ("t", i) and ("u", j)
        parent: dict[tuple, tuple | None] = {}
        queue = []
        for i in range(len(terms)):
            if used_t[i] < demand[i]:
                parent[("t", i)] = None
                queue.append(("t", i))
        end = None
        while queue and end is None:
            node = queue.pop(0)
            if node[0] == "t":
                i = node[1]
                for j in range(len(units)):
                    if fits[i][j] and ("u", j) not in parent:
                        parent[("u", j)] = node
                        if used_u[j] < cap[j]:
                            end = ("u", j)
                            break
                        queue.append(("u", j))
            else:
                j = node[1]
                for i in range(len(terms)):
                    if flow[i][j] > 0 and ("t", i) not in parent:
                        parent[("t", i)] = node
                        queue.append(("t", i))
        if end is None:
            break
        j = end[1]
        used_u[j] += 1
        node = end
        while True:
            prev = parent[node]
            if node[0] == "u":
                i = prev[1]
                flow[i][node[1]] += 1
            else:
                if prev is None:
                    used_t[node[1]] += 1
                    break
                flow[node[1]][prev[1]] -= 1
            node = prev
    filled = sum(used_t)
    if filled == total:
        return Payment(True, total, filled)
    reach_t = sorted(i for kind, i in parent if kind == "t")
    reach_u = sorted(j for kind, j in parent if kind == "u")
    return Payment(False, sum(demand[i] for i in reach_t), sum(cap[j] for j in reach_u),
                   [terms[i] for i in reach_t], [units[j] for j in reach_u])


def term_text(terms: Iterable[Term]) -> str:
    """Terms as written in the cost notation: ``3 H + (Cr | Mn)``."""
    parts = []
    for t in terms:
        name = t.options[0] if len(t.options) == 1 else "(" + " | ".join(t.options) + ")"
        parts.append(f"{t.count} {name}" if t.count != 1 else name)
    return " + ".join(parts)


def units_text(units: list[Unit], limit: int = 6) -> str:
    """Units as ``Hydrogen x2, Oxygen x8``, shortened after ``limit`` kinds."""
    shown = [f"{u.label} x{u.count}" for u in units[:limit]]
    if len(units) > limit:
        shown.append(f"and {len(units) - limit} more")
    return ", ".join(shown) if shown else "none"
