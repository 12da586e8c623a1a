"""Expressions in ``rules.toml``: evaluated safely with simpleeval against one game.

Rows, the ``[rules]`` table and the manifest are handed to expressions as :class:`Record` s
(keys are attributes too); :class:`Evaluator` knows the names and functions an expression may
use (docs/validation.md) and turns every failure into a :class:`pnp.core.errors.Problem` whose
``key`` is the rules.toml key the expression came from.
"""

from __future__ import annotations

import math
import re
from collections import ChainMap
from dataclasses import dataclass
from typing import Any

from ..core.errors import Problem, explain
from ..core.suggest import did_you_mean
from ..model.cost import Term, parse_cost
from ..model.game import Component, Game, Row

MAX_RANGE = 10_000
"""Most numbers ``range()`` may give in an expression."""


def _keys(names, depth: int = 3) -> set[str]:
    """Every key of the Records (and dicts) ``names`` holds, a few levels down: what an
    attribute an expression misspelt may have meant."""
    out: set[str] = set()

    def walk(value, level: int) -> None:
        data = object.__getattribute__(value, "_d") if isinstance(value, Record) else value
        if level > depth or not isinstance(data, dict):
            return
        for key, item in data.items():
            out.add(str(key))
            walk(item, level + 1)

    for value in dict(names).values():
        walk(value, 1)
    return out


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
    return row.id or row.place


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
                close = did_you_mean(cid, self.game.components)
                raise ValueError(f"no component {cid!r}" + (f"; {close}" if close else ""))
            self._records[cid] = [(r, self.record(r)) for r in self.game.components[cid].rows]
            self._by_row.update((id(r), rec) for r, rec in self._records[cid])
        return self._records[cid]

    def record(self, row: Row) -> Record:
        """A row as expressions see it: its columns plus ``id`` and ``copies``."""
        data = {k: wrap(v) for k, v in row.values.items()}
        data.setdefault("id", row.id)
        data.setdefault("copies", row.copies)
        return Record(data)

    @staticmethod
    def _check_columns(comp: Component, where: dict) -> None:
        for col in where:
            if col not in comp.columns and col not in ("id", "copies"):
                raise ValueError(f"{col!r} is not a column of {comp.id}")

    def _match(self, cid: str, where: dict) -> list[tuple[Row, Record]]:
        comp = self.game.components.get(cid)
        if comp is not None:
            self._check_columns(comp, where)
        return [(r, rec) for r, rec in self.records(cid)
                if all(unwrap(rec[c]) == v or (isinstance(v, (list, tuple)) and unwrap(rec[c]) in v)
                       for c, v in where.items())]

    def rows(self, component: str, **where: Any) -> list[Record]:
        """rows("orders", rank="C"): the rows of a component whose columns equal the values."""
        return [rec for _, rec in self._match(component, where)]

    def count(self, component: str, **where: Any) -> int:
        """count("workers", player_colour="blue"): pieces as stated totals and rulebook
        templates count them (:meth:`pnp.model.game.Component.count`)."""
        comp = self.game.components.get(component)
        if comp is None:
            raise ValueError(f"no component {component!r}")
        if comp.table is not None:
            self._check_columns(comp, where)
        return comp.count(where)

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
            raise ValueError(f"cost {text!r}: {explain(exc)[0]}") from None

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
        """Parse an expression; raises Problem (``key`` locates it) when it does not parse."""
        if isinstance(text, bool) or isinstance(text, (int, float)):
            text = repr(text)
        if not isinstance(text, str) or not text.strip():
            raise Problem(f"expected an expression, not {text!r}", key=key)
        cached = self._compiled.get((text, key))
        if cached is not None:
            return cached
        try:
            tree = self._eval.parse(text.strip())
        except SyntaxError as exc:
            raise Problem(f"{text!r} is not a valid expression: {exc.msg}", key=key,
                          hint="expressions are written as in Python: card_count <= rules.hand_limit") from None
        self._compiled[(text, key)] = Expr(text.strip(), key, tree)
        return self._compiled[(text, key)]

    def evaluate(self, expr: Expr, names: dict[str, Any] | None = None) -> Any:
        """The value of a compiled expression with ``names`` (over the game-wide names).

        Raises Problem naming the expression and what went wrong (an unknown name, a missing
        key, a type mismatch); the simpleeval limits on power, string length and comprehension
        size apply.
        """
        from simpleeval import AttributeDoesNotExist, InvalidExpression, NameNotDefined

        self._eval.names = ChainMap(names or {}, self.base)
        try:
            return self._eval.eval(expr.text, previously_parsed=expr.tree)
        except NameNotDefined as exc:
            known = list(names or {}) + list(self.base) + list(self._eval.functions)
            close = did_you_mean(exc.name, known)
            raise Problem(f"{expr.text!r}: no name {exc.name!r}", key=expr.key,
                          hint=close or "names: " + ", ".join(sorted(k for k in (names or {}) if k != "row")
                                                         + ["rules", "players", "game"])) from None
        except AttributeDoesNotExist as exc:
            close = did_you_mean(exc.attr, _keys(self._eval.names))
            raise Problem(f"{expr.text!r}: {exc.attr!r} does not exist", key=expr.key,
                          hint=close or "check the key in game.toml [rules] or the column name") from None
        except InvalidExpression as exc:
            raise Problem(f"{expr.text!r}: {getattr(exc, 'message', exc)}", key=expr.key) from None
        except KeyError as exc:
            raise Problem(f"{expr.text!r}: no key {exc.args[0]!r}", key=expr.key) from None
        except TypeError as exc:
            message, hint = _type_mismatch(exc)
            raise Problem(f"{expr.text!r}: {message}", key=expr.key, hint=hint) from None
        except (ValueError, ZeroDivisionError, IndexError, AttributeError,
                RecursionError, OverflowError) as exc:
            raise Problem(f"{expr.text!r}: {exc}", key=expr.key) from None

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
                raise Problem(f"a '{{' in the message is not closed: {template!r}", key=key,
                              hint="write {{ for a brace that is not an expression")
            out.append(show(self.evaluate(self.compile(template[i + 1:j], key), names)))
            i = j + 1
        return "".join(out)


# What a designer calls the kinds of value an expression meets (Python's names in messages).
_KINDS = {"str": "text", "int": "a whole number", "float": "a number", "bool": "true/false",
          "NoneType": "an empty cell", "list": "a list", "tuple": "a list", "dict": "a table",
          "Decimal": "a number", "date": "a date", "datetime": "a date"}
_COMPARE = re.compile(r"'(?P<op>[^']+)' not supported between instances of '(?P<a>\w+)' and '(?P<b>\w+)'")
_OPERAND = re.compile(r"unsupported operand type\(s\) for (?P<op>[^:]+): '(?P<a>\w+)' and '(?P<b>\w+)'")
_CONCAT = re.compile(r'can only concatenate (?P<a>\w+) \(not "(?P<b>\w+)"\) to \w+')


def _type_mismatch(exc: TypeError) -> tuple[str, str]:
    """A message and a hint, in a designer's words, for an operation on values of the wrong
    kinds (text compared with a number, an empty cell added to a number)."""
    text = str(exc)
    for pattern in (_COMPARE, _OPERAND, _CONCAT):
        match = pattern.search(text)
        if match:
            a, b = (_KINDS.get(match[k], match[k]) for k in ("a", "b"))
            op = match.groupdict().get("op") or "+"
            kinds = {a, b}
            if "an empty cell" in kinds:
                hint = "guard the empty cell, e.g. `(column or 0)`, or make the column required in game.toml"
            elif "text" in kinds:
                hint = ("a column declared `str` or `text` holds text: compare it with quoted text, "
                        "or declare the column `int` or `float` in game.toml")
            else:
                hint = "convert one side, e.g. `int(column)`, or change the column's type in game.toml"
            verb = "compare" if pattern is _COMPARE else "combine"
            return f"`{op.strip()}` cannot {verb} {a} with {b}", hint
    return text, ""
