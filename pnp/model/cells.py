"""One cell to its typed value, as its column declares (docs/game-format.md).

:func:`parse_cell` reads a CSV cell's text and :func:`parse_value` a workbook cell (text, a
number, a bool, a date or a formula error). Both raise :class:`pnp.core.errors.Problem`; the
loader turns that into a located :class:`pnp.core.errors.DataError` naming file, line, column
and value.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from ..core import units
from ..core.errors import Problem
from ..core.suggest import did_you_mean
from .game import ColumnSpec
from .readers.base import FormulaError

SIGNIFICANT_DIGITS = 15
"""The precision spreadsheets calculate and show numbers to (Excel's specifications and limits:
"Number precision: 15 digits"); a workbook's number is read at it, so a formula's 3.0000000000000004
is the 3 the sheet shows."""

_DESCRIBED = {"int": " (a whole number)", "float": " (a number)", "bool": " (yes or no)", "str": " (one line of text)",
              "text": " (text)"}

TRUE_WORDS = {"yes", "y", "true", "1", "x"}


FALSE_WORDS = {"no", "n", "false", "0"}


ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*\Z")


COLOR_RE = re.compile(r"#[0-9A-Fa-f]{6}\Z")


_INT_RE = re.compile(r"[+-]?[0-9]+\Z")


_FLOAT_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")


def parse_cell(spec: ColumnSpec, raw: str) -> Any:
    """Turn one cell's text into its typed value, or raise a Problem (message, hint and, for a
    value out of range or not allowed, the rule id).

    Blank cells give None (the caller checks ``required``). Numbers, booleans, ids, colours and
    lengths are read with surrounding spaces trimmed; ``str`` and ``text`` keep inner text as
    typed, and only ``text`` may hold line breaks.
    """
    text = raw.strip()
    if text == "":
        return None
    t = spec.type
    if t == "id":
        if not ID_RE.match(text):
            raise Problem(f"{raw!r} is not a valid id",
                          hint="ids use letters, digits, '-', '_' and '.', and start with a letter or digit")
        return text
    if t in ("str", "path"):
        if "\n" in raw or "\r" in raw:
            raise Problem(f"{raw!r} holds a line break, but this column is one line of text",
                          hint='remove the line break, or declare the column as type "text"')
        return raw.strip()
    if t == "text":
        return raw.strip().replace("\r\n", "\n").replace("\r", "\n")
    if t == "int":
        if not _INT_RE.match(text):
            hint = "write a whole number such as 3"
            if _FLOAT_RE.match(text):
                hint = "this column counts whole things; write a whole number such as 3"
            raise Problem(f"{raw!r} is not a whole number", hint=hint)
        value = int(text)
        _check_range(spec, value)
        return value
    if t == "float":
        if not _FLOAT_RE.match(text):
            raise Problem(f"{raw!r} is not a number",
                          hint="use a dot for decimals and no units or thousands separators, e.g. 1811.15")
        value = float(text)
        _check_range(spec, value)
        return value
    if t == "bool":
        low = text.lower()
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        raise Problem(f"{raw!r} is not yes or no", hint="write yes or no (true/false and 1/0 also work)")
    if t == "enum":
        if text not in spec.values:
            raise Problem(f"{raw!r} is not one of the allowed values", rule="schema.allowed",
                          hint=did_you_mean(text, spec.values, "allowed: " + ", ".join(spec.values)))
        return text
    if t == "list":
        items = [item.strip() for item in text.split(spec.separator)]
        if any(item == "" for item in items):
            raise Problem(f"{raw!r} has an empty item",
                          hint=f"separate items with {spec.separator!r} and leave none empty")
        if spec.values:
            for item in items:
                if item not in spec.values:
                    raise Problem(f"item {item!r} is not one of the allowed values", rule="schema.allowed",
                                  hint=did_you_mean(item, spec.values, "allowed: " + ", ".join(spec.values)))
        return tuple(items)
    if t == "ref":
        return text
    if t == "color":
        if not COLOR_RE.match(text):
            raise Problem(f"{raw!r} is not a colour", hint="write a colour as #RRGGBB, e.g. #C0392B")
        return text.upper()
    if t == "length":
        try:
            return units.parse_length(text)
        except ValueError as exc:
            raise Problem(str(exc), hint="lengths need a unit: mm, cm, in or pt") from None
    raise AssertionError(f"unhandled column type {t}")  # guarded by COLUMN_TYPES


def _check_range(spec: ColumnSpec, value: float) -> None:
    if spec.min is not None and value < spec.min:
        raise Problem(f"{value:g} is below the minimum {spec.min:g}", rule="schema.range",
                      hint=f"this column takes values from {spec.min:g}"
                      + (f" to {spec.max:g}" if spec.max is not None else " up"))
    if spec.max is not None and value > spec.max:
        raise Problem(f"{value:g} is above the maximum {spec.max:g}", rule="schema.range",
                      hint=f"this column takes values up to {spec.max:g}")


def number_text(value: int | float) -> str:
    """A workbook number as a sheet shows it, at :data:`SIGNIFICANT_DIGITS`: ``3.0`` -> ``3``,
    ``2.5`` -> ``2.5``."""
    if isinstance(value, int):
        return str(value)
    rounded = float(f"{value:.{SIGNIFICANT_DIGITS}g}")
    if rounded.is_integer() and abs(rounded) < 1e15:
        return str(int(rounded))
    return repr(rounded)


def parse_value(spec: ColumnSpec, value: Any) -> Any:
    """Turn one workbook cell into its column's typed value, or raise a Problem.

    Text is read as a CSV cell's (:func:`parse_cell`); a number as the text the sheet shows
    (so 3.0 is the whole number 3 and 2.5 is not); a bool is a ``bool`` column's yes or no and
    elsewhere the ``TRUE`` or ``FALSE`` the sheet shows. A date, time or duration is a Problem
    (rule ``schema.type``) in every column: `pnp` has no date type, and the text a date shows
    depends on the sheet's format. A formula error, or a formula with no saved result, is a
    Problem with rule ``schema.formula``.
    """
    if type(value) is str:  # a CSV cell, and most workbook cells
        return parse_cell(spec, value)
    if isinstance(value, FormulaError):
        if value.code:
            raise Problem(f"the formula in this cell gives the error {value.code}", rule="schema.formula",
                          hint="fix the formula (or the cells it reads) in the spreadsheet, save, and check again")
        raise Problem("this formula cell has no saved result", rule="schema.formula",
                      hint="the workbook was written by a program that does not calculate; open it in your "
                      "spreadsheet and save it, so each formula's result is stored")
    if isinstance(value, bool):
        if spec.type == "bool":
            return value
        return parse_cell(spec, "TRUE" if value else "FALSE")
    if isinstance(value, (int, float)):
        return parse_cell(spec, number_text(value))
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        what = {datetime.datetime: "a date and time", datetime.date: "a date", datetime.time: "a time",
                datetime.timedelta: "a duration"}[type(value)]
        shown = str(value) if isinstance(value, datetime.timedelta) else value.isoformat()
        raise Problem(f"this cell holds {what} ({shown}), but its column is declared "
                      f"\"{spec.type}\"{_DESCRIBED.get(spec.type, '')}",
                      rule="schema.type",
                      hint="the spreadsheet formats the cell as a date; format it as a number or as plain text "
                      "(Format › Number) and type the value again")
    return parse_cell(spec, value)
