"""Reading CSV files as spreadsheets export them, keeping where every cell came from.

Accepted: UTF-8 with or without a byte-order mark; LF, CRLF or CR line endings; quoted cells that
hold real line breaks; comma or semicolon delimiters (semicolon is taken when the header line has
semicolons and no commas, as European spreadsheets export). Rows whose cells are all blank are
skipped and counted (:attr:`RawTable.blank_rows`), never silently. Anything else that cannot be
read raises :class:`pnp.core.errors.DataError` naming the file, line and column.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ...core.errors import DataError, Location
from .base import RawRecord, RawTable

csv.field_size_limit(16 * 1024 * 1024)  # a cell may hold a long rules text; 16 MB is plenty

BOM = b"\xef\xbb\xbf"
SUFFIXES = (".csv", ".tsv", ".txt")
"""File names this reader is chosen for; it also reads any table no other reader claims."""


def _count_breaks(text: str) -> int:
    """Line breaks in a cell's text: CRLF, CR and LF count one each."""
    if "\n" not in text and "\r" not in text:
        return 0  # most cells: one line
    return text.count("\r\n") + (text.count("\r") - text.count("\r\n")) + (
        text.count("\n") - text.count("\r\n")
    )


def decode(data: bytes, display: str, encoding: str = "utf-8") -> str:
    """Decode a file's bytes; a UTF-8 byte-order mark is dropped.

    Raises DataError naming the line and byte offset of the first byte that does not decode.
    """
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if data[:4] == b"PK\x03\x04":
        raise DataError("this is a spreadsheet workbook (.xlsx or .ods), not a CSV file",
                        location=Location(display),
                        hint="export the sheet as CSV: File > Save As (or Download) > CSV UTF-8",
                        rule="schema.file")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") and encoding.lower().replace("-", "") == "utf8":
        raise DataError("the file is UTF-16 text (Excel's 'Unicode Text'), not UTF-8",
                        location=Location(display),
                        hint="save the sheet as 'CSV UTF-8', or pass --encoding utf-16",
                        rule="schema.file")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.start + 1]
        raise DataError(
            f"byte 0x{bad.hex()} at byte offset {exc.start} is not valid {encoding}",
            location=Location(display, line),
            hint="save the sheet as 'CSV UTF-8' (Excel: File > Save As > CSV UTF-8; "
            "LibreOffice: Character set Unicode (UTF-8)), or read it as it is with --encoding cp1252 "
            "(older Excel on Windows)",
            rule="schema.file",
        ) from None
    except (LookupError, UnicodeError):
        raise DataError(f"unknown text encoding {encoding!r}", location=Location(display),
                        hint="for example utf-8, cp1252, latin-1, utf-16",
                        rule="schema.file") from None


def read_csv(
    path: Path,
    display: str | None = None,
    *,
    encoding: str = "utf-8",
    delimiter: str | None = None,
) -> RawTable:
    """Read ``path`` into a :class:`RawTable`.

    ``display`` is the path shown in messages (defaults to ``path``). ``delimiter`` forces one;
    by default it is detected from the header line. Raises DataError for an unreadable file, a
    missing or empty header, blank or duplicate header names, a row with more or fewer cells than
    the header, or malformed quoting.
    """
    display = display or str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataError("file not found", location=Location(display),
                        hint="check the 'table' path in game.toml; it is relative to the game folder",
                        rule="schema.file") from None
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror}", location=Location(display),
                        rule="schema.file") from None
    text = decode(data, display, encoding)
    text_lines = text.splitlines()
    skip_sep = 0
    if text_lines and text_lines[0].strip().lower().startswith("sep=") and len(text_lines[0].strip()) == 5:
        # Excel writes "sep=;" as the first line to name the delimiter
        delimiter = delimiter or text_lines[0].strip()[4]
        skip_sep = 1
        text = text.split("\n", 1)[1] if "\n" in text else ""
    if delimiter is None:
        first = next((ln for ln in text_lines[skip_sep:] if ln.strip()), "")
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        delimiter = max(counts, key=lambda d: (counts[d], d == ","))
        if counts[delimiter] == 0:
            delimiter = ","
    if len(delimiter) != 1:
        raise DataError(f"the delimiter {delimiter!r} is not one character", location=Location(display),
                        hint="use --delimiter ';' or --delimiter tab",
                        rule="schema.file")

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    records: list[RawRecord] = []
    blank: list[int] = []
    trimmed: list[str] = []
    last_line = skip_sep
    while True:
        start = last_line + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise DataError(
                f"the CSV cannot be read here: {exc}",
                location=Location(display, start),
                hint="a quoted cell is probably not closed; check the quotes on this row",
                rule="schema.file",
            ) from None
        last_line = reader.line_num + skip_sep
        if not cells or all(not c.strip() for c in cells):
            if header is not None:
                blank.append(start)
            continue
        lines = []
        line = start
        for cell in cells:
            lines.append(line)
            line += _count_breaks(cell)
        if header is None:
            header = _read_header(cells, display, start, trimmed)
            continue
        if len(cells) > len(header) and not any(c.strip() for c in cells[len(header):]):
            cells = cells[:len(header)]  # spreadsheets export trailing empty cells
        if len(cells) != len(header):
            _wrong_width(cells, header, display, start, lines)
        records.append(RawRecord(start, cells, lines))
    if header is None:
        raise DataError("the file is empty: no header row", location=Location(display, 1),
                        hint="the first row must name the columns",
                        rule="schema.file")
    return RawTable(path, display, header, records, delimiter, blank, trimmed)


def _read_header(cells: list[str], display: str, line: int, trimmed: list[str]) -> list[str]:
    while len(cells) > 1 and not cells[-1].strip():  # spreadsheets export trailing empty columns
        cells = cells[:-1]
    names: list[str] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(cells, start=1):
        name = raw.strip()
        if name != raw:
            trimmed.append(name)
        if not name:
            raise DataError(
                "this header cell is blank",
                location=Location(display, line, index),
                hint="every column needs a name; delete the empty column or name it",
                rule="schema.file",
            )
        if name in seen:
            raise DataError(
                f"column name {name!r} appears twice (columns {seen[name]} and {index})",
                location=Location(display, line, index, name),
                hint="rename or delete one of the two columns",
                rule="schema.file",
            )
        seen[name] = index
        names.append(name)
    return names


def _wrong_width(cells, header, display, line, lines) -> None:
    if len(cells) > len(header):
        col = len(header) + 1
        extra = cells[len(header)]
        raise DataError(
            f"this row has {len(cells)} cells but the header names {len(header)} columns "
            f"(extra value {extra!r})",
            location=Location(display, lines[len(header)], col),
            hint="a cell probably holds an unquoted comma; put quotes around it",
            rule="schema.file",
        )
    missing = header[len(cells)]
    raise DataError(
        f"this row has {len(cells)} cells but the header names {len(header)} columns "
        f"(no value for {missing!r})",
        location=Location(display, line, len(cells) + 1, missing),
        hint="add the missing cells (they may be empty where the column allows it)",
        rule="schema.file",
    )
