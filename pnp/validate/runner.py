"""Running a game's rules: every cost check and rule of its :class:`~pnp.validate.rulesfile.RuleBook`
against the game, each rule by its kind (:data:`pnp.validate.kinds.RULE_KINDS`).

The :class:`Runner` gives rule kinds what they share: where things are (game.toml keys, tables,
rows), findings that cite the rule's rulebook section, the rows a rule's ``where`` keeps, its
parameters evaluated as expressions and the units a supply offers. Costs are checked here too
(``cost.parse``, ``cost.names``, ``cost.repeat``, ``cost.order``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ..core.errors import Location, Problem, explain
from ..core.findings import Finding
from ..core.suggest import did_you_mean
from ..model.cost import Term, parse_cost
from ..model.game import Component, Game, Row
from .expressions import Evaluator, Expr, row_label, unwrap
from .kinds import RULE_KINDS
from .payment import Unit, term_text
from .rulesfile import CostSpec, RuleBook, RuleSpec


class Runner:
    """Runs a RuleBook's costs and rules against a game, collecting findings."""

    def __init__(self, game: Game, book: RuleBook):
        self.game = game
        self.book = book
        self.ev = Evaluator(game)
        self.manifest_display = f"{game.display_root}/game.toml"
        self._selected: dict[tuple[str, str], list[Row]] = {}
        self.bad_costs: set[tuple[str, int, str]] = set()
        """(component, line, column) of costs naming something unknown (cost.names reports them)."""
        self._units: dict[tuple, list[Unit]] = {}

    # -- locations --------------------------------------------------------------------------
    def manifest_location(self, key: str) -> Location:
        """The line of a dotted key in game.toml."""
        return self.game.key_location(key)

    def table_location(self, comp: Component) -> Location:
        """A component's table file, or its entry in game.toml when it has no table."""
        if comp.table_display:
            return comp.table_location()
        return self.manifest_location(f"components.{comp.id}")

    def at_location(self, rule: RuleSpec) -> Location:
        """Where a whole-game rule points: its ``at`` (game.toml:key, component, component:id)."""
        at = rule.params.get("at")
        if not at:
            return self.book.location(rule.key)
        at = str(at)
        if at.startswith("game.toml:"):
            return self.manifest_location(at.split(":", 1)[1])
        cid, _, rest = at.partition(":")
        comp = self.game.components.get(cid)
        if comp is None:
            raise Problem(f"at = {at!r}: no component {cid!r}", key=f"{rule.key}.at")
        if not rest:
            return self.table_location(comp)
        rid, _, col = rest.partition(":")
        row = comp.by_id().get(rid)
        if row is None:
            raise Problem(f"at = {at!r}: no row {rid!r} in {cid}", key=f"{rule.key}.at")
        return row.location(col or None)

    # -- findings ---------------------------------------------------------------------------
    def finding(self, rule: RuleSpec, where: Location | None, message: str, *, component: str = "",
                piece: str = "", hint: str | None = None) -> Finding:
        """A finding of ``rule`` citing its rulebook section (and the contradicting one)."""
        source = rule.source + (f" / contradicted by: {rule.conflicts_with}" if rule.conflicts_with else "")
        return Finding.at(rule.severity, rule.id, where, message, source=source,
                          hint=hint if hint is not None else (rule.hint or ""),
                          component=component, piece=piece)

    def message(self, rule: RuleSpec, default: str, names: dict[str, Any]) -> str:
        """The rule's own message rendered with ``names``, or ``default``."""
        if rule.message:
            return self.ev.render(rule.message, names, f"{rule.key}.message")
        return default

    def param_expr(self, rule: RuleSpec, name: str) -> Expr:
        return self.ev.compile(rule.params[name], f"{rule.key}.{name}")

    def selected(self, rule: RuleSpec, comp: Component) -> list[Row]:
        """The rows of ``comp`` that the rule's ``where`` keeps."""
        if "where" not in rule.params:
            return list(comp.rows)
        cond = self.param_expr(rule, "where")
        key = (comp.id, cond.text)
        if key not in self._selected:
            self._selected[key] = [r for r in comp.rows if self.ev.evaluate(cond, self.ev.row_names(r))]
        return self._selected[key]

    def value_of(self, rule: RuleSpec, name: str, names: dict | None = None) -> Any:
        """A parameter that is a number or list as written, or an expression when a string."""
        raw = rule.params.get(name)
        if isinstance(raw, str):
            return unwrap(self.ev.evaluate(self.ev.compile(raw, f"{rule.key}.{name}"), names))
        return raw

    def run(self) -> list[Finding]:
        """Every cost check and rule of the book; a rule whose expression fails gives one
        ``rules.expression`` finding and is skipped."""
        findings: list[Finding] = []
        for spec in self.book.costs:
            findings.extend(self.check_costs(spec))
        for rule in self.book.rules:
            try:
                out = RULE_KINDS[rule.kind].check(self, rule)
            except Problem as exc:
                findings.append(Finding.at("error", "rules.expression", self.book.location(exc.key),
                                           f"rule {rule.id}: {exc.message}", hint=exc.hint))
                continue
            if rule.aggregate and len(out) > 1:
                out = [self.aggregate(rule, out)]
            findings.extend(out)
        return findings

    def aggregate(self, rule: RuleSpec, out: list[Finding]) -> Finding:
        """Several findings of one rule as one, at the first place, listing the others."""
        first = out[0]
        others = []
        for f in out[1:]:
            comp = self.game.components.get(f.component)
            row = comp.by_id().get(f.piece) if comp is not None and f.piece else None
            others.append(row_label(row) if row is not None else (f.piece or f.position))
        message = first.message
        if not rule.message or "{failing" not in rule.message:
            message += f" (also: {', '.join(others)})"
        return replace(first, message=message, pieces=(), count=1)

    # -- costs ------------------------------------------------------------------------------
    def check_costs(self, spec: CostSpec) -> list[Finding]:
        """Rules cost.parse, cost.names, cost.repeat and cost.order for one cost column."""
        comp = self.game.components[spec.component]
        allowed: list[str] = []
        for n in spec.names:
            allowed.extend(v for v in self.book.names.get(n, []) if v not in allowed)
        allowed_set = set(allowed)
        order = {name: i for i, name in enumerate(allowed)}
        what = spec.label or f"{comp.name} {spec.column}"
        vocab = "; ".join(f"{n}: {', '.join(self.book.names.get(n, [])[:12])}"
                          + (" ..." if len(self.book.names.get(n, [])) > 12 else "") for n in spec.names)
        out = []
        for row in comp.rows:
            text = row.get(spec.column)
            if text is None:
                continue
            where = row.location(spec.column)
            try:
                terms = parse_cost(text)
            except ValueError as exc:
                message, hint = explain(exc)
                out.append(Finding.at("error", "cost.parse", where, f"{text!r} does not parse as a cost: {message}",
                                      source=spec.source, hint=hint, component=comp.id, piece=row.id or ""))
                continue
            for t in terms:
                for name in t.options:
                    if name not in allowed_set:
                        self.bad_costs.add((comp.id, row.line, spec.column))
                        close = did_you_mean(name, allowed)
                        out.append(Finding.at(
                            "error", "cost.names", where,
                            f"{row_label(row)}: the cost names {name!r}, which {self.game.title} does not contain",
                            source=spec.source, component=comp.id, piece=row.id or "",
                            hint=(close + " " if close else "") + f"{what} may name {vocab}"))
            if spec.each_name_once:
                seen = Counter(o for t in terms for o in t.options)
                twice = [n for n, k in seen.items() if k > 1]
                if twice:
                    out.append(Finding.at(
                        "warning", "cost.repeat", where,
                        f"{row_label(row)}: {', '.join(twice)} appears in more than one term of {text!r}",
                        source=spec.source, component=comp.id, piece=row.id or "",
                        hint="write each name once with its count, for example 2 fire"))
            if spec.ordered and (comp.id, row.line, spec.column) not in self.bad_costs:
                ranks = [order.get(t.options[0], -1) for t in terms]
                if ranks != sorted(ranks):
                    wanted = term_text(sorted(terms, key=lambda t: order.get(t.options[0], -1)))
                    out.append(Finding.at(
                        "warning", "cost.order", where,
                        f"{row_label(row)}: the terms of {text!r} are not in the usual order",
                        source=spec.source, component=comp.id, piece=row.id or "",
                        hint=f"write {wanted!r} (order: {', '.join(allowed)})"))
        return out

    def terms_of(self, row: Row, column: str) -> list[Term] | None:
        """The parsed cost of a cell, or None when it is blank, does not parse (cost.parse
        reports that) or names something the game does not contain (cost.names reports that)."""
        text = row.get(column)
        if text is None or (row.component, row.line, column) in self.bad_costs:
            return None
        try:
            return parse_cost(text)
        except ValueError:
            return None

    def same_cost(self, a: Any, b: Any) -> bool:
        """Two costs are the same when they have the same terms, in any order and spacing."""
        def key(text):
            try:
                return sorted((tuple(sorted(t.options)), t.count) for t in parse_cost(text))
            except ValueError:
                return str(text)
        return key(a) == key(b)

    def units(self, rule: RuleSpec, entries_key: str, cost_row: Row | None) -> list[Unit]:
        """The units the rule's ``supply``/``draws`` list offers to ``cost_row``."""
        return self.units_of(rule.params[entries_key], f"{rule.key}.{entries_key}", cost_row)

    def units_of(self, entries: list[dict], key: str, cost_row: Row | None) -> list[Unit]:
        """The units supply ``entries`` (read from rules.toml ``key``) offer to ``cost_row``: an
        entry whose ``when`` is false for the cost row offers none (with no cost row, every
        entry counts)."""
        units = []
        for entry in entries:
            if "when" in entry and cost_row is not None:
                if not self.ev.evaluate(self.ev.compile(entry["when"], key), self.ev.row_names(cost_row)):
                    continue
            units.extend(self.entry_units(entry, key))
        return units

    def entry_units(self, entry: dict, key: str) -> list[Unit]:
        """The units of one supply entry: a Unit per row its ``where`` keeps, ``count`` of it
        (default the copies), answering to the values of its ``names`` expressions."""
        cache_key = (key, id(entry))
        if cache_key in self._units:
            return self._units[cache_key]
        comp = self.game.components[entry["component"]]
        cond = self.ev.compile(entry["where"], key) if "where" in entry else None
        count = self.ev.compile(entry.get("count", "copies"), key)
        name_exprs = [self.ev.compile(e, key) for e in entry.get("names", [])]
        units = []
        for row in comp.rows:
            names = self.ev.row_names(row)
            if cond is not None and not self.ev.evaluate(cond, names):
                continue
            k = int(self.ev.evaluate(count, names) or 0)
            if k <= 0:
                continue
            answers = set()
            for e in name_exprs:
                v = unwrap(self.ev.evaluate(e, names))
                for item in (v if isinstance(v, (list, tuple)) else [v]):
                    if item is not None:
                        answers.add(str(item))
            units.append(Unit(entry.get("label") or row_label(row), k, frozenset(answers),
                         bool(entry.get("any_name", False)), key=(id(entry), row.component, row.line)))
        self._units[cache_key] = units
        return units


def run_rulebook(game: Game, book: RuleBook) -> list[Finding]:
    """Run every cost check and rule of ``book`` against ``game``; returns the findings."""
    if not book.costs and not book.rules:
        return []
    return Runner(game, book).run()
