"""Reading a game's ``rules.toml``: its vocabularies (``[names]``), cost columns (``[[costs]]``),
rules (``[[rule]]``, each of a kind from :data:`pnp.validate.kinds.RULE_KINDS`) and what
``--analysis`` tallies (``[analysis]``); docs/validation.md describes the file.

Every problem in the file becomes a finding (``rules.file``) located at its line; an entry with
a problem is left out of the :class:`RuleBook`, never guessed.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, Union

from msgspec import Struct

from ..core import tomlcache
from ..core.errors import Location, PnpError, Problem
from ..core.schema import TomlFile, check
from ..core.findings import SEVERITIES, Finding
from ..core.suggest import did_you_mean
from ..core.tomlpos import line_of, toml_error, toml_hint
from ..model.game import Component, Game
from .expressions import Evaluator
from .kinds import RULE_KINDS

RULES_FILE = "rules.toml"


COMMON_KEYS = {"id", "kind", "severity", "source", "message", "hint", "conflicts_with",
               "aggregate", "description"}


TOP_KEYS = {"names", "costs", "rule", "analysis", "informational"}


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
    informational: list[str] = field(default_factory=list)
    """Keys of game.toml's ``[rules]`` (``rules.tie_breaker``) that are facts for people which
    no rule, layout or template reads: listed so that they are not reported as unused."""
    data: dict[str, Any] = field(default_factory=dict, repr=False)
    """The file as read, for finding which ``[rules]`` keys it refers to."""

    def location(self, key: str) -> Location:
        """The line of a dotted key in rules.toml, as a Location naming the key."""
        return Location(self.display, line_of(self.lines, key), None, key)

    def cost_columns(self) -> dict[tuple[str, str], CostSpec]:
        """(component, column) -> its cost declaration."""
        return {(c.component, c.column): c for c in self.costs}


def _problem_finding(book: RuleBook, exc: Problem, rule: str = "rules.file") -> Finding:
    return Finding.at("error", rule, book.location(exc.key) if exc.key else Location(book.display),
                      exc.message, hint=exc.hint)


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
                                 hint="save it as UTF-8")]
    try:
        data = tomlcache.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where, message = toml_error(book.display, exc, text)
        hint = "a table written twice: each rule starts with its own [[rule]] (two brackets)" \
            if "overwrite" in message.lower() else toml_hint(message)
        return book, [Finding.at("error", "rules.file", where, message, hint=hint)]
    book.lines = tomlcache.key_lines(text)
    findings: list[Finding] = []
    for key in data:
        if key not in TOP_KEYS:
            findings.append(_problem_finding(book, Problem(
                f"unknown section {key!r}", key=key,
                hint=did_you_mean(key, TOP_KEYS, "rules.toml holds [names], [[costs]], [[rule]], [analysis] "
                                                "and informational"))))
    for name, spec in _table(data, "names", book, findings).items():
        try:
            book.names[name] = _resolve_names(game, name, spec)
        except Problem as exc:
            findings.append(_problem_finding(book, exc))
    for i, spec in enumerate(_array(data, "costs", book, findings)):
        try:
            book.costs.append(_read_cost(game, book, i, spec))
        except Problem as exc:
            findings.append(_problem_finding(book, exc))
    seen: dict[str, int] = {}
    for i, spec in enumerate(_array(data, "rule", book, findings)):
        try:
            rule = _read_rule(game, book, i, spec)
        except Problem as exc:
            findings.append(_problem_finding(book, exc))
            continue
        if rule.id in seen:
            findings.append(_problem_finding(book, Problem(
                f"rule id {rule.id!r} is used twice (first on line {line_of(book.lines, f'rule[{seen[rule.id]}]')})",
                key=f"rule[{i}].id", hint="give every rule its own id")))
            continue
        seen[rule.id] = i
        book.rules.append(rule)
    book.data = data
    informational = data.get("informational", [])
    if not isinstance(informational, list) or not all(isinstance(k, str) for k in informational):
        findings.append(_problem_finding(book, Problem(
            "informational must be a list of [rules] keys", key="informational",
            hint='informational = ["rules.tie_breaker"]')))
    else:
        book.informational = [k if k.startswith("rules.") else f"rules.{k}" for k in informational]
    analysis = data.get("analysis", {})
    if not isinstance(analysis, dict):
        findings.append(_problem_finding(book, Problem("[analysis] must be a table", key="analysis")))
    else:
        book.analysis = analysis
    return book, findings


def _table(data: dict, key: str, book: RuleBook, findings: list[Finding]) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        findings.append(_problem_finding(book, Problem(f"[{key}] must be a table", key=key)))
        return {}
    return value


def _array(data: dict, key: str, book: RuleBook, findings: list[Finding]) -> list:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        findings.append(_problem_finding(book, Problem(
            f"{key} must be an array of tables", key=key, hint=f"write each entry under its own [[{key}]] header")))
        return []
    return value


def _component(game: Game, cid: Any, key: str) -> Component:
    if not isinstance(cid, str) or cid not in game.components:
        raise Problem(f"no component {cid!r} in game.toml", key=key,
                      hint=did_you_mean(str(cid), game.components) or "components: " + ", ".join(game.components))
    return game.components[cid]


def _column(comp: Component, col: Any, key: str) -> str:
    if not isinstance(col, str) or col not in comp.columns:
        raise Problem(f"{col!r} is not a column of {comp.id}", key=key,
                      hint=did_you_mean(str(col), comp.columns) or "columns: " + ", ".join(comp.columns))
    return col


def _resolve_names(game: Game, name: str, spec: Any) -> list[str]:
    key = f"names.{name}"
    where = None
    if isinstance(spec, dict):
        unknown = set(spec) - {"from", "values", "where"}
        if unknown:
            raise Problem(f"unknown key {sorted(unknown)[0]!r} in a name list", key=key,
                          hint="a name list is a list, \"component.column\", or { from = ..., where = ... }")
        where = spec.get("where")
        spec = spec.get("values", spec.get("from"))
    if isinstance(spec, list):
        return [str(v) for v in spec]
    if not isinstance(spec, str) or "." not in spec:
        raise Problem(f"name list {name!r} must be a list of names or \"component.column\"", key=key,
                      hint='for example element = "elements.symbol" or colour = ["red", "green"]')
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


class CostTable(Struct, forbid_unknown_fields=True):
    """One ``[[costs]]`` entry: the column holding costs, the vocabularies (``[names]``) its
    names come from, the rulebook section, and the optional checks of repeats and order."""

    component: str
    column: str
    names: Union[list[str], str]
    source: str
    each_name_once: bool = False
    ordered: bool = False
    label: str = ""


class SupplyEntry(Struct, forbid_unknown_fields=True):
    """One entry of a ``supply`` or ``draws`` list (docs/validation.md): a set of pieces."""

    component: str
    where: Union[str, None] = None
    count: Union[str, int, None] = None
    names: list[str] = []
    any_name: bool = False
    when: Union[str, None] = None
    label: Union[str, None] = None
    draw: Union[str, int, None] = None


COST_KEYS = frozenset(CostTable.__struct_fields__)
SUPPLY_KEYS = frozenset(SupplyEntry.__struct_fields__)


def _schema(book: RuleBook, data: Any, schema: type, key: str, what: str):
    """``data`` checked against ``schema``; a violation is a Problem at its key (and line)."""
    try:
        return check(data, schema, TomlFile(book.display, book.lines), key, what=what)
    except PnpError as exc:
        raise Problem(exc.message, hint=exc.hint, key=exc.location.column_name or key) from None


def _read_cost(game: Game, book: RuleBook, i: int, raw: dict) -> CostSpec:
    key = f"costs[{i}]"
    spec = _schema(book, raw, CostTable, key, "[[costs]] key")
    comp = _component(game, spec.component, f"{key}.component")
    _column(comp, spec.column, f"{key}.column")
    names = spec.names if isinstance(spec.names, list) else [spec.names]
    for n in names:
        if n not in book.names:
            raise Problem(f"no name list {n!r} in [names]", key=f"{key}.names",
                          hint=did_you_mean(n, book.names) or "declare it under [names]")
    return CostSpec(comp.id, spec.column, names, spec.source, i, spec.each_name_once, spec.ordered, spec.label)


def _check_at(game: Game, at: str, key: str, rid: str) -> None:
    """Refuse an ``at`` that points at nothing: a game.toml key the manifest lacks, a component
    or row the game lacks (a finding would point at the wrong line, or at none)."""
    if at.startswith("game.toml:"):
        node: Any = game.manifest
        walked: list[str] = []
        for step in at.split(":", 1)[1].split("."):
            if not isinstance(node, dict) or step not in node:
                options = list(node) if isinstance(node, dict) else []
                where = ".".join(walked) or "game.toml"
                raise Problem(f"rule {rid}: at = {at!r} names {step!r}, which {where} does not have", key=key,
                              hint=did_you_mean(step, options, ("keys there: " + ", ".join(map(str, options[:12])))
                                                if options else ""))
            node = node[step]
            walked.append(step)
        return
    cid, _, rest = at.partition(":")
    comp = _component(game, cid, key)
    rid_, _, _ = rest.partition(":")
    if rid_ and comp.id_column and rid_ not in comp.by_id():
        raise Problem(f"rule {rid}: at = {at!r}: no row {rid_!r} in {cid}", key=key,
                      hint=did_you_mean(rid_, comp.by_id()) or None)


def _read_rule(game: Game, book: RuleBook, i: int, spec: dict) -> RuleSpec:
    key = f"rule[{i}]"
    rid = spec.get("id")
    if not isinstance(rid, str) or not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$", rid):
        raise Problem(f"rule needs an id of letters, digits, '.', '-' and '_', not {rid!r}", key=f"{key}.id",
                      hint='for example id = "track.hazard-spaces"')
    kind = spec.get("kind", "assert")
    if kind not in RULE_KINDS:
        raise Problem(f"rule {rid}: unknown kind {kind!r}", key=f"{key}.kind",
                      hint=did_you_mean(kind, RULE_KINDS, "kinds: " + ", ".join(RULE_KINDS)))
    rule_kind = RULE_KINDS[kind]
    for k in spec:
        if k not in COMMON_KEYS | rule_kind.keys:
            allowed = sorted(COMMON_KEYS | rule_kind.keys)
            raise Problem(f"rule {rid}: {kind} rules have no key {k!r}", key=f"{key}.{k}",
                          hint=did_you_mean(k, allowed, "keys: " + ", ".join(allowed)))
    for k in sorted(rule_kind.required | {"source"}):
        if k not in spec:
            hint = "every rule names the rulebook section it comes from" if k == "source" else ""
            raise Problem(f"rule {rid}: {'an' if kind[:1] in 'aeiou' else 'a'} {kind} rule needs {k!r}", key=key,
                          hint=hint)
    severity = spec.get("severity", "error")
    if severity not in SEVERITIES:
        raise Problem(f"rule {rid}: severity {severity!r} is not one of {', '.join(SEVERITIES)}",
                      key=f"{key}.severity")
    params = {k: v for k, v in spec.items() if k not in COMMON_KEYS}
    if "at" in params:
        _check_at(game, str(params["at"]), f"{key}.at", rid)
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
    for k in rule_kind.entry_lists:
        if k in params:
            entries = params[k]
            if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
                raise Problem(f"rule {rid}: {k} must be a list of tables", key=f"{key}.{k}",
                              hint=f'{k} = [{{ component = "cards", names = ["symbol"] }}]')
            for n, e in enumerate(entries):
                entry = _schema(book, e, SupplyEntry, f"{key}.{k}[{n}]", f"key of {k}")
                _component(game, entry.component, f"{key}.{k}")
    for k in rule_kind.name_maps:
        if k not in params:
            continue
        if not isinstance(params[k], dict):
            raise Problem(f"rule {rid}: {k} must map pattern groups to name lists", key=f"{key}.{k}",
                          hint=f'{k} = {{ icon = "icon" }}')
        for group, ns in params[k].items():
            if ns not in book.names:
                raise Problem(f"rule {rid}: no name list {ns!r} in [names]", key=f"{key}.{k}",
                              hint=did_you_mean(ns, book.names) or "declare it under [names]")
    for k in rule_kind.regex_keys:
        if k not in params:
            continue
        try:
            params[f"_{k}_re"] = re.compile(params[k])
        except (re.error, TypeError) as exc:
            raise Problem(f"rule {rid}: the {k} is not a regular expression: {exc}", key=f"{key}.{k}")
    groups = {g for k in rule_kind.regex_keys if f"_{k}_re" in params for g in params[f"_{k}_re"].groupindex}
    for k in rule_kind.name_maps:
        for group in params.get(k, {}):
            if group not in groups:  # a name list for a group no expression has would check nothing
                raise Problem(f"rule {rid}: {k} names the group {group!r}, which "
                              f"{' and '.join(rule_kind.regex_keys)} do not define", key=f"{key}.{k}",
                              hint=did_you_mean(group, groups, "groups: " + ", ".join(sorted(groups)) if groups
                                                else "name a group in the expression: (?P<name>...)"))
    return RuleSpec(rid, kind, severity, str(spec["source"]), i, params,
                    message=spec.get("message"), hint=spec.get("hint"),
                    conflicts_with=str(spec.get("conflicts_with", "")),
                    aggregate=bool(spec.get("aggregate", False)))
