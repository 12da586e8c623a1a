"""Declarative schemas of `pnp`'s TOML files, and the one translator of a schema violation into
a message a designer can act on, located at the file, line and key.

A schema is a ``msgspec.Struct``: its fields are the settings a table may have, with their
types, defaults and constraints (``Annotated[int, Meta(ge=0)]``, ``Literal[...]``). A Struct
declared with ``forbid_unknown_fields=True`` refuses settings it does not name, and the message
suggests the closest one. :func:`check` validates one table of a file against a schema;
:class:`TomlFile` knows the line of every key of that file, so every error it makes carries
``file:line (key)``.

Tables whose keys are names the designer chooses (components, columns, layouts, boxes) are
validated one entry at a time, so that a message always names the entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import msgspec

from . import tomlcache
from .errors import Location, PnpError
from .suggest import did_you_mean
from .tomlpos import line_of

TYPE_WORDS = {"str": "text in quotes", "int": "whole number", "float": "number", "bool": "true or false",
              "array": "list [...]", "object": "table", "null": "nothing"}
"""How messages name the types of TOML values."""

_PATH_RE = re.compile(r" - at `\$(.*)`$")
_STEP_RE = re.compile(r"\.([A-Za-z0-9_\-]+)|\[(\d+)\]")


@dataclass
class TomlFile:
    """One TOML file as messages name it (``display``), with the line of each of its keys
    (:func:`pnp.core.tomlpos.toml_key_lines`); ``prefix`` is prepended to every key (the table
    a profile read from game.toml lives in, ``targets.dtc``)."""

    display: str
    lines: dict[str, int] = field(default_factory=dict)
    prefix: str = ""

    @classmethod
    def of_text(cls, display: str, text: str, prefix: str = "") -> "TomlFile":
        return cls(display, tomlcache.key_lines(text), prefix)

    def key(self, key: str | None) -> str | None:
        """``key`` with the file's prefix."""
        if not self.prefix:
            return key or None
        return f"{self.prefix}.{key}" if key else self.prefix

    def location(self, key: str | None = None) -> Location:
        """The file, the line of ``key`` (or of the closest enclosing table that has one), the key.
        A key may end in a note after a comma (``..., drawing layout hero``); the line is the key's."""
        full = self.key(key)
        line = line_of(self.lines, full.split(", ")[0]) if full else None
        return Location(self.display, line, None, full)

    def error(self, key: str | None, message: str, hint: str | None = None,
              kind: type[PnpError] = PnpError, **extra: Any) -> PnpError:
        """A ``kind`` error at ``key`` of this file."""
        return kind(message, location=self.location(key), hint=hint, **extra)


def _value_at(data: Any, steps: list[str | int]) -> Any:
    for step in steps:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _STEP_RE.findall(path)]


def _words(expected: str) -> str:
    names = [n.strip() for n in expected.split("|")]
    return " or ".join(TYPE_WORDS.get(n, n) for n in names if n != "null")


def check(data: Any, schema: type, file: TomlFile, key: str, kind: type[PnpError] = PnpError, *,
          what: str = "setting", hints: dict[str, str] | None = None,
          choices: dict[str, Callable[[Any], tuple[str, str | None]]] | None = None, rule: str = ""):
    """``data`` (the table at dotted ``key`` of ``file``) converted to ``schema``.

    Raises ``kind`` located at the failing key: a setting that is missing (hint ``hints[name]``,
    else "add name = ... under [table]") or out of its range (hint ``hints[name]``), unknown (``unknown {what} 'x'``, with the closest
    name), of the wrong type, out of its range, or not one of its choices
    (``choices[name](value)`` gives that message and its hint). ``rule`` is the rule id the
    error is reported under.
    """
    try:
        return msgspec.convert(data, schema)
    except msgspec.ValidationError as exc:
        raise _translate(str(exc), data, schema, file, key, kind, what, hints or {}, choices or {}, rule) from None


def _fields(schema: type, steps: list[str | int]) -> tuple[str, ...]:
    """The settings of the table an unknown field was found in: ``schema``'s own (tables whose
    keys the designer chooses are validated one entry at a time, so a schema is one level)."""
    return tuple(schema.__struct_fields__) if not steps else ()


def _translate(message: str, data: Any, schema: type, file: TomlFile, key: str, kind: type[PnpError], what: str,
               hints: dict[str, str], choices: dict[str, Callable[[Any], str]], rule: str = "") -> PnpError:
    extra = {"rule": rule} if rule else {}
    found = _PATH_RE.search(message)
    path = found.group(1) if found else ""
    text = message[:found.start()] if found else message
    steps = _steps(path)
    at = ".".join([key] + [str(s) if isinstance(s, str) else f"[{s}]" for s in steps]).replace(".[", "[") \
        if key else ".".join(str(s) for s in steps)
    name = next((s for s in reversed(steps) if isinstance(s, str)), key.rsplit(".", 1)[-1] if key else "")
    missing = re.match(r"Object missing required field `(.+)`", text)
    if missing:
        field_name = missing.group(1)
        where = f"{at}.{field_name}" if at else field_name
        hint = hints.get(field_name, f"add {field_name} = ... under [{at}]" if at else None)
        return file.error(where, f"'{field_name}' is missing", hint, kind, **extra)
    unknown = re.match(r"Object contains unknown field `(.+)`", text)
    if unknown:
        field_name = unknown.group(1)
        known = _fields(schema, steps)
        where = f"{at}.{field_name}" if at else field_name
        return file.error(where, f"unknown {what} {field_name!r}",
                          did_you_mean(field_name, known, "settings: " + ", ".join(known)) if known else None, kind, **extra)
    value = _value_at(data, steps)
    enum = re.match(r"Invalid enum value (.+)", text)
    if enum:
        if name in choices:
            return file.error(at, *choices[name](value), kind, **extra)
        return file.error(at, f"{name} {value!r} is not one of the allowed values", None, kind, **extra)
    bound = re.match(r"Expected `(.+?)` (>=|<=|>|<) (\S+)", text)
    if bound:
        sign = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than"}[bound.group(2)]
        return file.error(at, f"{name} must be {sign} {bound.group(3)}, not {value!r}", hints.get(name), kind, **extra)
    wrong = re.match(r"Expected `(.+?)`, got `(.+?)`", text)
    if wrong:
        return file.error(at, f"'{name}' must be {_article(_words(wrong.group(1)))}, not {value!r}", None, kind, **extra)
    return file.error(at, text, None, kind, **extra)


def _article(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words if not words.startswith(("text", "true")) else words
