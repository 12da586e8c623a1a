"""What a workbook's cell values leave out, read from its XML: error results of formulas, formulas
with no saved result, hidden rows and columns and (for OpenDocument) merged cells.

python-calamine reads the values of a sheet (:mod:`pnp.model.readers.workbook`), but gives a
formula's error result (``#DIV/0!``) as an empty cell, and does not say which rows or columns
are hidden, nor (for .ods) which cells are merged. Both formats are zip files of XML: Office
Open XML (.xlsx, .xlsm; ECMA-376 Part 1, SpreadsheetML ``row/@hidden``, ``col/@hidden``,
``c/@t="e"``) and OpenDocument (.ods; OASIS ODF 1.2 Part 1, ``table:visibility``,
``table:number-*-spanned``, and LibreOffice's ``calcext:value-type="error"``). The XML is read as
a stream, element by element, so a large sheet costs no more memory than its widest row.

Coordinates here are 1-based sheet rows and columns; a range is ``(first, last)`` inclusive.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree

_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_CALCEXT = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_CELL_RE = re.compile(r"([A-Z]+)([0-9]+)\Z")
_REPEAT_CAP = 10_000
"""Repeated cells of one .ods element looked at one by one (LibreOffice repeats blank cells to
the sheet's last column; an error or formula is never repeated that far)."""


@dataclass
class SheetMarks:
    """What the values of one sheet do not show.

    ``errors`` maps (row, column) to a formula's error code, or to "" for a formula with no
    saved result. ``hidden_rows`` and ``hidden_columns`` are ranges; ``merged`` holds
    (first row, first column, last row, last column) of each merged region (.ods only: calamine
    gives those of .xlsx).
    """

    errors: dict[tuple[int, int], str] = field(default_factory=dict)
    hidden_rows: list[tuple[int, int]] = field(default_factory=list)
    hidden_columns: list[tuple[int, int]] = field(default_factory=list)
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _attr(elem, name: str) -> str | None:
    """An attribute by its local name, whatever its namespace (transitional or strict OOXML)."""
    for key, value in elem.attrib.items():
        if _local(key) == name:
            return value
    return None


def column_number(letters: str) -> int:
    """1-based column of spreadsheet letters: ``A`` -> 1, ``AA`` -> 27."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - ord("A") + 1
    return n


def _truthy(value: str | None) -> bool:
    return value in ("1", "true")


def _xlsx_sheet_part(book: zipfile.ZipFile, sheet: str) -> str | None:
    """The zip member holding worksheet ``sheet``, found through the workbook's relationships."""
    workbook = "xl/workbook.xml"
    try:
        rels = ElementTree.fromstring(book.read("_rels/.rels"))
        for rel in rels:
            if (_attr(rel, "Type") or "").endswith("/officeDocument"):
                workbook = (_attr(rel, "Target") or workbook).lstrip("/")
    except KeyError:
        pass
    root = ElementTree.fromstring(book.read(workbook))
    rel_id = None
    for elem in root.iter():
        if _local(elem.tag) == "sheet" and _attr(elem, "name") == sheet:
            rel_id = elem.attrib.get(f"{{{_REL}}}id") or _attr(elem, "id")
    if rel_id is None:
        return None
    folder, name = posixpath.split(workbook)
    rels = ElementTree.fromstring(book.read(posixpath.join(folder, "_rels", name + ".rels")))
    for rel in rels:
        if _attr(rel, "Id") == rel_id:
            target = _attr(rel, "Target") or ""
            return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
    return None


def xlsx_marks(path, sheet: str) -> SheetMarks:
    """The marks of worksheet ``sheet`` of an Office Open XML workbook. Raises KeyError,
    zipfile.BadZipFile or ElementTree.ParseError for a file that is not one."""
    marks = SheetMarks()
    with zipfile.ZipFile(path) as book:
        part = _xlsx_sheet_part(book, sheet)
        if part is None:
            return marks
        with book.open(part) as stream:
            row_no = 0
            col_no = 0
            for event, elem in ElementTree.iterparse(stream, events=("start", "end")):
                tag = _local(elem.tag)
                if event == "start":
                    if tag == "row":
                        row_no = int(_attr(elem, "r") or row_no + 1)
                        col_no = 0
                        if _truthy(_attr(elem, "hidden")):
                            marks.hidden_rows.append((row_no, row_no))
                    continue
                if tag == "col" and _truthy(_attr(elem, "hidden")):
                    marks.hidden_columns.append((int(_attr(elem, "min") or 1), int(_attr(elem, "max") or 1)))
                elif tag == "c":
                    ref = _CELL_RE.match(_attr(elem, "r") or "")
                    col_no = column_number(ref.group(1)) if ref else col_no + 1
                    kind = _attr(elem, "t") or "n"
                    children = {_local(child.tag): child for child in elem}
                    value = children.get("v")
                    if kind == "e":
                        marks.errors[(row_no, col_no)] = (value.text or "").strip() if value is not None else ""
                    elif "f" in children and kind not in ("str", "s", "inlineStr") and (
                            value is None or not (value.text or "").strip()):
                        marks.errors[(row_no, col_no)] = ""
                    elem.clear()
                elif tag == "row":
                    elem.clear()
    return marks


def _int(elem, name: str) -> int:
    try:
        return max(1, int(elem.attrib.get(f"{{{_TABLE}}}{name}", "1")))
    except ValueError:
        return 1


def ods_marks(path, sheet: str) -> SheetMarks:
    """The marks of table ``sheet`` of an OpenDocument spreadsheet. Raises KeyError,
    zipfile.BadZipFile or ElementTree.ParseError for a file that is not one."""
    marks = SheetMarks()
    inside = False
    row_no = 1  # the next row's number
    col_def = 1  # the next column definition's number
    col_no = 1  # the next cell's column in the current row
    repeat = 1
    with zipfile.ZipFile(path) as book, book.open("content.xml") as stream:
        for event, elem in ElementTree.iterparse(stream, events=("start", "end")):
            tag = _local(elem.tag)
            if tag == "table" and elem.tag == f"{{{_TABLE}}}table":
                if event == "start":
                    inside = elem.attrib.get(f"{{{_TABLE}}}name") == sheet
                elif inside:
                    break
                continue
            if not inside:
                if event == "end" and tag == "table-row":
                    elem.clear()
                continue
            if event == "start":
                if tag == "table-row":
                    repeat = _int(elem, "number-rows-repeated")
                    col_no = 1
                    if elem.attrib.get(f"{{{_TABLE}}}visibility", "visible") != "visible":
                        marks.hidden_rows.append((row_no, row_no + repeat - 1))
                elif tag == "table-column":
                    n = _int(elem, "number-columns-repeated")
                    if elem.attrib.get(f"{{{_TABLE}}}visibility", "visible") != "visible":
                        marks.hidden_columns.append((col_def, col_def + n - 1))
                    col_def += n
                continue
            if tag in ("table-cell", "covered-table-cell"):
                n = _int(elem, "number-columns-repeated")
                if tag == "table-cell":
                    _ods_cell(elem, marks, row_no, col_no, min(n, _REPEAT_CAP))
                col_no += n
                elem.clear()
            elif tag == "table-row":
                row_no += repeat
                elem.clear()
    return marks


def _ods_cell(elem, marks: SheetMarks, row: int, col: int, repeat: int) -> None:
    rows, cols = _int(elem, "number-rows-spanned"), _int(elem, "number-columns-spanned")
    if rows > 1 or cols > 1:
        marks.merged.append((row, col, row + rows - 1, col + cols - 1))
    code = None
    if elem.attrib.get(f"{{{_CALCEXT}}}value-type") == "error":
        code = "".join(elem.itertext()).strip()
    elif f"{{{_TABLE}}}formula" in elem.attrib and f"{{{_OFFICE}}}value-type" not in elem.attrib:
        code = ""
    if code is not None:
        for i in range(repeat):
            marks.errors[(row, col + i)] = code
