"""What every table reader returns: a table read as text, with where each cell came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class RawRecord:
    """One data row: its cells as text, the 1-based line each cell starts on, the row's line."""

    line: int
    cells: list[str]
    cell_lines: list[int]


@dataclass
class RawTable:
    """A CSV file read as text: header (trimmed), data records, and what reading noticed."""

    path: Path
    display: str
    header: list[str]
    records: list[RawRecord]
    delimiter: str = ","
    blank_rows: list[int] = field(default_factory=list)
    """Lines of rows skipped because every cell was blank."""
    trimmed_headers: list[str] = field(default_factory=list)
    """Header names that had spaces around them in the file (they are used trimmed)."""
