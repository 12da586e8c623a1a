"""Reading one sheet of a spreadsheet workbook (.xlsx, .xlsm, .ods) with python-calamine.

A sheet is read as it was last saved: a formula gives its saved (cached) result, and numbers,
booleans and dates keep the type the spreadsheet gave them (the loader reads them as the
manifest declares, :func:`pnp.model.cells.parse_value`). What the values alone do not show is
read from the workbook's XML (:mod:`pnp.model.readers.sheetxml`): formula errors become
:class:`FormulaError` cells; merged regions and hidden rows and columns are listed on the
:class:`RawTable` for the loader to report. The first row with a value is the header, its
first cell the table's first column; rows whose cells are all blank are skipped and counted,
as in CSV files. Anything that cannot be read raises :class:`pnp.core.errors.DataError` naming
the workbook, the sheet and the cell (``cards.xlsx › Creatures!C7``).
"""

from __future__ import annotations

import datetime
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import python_calamine

from ...core.errors import DataError, Location, cell_name
from ...core.suggest import did_you_mean
from .base import FormulaError, RawRecord, RawTable
from .sheetxml import SheetMarks, ods_marks, xlsx_marks

SUFFIXES = (".xlsx", ".xlsm", ".ods")
"""File names this reader is chosen for."""

_RESAVE = ("open it in your spreadsheet and save it again as .xlsx or .ods (or download it "
           "again: File › Download › Microsoft Excel (.xlsx) in Google Sheets)")


def _blank(value: Any) -> bool:
    return isinstance(value, str) and not value.strip()


def _header_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        return value.isoformat() if not isinstance(value, datetime.timedelta) else str(value)
    return str(value)


def _open(path: Path, display: str):
    if not path.is_file():
        raise DataError("file not found", location=Location(display),
                        hint="check the 'table' path in game.toml; it is relative to the game folder",
                        rule="schema.file")
    try:
        return python_calamine.CalamineWorkbook.from_path(str(path))
    except python_calamine.PasswordError:
        raise DataError("the workbook is protected by a password", location=Location(display),
                        hint="save a copy without the password", rule="schema.file") from None
    except (python_calamine.CalamineError, OSError, ValueError) as exc:
        raise DataError(f"this file cannot be read as a {path.suffix.lower()} workbook ({exc})",
                        location=Location(display), hint=_RESAVE, rule="schema.file") from None


def _pick_sheet(book, path: Path, display: str, sheet: str | None) -> str:
    names = list(book.sheet_names)
    if sheet is None:
        if len(names) == 1:
            return names[0]
        raise DataError(f"{path.name} has {len(names)} sheets and game.toml names none",
                        location=Location(display), rule="schema.sheet",
                        hint=f'name the sheet to read: table = {{ file = "{path.name}", sheet = "{names[0]}" }}; '
                        "the sheets: " + ", ".join(names))
    if sheet not in names:
        raise DataError(f"{path.name} has no sheet {sheet!r}", location=Location(display), rule="schema.sheet",
                        hint=did_you_mean(sheet, names, "its sheets: " + ", ".join(names)))
    return sheet


def _marks(path: Path, display: str, sheet: str) -> SheetMarks:
    try:
        if path.suffix.lower() == ".ods":
            return ods_marks(path, sheet)
        return xlsx_marks(path, sheet)
    except (KeyError, zipfile.BadZipFile, ElementTree.ParseError, ValueError) as exc:
        raise DataError(f"the workbook's sheet {sheet!r} cannot be read ({exc})", location=Location(display),
                        hint=_RESAVE, rule="schema.file") from None


def _within(ranges: list[tuple[int, int]], first: int, last: int) -> list[int]:
    out: set[int] = set()
    for low, high in ranges:
        out.update(range(max(low, first), min(high, last) + 1))
    return sorted(out)


def read_workbook(path: Path, display: str | None = None, *, sheet: str | None = None) -> RawTable:
    """Read sheet ``sheet`` of the workbook at ``path`` (None: its only sheet) into a
    :class:`RawTable` whose lines are the sheet's rows and whose cells keep their types.

    ``display`` is the path shown in messages. Raises DataError (rule ``schema.file``) for a
    missing, corrupt or protected workbook, a blank or duplicate header name, or a value in a
    column with no header; rule ``schema.sheet`` for a sheet the workbook does not have (with
    a did-you-mean), or no sheet named in a workbook of several.
    """
    display = display or str(path)
    book = _open(path, display)
    try:
        name = _pick_sheet(book, path, display, sheet)
        try:
            data = book.get_sheet_by_name(name)
            rows = data.to_python(skip_empty_area=True)
            start = data.start or (0, 0)
            merged = data.merged_cell_ranges
        except python_calamine.CalamineError as exc:
            raise DataError(f"the sheet {name!r} cannot be read ({exc})", location=Location(display),
                            hint=_RESAVE, rule="schema.file") from None
    finally:
        book.close()
    marks = _marks(path, display, name)
    if merged is not None:  # .xlsx: calamine's; .ods: the XML's
        marks.merged = [(r0 + 1, c0 + 1, r1 + 1, c1 + 1) for (r0, c0), (r1, c1) in merged]
    first_row, first_col = start[0] + 1, start[1] + 1

    def where(line: int, col: int | None = None, column: str | None = None) -> Location:
        return Location(display, line, col, column, name)

    header: list[str] | None = None
    header_line = first_row
    records: list[RawRecord] = []
    blank: list[int] = []
    trimmed: list[str] = []
    width = 0
    errors_by_row: dict[int, list[tuple[int, str]]] = {}
    for (row, col), code in marks.errors.items():
        errors_by_row.setdefault(row, []).append((col, code))
    for index, cells in enumerate(rows):
        line = first_row + index
        cells = list(cells)
        for col, code in errors_by_row.get(line, ()):
            if 0 <= col - first_col < len(cells):
                cells[col - first_col] = FormulaError(code)
        if all(_blank(c) for c in cells):
            if header is not None:
                blank.append(line)
            continue
        if header is None:
            header_line = line
            header = _read_header(cells, where, line, first_col, trimmed)
            width = len(header)
            continue
        extra = next((i for i in range(width, len(cells)) if not _blank(cells[i])), None)
        if extra is not None:
            col = first_col + extra
            raise DataError(f"cell {cell_name(line, col)} holds {_header_text(cells[extra])!r}, but its column "
                            "has no name in the header row", location=where(line, col), rule="schema.file",
                            hint="name the column in the header row, or clear the cell")
        cells = cells[:width] + [""] * (width - len(cells))
        records.append(RawRecord(line, cells, [line] * width))
    if header is None:
        raise DataError("the sheet is empty: no header row", location=where(1), rule="schema.file",
                        hint="the first row with values must name the columns")
    last_row = records[-1].line if records else header_line
    read = {record.line for record in records}  # a hidden blank row is only skipped, as any blank row
    last_col = first_col + width - 1
    return RawTable(path, display, header, records, ",", blank, trimmed, sheet=name, first_column=first_col,
                    header_line=header_line, merged=marks.merged,
                    hidden_rows=[r for r in _within(marks.hidden_rows, header_line, last_row) if r in read],
                    hidden_columns=_within(marks.hidden_columns, first_col, last_col))


def _read_header(cells: list[Any], where, line: int, first_col: int, trimmed: list[str]) -> list[str]:
    while len(cells) > 1 and _blank(cells[-1]):  # formatting can reach past the last named column
        cells = cells[:-1]
    names: list[str] = []
    seen: dict[str, int] = {}
    for index, value in enumerate(cells):
        col = first_col + index
        if isinstance(value, FormulaError):
            raise DataError(f"the header cell holds a formula error {value.code or '(no saved result)'}",
                            location=where(line, col), rule="schema.file",
                            hint="every column needs a name typed as text")
        raw = _header_text(value)
        name = raw.strip()
        if name != raw:
            trimmed.append(name)
        if not name:
            raise DataError("this header cell is blank", location=where(line, col), rule="schema.file",
                            hint="every column needs a name; delete the empty column or name it")
        if name in seen:
            raise DataError(f"column name {name!r} appears twice (cells {cell_name(line, seen[name])} and "
                            f"{cell_name(line, col)})", location=where(line, col, name), rule="schema.file",
                            hint="rename or delete one of the two columns")
        seen[name] = col
        names.append(name)
    return names
