"""The game as `pnp` holds it: components in manifest order, each with its typed rows.

A game folder's manifest (``game.toml``) declares components; a component with a table has a
CSV file whose rows become :class:`Row` objects with typed values. :mod:`pnp.model.load` reads
a folder into a :class:`Game`; docs/game-format.md describes the format for designers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..core import tomlcache, units
from ..core.errors import Location, Problem
from ..core.tomlpos import line_of

COMPONENT_KINDS = ("deck", "board", "tokens", "die", "table", "rulebook")
"""deck: cards; board: a board or player board; tokens: tokens, standees, cubes, workers;
die: a printable die; table: reference data with no physical piece; rulebook: the rulebook."""


TRANSLATABLE_TYPES = ("str", "text")
"""Column types whose cells may be declared ``translatable``."""

COLUMN_TYPES = ("id", "str", "text", "int", "float", "bool", "enum", "list", "ref", "color",
                "length", "path")


@dataclass(frozen=True)
class ColumnSpec:
    """How one CSV column is read: its type and the constraints on its values.

    ``ref`` names another component (its id column is the target) for type ``ref``, or for the
    items of a ``list`` whose items must be ids of that component. ``default`` fills blank cells.
    """

    name: str
    type: str
    required: bool = True
    values: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    ref: str | None = None
    separator: str = ";"
    description: str = ""
    default: Any = None
    """The typed value a blank cell takes (None: blank stays None)."""
    translatable: bool = False
    """The cells are words for players, kept per language in the game's catalogues (only
    ``str`` and ``text`` columns; docs/translating.md)."""


class CellPlaces(Mapping[str, tuple[int, int]]):
    """Where each cell of one row is: column name -> (line, 1-based column number).

    ``numbers`` is the table's, shared by all its rows: column name -> (index into ``lines``,
    column number). ``lines`` is the line each cell starts on, in the order of ``numbers``, or
    one int when every cell starts on the same line (a cell holding a line break moves the
    cells after it down). A row keeps one small object instead of a dict of pairs: 12,800
    rows of 17 columns held 27 MB of them."""

    __slots__ = ("_numbers", "_lines")

    def __init__(self, numbers: Mapping[str, tuple[int, int]], lines: int | tuple[int, ...]):
        self._numbers = numbers
        self._lines = lines

    def __getitem__(self, name: str) -> tuple[int, int]:
        index, number = self._numbers[name]
        lines = self._lines
        return (lines if type(lines) is int else lines[index]), number

    def __contains__(self, name: object) -> bool:
        return name in self._numbers

    def __iter__(self) -> Iterator[str]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)

    def __repr__(self) -> str:
        return f"CellPlaces({dict(self)!r})"


@dataclass
class Row:
    """One typed row of a table. ``values`` maps column name to a typed value (None when blank)."""

    component: str
    id: str | None
    values: dict[str, Any]
    file: str
    line: int
    columns: Mapping[str, tuple[int, int]]
    """column name -> (line, 1-based column number) of its cell (a :class:`CellPlaces`)."""
    copies: int = 1
    sheet: str | None = None
    """The workbook sheet the row is on (``file`` is the workbook, ``line`` the sheet's row)."""

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The typed value of a column, or ``default`` when it is blank or absent."""
        value = self.values.get(key)
        return default if value is None else value

    @property
    def place(self) -> str:
        """The row in words: ``line 7`` of a CSV file, ``row 7`` of a sheet."""
        return f"{'row' if self.sheet else 'line'} {self.line}"

    def location(self, column: str | None = None) -> Location:
        """The file, line and column of this row, or of one of its cells."""
        if column and column in self.columns:
            line, col = self.columns[column]
            return Location(self.file, line, col, column, self.sheet)
        return Location(self.file, self.line, sheet=self.sheet)


@dataclass
class Component:
    """One kind of thing in the box (a deck, a board, a token sheet, a reference table).

    ``rows`` are the table's typed rows (empty without a table). For a component with a
    ``copies_column`` each row is a piece with its copy count; otherwise ``copies`` identical
    pieces exist and the rows describe them (a board's spaces, a player board's tracks).
    """

    id: str
    kind: str
    name: str
    table: Path | None
    table_display: str | None
    columns: dict[str, ColumnSpec]
    id_column: str | None
    copies_column: str | None
    copies: int
    card_size: units.Size | None = None
    card_size_name: str | None = None
    back: str | None = None
    back_column: str | None = None
    layout: str | None = None
    layout_column: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    """Every other manifest key of the component, for the stages that use it (board size ...)."""
    rows: list[Row] = field(default_factory=list)
    blank_rows: list[int] = field(default_factory=list)
    """Lines of rows skipped because every cell was blank."""
    trimmed_headers: list[str] = field(default_factory=list)
    """Header names that had spaces around them in the file."""
    sheet: str | None = None
    """The sheet of a workbook table: the one game.toml names, and once the table is read the
    one read (a workbook's only sheet when game.toml names none); None for a CSV table."""
    encoding: str | None = None
    """The text encoding of a CSV table, as game.toml states it (None: the command line's)."""
    delimiter: str | None = None
    """The delimiter of a CSV table, as game.toml states it (None: the command line's, or
    detected)."""
    table_findings: list = field(default_factory=list)
    """Findings reading the table made that do not stop it loading (hidden rows or columns of
    a sheet), :class:`pnp.core.findings.Finding` objects that ``pnp check`` reports."""

    @property
    def table_name(self) -> str | None:
        """How messages name the table: its file (``g/cards.csv``), and a workbook's sheet
        (``g/cards.xlsx › Creatures``)."""
        if self.table_display and self.sheet:
            return f"{self.table_display} › {self.sheet}"
        return self.table_display

    def table_location(self, line: int | None = None, column: int | None = None,
                       column_name: str | None = None) -> Location:
        """A place in the component's table: its file, with its sheet when it has one."""
        return Location(self.table_display or "", line, column, column_name, self.sheet)

    @property
    def pieces(self) -> int:
        """Physical pieces of this component: the sum of copies, or ``copies``; 0 for a table."""
        if self.kind in ("table",):
            return 0
        if self.copies_column:
            return sum(row.copies for row in self.rows)
        return self.copies

    def count(self, where: Mapping[str, Any] | None = None) -> int:
        """How many pieces of this component have the values ``where`` gives, the one meaning of
        "count" for stated totals, ``rules.toml`` expressions and rulebook templates.

        ``where`` maps a column (or ``id`` or ``copies``) to a value, or to a list or tuple of
        values any of which matches. Matching rows count their copies when the component has a
        copies column, else one each. With nothing to filter, every piece in the box; a
        reference table (kind ``table``), which has no pieces, counts its rows. Raises Problem
        for a filter on a component without a table.
        """
        if not where:
            if self.kind == "table" and self.table is not None:
                return sum(row.copies if self.copies_column else 1 for row in self.rows)
            return self.pieces
        if self.table is None:
            raise Problem(f"{self.id} has no table to filter")
        n = 0
        for row in self.rows:
            if all(_matches(_cell(row, col), want) for col, want in where.items()):
                n += row.copies if self.copies_column else 1
        return n

    def by_id(self) -> dict[str, Row]:
        """Rows keyed by id (only for a component with an id column)."""
        return {row.id: row for row in self.rows if row.id is not None}

    def back_of(self, row: Row) -> str | None:
        """The back name a row's card uses: its back column's value, or the deck's back."""
        if self.back_column:
            return row.get(self.back_column)
        return self.back

    def layout_of(self, row: Row) -> str | None:
        """The face layout name a row's card uses."""
        if self.layout_column:
            return row.get(self.layout_column)
        return self.layout


@dataclass(frozen=True)
class StatedTotal:
    """A count the rulebook states ("43 Hero cards"), with the rulebook section it comes from.

    ``where`` restricts the count to rows whose columns equal the given values.
    """

    component: str
    count: int
    label: str
    source: str
    where: tuple[tuple[str, Any], ...] = ()


@dataclass
class Game:
    """A whole game folder: manifest fields, components in manifest order, stated totals."""

    id: str
    title: str
    path: Path
    players_min: int
    players_max: int
    components: dict[str, Component]
    totals: list[StatedTotal]
    manifest: dict[str, Any]
    display_root: str
    version: str | None = None
    """``[game] version``: what the version stamp prints and a release is named by."""
    stamp: bool = False
    """``[build] stamp``: home sheets print the version stamp unless a build says otherwise."""
    contact_sheets: bool = False
    """``[build] contact_sheets``: a build writes the contact sheets unless it says otherwise."""
    _key_lines: dict[str, int] | None = field(default=None, repr=False, compare=False)
    languages: tuple[str, ...] = ()
    """The languages the game is published in (``[game] languages``), the source language
    first; empty for a game in one language."""
    language: str | None = None
    """The language this game's texts are in when it was translated (:mod:`pnp.model.i18n`);
    None: as written in the tables."""
    translations: Any = field(default=None, repr=False, compare=False)
    """The catalogue of :attr:`language` (a :class:`pnp.model.catalogue.Catalogue`), for
    templates to translate through; None for the source."""

    @property
    def file_stem(self) -> str:
        """What output file names start with: the game id, with the language code after it in
        a build of one language (``atomic-assembly-de``)."""
        return f"{self.id}-{self.language}" if self.language else self.id

    def __iter__(self) -> Iterator[Component]:
        return iter(self.components.values())

    def key_location(self, key: str | None = None) -> Location:
        """Where a dotted key of game.toml is written (``components.tokens.shape``), with its
        line (or its table's, for a key not written); None: the file."""
        if self._key_lines is None:
            try:
                text = (self.path / "game.toml").read_text(encoding="utf-8-sig")
            except OSError:
                text = ""
            self._key_lines = tomlcache.key_lines(text)
        display = f"{self.display_root}/game.toml"
        return Location(display, line_of(self._key_lines, key), None, key) if key else Location(display)

    @property
    def pieces(self) -> int:
        """All physical pieces in the box."""
        return sum(c.pieces for c in self)

    def count(self, total: StatedTotal) -> int:
        """How many pieces the data holds for a stated total (:meth:`Component.count`)."""
        return self.components[total.component].count(dict(total.where))


def _cell(row: Row, column: str) -> Any:
    """A row's value of ``column``; ``id`` and ``copies`` are the row's own when no column has
    that name."""
    if column in row.values:
        return row.values[column]
    if column == "id":
        return row.id
    if column == "copies":
        return row.copies
    return None


def _matches(value: Any, want: Any) -> bool:
    return value == want or (isinstance(want, (list, tuple)) and not isinstance(value, (list, tuple))
                             and value in want)
