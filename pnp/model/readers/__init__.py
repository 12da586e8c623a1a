"""Table readers: one module per file format, each turning a file into a :class:`RawTable`.

A reader is a :class:`Reader` entry in :data:`READERS`: its name, the file suffixes it is
chosen for, and its ``read(path, display, **options)`` function, with the options its format
has: ``encoding`` and ``delimiter`` for text files, ``sheet`` for workbooks. A new input format
is one new module here and one line in :data:`READERS`. A table whose suffix no reader claims
is read as CSV, as every table was before readers had names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import csv, workbook
from .base import FormulaError, RawRecord, RawTable


@dataclass(frozen=True)
class Reader:
    """One input format: ``read(path, display, **options) -> RawTable`` raising
    :class:`pnp.core.errors.DataError` (file, line, column, hint) for what it cannot read.

    ``text``: the format is text, read with ``encoding`` and ``delimiter``; ``sheets``: the
    file is a workbook of sheets, one read by ``sheet`` name (None: its only sheet). game.toml
    may give a table only the settings its reader takes.
    """

    name: str
    suffixes: tuple[str, ...]
    read: Callable[..., RawTable]
    text: bool = False
    sheets: bool = False


READERS: dict[str, Reader] = {
    "csv": Reader("csv", csv.SUFFIXES, csv.read_csv, text=True),
    "workbook": Reader("workbook", workbook.SUFFIXES, workbook.read_workbook, sheets=True),
}
"""Every table reader by name; the first one is the fallback for unclaimed suffixes."""


def reader_for(path: Path) -> Reader:
    """The reader of a table file, chosen by its suffix (any case)."""
    suffix = Path(path).suffix.lower()
    for reader in READERS.values():
        if suffix in reader.suffixes:
            return reader
    return next(iter(READERS.values()))


def read_table(path: Path, display: str | None = None, *, encoding: str = "utf-8",
               delimiter: str | None = None, sheet: str | None = None) -> RawTable:
    """Read a table file with the reader its suffix picks (see :func:`reader_for`), passing it
    the options its format has."""
    reader = reader_for(path)
    options: dict = {}
    if reader.text:
        options.update(encoding=encoding, delimiter=delimiter)
    if reader.sheets:
        options["sheet"] = sheet
    return reader.read(path, display, **options)


__all__ = ["READERS", "FormulaError", "RawRecord", "RawTable", "Reader", "read_table", "reader_for"]
