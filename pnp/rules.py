"""The rule engine of `pnp check`: a game's own rules, read from ``rules.toml`` in its folder.

A game folder may hold ``rules.toml`` beside ``game.toml``. It declares

- ``[names]``: vocabularies (element symbols, deck colours, resources) that costs and notations
  may use, each a literal list or the values of a table column;
- ``[[costs]]``: which columns hold costs in the cost notation of :mod:`pnp.cost`, and which
  vocabularies their names come from (rules ``cost.parse``, ``cost.names``, ``cost.repeat``,
  ``cost.order``);
- ``[[rule]]``: the game's rules, each with an id, a kind, a severity and the rulebook section it
  comes from. Kind ``assert`` evaluates an expression over each row or over the whole game;
  the other kinds (``unique``, ``exact-set``, ``stated-values``, ``count-range``,
  ``sum-equals``, ``cost-payable``, ``opening-hand``, ``players-supported``, ``pattern``) are
  built-in checks with parameters;
- ``[analysis]``: what ``pnp check --analysis`` tallies (see :mod:`pnp.analysis`).

Expressions are evaluated by ``simpleeval`` (no imports, no attribute access to internals, no
assignment); docs/validation.md lists the names and functions they can use. Every problem in
``rules.toml`` itself becomes a finding (``rules.file`` or ``rules.expression``) located at its
line, never a traceback.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
import tomllib
from collections import ChainMap, Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from .cost import Term, parse_cost
from .errors import Location
from .findings import SEVERITIES, Finding
from .model import Component, Game, Row

RULES_FILE = "rules.toml"

RULE_KINDS: dict[str, tuple[set[str], set[str]]] = {
    # kind: (required keys, optional keys) besides the common ones
    "assert": ({"assert"}, {"for_each", "where", "column", "at"}),
    "unique": ({"component", "columns"}, {"where"}),
    "exact-set": ({"component", "column", "values"}, {"where", "point_at", "label"}),
    "stated-values": ({"component", "column", "values"}, {"label"}),
    "count-range": ({"component"}, {"where", "min", "max", "label"}),
    "sum-equals": ({"component", "sum", "equals"}, {"where", "label"}),
    "cost-payable": ({"component", "column", "supply"}, {"where", "label", "units"}),
    "opening-hand": ({"component", "column", "draws"}, {"where", "label"}),
    "players-supported": ({"needs", "has"}, {"label"}),
    "pattern": ({"component", "column", "pattern"}, {"where", "names", "notation"}),
}
"""Rule kinds: the keys each one requires and the keys it may have."""

COMMON_KEYS = {"id", "kind", "severity", "source", "message", "hint", "conflicts_with",
               "aggregate", "description"}
SUPPLY_KEYS = {"component", "where", "count", "names", "any_name", "when", "label", "draw"}
COST_KEYS = {"component", "column", "names", "source", "each_name_once", "ordered", "label"}
TOP_KEYS = {"names", "costs", "rule", "analysis"}
MAX_RANGE = 10_000
MAX_HANDS = 200_000


class RuleProblem(Exception):
    """A problem with rules.toml: ``key`` is the dotted key it concerns, ``hint`` what to do."""

    def __init__(self, message: str, key: str = "", hint: str = ""):
        super().__init__(message)
        self.message = message
        self.key = key
        self.hint = hint


# --------------------------------------------------------------------------------------------
# Where keys are in a TOML file


_HEADER_RE = re.compile(r"^\s*(\[\[|\[)\s*([^\[\]]+?)\s*(\]\]|\])\s*(#.*)?$")
_KEY_RE = re.compile(r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=")
_STRING_RE = re.compile(r"\"\"\".*?\"\"\"|'''.*?'''|\"(?:\\.|[^\"\\])*\"|'[^']*'")


def _key_parts(text: str) -> list[str]:
    return [p.strip().strip("\"'") for p in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", text)]


def toml_key_lines(text: str) -> dict[str, int]:
    """The 1-based line of every table header and key of a TOML document.

    Keys are dotted paths; the n-th (0-based) entry of an array of tables ``[[rule]]`` is
    ``rule[n]``, so ``rule[2].assert`` is the ``assert`` key of the third rule. Keys inside
    inline tables share their table's line. Multi-line strings and arrays are skipped over.
    """
    lines: dict[str, int] = {}
    prefix: list[str] = []
    arrays: Counter = Counter()
    depth = 0
    in_multi: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_multi:
            if in_multi in line:
                line = line.split(in_multi, 1)[1]
                in_multi = None
            else:
                continue
        stripped = _STRING_RE.sub('""', line).split("#", 1)[0]
        for quote in ('"""', "'''"):
            if stripped.count(quote) % 2 == 1:
                in_multi = quote
        if depth == 0:
            header = _HEADER_RE.match(line)
            if header and not _KEY_RE.match(line):
                parts = _key_parts(header.group(2))
                if header.group(1) == "[[":
                    base = ".".join(parts)
                    index = arrays[base]
                    arrays[base] += 1
                    parts = parts[:-1] + [f"{parts[-1]}[{index}]"]
                else:  # a sub-table of the latest entry of an array of tables
                    for i in range(len(parts), 0, -1):
                        base = ".".join(parts[:i])
                        if base in arrays:
                            parts = parts[:i - 1] + [f"{parts[i - 1]}[{arrays[base] - 1}]"] + parts[i:]
                            break
                prefix = parts
                lines.setdefault(".".join(prefix), number)
                continue
            key = _KEY_RE.match(line)
            if key:
                path = ".".join(prefix + _key_parts(key.group(1)))
                lines.setdefault(path, number)
        depth += stripped.count("[") - stripped.count("]")
        depth = max(depth, 0)
    return lines


def line_of(lines: dict[str, int], key: str) -> int | None:
    """The line of ``key``, or of its closest enclosing key or table that has one."""
    parts = key.split(".")
    while parts:
        found = lines.get(".".join(parts))
        if found is not None:
            return found
        parts.pop()
    return None


# --------------------------------------------------------------------------------------------
# Values seen by expressions


class Record:
    """A read-only mapping whose keys are also attributes: ``row.cost`` or ``row["cost"]``.

    Rows, the ``[rules]`` table and the manifest are handed to expressions as Records, so a
    column named ``items`` or ``values`` is never mistaken for a dict method.
    """

    __slots__ = ("_d",)

    def __init__(self, data: dict):
        object.__setattr__(self, "_d", data)

    def __getattr__(self, name: str) -> Any:
        try:
            return object.__getattribute__(self, "_d")[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):  # pragma: no cover - expressions cannot assign
        raise AttributeError("read-only")

    def __getitem__(self, key: str) -> Any:
        return self._d[key]

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            other = other._d
        return self._d == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._d)


def wrap(value: Any) -> Any:
    """Dicts become Records (recursively); lists stay lists of wrapped values."""
    if isinstance(value, dict):
        return Record({k: wrap(v) for k, v in value.items()})
    if isinstance(value, list):
        return [wrap(v) for v in value]
    return value


def unwrap(value: Any) -> Any:
    """Records back to plain dicts (for comparing with TOML values and for messages)."""
    if isinstance(value, Record):
        return {k: unwrap(v) for k, v in value._d.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(unwrap(v) for v in value)
    return value


def row_label(row: Row) -> str:
    """A row as a designer names it: its name or title column, else its id, else its line."""
    for col in ("name", "title", "item_name", "label"):
        value = row.values.get(col)
        if isinstance(value, str) and value:
            return value
    return row.id or f"line {row.line}"


def show(value: Any) -> str:
    """A value as it reads in a message: lists joined by commas, blank for None, 3 not 3.0."""
    value = unwrap(value)
    if value is None:
        return "blank"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(show(v) for v in items)
    if isinstance(value, dict):
        return ", ".join(f"{k} {show(v)}" for k, v in value.items())
    return str(value)


# --------------------------------------------------------------------------------------------
# Paying a cost: a transport problem between the places of a cost and the units that fill them


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


# --------------------------------------------------------------------------------------------
# The parsed rules.toml


@dataclass
class RuleSpec:
    """One ``[[rule]]`` entry: ``index`` is its position (for locating it in rules.toml)."""

    id: str
    kind: str
    severity: str
    source: str
    index: int
    params: dict[str, Any]
    message: str | None = None
    hint: str | None = None
    conflicts_with: str = ""
    aggregate: bool = False

    @property
    def key(self) -> str:
        """The dotted key of this rule in rules.toml."""
        return f"rule[{self.index}]"


@dataclass
class CostSpec:
    """One ``[[costs]]`` entry: a column holding costs and the vocabularies its names come from."""

    component: str
    column: str
    names: list[str]
    source: str
    index: int
    each_name_once: bool = False
    ordered: bool = False
    label: str = ""


@dataclass
class RuleBook:
    """A game's ``rules.toml``, read and resolved against the game.

    ``names`` maps each vocabulary to its values in order; ``display`` is the file as messages
    name it; ``lines`` maps dotted keys to lines (see :func:`toml_key_lines`).
    """

    display: str
    lines: dict[str, int] = field(default_factory=dict)
    names: dict[str, list[str]] = field(default_factory=dict)
    costs: list[CostSpec] = field(default_factory=list)
    rules: list[RuleSpec] = field(default_factory=list)
    analysis: dict[str, Any] = field(default_factory=dict)
    present: bool = False

    def location(self, key: str) -> Location:
        """The line of a dotted key in rules.toml, as a Location naming the key."""
        return Location(self.display, line_of(self.lines, key), None, key)

    def cost_columns(self) -> dict[tuple[str, str], CostSpec]:
        """(component, column) -> its cost declaration."""
        return {(c.component, c.column): c for c in self.costs}


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else ""


def _problem_finding(book: RuleBook, exc: RuleProblem, rule: str = "rules.file") -> Finding:
    return Finding.at("error", rule, book.location(exc.key) if exc.key else Location(book.display),
                      exc.message, hint=exc.hint, source="rules.toml")


def load_rulebook(game: Game) -> tuple[RuleBook, list[Finding]]:
    """Read ``rules.toml`` from the game's folder (an empty book when there is none).

    Returns the book and findings for everything in the file that cannot be used (rule
    ``rules.file``, located at the key's line); entries with problems are left out of the book.
    """
    path = game.path / RULES_FILE
    book = RuleBook(f"{game.display_root}/{RULES_FILE}")
    if not path.is_file():
        return book, []
    book.present = True
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        return book, [Finding.at("error", "rules.file", Location(book.display), "rules.toml is not UTF-8 text",
                                 hint="save it as UTF-8", source="rules.toml")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+), column (\d+)", str(exc))
        where = Location(book.display, int(match.group(1)), int(match.group(2))) if match else Location(book.display)
        return book, [Finding.at("error", "rules.file", where, f"not valid TOML: {exc}", source="rules.toml")]
    book.lines = toml_key_lines(text)
    findings: list[Finding] = []
    for key in data:
        if key not in TOP_KEYS:
            findings.append(_problem_finding(book, RuleProblem(
                f"unknown section {key!r}", key,
                (_suggest(key, TOP_KEYS) + " " if _suggest(key, TOP_KEYS) else "")
                + "rules.toml holds [names], [[costs]], [[rule]] and [analysis]")))
    for name, spec in _table(data, "names", book, findings).items():
        try:
            book.names[name] = _resolve_names(game, name, spec)
        except RuleProblem as exc:
            findings.append(_problem_finding(book, exc))
    for i, spec in enumerate(_array(data, "costs", book, findings)):
        try:
            book.costs.append(_read_cost(game, book, i, spec))
        except RuleProblem as exc:
            findings.append(_problem_finding(book, exc))
    seen: dict[str, int] = {}
    for i, spec in enumerate(_array(data, "rule", book, findings)):
        try:
            rule = _read_rule(game, book, i, spec)
        except RuleProblem as exc:
            findings.append(_problem_finding(book, exc))
            continue
        if rule.id in seen:
            findings.append(_problem_finding(book, RuleProblem(
                f"rule id {rule.id!r} is used twice (first on line {line_of(book.lines, f'rule[{seen[rule.id]}]')})",
                f"rule[{i}].id", "give every rule its own id")))
            continue
        seen[rule.id] = i
        book.rules.append(rule)
    analysis = data.get("analysis", {})
    if not isinstance(analysis, dict):
        findings.append(_problem_finding(book, RuleProblem("[analysis] must be a table", "analysis")))
    else:
        book.analysis = analysis
    return book, findings


def _table(data: dict, key: str, book: RuleBook, findings: list[Finding]) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        findings.append(_problem_finding(book, RuleProblem(f"[{key}] must be a table", key)))
        return {}
    return value


def _array(data: dict, key: str, book: RuleBook, findings: list[Finding]) -> list:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        findings.append(_problem_finding(book, RuleProblem(
            f"{key} must be an array of tables", key, f"write each entry under its own [[{key}]] header")))
        return []
    return value


def _component(game: Game, cid: Any, key: str) -> Component:
    if not isinstance(cid, str) or cid not in game.components:
        raise RuleProblem(f"no component {cid!r} in game.toml", key,
                          _suggest(str(cid), game.components) or "components: " + ", ".join(game.components))
    return game.components[cid]


def _column(comp: Component, col: Any, key: str) -> str:
    if not isinstance(col, str) or col not in comp.columns:
        raise RuleProblem(f"{col!r} is not a column of {comp.id}", key,
                          _suggest(str(col), comp.columns) or "columns: " + ", ".join(comp.columns))
    return col


def _resolve_names(game: Game, name: str, spec: Any) -> list[str]:
    key = f"names.{name}"
    where = None
    if isinstance(spec, dict):
        unknown = set(spec) - {"from", "values", "where"}
        if unknown:
            raise RuleProblem(f"unknown key {sorted(unknown)[0]!r} in a name list", key,
                              "a name list is a list, \"component.column\", or { from = ..., where = ... }")
        where = spec.get("where")
        spec = spec.get("values", spec.get("from"))
    if isinstance(spec, list):
        return [str(v) for v in spec]
    if not isinstance(spec, str) or "." not in spec:
        raise RuleProblem(f"name list {name!r} must be a list of names or \"component.column\"", key,
                          'for example element = "elements.symbol" or colour = ["red", "green"]')
    cid, col = spec.split(".", 1)
    comp = _component(game, cid, key)
    _column(comp, col, key)
    ev = Evaluator(game)
    cond = ev.compile(where, key + ".where") if where else None
    out: list[str] = []
    for row in comp.rows:
        if cond is not None and not ev.evaluate(cond, ev.row_names(row)):
            continue
        value = row.get(col)
        for item in (value if isinstance(value, tuple) else (value,)):
            if item is not None and str(item) not in out:
                out.append(str(item))
    return out


def _read_cost(game: Game, book: RuleBook, i: int, spec: dict) -> CostSpec:
    key = f"costs[{i}]"
    for k in spec:
        if k not in COST_KEYS:
            raise RuleProblem(f"unknown key {k!r} in a [[costs]] entry", f"{key}.{k}",
                              (_suggest(k, COST_KEYS) + " " if _suggest(k, COST_KEYS) else "")
                              + "keys: " + ", ".join(sorted(COST_KEYS)))
    for k in ("component", "column", "names", "source"):
        if k not in spec:
            raise RuleProblem(f"this [[costs]] entry has no {k!r}", key)
    comp = _component(game, spec["component"], f"{key}.component")
    _column(comp, spec["column"], f"{key}.column")
    names = spec["names"] if isinstance(spec["names"], list) else [spec["names"]]
    for n in names:
        if n not in book.names:
            raise RuleProblem(f"no name list {n!r} in [names]", f"{key}.names",
                              _suggest(n, book.names) or "declare it under [names]")
    return CostSpec(comp.id, spec["column"], names, str(spec["source"]), i,
                    bool(spec.get("each_name_once", False)), bool(spec.get("ordered", False)),
                    str(spec.get("label", "")))


def _read_rule(game: Game, book: RuleBook, i: int, spec: dict) -> RuleSpec:
    key = f"rule[{i}]"
    rid = spec.get("id")
    if not isinstance(rid, str) or not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$", rid):
        raise RuleProblem(f"rule needs an id of letters, digits, '.', '-' and '_', not {rid!r}", f"{key}.id",
                          'for example id = "track.hazard-spaces"')
    kind = spec.get("kind", "assert")
    if kind not in RULE_KINDS:
        raise RuleProblem(f"rule {rid}: unknown kind {kind!r}", f"{key}.kind",
                          (_suggest(kind, RULE_KINDS) + " " if _suggest(kind, RULE_KINDS) else "")
                          + "kinds: " + ", ".join(RULE_KINDS))
    required, optional = RULE_KINDS[kind]
    for k in spec:
        if k not in COMMON_KEYS | required | optional:
            allowed = sorted(COMMON_KEYS | required | optional)
            raise RuleProblem(f"rule {rid}: {kind} rules have no key {k!r}", f"{key}.{k}",
                              (_suggest(k, allowed) + " " if _suggest(k, allowed) else "")
                              + "keys: " + ", ".join(allowed))
    for k in sorted(required | {"source"}):
        if k not in spec:
            hint = "every rule names the rulebook section it comes from" if k == "source" else ""
            raise RuleProblem(f"rule {rid}: a {kind} rule needs {k!r}", key, hint)
    severity = spec.get("severity", "error")
    if severity not in SEVERITIES:
        raise RuleProblem(f"rule {rid}: severity {severity!r} is not one of {', '.join(SEVERITIES)}",
                          f"{key}.severity")
    params = {k: v for k, v in spec.items() if k not in COMMON_KEYS}
    for k in ("component", "for_each"):
        if k in params:
            comp = _component(game, params[k], f"{key}.{k}")
            for ck in ("column", "point_at"):
                if ck in params:
                    _column(comp, params[ck], f"{key}.{ck}")
            if "columns" in params:
                cols = params["columns"] if isinstance(params["columns"], list) else [params["columns"]]
                for c in cols:
                    _column(comp, c, f"{key}.columns")
    for k in ("supply", "draws"):
        if k in params:
            entries = params[k]
            if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
                raise RuleProblem(f"rule {rid}: {k} must be a list of tables", f"{key}.{k}",
                                  f'{k} = [{{ component = "cards", names = ["symbol"] }}]')
            for e in entries:
                for ek in e:
                    if ek not in SUPPLY_KEYS:
                        raise RuleProblem(f"rule {rid}: unknown key {ek!r} in {k}", f"{key}.{k}",
                                          "keys: " + ", ".join(sorted(SUPPLY_KEYS)))
                _component(game, e.get("component"), f"{key}.{k}")
    if "names" in params and kind == "pattern":
        if not isinstance(params["names"], dict):
            raise RuleProblem(f"rule {rid}: names must map pattern groups to name lists", f"{key}.names",
                              'names = { icon = "icon" }')
        for group, ns in params["names"].items():
            if ns not in book.names:
                raise RuleProblem(f"rule {rid}: no name list {ns!r} in [names]", f"{key}.names",
                                  _suggest(ns, book.names) or "declare it under [names]")
    if kind == "pattern":
        try:
            params["_regex"] = re.compile(params["pattern"])
        except (re.error, TypeError) as exc:
            raise RuleProblem(f"rule {rid}: the pattern is not a regular expression: {exc}", f"{key}.pattern")
    return RuleSpec(rid, kind, severity, str(spec["source"]), i, params,
                    message=spec.get("message"), hint=spec.get("hint"),
                    conflicts_with=str(spec.get("conflicts_with", "")),
                    aggregate=bool(spec.get("aggregate", False)))


# --------------------------------------------------------------------------------------------
# Expressions


class ExprError(Exception):
    """An expression that does not parse or evaluate; ``key`` locates it in rules.toml."""

    def __init__(self, message: str, key: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.key = key
        self.hint = hint


@dataclass(frozen=True)
class Expr:
    """A parsed expression and the rules.toml key it came from."""

    text: str
    key: str
    tree: Any


def _limited_range(*args: int) -> list[int]:
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise ValueError(f"range() is limited to {MAX_RANGE} numbers")
    return list(r)


class Evaluator:
    """Evaluates rules.toml expressions safely (simpleeval) against one game.

    Names every expression sees: ``rules`` (game.toml's [rules]), ``players`` (``min``,
    ``max``), ``game`` (``id``, ``title``), ``manifest`` (all of game.toml); in a row rule, the
    row's columns, ``id``, ``copies`` and ``row``. Functions: see :meth:`functions`.
    """

    def __init__(self, game: Game):
        from simpleeval import EvalWithCompoundTypes

        self.game = game
        self._records: dict[str, list[tuple[Row, Record]]] = {}
        self._by_row: dict[int, Record] = {}
        self._row_names: dict[int, dict[str, Any]] = {}
        self._compiled: dict[tuple[str, str], Expr] = {}
        self.base = {
            "rules": wrap(game.manifest.get("rules", {})),
            "players": Record({"min": game.players_min, "max": game.players_max}),
            "game": Record({"id": game.id, "title": game.title}),
            "manifest": wrap(game.manifest),
            "True": True, "False": False, "None": None,
        }
        self._eval = EvalWithCompoundTypes(functions=self.functions(), names={})

    def functions(self) -> dict[str, Any]:
        """The functions expressions may call."""
        return {
            "len": len, "sum": sum, "min": min, "max": max, "sorted": sorted, "abs": abs,
            "all": all, "any": any, "round": round, "int": int, "float": float, "str": str,
            "bool": bool, "range": _limited_range, "floor": math.floor, "ceil": math.ceil,
            "rows": self.rows, "count": self.count, "lookup": self.lookup, "column": self.column,
            "cost_of": self.cost_of, "cost_units": self.cost_units, "cost_names": self.cost_names,
        }

    # -- data access ------------------------------------------------------------------------
    def records(self, cid: str) -> list[tuple[Row, Record]]:
        """Every row of a component with its Record."""
        if cid not in self._records:
            if cid not in self.game.components:
                raise ValueError(f"no component {cid!r}" + (f"; {_suggest(cid, self.game.components)}"
                                                            if _suggest(cid, self.game.components) else ""))
            self._records[cid] = [(r, self.record(r)) for r in self.game.components[cid].rows]
            self._by_row.update((id(r), rec) for r, rec in self._records[cid])
        return self._records[cid]

    def record(self, row: Row) -> Record:
        """A row as expressions see it: its columns plus ``id`` and ``copies``."""
        data = {k: wrap(v) for k, v in row.values.items()}
        data.setdefault("id", row.id)
        data.setdefault("copies", row.copies)
        return Record(data)

    def _match(self, cid: str, where: dict) -> list[tuple[Row, Record]]:
        comp = self.game.components.get(cid)
        for col in where:
            if comp is not None and col not in comp.columns and col not in ("id", "copies"):
                raise ValueError(f"{col!r} is not a column of {cid}")
        return [(r, rec) for r, rec in self.records(cid)
                if all(unwrap(rec[c]) == v or (isinstance(v, (list, tuple)) and unwrap(rec[c]) in v)
                       for c, v in where.items())]

    def rows(self, component: str, **where: Any) -> list[Record]:
        """rows("orders", rank="C"): the rows of a component whose columns equal the values."""
        return [rec for _, rec in self._match(component, where)]

    def count(self, component: str, **where: Any) -> int:
        """count("workers", player_colour="blue"): pieces as stated totals count them: the sum of
        the copies column; without one, one per row that matches, or the component's ``copies``
        when nothing filters (a board whose table lists its spaces is one piece)."""
        comp = self.game.components.get(component)
        if comp is None:
            raise ValueError(f"no component {component!r}")
        if comp.table is None:
            if where:
                raise ValueError(f"{component} has no table to filter")
            return comp.copies
        if not where and not comp.copies_column and comp.kind != "table":
            return comp.copies  # a board with a table of spaces: the table describes one piece
        return sum(r.copies if comp.copies_column else 1 for r, _ in self._match(component, where))

    def lookup(self, component: str, id: str) -> Record | None:
        """lookup("insignias", insignia): the row with that id, or None."""
        for r, rec in self.records(component):
            if r.id == id:
                return rec
        return None

    def column(self, component: str, name: str, **where: Any) -> list:
        """column("track", "space", kind="hazard"): one column's values (blanks left out)."""
        return [rec[name] for _, rec in self._match(component, where) if rec[name] is not None]

    @staticmethod
    def _terms(text: Any) -> list[Term]:
        if text is None:
            return []
        try:
            return parse_cost(text)
        except ValueError as exc:
            raise ValueError(f"cost {text!r}: {exc.args[0]}") from None

    def cost_of(self, text: Any) -> Record:
        """cost_of("2 H + O") -> {H: 2, O: 1}; a choice counts under "Cr|Mn"."""
        out: dict[str, int] = {}
        for t in self._terms(text):
            out[t.label.replace("/", "|")] = out.get(t.label.replace("/", "|"), 0) + t.count
        return Record(out)

    def cost_units(self, text: Any) -> int:
        """cost_units("1 green + 3 any") -> 4: how many places the cost has."""
        return sum(t.count for t in self._terms(text))

    def cost_names(self, text: Any) -> list[str]:
        """cost_names("Fe + (Cr | Mn)") -> ["Fe", "Cr", "Mn"]: every name the cost uses."""
        return [o for t in self._terms(text) for o in t.options]

    # -- evaluation -------------------------------------------------------------------------
    def row_names(self, row: Row) -> dict[str, Any]:
        """Names for a row rule: the row's columns, ``id``, ``copies`` and ``row`` (cached; an
        expression cannot change them)."""
        names = self._row_names.get(id(row))
        if names is None:
            self.records(row.component)
            rec = self._by_row.get(id(row)) or self.record(row)
            names = dict(rec._d)
            names["row"] = rec
            self._row_names[id(row)] = names
        return names

    def compile(self, text: Any, key: str) -> Expr:
        """Parse an expression; raises ExprError (located at ``key``) when it does not parse."""
        if isinstance(text, bool) or isinstance(text, (int, float)):
            text = repr(text)
        if not isinstance(text, str) or not text.strip():
            raise ExprError(f"expected an expression, not {text!r}", key)
        cached = self._compiled.get((text, key))
        if cached is not None:
            return cached
        try:
            tree = self._eval.parse(text.strip())
        except SyntaxError as exc:
            raise ExprError(f"{text!r} is not a valid expression: {exc.msg}", key,
                            "expressions are written as in Python: card_count <= rules.hand_limit") from None
        self._compiled[(text, key)] = Expr(text.strip(), key, tree)
        return self._compiled[(text, key)]

    def evaluate(self, expr: Expr, names: dict[str, Any] | None = None) -> Any:
        """The value of a compiled expression with ``names`` (over the game-wide names).

        Raises ExprError naming the expression and what went wrong (an unknown name, a missing
        key, a type mismatch); the simpleeval limits on power, string length and comprehension
        size apply.
        """
        from simpleeval import AttributeDoesNotExist, InvalidExpression, NameNotDefined

        self._eval.names = ChainMap(names or {}, self.base)
        try:
            return self._eval.eval(expr.text, previously_parsed=expr.tree)
        except NameNotDefined as exc:
            known = list(names or {}) + list(self.base) + list(self._eval.functions)
            close = _suggest(exc.name, known)
            raise ExprError(f"{expr.text!r}: no name {exc.name!r}", expr.key,
                            close or "names: " + ", ".join(sorted(k for k in (names or {}) if k != "row")
                                                           + ["rules", "players", "game"])) from None
        except AttributeDoesNotExist as exc:
            raise ExprError(f"{expr.text!r}: {exc.attr!r} does not exist", expr.key,
                            "check the key in game.toml [rules] or the column name") from None
        except InvalidExpression as exc:
            raise ExprError(f"{expr.text!r}: {getattr(exc, 'message', exc)}", expr.key) from None
        except KeyError as exc:
            raise ExprError(f"{expr.text!r}: no key {exc.args[0]!r}", expr.key) from None
        except (TypeError, ValueError, ZeroDivisionError, IndexError, AttributeError,
                RecursionError, OverflowError) as exc:
            raise ExprError(f"{expr.text!r}: {exc}", expr.key) from None

    def render(self, template: str, names: dict[str, Any], key: str) -> str:
        """A message template with ``{expression}`` parts replaced by their values; braces
        inside an expression (a dict literal) nest. ``{{`` and ``}}`` stand for braces."""
        out: list[str] = []
        i = 0
        while i < len(template):
            ch = template[i]
            if template.startswith("{{", i) or template.startswith("}}", i):
                out.append(ch)
                i += 2
                continue
            if ch != "{":
                out.append(ch)
                i += 1
                continue
            depth, j = 0, i
            while j < len(template):
                if template[j] == "{":
                    depth += 1
                elif template[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if depth:
                raise ExprError(f"a '{{' in the message is not closed: {template!r}", key,
                                "write {{ for a brace that is not an expression")
            out.append(show(self.evaluate(self.compile(template[i + 1:j], key), names)))
            i = j + 1
        return "".join(out)


# --------------------------------------------------------------------------------------------
# Running the rules


class Runner:
    """Runs a RuleBook's costs and rules against a game, collecting findings."""

    def __init__(self, game: Game, book: RuleBook):
        self.game = game
        self.book = book
        self.ev = Evaluator(game)
        self.manifest_display = f"{game.display_root}/game.toml"
        self._manifest_lines: dict[str, int] | None = None
        self._selected: dict[tuple[str, str], list[Row]] = {}
        self.bad_costs: set[tuple[str, int, str]] = set()
        """(component, line, column) of costs naming something unknown (cost.names reports them)."""
        self._units: dict[tuple, list[Unit]] = {}

    # -- locations --------------------------------------------------------------------------
    def manifest_location(self, key: str) -> Location:
        """The line of a dotted key in game.toml."""
        if self._manifest_lines is None:
            try:
                text = (self.game.path / "game.toml").read_text(encoding="utf-8-sig")
            except OSError:
                text = ""
            self._manifest_lines = toml_key_lines(text)
        return Location(self.manifest_display, line_of(self._manifest_lines, key), None, key)

    def table_location(self, comp: Component) -> Location:
        """A component's table file, or its entry in game.toml when it has no table."""
        if comp.table_display:
            return Location(comp.table_display)
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
            raise ExprError(f"at = {at!r}: no component {cid!r}", f"{rule.key}.at")
        if not rest:
            return self.table_location(comp)
        rid, _, col = rest.partition(":")
        row = comp.by_id().get(rid)
        if row is None:
            raise ExprError(f"at = {at!r}: no row {rid!r} in {cid}", f"{rule.key}.at")
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
                out = getattr(self, "kind_" + rule.kind.replace("-", "_"))(rule)
            except ExprError as exc:
                findings.append(Finding.at("error", "rules.expression", self.book.location(exc.key),
                                           f"rule {rule.id}: {exc.message}", hint=exc.hint,
                                           source="rules.toml"))
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
        return Finding(first.severity, first.rule, first.location, message, first.source, first.hint,
                       first.file, first.line, first.column, first.field, first.component, first.piece)

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
                message, hint = exc.args if len(exc.args) == 2 else (exc.args[0], "")
                out.append(Finding.at("error", "cost.parse", where, f"{text!r} does not parse as a cost: {message}",
                                      source=spec.source, hint=hint, component=comp.id, piece=row.id or ""))
                continue
            for t in terms:
                for name in t.options:
                    if name not in allowed_set:
                        self.bad_costs.add((comp.id, row.line, spec.column))
                        close = _suggest(name, allowed)
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

    # -- rule kinds -------------------------------------------------------------------------
    def kind_assert(self, rule: RuleSpec) -> list[Finding]:
        """``assert`` over every row of ``for_each`` (``where``), or once over the whole game."""
        cond = self.param_expr(rule, "assert")
        if "for_each" not in rule.params:
            if self.ev.evaluate(cond):
                return []
            return [self.finding(rule, self.at_location(rule),
                                 self.message(rule, f"this does not hold: {cond.text}", {}))]
        comp = self.game.components[rule.params["for_each"]]
        out = []
        for row in self.selected(rule, comp):
            names = self.ev.row_names(row)
            if self.ev.evaluate(cond, names):
                continue
            out.append(self.finding(rule, row.location(rule.params.get("column")),
                                    self.message(rule, f"{row_label(row)}: this does not hold: {cond.text}", names),
                                    component=comp.id, piece=row.id or row_label(row)))
        return out

    def kind_unique(self, rule: RuleSpec) -> list[Finding]:
        """No two rows (``where``) share the values of ``columns``."""
        comp = self.game.components[rule.params["component"]]
        cols = rule.params["columns"] if isinstance(rule.params["columns"], list) else [rule.params["columns"]]
        seen: dict[tuple, Row] = {}
        out = []
        for row in self.selected(rule, comp):
            value = tuple(row.get(c) for c in cols)
            if all(v is None for v in value):
                continue
            if value in seen:
                first = seen[value]
                names = self.ev.row_names(row) | {"value": list(value) if len(value) > 1 else value[0],
                                                  "first_line": first.line}
                out.append(self.finding(rule, row.location(cols[0]), self.message(
                    rule, f"{' + '.join(cols)} {show(value)!r} is used twice (first on line {first.line})", names),
                    component=comp.id, piece=row.id or row_label(row)))
            else:
                seen[value] = row
        return out

    def kind_exact_set(self, rule: RuleSpec) -> list[Finding]:
        """The values of ``column`` over the rows ``where`` keeps are exactly ``values``."""
        comp = self.game.components[rule.params["component"]]
        col = rule.params["column"]
        expected = self.value_of(rule, "values")
        if not isinstance(expected, (list, tuple, set)):
            raise ExprError(f"values must be a list, not {expected!r}", f"{rule.key}.values")
        expected = list(expected)
        label = rule.params.get("label", f"{comp.name} {col}")
        out = []
        have = set()
        for row in self.selected(rule, comp):
            value = row.get(col)
            if value is None:
                continue
            have.add(value)
            if value not in expected:
                names = self.ev.row_names(row) | {"value": value, "expected": expected}
                out.append(self.finding(rule, row.location(col), self.message(
                    rule, f"{row_label(row)}: {show(value)} is not one of the rulebook's {label} "
                          f"({show(expected)})", names), component=comp.id, piece=row.id or row_label(row)))
        point = rule.params.get("point_at", col)
        for value in expected:
            if value in have:
                continue
            names = {"value": value, "expected": expected}
            row = next((r for r in comp.rows if r.get(col) == value), None)
            where = row.location(point) if row is not None else self.table_location(comp)
            default = f"the rulebook's {label} include {show(value)}, the data has none"
            if row is not None:
                names |= self.ev.row_names(row)
                default = f"{row_label(row)}: the rulebook's {label} include {show(value)}, but this row is not one of them"
            out.append(self.finding(rule, where, self.message(rule, default, names), component=comp.id,
                                    piece=(row.id or "") if row is not None else ""))
        return out

    def kind_stated_values(self, rule: RuleSpec) -> list[Finding]:
        """Each row named in ``values`` (by id) has the stated value in ``column``."""
        comp = self.game.components[rule.params["component"]]
        col = rule.params["column"]
        values = rule.params["values"]
        if not isinstance(values, dict):
            raise ExprError("values must map row ids to the values the rulebook states", f"{rule.key}.values")
        is_cost = (comp.id, col) in self.book.cost_columns()
        by_id = comp.by_id()
        out = []
        for rid, want in values.items():
            row = by_id.get(rid)
            if row is None:
                out.append(self.finding(rule, self.table_location(comp), self.message(
                    rule, f"the rulebook states {col} {show(want)} for {rid!r}, but there is no row with that id",
                    {"value": None, "expected": want}), component=comp.id, piece=rid))
                continue
            have = row.get(col)
            if isinstance(have, tuple) and isinstance(want, list):
                have = list(have)
            same = self.same_cost(have, want) if is_cost and have is not None else (
                math.isclose(have, want) if isinstance(have, float) and isinstance(want, (int, float))
                else have == want)
            if not same:
                names = self.ev.row_names(row) | {"value": have, "expected": want}
                out.append(self.finding(rule, row.location(col), self.message(
                    rule, f"{row_label(row)}: the rulebook states {col} {show(want)}, the data has {show(have)}",
                    names), component=comp.id, piece=rid))
        return out

    def kind_count_range(self, rule: RuleSpec) -> list[Finding]:
        """The pieces of ``component`` (rows ``where`` keeps) number from ``min`` to ``max``."""
        comp = self.game.components[rule.params["component"]]
        rows = self.selected(rule, comp)
        n = (sum(r.copies if comp.copies_column else 1 for r in rows) if comp.table else comp.copies)
        lo, hi = self.value_of(rule, "min"), self.value_of(rule, "max")
        label = rule.params.get("label", comp.name)
        names = {"n": n, "min": lo, "max": hi}
        if lo is not None and n < lo:
            default = f"{n} {label}; the rulebook needs at least {show(lo)}"
        elif hi is not None and n > hi:
            default = f"{n} {label}; the rulebook allows at most {show(hi)}"
        else:
            return []
        return [self.finding(rule, self.table_location(comp), self.message(rule, default, names), component=comp.id)]

    def kind_sum_equals(self, rule: RuleSpec) -> list[Finding]:
        """``sum`` over the rows ``where`` keeps equals ``equals``."""
        comp = self.game.components[rule.params["component"]]
        term = self.param_expr(rule, "sum")
        total = 0
        for row in self.selected(rule, comp):
            value = self.ev.evaluate(term, self.ev.row_names(row))
            total += value or 0
        want = self.value_of(rule, "equals")
        if total == want:
            return []
        label = rule.params.get("label", f"{comp.name}: {term.text}")
        return [self.finding(rule, self.table_location(comp), self.message(
            rule, f"the {label} add up to {show(total)}, the rulebook says {show(want)}",
            {"total": total, "expected": want}), component=comp.id)]

    def units(self, rule: RuleSpec, entries_key: str, cost_row: Row | None) -> list[Unit]:
        """The units a ``supply``/``draws`` list offers to ``cost_row``: an entry whose ``when``
        is false for the cost row offers none (with no cost row, every entry counts)."""
        units = []
        key = f"{rule.key}.{entries_key}"
        for entry in rule.params[entries_key]:
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

    def kind_cost_payable(self, rule: RuleSpec) -> list[Finding]:
        """Every cost in ``column`` can be paid from the ``supply`` the game contains."""
        comp = self.game.components[rule.params["component"]]
        col = rule.params["column"]
        unit_word = rule.params.get("units", "pieces")
        out = []
        static = None if any("when" in e for e in rule.params["supply"]) else self.units(rule, "supply", None)
        for row in self.selected(rule, comp):
            terms = self.terms_of(row, col)
            if not terms:
                continue
            units = static if static is not None else self.units(rule, "supply", row)
            result = pay(terms, units)
            if result.ok:
                continue
            names = self.ev.row_names(row) | {"need": result.need, "have": result.have,
                                              "short": term_text(result.short_terms)}
            default = (f"{row_label(row)} cannot be paid from what the game contains: "
                       f"{term_text(result.short_terms)} takes {result.need} {unit_word}, "
                       f"and only {result.have} can fill those places ({units_text(result.short_units)})")
            out.append(self.finding(rule, row.location(col), self.message(rule, default, names),
                                    component=comp.id, piece=row.id or row_label(row)))
        return out

    def kind_opening_hand(self, rule: RuleSpec) -> list[Finding]:
        """No cost in ``column`` can be paid by a starting hand: one piece from each of ``draws``."""
        comp = self.game.components[rule.params["component"]]
        col = rule.params["column"]
        out = []
        for row in self.selected(rule, comp):
            terms = self.terms_of(row, col)
            if not terms:
                continue
            groups: dict[Any, list[dict]] = {}
            for n, entry in enumerate(rule.params["draws"]):
                groups.setdefault(entry.get("draw", f"#{n}"), []).append(entry)
            pools = []
            for entries in groups.values():
                sub = RuleSpec(rule.id, rule.kind, rule.severity, rule.source, rule.index, {"draws": entries})
                pools.append(self.units(sub, "draws", row))
            if math.prod(len(p) for p in pools) > MAX_HANDS:
                raise ExprError(f"more than {MAX_HANDS} starting hands to try", f"{rule.key}.draws")
            for hand in itertools.product(*pools):
                need = Counter(u.key for u in hand)
                if any(need[u.key] > u.count for u in hand):
                    continue  # one card drawn twice, but the box has only one copy
                if pay(terms, [Unit(u.label, 1, u.names, u.any_name) for u in hand]).ok:
                    labels = " + ".join(u.label for u in hand)
                    names = self.ev.row_names(row) | {"hand": labels}
                    out.append(self.finding(rule, row.location(col), self.message(
                        rule, f"a starting hand of {labels} can already pay for {row_label(row)}", names),
                        component=comp.id, piece=row.id or row_label(row)))
                    break
        return out

    def kind_players_supported(self, rule: RuleSpec) -> list[Finding]:
        """For every player count the manifest allows, ``needs`` is at most ``has`` (both may
        use ``p``, the number of players)."""
        needs = self.param_expr(rule, "needs")
        label = rule.params.get("label", "pieces")

        def fits(p: int) -> tuple[bool, Any, Any]:
            need = self.ev.evaluate(needs, {"p": p})
            has = self.value_of(rule, "has", {"p": p})
            return need <= has, need, has

        failing = []
        for p in range(self.game.players_min, self.game.players_max + 1):
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
                f"[{self.game.players_min}, {best}], or add more" if best else "add more")
        return [self.finding(rule, self.manifest_location("game.players"), self.message(rule, default, names),
                             hint=rule.hint or hint)]

    def kind_pattern(self, rule: RuleSpec) -> list[Finding]:
        """Every value of ``column`` matches ``pattern``; named groups listed in ``names`` hold
        names from those vocabularies."""
        comp = self.game.components[rule.params["component"]]
        col = rule.params["column"]
        regex: re.Pattern = rule.params["_regex"]
        groups: dict[str, str] = rule.params.get("names", {})
        notation = rule.params.get("notation", "")
        out = []
        for row in self.selected(rule, comp):
            value = row.get(col)
            if value is None:
                continue
            for item in (value if isinstance(value, tuple) else (value,)):
                m = regex.fullmatch(str(item))
                names = self.ev.row_names(row) | {"value": item}
                if not m:
                    out.append(self.finding(rule, row.location(col), self.message(
                        rule, f"{row_label(row)}: {item!r} does not follow the notation", names),
                        component=comp.id, piece=row.id or row_label(row),
                        hint=rule.hint or (f"the notation: {notation}" if notation else f"it must match {regex.pattern}")))
                    continue
                for group, ns in groups.items():
                    got = m.groupdict().get(group)
                    vocab = self.book.names.get(ns, [])
                    if got is not None and got not in vocab:
                        close = _suggest(got, vocab)
                        out.append(self.finding(rule, row.location(col), self.message(
                            rule, f"{row_label(row)}: {item!r} names the {ns} {got!r}, which the game does not have",
                            names | {"name": got}), component=comp.id, piece=row.id or row_label(row),
                            hint=(close + " " if close else "") + f"{ns}: {', '.join(vocab)}"))
        return out


def run_rulebook(game: Game, book: RuleBook) -> list[Finding]:
    """Run every cost check and rule of ``book`` against ``game``; returns the findings."""
    if not book.costs and not book.rules:
        return []
    return Runner(game, book).run()
