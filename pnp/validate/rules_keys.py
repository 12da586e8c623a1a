"""Every fact of game.toml's ``[rules]`` is read by something: a rule of ``rules.toml``, a
layout, or the rulebook template (rule ``rules.unused-key``). A key nothing reads is a number
that can drift from what the rulebook says without any check noticing, or a misspelling of the
key a template meant; facts kept only for people are listed under ``informational`` in
rules.toml.

References are found by parsing, not by searching text: the expressions of rules.toml as
Python expressions (what simpleeval evaluates), the templates of the layouts files and the
rulebook's Jinja2 files as Jinja2 syntax trees. ``rules.setup`` used whole counts for every key
under it, and ``rules`` used whole (passed to a filter) for all of them.
"""

from __future__ import annotations

import ast
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ..core import tomlcache
from ..core.errors import Location
from ..core.findings import Finding
from ..core.suggest import did_you_mean
from ..core.tomlpos import line_of
from ..design.names import EXPRESSION_KEYS
from ..design.templating import analysed, parse_template
from ..model.game import Game
from .rulesfile import RuleBook

WHOLE = "rules"
"""The reference meaning "every key": ``rules`` used as a whole."""
_BRACES = re.compile(r"\{([^{}]+)\}")
_AT = re.compile(r"^game\.toml:(rules(?:\.[\w-]+)+)$")


def rules_keys(game: Game) -> list[str]:
    """The dotted paths of every leaf of ``[rules]`` (``rules.setup.face_up_orders.C``)."""
    out: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict) and value:
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        else:
            out.append(path)

    for key, value in (game.manifest.get("rules") or {}).items():
        walk(value, f"rules.{key}")
    return out


def _python_refs(expression: str) -> set[str]:
    """The ``rules.…`` paths a Python expression reads (``rules.a.b``, ``rules['a']``)."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return set()
    found: set[str] = set()
    inner: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Attribute, ast.Subscript)) or id(node) in inner:
            continue
        steps: list[str] = []
        cur: Any = node
        while True:
            if isinstance(cur, ast.Attribute):
                steps.append(cur.attr)
            elif isinstance(cur, ast.Subscript) and isinstance(cur.slice, ast.Constant) \
                    and isinstance(cur.slice.value, str):
                steps.append(cur.slice.value)
            elif isinstance(cur, ast.Subscript):
                steps = []  # an index the expression computes: anything below what is before it
            else:
                break
            inner.add(id(cur))
            cur = cur.value
        if isinstance(cur, ast.Name) and cur.id == "rules":
            found.add(".".join(["rules"] + steps[::-1]))
    names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "rules"]
    parents = {id(child): parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for name in names:
        parent = parents.get(id(name))
        if not isinstance(parent, (ast.Attribute, ast.Subscript)) or parent.value is not name:
            found.add(WHOLE)
    return found


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _settings(value: Any, key: str = "") -> Iterable[tuple[str, str]]:
    """(setting name, text) of every string in a layouts file."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from _settings(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _settings(item, key)


def rules_toml_refs(book: RuleBook) -> set[str]:
    """The ``[rules]`` paths rules.toml reads: in its expressions, in the ``{…}`` parts of its
    messages, and in ``at = "game.toml:rules.…"`` pointers."""
    found: set[str] = set()
    for text in _strings(book.data):
        at = _AT.match(text.strip())
        if at:
            found.add(at.group(1))
            continue
        found |= _python_refs(text)
        for part in _BRACES.findall(text):
            found |= _python_refs(part)
    return found


@lru_cache(maxsize=1024)
def _jinja_refs(source: str, expression: bool = False) -> frozenset[str]:
    """The ``rules.…`` paths a Jinja2 template (or, with ``expression``, a bare expression such
    as a ``when``) reads, through names set to ``rules`` or a table of it too
    (``{% set R = rules %}`` … ``R.hand_limit``); cached per source."""
    if "rules" not in source:
        return frozenset()  # every path read starts from the name rules, in this same source
    from jinja2 import TemplateError

    if expression:
        source = "{{ (" + source + ") }}"
    try:
        return analysed("rules-refs", source, _rules_refs)
    except TemplateError:
        return frozenset()  # prose, or a template whose error the part that runs it reports


def _rules_refs(source: str) -> frozenset[str]:
    """The ``rules.…`` paths template ``source`` reads (:func:`_jinja_refs`). Raises
    jinja2.TemplateError when it does not parse."""
    from jinja2 import nodes

    tree = parse_template(source)

    def chain(node) -> tuple[Any, list[str], list[int]]:
        """The name a Getattr/Getitem chain starts from, its steps (outermost last) and the
        ids of its nodes; an index the template computes ends the steps above it."""
        steps: list[str] = []
        ids: list[int] = []
        while isinstance(node, (nodes.Getattr, nodes.Getitem)):
            if isinstance(node, nodes.Getattr):
                steps.append(node.attr)
            elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
                steps.append(node.arg.value)
            else:
                steps = []
            ids.append(id(node))
            node = node.node
        return node, steps[::-1], ids

    aliases = {"rules": "rules"}
    covered: set[int] = set()  # nodes already part of a reference, or of setting an alias
    for assign in tree.find_all(nodes.Assign):
        if isinstance(assign.target, nodes.Name):
            root, steps, ids = chain(assign.node)
            if isinstance(root, nodes.Name) and root.name in aliases:
                aliases[assign.target.name] = ".".join([aliases[root.name]] + steps)
                covered.update(ids + [id(root)])
    found: set[str] = set()
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if id(node) in covered:
            continue
        root, steps, ids = chain(node)
        covered.update(ids)
        if isinstance(root, nodes.Name) and root.name in aliases:
            covered.add(id(root))
            found.add(".".join([aliases[root.name]] + steps))
    targets = {id(a.target) for a in tree.find_all(nodes.Assign)}
    for name in tree.find_all(nodes.Name):
        if name.name in aliases and id(name) not in covered | targets:
            found.add(aliases[name.name])  # used whole: every key under it
    return frozenset(found)


def template_refs(templates_dir: Path | None) -> set[str]:
    """The ``[rules]`` paths the layouts files and the rulebook's Jinja2 files read."""
    if templates_dir is None or not templates_dir.is_dir():
        return set()
    found: set[str] = set()
    for path in sorted(templates_dir.rglob("*")):
        if not path.is_file():
            continue
        try:
            if path.suffix == ".j2":
                found |= _jinja_refs(path.read_text(encoding="utf-8-sig"))
            elif path.suffix == ".toml":
                for key, text in _settings(tomlcache.loads(path.read_text(encoding="utf-8-sig"))):
                    if key in EXPRESSION_KEYS:
                        found |= _jinja_refs(text, expression=True)
                    elif "{{" in text or "{%" in text:
                        found |= _jinja_refs(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # a file that cannot be read is reported by the part that reads it
    return found


def _tables(unused: list[str], keys: list[str]) -> list[tuple[str, int]]:
    """``unused`` leaves with every table all of whose leaves are unused said once, as the
    table and how many keys it holds (``rules.starting_resources``, 5)."""
    out: list[tuple[str, int]] = []
    done: set[str] = set()
    for key in unused:
        if key in done:
            continue
        top = key
        parts = key.split(".")
        for n in range(2, len(parts)):
            table = ".".join(parts[:n])
            under = [k for k in keys if k.startswith(table + ".")]
            if all(k in unused for k in under):
                top = table
                break
        under = [k for k in keys if k == top or k.startswith(top + ".")]
        done.update(under)
        out.append((top, len(under)))
    return out


def _covers(ref: str, key: str) -> bool:
    return ref == WHOLE or key == ref or key.startswith(ref + ".") or ref.startswith(key + ".")


def check_rules_keys(game: Game, book: RuleBook, templates_dir: Path | None) -> list[Finding]:
    """A warning for each ``[rules]`` key nothing reads (``rules.unused-key``, at its line of
    game.toml) and for each ``informational`` entry that names no key (``rules.informational``).
    Without a templates folder (None) what the templates read cannot be told: no unused key is
    reported then."""
    if templates_dir is None:
        return []
    keys = rules_keys(game)
    refs = rules_toml_refs(book) | template_refs(templates_dir)
    findings: list[Finding] = []
    missing = sorted(r for r in refs if r != WHOLE and not any(_covers(r, k) for k in keys))
    unused = [k for k in keys if not any(_covers(ref, k) for ref in list(refs) + book.informational)]
    for key, count in _tables(unused, keys):
        close = did_you_mean(key, missing)
        what = f"{key} ({count} keys)" if count > 1 else key
        findings.append(Finding.at(
            "warning", "rules.unused-key", game.key_location(key),
            f"{what} is read by no rule, layout or rulebook template",
            hint=(close + " " if close else "") + "use it, or list it under informational in rules.toml "
            "if it is a fact for people only"))
    for i, info in enumerate(book.informational):
        if not any(_covers(info, key) for key in keys):
            findings.append(Finding.at(
                "warning", "rules.informational",
                Location(book.display, line_of(book.lines, "informational"), None, f"informational[{i}]"),
                f"informational names {info}, which game.toml's [rules] does not have",
                hint=did_you_mean(info, keys) or "remove it"))
    return findings
