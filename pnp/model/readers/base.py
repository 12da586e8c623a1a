"""What every table reader returns: a table read as text, with where each cell came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class FormulaError:
    """A formula cell of a workbook whose saved result is an error (``code`` such as
    ``#DIV/0!``), or that has no saved result at all (``code`` empty: the file was written by a
    program that does not calculate)."""

    code: str


@dataclass
class RawRecord:
    """One data row: its cells, the 1-based line each cell starts on, the row's line.

    A CSV cell is text. A workbook cell is what the sheet holds: text, a number (int or float),
    a bool, a date, time or duration, or a :class:`FormulaError`; a blank cell is ``""``.
    """

    line: int
    cells: list[Any]
    cell_lines: list[int]


@dataclass
class RawTable:
    """A table file read: header (trimmed), data records, and what reading noticed.

    For a workbook, ``sheet`` names the sheet read, lines are the sheet's row numbers and
    ``first_column`` is the sheet column (1-based) of the header's first cell.
    """

    path: Path
    display: str
    header: list[str]
    records: list[RawRecord]
    delimiter: str = ","
    blank_rows: list[int] = field(default_factory=list)
    """Lines of rows skipped because every cell was blank."""
    trimmed_headers: list[str] = field(default_factory=list)
    """Header names that had spaces around them in the file (they are used trimmed)."""
    sheet: str | None = None
    first_column: int = 1
    header_line: int = 1
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    """Merged regions of a sheet: (first row, first column, last row, last column), 1-based."""
    hidden_rows: list[int] = field(default_factory=list)
    """Data rows of a sheet hidden in the spreadsheet (1-based; blank rows are not listed)."""
    hidden_columns: list[int] = field(default_factory=list)
    """Columns of a sheet hidden in the spreadsheet (1-based, within the table)."""
