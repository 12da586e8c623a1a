"""Workbooks for the tests, written as spreadsheets save them: .xlsx with openpyxl, .ods with
odfpy (both test-only dependencies, pinned in constraints.txt).

A sheet is a list of rows; a cell is text, a number, a bool, a date, ``None`` (blank), or one of
the markers below for what a real spreadsheet saves and a plain value cannot say: a formula with
its saved result (:class:`Formula`) or with an error result (:class:`Error`).
:func:`game_as_workbook` turns a game folder's CSV tables into one workbook beside them, each
cell typed as game.toml declares its column, and points game.toml at its sheets.
"""

from __future__ import annotations

import csv
import datetime
import re
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import CoveredTableCell, Table, TableCell, TableColumn, TableRow
from odf.text import P

from pnp.model.cells import FALSE_WORDS, TRUE_WORDS


@dataclass(frozen=True)
class Formula:
    """A formula cell and the result the spreadsheet saved with it (None: no saved result, as
    programs that do not calculate write it)."""

    formula: str
    result: object = None


@dataclass(frozen=True)
class Error:
    """A formula whose saved result is an error such as ``#DIV/0!``."""

    formula: str
    code: str = "#DIV/0!"


@dataclass
class Sheet:
    """One sheet: its rows, merged ranges (``"C2:C3"``), hidden rows (1-based) and hidden
    column letters."""

    rows: list[list]
    merged: list[str] = field(default_factory=list)
    hidden_rows: list[int] = field(default_factory=list)
    hidden_columns: list[str] = field(default_factory=list)


def _ref(ref: str) -> tuple[int, int]:
    letters, digits = re.match(r"([A-Z]+)([0-9]+)", ref).groups()
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    return int(digits), col


def write_xlsx(path: Path, sheets: dict[str, Sheet]) -> Path:
    """Write ``sheets`` as an .xlsx workbook. openpyxl saves a formula without a result, so a
    :class:`Formula` with a result is written into the sheet's XML afterwards, as Excel saves
    one (``<f>`` and its cached ``<v>``)."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    results: dict[tuple[str, str], object] = {}
    for name, sheet in sheets.items():
        ws = book.create_sheet(name)
        for r, row in enumerate(sheet.rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                cell = ws.cell(r, c)
                if isinstance(value, Formula):
                    cell.value = "=" + value.formula
                    if value.result is not None:
                        results[(name, cell.coordinate)] = value.result
                elif isinstance(value, Error):
                    cell.value = value.code  # openpyxl writes a known error code as an error cell
                else:
                    cell.value = value
                    if isinstance(value, datetime.date):
                        cell.number_format = "yyyy-mm-dd"
        for ref in sheet.merged:
            ws.merge_cells(ref)
        for r in sheet.hidden_rows:
            ws.row_dimensions[r].hidden = True
        for letter in sheet.hidden_columns:
            ws.column_dimensions[letter].hidden = True
    book.save(path)
    if results:
        _cache_results(path, list(sheets), results)
    return path


def _cache_results(path: Path, names: list[str], results: dict[tuple[str, str], object]) -> None:
    with zipfile.ZipFile(path) as src:
        members = {info.filename: src.read(info) for info in src.infolist()}
    for (name, coord), value in results.items():
        part = f"xl/worksheets/sheet{names.index(name) + 1}.xml"
        text = members[part].decode("utf-8")
        kind = ' t="str"' if isinstance(value, str) else ""
        text = re.sub(rf'<c r="{coord}"([^>]*)><f>(.*?)</f><v\s*/?>(</v>)?',
                      lambda m: f'<c r="{coord}"{m.group(1)}{kind}><f>{m.group(2)}</f><v>{value}</v>', text)
        members[part] = text.encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(name, data)


def _ods_cell(value) -> TableCell:
    if value is None:
        return TableCell()
    if isinstance(value, Error):  # as LibreOffice saves an error result
        cell = TableCell(formula="of:=" + value.formula, valuetype="string", stringvalue="")
        cell.setAttrNS("urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0",
                       "value-type", "error")
        cell.addElement(P(text=value.code))
        return cell
    formula = None
    if isinstance(value, Formula):
        formula, value = "of:=" + value.formula, value.result
        if value is None:
            return TableCell(formula=formula)
    extra = {"formula": formula} if formula else {}
    if isinstance(value, bool):
        cell = TableCell(valuetype="boolean", booleanvalue="true" if value else "false", **extra)
        text = "TRUE" if value else "FALSE"
    elif isinstance(value, (int, float)):
        cell = TableCell(valuetype="float", value=repr(value), **extra)
        text = repr(value)
    elif isinstance(value, datetime.date):
        cell = TableCell(valuetype="date", datevalue=value.isoformat(), **extra)
        text = value.isoformat()
    else:
        cell = TableCell(valuetype="string", **extra)
        text = str(value)
    for i, line in enumerate(text.split("\n")):
        cell.addElement(P(text=line))
    return cell


def write_ods(path: Path, sheets: dict[str, Sheet]) -> Path:
    """Write ``sheets`` as an .ods workbook (merged ranges as spanned and covered cells, hidden
    rows and columns collapsed, as LibreOffice saves them)."""
    doc = OpenDocumentSpreadsheet()
    for name, sheet in sheets.items():
        table = Table(name=name)
        width = max((len(r) for r in sheet.rows), default=1)
        hidden = {_ref(letter + "1")[1] for letter in sheet.hidden_columns}
        for c in range(1, width + 1):
            table.addElement(TableColumn(visibility="collapse") if c in hidden else TableColumn())
        spans = {}
        covered = set()
        for ref in sheet.merged:
            first, last = (_ref(part) for part in ref.split(":"))
            spans[first] = (last[0] - first[0] + 1, last[1] - first[1] + 1)
            covered |= {(r, c) for r in range(first[0], last[0] + 1) for c in range(first[1], last[1] + 1)} - {first}
        for r, row in enumerate(sheet.rows, start=1):
            tr = TableRow(visibility="collapse") if r in sheet.hidden_rows else TableRow()
            for c in range(1, width + 1):
                if (r, c) in covered:
                    tr.addElement(CoveredTableCell())
                    continue
                cell = _ods_cell(row[c - 1] if c <= len(row) else None)
                if (r, c) in spans:
                    cell.setAttribute("numberrowsspanned", str(spans[(r, c)][0]))
                    cell.setAttribute("numbercolumnsspanned", str(spans[(r, c)][1]))
                tr.addElement(cell)
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))
    return path


def _typed(text: str, kind: str):
    """A CSV cell as a spreadsheet holds it when its column is ``kind``: numbers and yes/no as
    numbers and booleans, everything else as text."""
    if text.strip() == "":
        return None
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "bool" and text.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return text.strip().lower() in TRUE_WORDS
    return text


def game_as_workbook(game_dir: Path, suffix: str = ".xlsx", name: str = "tables",
                     components: list[str] | None = None) -> Path:
    """Write every CSV table of the game at ``game_dir`` (or those of ``components``) as one
    sheet (named after its component) of ``<name><suffix>`` beside them, and point game.toml
    at the sheets."""
    manifest_path = game_dir / "game.toml"
    text = manifest_path.read_text(encoding="utf-8")
    manifest = tomllib.loads(text)
    sheets: dict[str, Sheet] = {}
    for cid, comp in manifest["components"].items():
        table = comp.get("table")
        if not table or (components is not None and cid not in components):
            continue
        columns = {col: (spec if isinstance(spec, str) else spec["type"]) for col, spec in comp["columns"].items()}
        with open(game_dir / table, newline="", encoding="utf-8-sig") as fh:
            rows = list(csv.reader(fh))
        header = rows[0]
        typed = [header] + [[_typed(cell, columns.get(col, "str")) for col, cell in zip(header, row)]
                            for row in rows[1:] if any(cell.strip() for cell in row)]
        sheets[cid] = Sheet(typed)
        old = f'table = "{table}"'
        assert text.count(old) == 1, f"{table} is named more than once in game.toml"
        text = text.replace(old, f'table = {{ file = "{name}{suffix}", sheet = "{cid}" }}')
    path = game_dir / f"{name}{suffix}"
    (write_ods if suffix == ".ods" else write_xlsx)(path, sheets)
    manifest_path.write_text(text, encoding="utf-8")
    return path
