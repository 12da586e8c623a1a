"""Errors that `pnp` reports to a designer.

Every error a user can cause is a :class:`PnpError`. The CLI prints its message (which names the
file, line, column and value where one exists, plus a hint) and exits with status 2; no
traceback is shown. Code below the CLI raises these and never prints or exits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


def column_letters(column: int) -> str:
    """A spreadsheet's name of 1-based column ``column``: 1 -> ``A``, 27 -> ``AA``."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell_name(line: int | None, column: int | None) -> str:
    """A cell of a sheet as spreadsheets name it (``C7``); ``row 7`` without a column, ``C``
    without a row, "" without either."""
    if line is not None and column is not None:
        return f"{column_letters(column)}{line}"
    if line is not None:
        return f"row {line}"
    return column_letters(column) if column is not None else ""


@dataclass(frozen=True)
class Location:
    """Where a value came from: a file, and optionally a 1-based line and column.

    ``column_name`` is the CSV header of the column, or a dotted key path in a TOML manifest.
    ``sheet`` names the sheet of a workbook (.xlsx, .ods); then ``line`` is the sheet's row
    number and the location reads as spreadsheets name a cell: ``cards.xlsx › Creatures!C7``.
    """

    file: Path | str
    line: int | None = None
    column: int | None = None
    column_name: str | None = None
    sheet: str | None = None

    def __str__(self) -> str:
        text = str(self.file)
        if self.sheet is not None:
            text += f" › {self.sheet}"
            cell = cell_name(self.line, self.column)
            if cell:
                text += f"!{cell}" if self.column is not None else f", {cell}"
        elif self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        if self.column_name:
            text += f" ({self.column_name})"
        return text


class PnpError(Exception):
    """Base of every error caused by a user's input or options.

    ``message`` says what is wrong; ``hint`` says what to do about it. ``location`` is where.
    ``rule`` is the rule id ``pnp check`` and ``pnp build`` report it under (``schema.ref``);
    without one, the class's :attr:`default_rule`.
    """

    default_rule = "build.error"
    """The rule id of an error of this kind raised without one."""

    def __init__(self, message: str, *, location: Location | None = None, hint: str | None = None,
                 rule: str = ""):
        self.message = message
        self.location = location
        self.hint = hint
        self.rule = rule or self.default_rule
        super().__init__(self.render())

    def render(self) -> str:
        """The full message on one or two lines: ``location: message`` then ``hint: ...``."""
        text = f"{self.location}: {self.message}" if self.location else self.message
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class DataError(PnpError):
    """A CSV cell, a CSV file or a manifest entry that cannot be read as declared."""

    default_rule = "schema.file"


class ManifestError(DataError):
    """A game manifest (``game.toml``) that is missing, malformed or inconsistent."""

    default_rule = "schema.manifest"


class LayoutError(PnpError):
    """A card layout (``templates/<game>/layouts.toml``) that is malformed or inconsistent."""

    default_rule = "layout.render"


class BuildError(PnpError):
    """A build that cannot go ahead (nothing fits the sheet, an output cannot be written, ...)."""


class Problem(ValueError):
    """A problem found by code that does not know where its input came from: a cell, a cost, a
    template value, a key of rules.toml. ``message`` says what is wrong and ``hint`` what to do;
    ``key`` is the dotted setting it concerns and ``rule`` the rule id of the finding it
    becomes, when the raiser knows them. The caller that knows the file turns it into a located
    :class:`PnpError` or :class:`pnp.core.findings.Finding`.
    """

    def __init__(self, message: str, *, hint: str | None = None, key: str = "", rule: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint or ""
        self.key = key
        self.rule = rule

    def __str__(self) -> str:
        return self.message


NOT_FINITE_NAMES = ("name 'inf' is not defined", "name 'nan' is not defined")
"""What Jinja2 raises for arithmetic on constants that comes out infinite or not a number (it
writes the value into the code it generates, where Python knows no such name)."""


def explain(exc: BaseException) -> tuple[str, str | None]:
    """(message, hint) of an exception: a :class:`Problem`'s own, a template's arithmetic that
    came out infinite or not a number (:data:`NOT_FINITE_NAMES`), or the text of any other
    (its type's name when it has none) and no hint."""
    if isinstance(exc, Problem):
        return exc.message, exc.hint or None
    if isinstance(exc, NameError) and str(exc) in NOT_FINITE_NAMES:
        return ("the arithmetic comes out infinite or not a number",
                "keep the numbers of the expression within range (a float overflows past 1e308)")
    return str(exc) or type(exc).__name__, None
